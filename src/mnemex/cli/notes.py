"""``mnemex note add`` and ``mnemex read``: a note into the vault, and one out of it.

Registered onto the command tree by :func:`register`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from mnemex.cli.app import Context, emit, handle_errors, json_option, pass_app


@click.group()
def note() -> None:
    """Add notes."""


@note.command("add")
@click.argument("source", required=False, default="-")
@click.option(
    "--kind",
    default="note",
    show_default=True,
    type=click.Choice(["note", "entity", "concept", "summary"]),
)
@click.option("--title", help="Title (default: the first heading or line).")
@click.option("--tag", "tags", multiple=True, help="A tag; repeat for more.")
@click.option("--domain", help="Knowledge domain for entity/concept/summary (default: the first).")
@click.option("--path", "rel", help="Vault-relative path (default: from kind and title).")
@json_option
@pass_app
@handle_errors
def note_add(
    app: Context,
    source: str,
    kind: str,
    title: str | None,
    tags: tuple[str, ...],
    domain: str | None,
    rel: str | None,
    as_json: bool,
) -> None:
    """Add a note from SOURCE (a file, or - for standard input)."""
    from mnemex.pages.notes import add_note

    if source == "-":
        body = sys.stdin.read()
    else:
        try:
            body = Path(source).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise click.ClickException(f"{source}: cannot read it as UTF-8 text ({exc})") from exc
    added = add_note(
        app.brain, body, kind=kind, title=title, tags=list(tags), domain=domain, path=rel
    )
    emit(added.to_dict(), as_json, lambda: click.echo(f"{added.outcome} {added.path}"))


@click.command()
@click.argument("path")
@click.option("--section", help="Only the part under this heading.")
@click.option("--max-tokens", type=click.IntRange(min=1), help="Cut the body to this many tokens.")
@json_option
@pass_app
@handle_errors
def read(
    app: Context, path: str, section: str | None, max_tokens: int | None, as_json: bool
) -> None:
    """Print a note (PATH is vault-relative; .md optional)."""
    from mnemex.retrieve.read import read_note

    data = read_note(app.brain, path, section=section, max_tokens=max_tokens)
    emit(data, as_json, lambda: click.echo(data["content"], nl=False))


def register(cli: click.Group) -> None:
    """Add note and read to the command tree."""
    for command in (note, read):
        cli.add_command(command)


__all__ = ["register"]
