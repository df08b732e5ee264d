"""``mnemex harvest``: digest finished agent sessions into memories; ``mnemex remember``:
write one memory by hand (the CLI twin of the MCP ``remember`` tool, into the same store).

Registered onto the command tree by :func:`register`.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import click

from mnemex.cli.app import (
    Context,
    emit,
    handle_errors,
    json_option,
    pass_app,
    print_report,
    progress_for,
)
from mnemex.cli.facts import print_consolidated
from mnemex.facts.consolidate import consolidate
from mnemex.harvest.run import (
    failures_recorded,
    harvest_sessions,
    harvest_settings,
    record_failure,
    resolve_sources,
    watch_harvest,
)
from mnemex.llm import load_model
from mnemex.memories.remember import remember as remember_note
from mnemex.report import Report

_DIR = click.Path(file_okay=False, path_type=Path)


@click.command()
@click.option(
    "--claude-dir",
    "claude_dirs",
    multiple=True,
    type=_DIR,
    help="Claude Code's folder of per-project folders, or ~/.claude itself (default "
    "[harvest] claude_dirs, else ~/.claude/projects).",
)
@click.option(
    "--codex-dir",
    "codex_dirs",
    multiple=True,
    type=_DIR,
    help="Codex CLI's folder that holds YYYY/MM/DD/, or ~/.codex itself (default "
    "[harvest] codex_dirs, else ~/.codex/sessions).",
)
@click.option(
    "--gemini-dir",
    "gemini_dirs",
    multiple=True,
    type=_DIR,
    help="Gemini CLI's tmp folder of per-project folders, or ~/.gemini itself (default "
    "[harvest] gemini_dirs, else ~/.gemini/tmp).",
)
@click.option(
    "--aider-repo",
    "aider_repos",
    multiple=True,
    type=_DIR,
    help="A repository holding .aider.chat.history.md (repeatable; added to "
    "[harvest] aider_repos).",
)
@click.option(
    "--settle",
    default=None,
    type=click.FloatRange(min=0),
    help="Seconds a transcript must be unchanged before it is digested "
    "(default [harvest] settle_seconds, else 300).",
)
@click.option(
    "--archive/--no-archive",
    default=None,
    help="Keep each digested transcript, redacted and gzip-compressed, under "
    ".mnemex/transcripts/ (default [harvest] archive, else off).",
)
@click.option(
    "--watch",
    "watch",
    type=click.FloatRange(min=1),
    default=None,
    metavar="SECONDS",
    help="Keep harvesting every SECONDS (until interrupted), leaving a heartbeat.",
)
@click.option(
    "--offline",
    is_flag=True,
    help="Use the offline extractor even when mnemex.toml configures a [model].",
)
@click.option(
    "--yes",
    "confirmed",
    is_flag=True,
    help="Accept the model's estimated cost above [model] confirm_above_usd (without it "
    "those sessions get the offline digest, rewritten by a later run with --yes).",
)
@click.option("--no-index", is_flag=True, help="Do not sync the index after writing digests.")
@click.option(
    "--consolidate",
    "then_consolidate",
    is_flag=True,
    help="Then run `mnemex consolidate`: new facts and confirmations apply, the rest waits.",
)
@json_option
@pass_app
@handle_errors
def harvest(
    app: Context,
    claude_dirs: tuple[Path, ...],
    codex_dirs: tuple[Path, ...],
    gemini_dirs: tuple[Path, ...],
    aider_repos: tuple[Path, ...],
    settle: float | None,
    archive: bool | None,
    watch: float | None,
    offline: bool,
    confirmed: bool,
    no_index: bool,
    then_consolidate: bool,
    as_json: bool,
) -> None:
    """Digest finished agent sessions into memories (idempotent: a re-run writes nothing).

    With no folder option the folders of [harvest] in mnemex.toml (else the agents' usual
    ones) are read; with any, only those (Aider repositories given add to aider_repos).

    --json prints {created, updated, unchanged, skipped, refused, failed: counts of
    digests; problems: {skipped|refused|failed: [{path, reason}]}; warnings: [{path,
    reason}]; archived: transcripts archived by this run}.
    """
    given = {
        "claude-code": list(claude_dirs),
        "codex": list(codex_dirs),
        "gemini-cli": list(gemini_dirs),
        "aider": list(aider_repos),
    }
    vault = app.brain.vault
    # Whatever stops the command (settings, the model, a reader, the vault, the index sync)
    # lands in the heartbeat: a scheduled run failing here is seen only through doctor.
    with failures_recorded(vault, interval=watch):
        model = None if offline else load_model(vault)
        sources = resolve_sources(harvest_settings(vault.settings), given)
        if watch is not None:

            def show(report: Report | None, error: Exception | None) -> None:
                if report is None:
                    click.echo(f"harvest failed: {error}", err=True)
                    return
                if report.changed and not no_index:
                    try:
                        app.brain.sync()
                    except Exception as exc:  # recorded; the watch goes on
                        record_failure(vault, f"index sync after harvest: {exc}", interval=watch)
                        click.echo(f"harvest: index sync failed: {exc}", err=True)
                emit(report.to_dict(), as_json, lambda: print_report(report))
                if then_consolidate and report.changed:
                    try:
                        done = consolidate(app.brain, "safe", model=model, confirmed=confirmed)
                    except Exception as exc:  # its heartbeat has it; the watch goes on
                        click.echo(f"consolidate failed: {exc}", err=True)
                        return
                    emit(done.to_dict(), as_json, lambda: print_consolidated(done))

            with contextlib.suppress(KeyboardInterrupt):
                watch_harvest(
                    vault,
                    sources,
                    watch,
                    settle_seconds=settle,
                    archive=archive,
                    model=model,
                    confirmed=confirmed,
                    on_report=show,
                )
            return
        progress = progress_for(as_json)
        report = harvest_sessions(
            vault,
            sources,
            settle_seconds=settle,
            archive=archive,
            model=model,
            confirmed=confirmed,
            progress=progress,
        )
        if report.changed and not no_index:
            app.brain.sync(progress)
    data = report.to_dict()
    if not then_consolidate:
        emit(data, as_json, lambda: print_report(report))
        return
    done = consolidate(app.brain, "safe", model=model, confirmed=confirmed)
    data["consolidate"] = done.to_dict()

    def show_both() -> None:
        print_report(report)
        print_consolidated(done)

    emit(data, as_json, show_both)
    if done.report.failed:
        sys.exit(1)


@click.command()
@click.argument("text")
@click.option("--project", help="Its project (a slug); default: from the current folder.")
@click.option("--domain", help="Its knowledge domain; default: the vault's first.")
@click.option("--tag", "tags", multiple=True, help="A tag, without '#' (repeatable).")
@click.option(
    "--importance",
    default=0.5,
    show_default=True,
    type=click.FloatRange(0.0, 1.0),
    help="How much it weighs in recall.",
)
@click.option(
    "--agent",
    is_flag=True,
    help="The text is an agent's, not yours: the facts it states count as guesses.",
)
@json_option
@pass_app
@handle_errors
def remember(
    app: Context,
    text: str,
    project: str | None,
    domain: str | None,
    tags: tuple[str, ...],
    importance: float,
    agent: bool,
    as_json: bool,
) -> None:
    """Remember TEXT as a memory of the project ('-' reads it from stdin); the first line
    is its title. Remembering the same text twice keeps one note. The facts it states
    (where someone works or lives, a project's database, ...) are recorded as yours."""
    body = sys.stdin.read() if text == "-" else text
    done = remember_note(
        app.brain,
        body,
        project=project,
        domain=domain,
        tags=list(tags) or None,
        importance=importance,
        cwd=Path.cwd(),
        said_by_user=not agent,
    )
    app.brain.sync()
    emit(done.to_dict(), as_json, lambda: click.echo(f"{done.outcome}: {done.path}"))


def register(cli: click.Group) -> None:
    """Add harvest and remember to the command tree."""
    cli.add_command(harvest)
    cli.add_command(remember)


__all__ = ["harvest", "register", "remember"]
