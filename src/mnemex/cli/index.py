"""``mnemex index`` (sync), ``index status`` and ``index rebuild``: the index against the files.

A sync or rebuild that would empty a non-empty index is refused unless allowed.

Registered onto the command tree by :func:`register`.
"""

from __future__ import annotations

import click

from mnemex.brain import Brain
from mnemex.cli.app import (
    Context,
    emit,
    handle_errors,
    json_option,
    pass_app,
    print_report,
    progress_for,
)
from mnemex.errors import MnemexError
from mnemex.index.sync import SyncResult


@click.group(invoke_without_command=True)
@click.option(
    "--allow-empty", is_flag=True, help="Allow a sync that would remove every note from the index."
)
@json_option
@click.pass_context
@handle_errors
def index(ctx: click.Context, allow_empty: bool, as_json: bool) -> None:
    """Bring the index up to date with the vault (incremental)."""
    if ctx.invoked_subcommand is not None:
        return
    app: Context = ctx.obj
    brain = app.brain
    _refuse_emptying(brain, allow_empty)
    result = brain.sync(progress_for(as_json))
    emit(result.to_dict(), as_json, lambda: _print_sync(result))


def _refuse_emptying(brain: Brain, allowed: bool) -> None:
    """A sync or rebuild that would empty a non-empty index looks like data loss."""
    if allowed:
        return
    indexed = brain.backend.stats().notes
    if indexed and next(iter(brain.vault.iter_files()), None) is None:
        raise MnemexError(
            f"the vault at {brain.vault.root} has no notes but the index has {indexed}: "
            "is the folder unmounted or emptied by mistake? Nothing was changed; "
            "pass --allow-empty to empty the index"
        )


@index.command("status")
@json_option
@pass_app
@handle_errors
def index_status(app: Context, as_json: bool) -> None:
    """Counts, and every file that could not be indexed, with the reason."""
    brain = app.brain
    stats = brain.backend.stats()
    problems = brain.backend.problems()
    dangling, unresolved = brain.links_to_nowhere(limit=50)
    data = {
        **stats.to_dict(),
        "unresolved_links": dangling,
        "problem_files": [{"path": p, "reason": r} for p, r in problems],
        "unresolved": [link.to_dict() for link in unresolved],
    }

    def text() -> None:
        click.echo(
            f"{stats.notes} notes, {stats.chunks} chunks, {stats.links} links "
            f"({dangling} unresolved), {stats.tags} tags"
        )
        click.echo(
            f"embedder: {stats.embedder or 'none yet'}; vectors: "
            + (", ".join(f"{k} {v}" for k, v in stats.vectors.items()) or "0")
        )
        click.echo(f"last sync: {stats.last_sync or 'never'}; index: {stats.path}")
        for path, reason in problems:
            click.echo(f"  {path}: {reason}")
        for link in unresolved:
            click.echo(f"  {link.path}:{link.line}: link to nowhere: [[{link.target}]]")
        if dangling > len(unresolved):
            click.echo(f"  … {dangling - len(unresolved)} more links to nowhere")

    emit(data, as_json, text)


@index.command("rebuild")
@click.option("--allow-empty", is_flag=True, help="Allow a rebuild that leaves the index empty.")
@json_option
@pass_app
@handle_errors
def index_rebuild(app: Context, allow_empty: bool, as_json: bool) -> None:
    """Throw the index away and build it again from the files."""
    brain = app.brain
    _refuse_emptying(brain, allow_empty)
    result = brain.rebuild(progress_for(as_json))
    emit(result.to_dict(), as_json, lambda: _print_sync(result))


def _print_sync(result: SyncResult) -> None:
    extra = f"; {result.removed} removed, {result.moved} moved, {result.embedded} chunks embedded"
    extra += f" in {result.seconds:.2f} s"
    print_report(result.report, extra)


def register(cli: click.Group) -> None:
    """Add ``index`` to the command tree."""
    cli.add_command(index)


__all__ = ["register"]
