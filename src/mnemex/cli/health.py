"""``mnemex health`` (scan, fix, dismiss, restore, history) and ``mnemex undo``.

Registered onto the command tree by :func:`register`. A fix or an undo prints
its plan (files, diff, links, deletions) and applies only with ``--yes``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from mnemex.cli.app import Context, emit, handle_errors, json_option, pass_app
from mnemex.errors import ConfigError

if TYPE_CHECKING:
    from mnemex.health import HealthReport
    from mnemex.vault import Vault

_SHOWN = 20  # issues listed per kind in the text report


def _print_report(data: dict[str, Any]) -> None:
    from mnemex.health import KINDS

    click.echo(
        f"health score {data['score']}/100: {data['total']} issue(s) in {data['pages']} notes "
        f"({data['dismissed']} dismissed), scanned in {data['seconds']:.2f}s"
    )
    for kind in KINDS:
        issues = data[kind]
        click.echo(f"{kind}: {len(issues)}")
        for issue in issues[:_SHOWN]:
            click.echo(f"  {issue['id']}  {', '.join(issue['files'])}")
            click.echo(f"      {issue['detail']}")
            if issue.get("suggestion"):
                click.echo(f"      suggestion: {issue['suggestion']}")
        if len(issues) > _SHOWN:
            click.echo(f"  … {len(issues) - _SHOWN} more (use --json for all)")
    for error in data.get("errors", []):
        click.echo(f"warning: {error} (that kind may be incomplete)", err=True)
    if data.get("model_pass"):
        mp = data["model_pass"]
        click.echo(
            f"model pass ({mp['estimate']}): {mp['same']} confirmed, {mp['different']} "
            f"ruled out, {mp['failed']} failed"
        )
    recorded = data.get("recorded")
    if recorded:
        click.echo(f"recorded in {recorded['path']}")


@click.group(invoke_without_command=True)
@click.option("--record", is_flag=True, help="Append the score to health/history (a commit).")
@click.option(
    "--kind", "kinds", multiple=True, help="Only this kind (repeatable), e.g. --kind broken_links."
)
@click.option("--no-semantic", is_flag=True, help="Skip the vector near-duplicate comparison.")
@click.option("--all", "include_dismissed", is_flag=True, help="Also list dismissed issues.")
@click.option(
    "--confirm", is_flag=True, help="Have the [model] confirm duplicate pairs (estimated first)."
)
@click.option("--yes", is_flag=True, help="Accept the model pass's estimated cost.")
@json_option
@click.pass_context
@handle_errors
def health(
    ctx: click.Context,
    record: bool,
    kinds: tuple[str, ...],
    no_semantic: bool,
    include_dismissed: bool,
    confirm: bool,
    yes: bool,
    as_json: bool,
) -> None:
    """Scan the brain for what quietly went wrong: broken links, orphans, duplicates, stale
    pages, missing backlinks, broken frontmatter, empty pages, index drift (no model)."""
    if ctx.invoked_subcommand is not None:
        return
    from mnemex.health import KINDS, record_scan, scan

    app: Context = ctx.obj
    brain = app.brain
    report = scan(
        brain.vault,
        brain.backend,
        kinds=kinds or KINDS,
        semantic=not no_semantic,
        include_dismissed=include_dismissed,
    )
    model_pass = _confirm(brain.vault, report, yes) if confirm else None
    data = report.to_dict()
    if model_pass is not None:
        data["model_pass"] = model_pass
    if record:
        data["recorded"] = record_scan(brain.vault, report)
    emit(data, as_json, lambda: _print_report(data))


def _confirm(vault: Vault, report: HealthReport, yes: bool) -> dict[str, Any]:
    from mnemex.health.confirm import confirm_duplicates
    from mnemex.llm import load_model

    client = load_model(vault)
    if client is None:
        raise ConfigError("--confirm needs a [model] table in mnemex.toml (see `mnemex models`)")
    return confirm_duplicates(vault, report, client, confirmed=yes)


def _print_plan(result: dict[str, Any], command: str) -> None:
    if "plan_id" not in result:
        verb = result.get("summary") or result.get("subject") or "done"
        click.echo(
            f"{verb}: {result.get('created', 0)} created, {result.get('updated', 0)} updated, "
            f"{result.get('deleted', 0)} deleted, {result.get('failed', 0)} failed"
        )
        for problem in result.get("problems", {}).get("failed", []):
            click.echo(f"  failed {problem['path']}: {problem['reason']}")
        commit = result.get("commit") or {}
        if commit.get("sha"):
            click.echo(f"  commit {commit['sha']}")
        elif commit.get("reason"):
            click.echo(f"  not committed: {commit['reason']}")
        return
    click.echo(f"plan: {result.get('summary') or result.get('subject')}")
    for rel in result.get("files_changed", []):
        click.echo(f"  change {rel}")
    for rel in result.get("deletes", []):
        click.echo(f"  DELETE {rel}")
    for item in result.get("files", []):
        click.echo(f"  {item['effect']}: {item['path']}")
    for link in result.get("links", []):
        if "breaks" in link:
            click.echo(f"  link in {link['path']} to {link['breaks']} will break")
    if result.get("diff"):
        click.echo(result["diff"], nl=False)
    if result.get("diff_omitted_lines"):
        click.echo(f"… {result['diff_omitted_lines']} more diff line(s) not shown")
    click.echo(f"nothing changed: run `{command} --yes` to apply")


@health.command("fix")
@click.argument("issue_id")
@click.option("--yes", is_flag=True, help="Apply the plan without asking.")
@click.option("--allow-loss", is_flag=True, help="Allow a fix that deletes most pages.")
@json_option
@pass_app
@handle_errors
def health_fix(app: Context, issue_id: str, yes: bool, allow_loss: bool, as_json: bool) -> None:
    """Fix ISSUE_ID: show the plan (files, diff, links, deletions); --yes applies it."""
    from mnemex.health import fix_issue

    brain = app.brain
    result = fix_issue(brain, issue_id, allow_loss=allow_loss)
    if yes:
        result = fix_issue(brain, issue_id, result["plan_id"], allow_loss=allow_loss)
    flags = " --allow-loss" if allow_loss else ""
    emit(result, as_json, lambda: _print_plan(result, f"mnemex health fix {issue_id}{flags}"))


@health.command("dismiss")
@click.argument("issue_id")
@click.option("--reason", help="Why it is not a problem (kept with the dismissal).")
@json_option
@pass_app
@handle_errors
def health_dismiss(app: Context, issue_id: str, reason: str | None, as_json: bool) -> None:
    """Dismiss ISSUE_ID so later scans do not report it (recorded in health/dismissed/)."""
    from mnemex.health import dismiss_issue, scan
    from mnemex.health.ids import kind_of

    brain = app.brain
    kind = kind_of(issue_id)
    report = scan(brain.vault, brain.backend, kinds=(kind,) if kind else (), include_dismissed=True)
    result = dismiss_issue(brain.vault, report, issue_id, reason)
    emit(result, as_json, lambda: click.echo(f"dismissed {issue_id}"))


@health.command("restore")
@click.argument("issue_id")
@json_option
@pass_app
@handle_errors
def health_restore(app: Context, issue_id: str, as_json: bool) -> None:
    """Undo the dismissal of ISSUE_ID: scans report it again."""
    from mnemex.health import restore_issue

    result = restore_issue(app.brain.vault, issue_id)
    emit(result, as_json, lambda: click.echo(f"restored {issue_id}"))


@health.command("history")
@click.option("--limit", default=20, show_default=True, help="How many recorded scans to show.")
@json_option
@pass_app
@handle_errors
def health_history(app: Context, limit: int, as_json: bool) -> None:
    """The recorded health scores over time (record one with `mnemex health --record`)."""
    from mnemex.health import read_history

    data = read_history(app.brain.vault, limit)

    def text() -> None:
        if not data["scans"]:
            click.echo("no recorded scans yet: run `mnemex health --record`")
            return
        for scan in data["scans"]:
            counts = ", ".join(f"{k} {v}" for k, v in scan.get("counts", {}).items() if v)
            click.echo(f"{scan['ts']}  {scan['score']:>3}  {scan.get('machine', '')}  {counts}")
        if data["trend"]:
            click.echo(f"trend: {data['trend']}")

    emit(data, as_json, text)


@click.command("undo")
@click.argument("commit", required=False)
@click.option("--yes", is_flag=True, help="Revert without asking.")
@click.option("--force", is_flag=True, help="Revert a commit mnemex did not make.")
@json_option
@pass_app
@handle_errors
def undo_command(app: Context, commit: str | None, yes: bool, force: bool, as_json: bool) -> None:
    """Revert the last mnemex commit (or COMMIT) as a new commit; shows the plan first."""
    from mnemex.vault.undo import undo

    vault = app.brain.vault
    result = undo(vault, commit, force=force)
    if yes:
        result = undo(vault, commit, result["plan_id"], force=force)
        app.brain.sync()  # the next read sees the reverted files
    command = "mnemex undo" + (f" {commit}" if commit else "") + (" --force" if force else "")
    emit(result, as_json, lambda: _print_plan(result, command))


def register(cli: click.Group) -> None:
    """Add ``health`` and ``undo`` to the command tree."""
    cli.add_command(health)
    cli.add_command(undo_command)


__all__ = ["register"]
