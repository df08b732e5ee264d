"""``mnemex foundation add|approve|reject|list`` and ``mnemex sync``.

Registered onto the command tree by :func:`register`. Replacing a foundation or
approving a draft prints the plan (with its diff) and applies only with ``--yes``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from mnemex.cli.app import Context, emit, handle_errors, json_option, open_vault, pass_app

_YES = click.option("--yes", is_flag=True, help="Apply the plan (a replacement) without asking.")


def _print_plan(result: dict[str, Any], command: str) -> None:
    report = result["report"]
    if result.get("applied"):
        verb = "replaced" if result.get("replaces") else "added"
        if result.get("operation") == "approve":
            verb = "approved"
        click.echo(
            f"{verb} {result['project']}/{result['file']} "
            f"({result['bytes']} bytes, sha256 {result['sha256'][:12]})"
        )
        commit = result.get("commit", {})
        if commit.get("sha"):
            click.echo(f"  commit {commit['sha']}")
        elif commit.get("reason"):
            click.echo(f"  not committed: {commit['reason']}")
        return
    if report.get("unchanged"):
        click.echo(f"unchanged {result['project']}/{result['file']}: same bytes already filed")
        return
    if result.get("operation") == "approve":
        click.echo(
            f"draft {result['draft']} proposed by {result.get('proposed_by') or 'unknown'} "
            f"at {result.get('proposed_at') or '?'}"
        )
        if result.get("reason"):
            click.echo(f"  reason (agent text): {result['reason']}")
    replaces = result.get("replaces")
    target = f"{result['project']}/{result['file']}"
    click.echo(f"plan: {'replace' if replaces else 'add'} {target} ({result['bytes']} bytes)")
    click.echo(result.get("diff", ""), nl=False)
    if result.get("diff_omitted_lines"):
        click.echo(f"… {result['diff_omitted_lines']} more diff line(s) not shown")
    click.echo(f"nothing written: run `{command} --yes` to apply")


@click.group()
def foundation() -> None:
    """A project's canonical documents, kept byte for byte (add, approve or reject drafts, list)."""


@foundation.command("add")
@click.argument("project")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--slug", help="The foundation's slug (default: from the file's name).")
@_YES
@json_option
@pass_app
@handle_errors
def foundation_add(
    app: Context, project: str, file: Path, slug: str | None, yes: bool, as_json: bool
) -> None:
    """Add FILE verbatim as a foundation of PROJECT (a replacement shows a diff first)."""
    from mnemex.foundations.store import add_foundation

    result = add_foundation(open_vault(app), project, file, slug, apply=yes)
    command = f"mnemex foundation add {project} {file}" + (f" --slug {slug}" if slug else "")
    emit(result, as_json, lambda: _print_plan(result, command))


@foundation.command("approve")
@click.argument("project")
@click.argument("slug")
@_YES
@json_option
@pass_app
@handle_errors
def foundation_approve(app: Context, project: str, slug: str, yes: bool, as_json: bool) -> None:
    """Approve an agent's draft of SLUG: shows its diff; --yes puts it in place."""
    from mnemex.foundations.store import approve_foundation

    result = approve_foundation(open_vault(app), project, slug, apply=yes)
    command = f"mnemex foundation approve {project} {slug}"
    emit(result, as_json, lambda: _print_plan(result, command))


@foundation.command("reject")
@click.argument("project")
@click.argument("slug")
@json_option
@pass_app
@handle_errors
def foundation_reject(app: Context, project: str, slug: str, as_json: bool) -> None:
    """Reject an agent's draft of SLUG: delete it; the foundation stays as it is."""
    from mnemex.foundations.store import reject_foundation

    result = reject_foundation(open_vault(app), project, slug)
    emit(result, as_json, lambda: click.echo(f"rejected {result['rejected']} (draft deleted)"))


@foundation.command("list")
@click.argument("project")
@json_option
@pass_app
@handle_errors
def foundation_list(app: Context, project: str, as_json: bool) -> None:
    """List PROJECT's foundations (with freshness against their sources) and drafts."""
    from mnemex.foundations.store import list_drafts, list_foundations

    vault = open_vault(app)
    data: dict[str, Any] = {
        "project": project,
        "foundations": list_foundations(vault, project),
        "drafts": list_drafts(vault, project),
    }

    def text() -> None:
        if not data["foundations"]:
            click.echo(f"{project}: no foundations")
        for doc in data["foundations"]:
            fresh = {True: "fresh", False: "source changed"}.get(doc.get("fresh"), "no source")
            intact = "" if doc["intact"] else ", CHANGED OUTSIDE MNEMEX"
            click.echo(
                f"{doc['order']}. {doc['file']}  {doc['bytes']} bytes  "
                f"sha256 {str(doc['sha256'])[:12]}  {fresh}{intact}"
            )
        for draft in data["drafts"]:
            click.echo(
                f"draft {draft['slug']} by {draft.get('proposed_by')}: "
                f"`mnemex foundation approve {project} {draft['slug']}`"
            )

    emit(data, as_json, text)


@click.command()
@click.option("--remote", help="The git remote to sync with (default: origin).")
@json_option
@pass_app
@handle_errors
def sync(app: Context, remote: str | None, as_json: bool) -> None:
    """Commit the vault's changes, pull (merge) and push to your own git remote.

    Private folders and .mnemex/ never leave the machine. Fact files both machines
    changed are merged by fact id. A conflict in any other shared file keeps both
    versions (theirs as <name>.conflict-<machine>-<time>) and is reported here and by
    `mnemex doctor`.
    """
    from mnemex.facts.store import merge_fact_files
    from mnemex.vault.gitsync import sync as run_sync

    def merge(rel: str, ours: bytes, theirs: bytes) -> bytes | None:
        if not (rel.startswith("facts/") and rel.endswith(".md")):
            return None
        merged = merge_fact_files(ours.decode("utf-8"), theirs.decode("utf-8"), rel)
        return merged.encode("utf-8")

    result = run_sync(open_vault(app), remote, merge)

    def text() -> None:
        report = result["report"]
        counts = ", ".join(
            f"{report[k]} {k}"
            for k in ("created", "updated", "unchanged", "skipped", "refused", "failed")
        )
        pushed = "pushed" if result["pushed"] else "not pushed"
        click.echo(f"{counts}; {pushed} to {result['remote']}")
        for conflict in result["conflicts"]:
            kept = conflict["kept"]
            theirs = f", theirs in {conflict['theirs']}" if conflict["theirs"] else ""
            click.echo(f"conflict {conflict['path']}: kept {kept}{theirs}")
        if result["conflicts"]:
            count = len(result["conflicts"])
            click.echo(f"{count} conflict(s): merge the copies by hand, then delete them")
        listed = {c["theirs"] for c in result["conflicts"]}
        waiting = [c for c in result.get("conflict_copies", []) if c not in listed]
        if waiting:
            click.echo(
                f"{len(waiting)} earlier conflict copy(ies) still to merge: {', '.join(waiting)}"
            )
        for outcome in ("refused", "failed"):
            for problem in report["problems"].get(outcome, []):
                click.echo(f"{outcome} {problem['path']}: {problem['reason']}")
        for warning in report["warnings"]:
            if not warning["reason"].startswith("conflict:"):
                click.echo(f"warning {warning['path']}: {warning['reason']}")

    emit(result, as_json, text)
    if result["report"]["failed"] or result["report"]["refused"]:
        raise SystemExit(1)


def register(cli: click.Group) -> None:
    """Add ``foundation`` and ``sync`` to the command tree."""
    cli.add_command(foundation)
    cli.add_command(sync)


__all__ = ["foundation", "register", "sync"]
