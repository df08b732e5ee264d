"""``mnemex ingest PATH``: read sources into the wiki, merging into what it knows.

``--preview`` prints the plan (pages to create, pages to update with a diff,
possible duplicates, estimated cost) and writes nothing; without it the plan
is applied as one git commit, the index is synced and the counts are
printed. The CLI reads any path the user names (the MCP tool reads only inside
the vault); a file in the vault's ``inbox/`` is moved into the wiki, any other
file is left where it is.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from mnemex.cli.app import Context, emit, handle_errors, json_option, pass_app, progress_for
from mnemex.report import OUTCOMES, Report


def _print(result: dict[str, Any]) -> None:
    for source in result["sources"]:
        if source["status"] == "unchanged":
            click.echo(f"unchanged {source['source']}: already ingested as {source['summary']}")
            continue
        click.echo(f"{source['source']} -> {source['summary']} ({len(source['pages'])} pages)")
        for warning in source["warnings"]:
            click.echo(f"  warning: {warning}")
    applied = result.get("applied")
    for path in result["create"]:
        click.echo(f"{'created' if applied else 'create'} {path}")
    for item in result["update"]:
        click.echo(f"{'updated' if applied else 'update'} {item['path']}")
        if item.get("diff"):
            click.echo(item["diff"], nl=False)
        if item.get("diff_omitted_lines"):
            click.echo(f"… {item['diff_omitted_lines']} more diff line(s) not shown")
    for move in result["move"]:
        click.echo(f"{'moved' if applied else 'move'} {move['from']} -> {move['to']}")
    for pair in result["possible_duplicates"]:
        click.echo(f"possible duplicate: {pair['a']} ~ {pair['b']} ({pair['reason']})")
    for outcome in ("skipped", "refused", "failed"):
        for problem in result["problems"].get(outcome, []):
            click.echo(f"{outcome} {problem['path']}: {problem['reason']}")
    counts = Report(**{k: result[k] for k in OUTCOMES}).summary()
    if not applied:
        cost = result["cost"]
        usd = cost["estimated_usd"]
        shown = "unknown" if usd is None else f"${usd:.2f}"
        click.echo(
            f"estimated cost: {shown} ({cost.get('estimate') or ', '.join(cost['extractor'])})"
        )
        click.echo(f"plan: {counts}; nothing written (run without --preview to apply)")
        return
    commit = result.get("commit", {})
    where = f"commit {commit['sha']}" if commit.get("sha") else commit.get("reason", "")
    click.echo(f"{counts}; {where}")


@click.command()
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--domain", help="The knowledge domain to ingest into (default: the vault's first).")
@click.option("--preview", is_flag=True, help="Show the plan (with diffs); write nothing.")
@click.option("--yes", is_flag=True, help="Confirm a model run estimated above confirm_above_usd.")
@click.option("--offline", is_flag=True, help="Use the offline extractor even if a model is set.")
@click.option("--no-index", is_flag=True, help="Do not sync the index after applying.")
@json_option
@pass_app
@handle_errors
def ingest(
    app: Context,
    path: Path,
    domain: str | None,
    preview: bool,
    yes: bool,
    offline: bool,
    no_index: bool,
    as_json: bool,
) -> None:
    """Ingest PATH (a file, or a folder of md, txt, rst, html and pdf files) into the wiki.

    Each source gets a summary page; the people, tools and ideas in it get entity
    and concept pages, merged into the pages that already exist. A folder is one
    commit; a file that cannot be read is counted failed and the rest go on. A file
    in the vault's inbox/ is moved (its original kept under wiki/<domain>/sources/);
    files elsewhere are never touched.
    With a [model] in mnemex.toml the model extracts (also for --preview): the run's
    cost is estimated first and needs --yes above confirm_above_usd. A preview's
    extraction is kept in .mnemex/ingest/extractions/, so the apply after it calls no
    model and writes the pages the preview showed. The index is
    synced after applying (--no-index to skip). --json prints the plan with the
    counts (created, updated, deleted, unchanged, skipped, refused, failed), problems and
    warnings at the top level.
    """
    from mnemex.ingest.run import ingest_path

    progress = progress_for(as_json)
    result = ingest_path(
        app.brain,
        path,
        domain,
        apply=not preview,
        confirmed=yes,
        offline=offline,
        progress=progress,
    )
    changed = result["created"] or result["updated"] or result["move"]
    if result["applied"] and changed and not no_index:
        app.brain.sync(progress)
    emit(result, as_json, lambda: _print(result))
    if result["failed"]:
        raise SystemExit(1)


def register(cli: click.Group) -> None:
    """Add ``ingest`` to the command tree."""
    cli.add_command(ingest)


__all__ = ["ingest", "register"]
