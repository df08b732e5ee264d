"""``mnemex memories search|show`` and ``mnemex forget``: recall and remove session memories.

The CLI is the person at their own machine, so private projects are shown too.
"""

from __future__ import annotations

from typing import Any

import click

from mnemex.brain import Brain
from mnemex.cli.app import Context, emit, handle_errors, json_option, pass_app
from mnemex.errors import VaultError
from mnemex.memories.forget import apply_forget, plan_forget
from mnemex.memories.recall import DEFAULT_DIGEST_TOKENS, DEFAULT_MAX_TOKENS
from mnemex.memories.recall import get_digest as digest_of
from mnemex.memories.recall import search_memories as search_memory_notes
from mnemex.retrieve.privacy import Privacy
from mnemex.vault.privacy import private_names


def _everything(brain: Brain) -> Privacy:
    settings = brain.vault.settings
    return Privacy.of(settings, private_names(settings))


def _one(path: str | None, session: str | None) -> None:
    if (path is None) == (session is None):
        raise VaultError("give either PATH or --session ID (not both)")


@click.group()
def memories() -> None:
    """Search and read the memories of past sessions (digests and remembered notes)."""


@memories.command("search")
@click.argument("query")
@click.option("--project", help="Only this project's memories.")
@click.option("--domain", help="Only memories of this domain.")
@click.option("--tag", "tags", multiple=True, help="Only memories with this tag; repeat.")
@click.option("--since", help="Only memories dated on or after (2026-11-01).")
@click.option("--until", help="Only memories dated on or before.")
@click.option("-k", "k", default=10, show_default=True, type=click.IntRange(1, 100))
@click.option(
    "--max-tokens", default=DEFAULT_MAX_TOKENS, show_default=True, type=click.IntRange(min=50)
)
@json_option
@pass_app
@handle_errors
def search_command(
    app: Context,
    query: str,
    project: str | None,
    domain: str | None,
    tags: tuple[str, ...],
    since: str | None,
    until: str | None,
    k: int,
    max_tokens: int,
    as_json: bool,
) -> None:
    """Search memories for QUERY, scoped by project, domain, tags and dates."""
    brain = app.brain
    brain.sync()
    data = search_memory_notes(
        brain,
        query,
        project=project,
        domain=domain,
        tags=tags,
        since=since,
        until=until,
        k=k,
        max_tokens=max_tokens,
        privacy=_everything(brain),
    )

    def text() -> None:
        for hit in data["hits"]:
            meta = " · ".join(
                str(hit[key]) for key in ("project", "date", "harness", "session") if key in hit
            )
            click.echo(f"{hit['path']}\n  {hit['title']}  ({meta})")
            where = f"[{hit['section']}] " if hit.get("section") else ""
            click.echo(f"  {where}{hit['snippet']}")
        if data.get("note"):
            click.echo(data["note"])

    emit(data, as_json, text)


@memories.command("show")
@click.argument("path", required=False)
@click.option("--session", help="The session id instead of a path.")
@click.option(
    "--max-tokens", default=DEFAULT_DIGEST_TOKENS, show_default=True, type=click.IntRange(min=50)
)
@json_option
@pass_app
@handle_errors
def show_command(
    app: Context, path: str | None, session: str | None, max_tokens: int, as_json: bool
) -> None:
    """Show one whole memory, by PATH or by --session ID."""
    _one(path, session)
    brain = app.brain
    brain.sync()
    data = digest_of(brain, path, session, max_tokens, privacy=_everything(brain))

    def text() -> None:
        click.echo(f"{data['path']}\n")
        click.echo(data["content"], nl=not data["content"].endswith("\n"))
        if data.get("note"):
            click.echo(data["note"])

    emit(data, as_json, text)


def _render_plan(plan: dict[str, Any]) -> None:
    for rel in plan["delete"]:
        click.echo(f"delete {rel}")
    derived = plan["derived"]
    click.echo(
        f"  with {derived['index_entries']} index entries, {derived['chunks']} chunks "
        f"and their vectors"
    )
    for rel in derived["transcripts"]:
        click.echo(f"delete {rel} (archived transcript)")
    click.echo(plan["history"])


@click.command()
@click.argument("path", required=False)
@click.option("--session", help="Forget every memory of this session id.")
@click.option("--yes", is_flag=True, help="Apply the plan (without it, only show it).")
@json_option
@pass_app
@handle_errors
def forget(app: Context, path: str | None, session: str | None, yes: bool, as_json: bool) -> None:
    """Forget a memory (PATH) or every memory of --session ID, with what derives from it.

    Shows the plan; deletes only with --yes (one git commit).
    """
    _one(path, session)
    brain = app.brain
    plan = plan_forget(brain, path, session)
    if not yes:

        def shown() -> None:
            _render_plan(plan)
            click.echo("nothing deleted: repeat with --yes")

        emit(plan, as_json, shown)
        return
    done = apply_forget(brain, plan["plan_id"], path, session)

    def text() -> None:
        for rel in [*done["deleted"], *done["transcripts_deleted"]]:
            click.echo(f"deleted {rel}")
        commit = done["commit"]
        click.echo(f"commit {commit['sha']}" if commit.get("sha") else commit.get("reason", ""))

    emit(done, as_json, text)


def register(cli: click.Group) -> None:
    """Add memories and forget to the command tree."""
    cli.add_command(memories)
    cli.add_command(forget)


__all__ = ["forget", "memories", "register"]
