"""``mnemex index`` (sync), ``index status``, ``index rebuild`` and ``index migrate``: the
index against the files, and moving it between backends.

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
from mnemex.errors import IndexUnavailable, MnemexError
from mnemex.index.sync import WRITER_WAIT, SyncResult


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
    result = _written(brain.sync(progress_for(as_json), wait=WRITER_WAIT))
    emit(result.to_dict(), as_json, lambda: _print_sync(result))


def _written(result: SyncResult) -> SyncResult:
    """``result``, when the sync ran: one someone asked for may not be quietly deferred."""
    if result.deferred:
        raise IndexUnavailable(result.deferred)
    return result


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
    result = _written(brain.rebuild(progress_for(as_json), wait=WRITER_WAIT))
    emit(result.to_dict(), as_json, lambda: _print_sync(result))


@index.command("migrate")
@click.option(
    "--to",
    "to",
    type=click.Choice(["postgres", "sqlite"]),
    required=True,
    help="The backend to move the index to (from the other one).",
)
@click.option("--replace", is_flag=True, help="Build the target again when it holds notes.")
@json_option
@pass_app
@handle_errors
def index_migrate(app: Context, to: str, replace: bool, as_json: bool) -> None:
    """Move the index to PostgreSQL, or back to SQLite: its vectors are copied (nothing is
    embedded again), the rest is built from the files, and the result is checked (counts,
    and a sample of vectors bit for bit). Private notes never go to PostgreSQL.

    PostgreSQL is this machine's MNEMEX_INDEX_DSN, or [index] dsn in the user config.
    """
    from mnemex.config import resolve_vault
    from mnemex.embed import load_embedder
    from mnemex.index.migrate import migrate_index
    from mnemex.index.open import BACKENDS
    from mnemex.vault import Vault

    vault = Vault(resolve_vault(app.vault).path)
    settings = vault.settings
    source = BACKENDS.factory("postgres" if to == "sqlite" else "sqlite")(vault)
    try:
        target = BACKENDS.factory(to)(vault)
        try:
            with vault.lock("index"):
                done = migrate_index(
                    vault,
                    source,
                    target,
                    lambda: load_embedder(settings.embedder_name, settings.embedder),
                    replace=replace,
                )
        finally:
            target.close()
    finally:
        source.close()

    def text() -> None:
        click.echo(
            f"moved to {to}: {done.notes} notes, {done.chunks} chunks, {done.links} links; "
            f"{done.vectors_copied} vectors copied, {done.embedded} embedded; "
            f"{done.kept_out} private notes kept on this machine"
        )
        if done.ok:
            click.echo(f"checked: counts agree, {done.sampled} sampled vectors bit for bit")
        for problem in done.mismatches:
            click.echo(f"MISMATCH: {problem}", err=True)

    emit(done.to_dict(), as_json, text)
    if not done.ok:
        raise SystemExit(1)


def _print_sync(result: SyncResult) -> None:
    extra = f"; {result.removed} removed, {result.moved} moved, {result.embedded} chunks embedded"
    extra += f" in {result.seconds:.2f} s"
    print_report(result.report, extra)


def register(cli: click.Group) -> None:
    """Add ``index`` to the command tree."""
    cli.add_command(index)


__all__ = ["register"]
