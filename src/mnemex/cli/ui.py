"""``mnemex ui``: the local web page. Starlette and uvicorn are imported only when it runs."""

from __future__ import annotations

import click

from mnemex.cli.app import Context, handle_errors, pass_app
from mnemex.cli.serve import include_private_option, refresh_option


@click.command()
@click.option(
    "--port",
    default=8766,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port on 127.0.0.1 (0: any free one).",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the browser.")
@click.option(
    "--write",
    is_flag=True,
    help="Allow changes from the page (fix, dismiss, undo, forget, facts, ingest).",
)
@include_private_option
@refresh_option
@pass_app
@handle_errors
def ui(
    app: Context,
    port: int,
    open_browser: bool,
    write: bool,
    include_private: tuple[str, ...],
    refresh: float,
) -> None:
    """Serve a local web page to see the brain: search, pages, graph, health, memories,
    state and facts.

    Only on 127.0.0.1, read-only unless --write. The link printed holds this run's own
    token (not the MCP token); opening it logs the browser in with a cookie.
    """
    from mnemex.web.api import UiState
    from mnemex.web.app import serve_ui

    brain = app.brain
    state = UiState(brain, write=write, include_private=include_private, refresh_seconds=refresh)
    mode = "read and write" if write else "read-only"

    def announce(link: str) -> None:
        click.echo(f"mnemex: {brain.vault.root}, {mode}, on 127.0.0.1 only; open:", err=True)
        click.echo(link, err=True)

    serve_ui(state, port, open_browser=open_browser, announce=announce)


def register(cli: click.Group) -> None:
    cli.add_command(ui)
