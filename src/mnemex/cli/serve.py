"""``mnemex serve``, ``install`` and ``uninstall``: the MCP server and registering it with clients.

Registered onto the command tree by :func:`register`. The MCP SDK is imported
only when ``serve`` runs, so the other commands start as fast as before.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Literal

import click

from mnemex.cli.app import Context, emit, handle_errors, json_option, pass_app
from mnemex.clients.install import CLIENTS, ConfigChange, install_client, uninstall_client
from mnemex.config import SETTINGS_FILE, resolve_vault
from mnemex.errors import ConfigError, IndexUnavailable

_SCOPES = click.Choice(["user", "local", "project"])
_PROFILES = click.Choice(["all", "read"])
_TOOLS_HELP = (
    "Which tools to serve: all, or read (the few an agent needs to read; "
    "a much shorter tool list). See docs/mcp-tools.md."
)


def _profile(tools: str | None, read_only: bool) -> Literal["all", "read"]:
    if read_only and tools not in (None, "read"):
        raise ConfigError(f"--read-only is --tools read; it cannot go with --tools {tools}")
    return "read" if read_only or tools == "read" else "all"


_CONFIG_HELP = (
    "Use this configuration file instead of the client's own "
    "(or set MNEMEX_<CLIENT>_CONFIG, e.g. MNEMEX_CODEX_CONFIG)."
)


#: What ``serve`` and ``ui`` share: which private names they show, and how fresh the index is.
include_private_option = click.option(
    "--include-private",
    "include_private",
    multiple=True,
    metavar="NAME",
    help="Also serve this private domain or project; repeat for more.",
)
refresh_option = click.option(
    "--refresh",
    default=1.0,
    show_default=True,
    type=click.FloatRange(min=0),
    metavar="SECONDS",
    help="Sync the index with the files before a read at most this often.",
)


@click.command()
@click.option("--http", "use_http", is_flag=True, help="Serve streamable HTTP instead of stdio.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind (--http).")
@click.option(
    "--port", default=8765, show_default=True, type=click.IntRange(1, 65535), help="Port (--http)."
)
@click.option(
    "--allow-remote",
    is_flag=True,
    help="Allow --host to be an address other than this machine's loopback.",
)
@click.option("--tools", type=_PROFILES, help=_TOOLS_HELP + "  [default: all]")
@click.option("--read-only", is_flag=True, help="The same as --tools read.")
@include_private_option
@refresh_option
@pass_app
@handle_errors
def serve(
    app: Context,
    use_http: bool,
    host: str,
    port: int,
    allow_remote: bool,
    tools: str | None,
    read_only: bool,
    include_private: tuple[str, ...],
    refresh: float,
) -> None:
    """Run the MCP server for agents (stdio by default; --http for streamable HTTP).

    Over HTTP every request needs the bearer token kept in .mnemex/mcp-token
    (made on first use, readable by you only); the server binds 127.0.0.1 unless
    --host and --allow-remote say otherwise.
    """
    from mnemex.mcp.state import ServeOptions, ServerState

    options = ServeOptions(
        tools=_profile(tools, read_only),
        include_private=include_private,
        refresh_seconds=refresh,
        cwd=Path.cwd(),
    )
    # An index that cannot be opened (a PostgreSQL server down) stops the server at once,
    # which a client shows as a server that did not start; one lost later fails only the
    # calls made while it is gone (the next call connects again).
    try:
        brain = app.brain
    except IndexUnavailable as exc:
        raise IndexUnavailable(f"mnemex serve cannot start without its index: {exc}") from None
    state = ServerState(brain, options)
    if use_http:
        from mnemex.mcp.http import MCP_PATH, check_host, run_http, token_path

        check_host(host, allow_remote)
        where = f"[{host}]" if ":" in host else host
        click.echo(
            f"mnemex: serving {state.brain.vault.root} at http://{where}:{port}{MCP_PATH}; "
            f"bearer token in {token_path(state.brain.vault)}",
            err=True,
        )
        run_http(state, host=host, port=port, allow_remote=allow_remote)
    else:
        from mnemex.mcp.server import run_stdio

        run_stdio(state)


def _vault_for_install(app: Context) -> Path:
    location = resolve_vault(app.vault)
    if not (location.path / SETTINGS_FILE).is_file():
        raise ConfigError(
            f"{location.path} is not a vault (no {SETTINGS_FILE}); create it with "
            f"`mnemex init {location.path}` or pass --vault"
        )
    return location.path


def _print_change(change: ConfigChange, verb: str) -> None:
    prefix = "would be " if change.dry_run else ""
    if change.outcome == "unchanged":
        click.echo(f"unchanged {change.path}: mnemex is already {verb} for {change.client}")
    elif change.outcome == "absent":
        click.echo(f"unchanged {change.path}: no mnemex entry to remove")
    else:
        click.echo(
            f"{prefix}{change.outcome} {change.path} ({change.client}, {change.scope} scope)"
        )
    if change.entry and change.outcome != "absent":
        command = shlex.join([change.entry["command"], *change.entry["args"]])
        click.echo(f"  server: {command}")
    if change.backup:
        click.echo(f"  backup: {change.backup}")
    if change.dry_run and change.diff:
        click.echo(change.diff, nl=False)
    if not change.dry_run and change.outcome in ("created", "updated", "removed"):
        click.echo(f"  restart {change.client} to load the change")


@click.command()
@click.argument("client", type=click.Choice(CLIENTS))
@click.option("--scope", type=_SCOPES, help="Where to register it (default: user, every project).")
@click.option("--config", type=click.Path(dir_okay=False, path_type=Path), help=_CONFIG_HELP)
@click.option("--dry-run", is_flag=True, help="Show the change without writing anything.")
@click.option("--tools", type=_PROFILES, help=_TOOLS_HELP + "  [default: all]")
@click.option("--read-only", is_flag=True, help="The same as --tools read.")
@click.option(
    "--include-private",
    "include_private",
    multiple=True,
    metavar="NAME",
    help="Serve this private name.",
)
@click.option(
    "--hooks",
    is_flag=True,
    help="claude-code: also add the SessionStart and Stop hooks (see `mnemex hook install`).",
)
@json_option
@pass_app
@handle_errors
def install(
    app: Context,
    client: str,
    scope: str | None,
    config: Path | None,
    dry_run: bool,
    tools: str | None,
    read_only: bool,
    include_private: tuple[str, ...],
    hooks: bool,
    as_json: bool,
) -> None:
    """Register mnemex's MCP server with CLIENT (claude-code, claude-desktop, cursor, codex).

    Writes one entry named "mnemex" (the absolute path of this mnemex and the
    vault) into the client's configuration, backing the file up first; running
    it again changes nothing. Codex gets a longer startup timeout. --tools read
    registers a server with only the read tools (a much shorter tool list for
    the agent to carry). With --hooks
    (claude-code), Claude Code also starts each session with the project's context
    and is reminded to save a handoff before it stops.
    """
    if hooks and client != "claude-code":
        raise ConfigError(
            f"--hooks is for claude-code only; {client} has no session hooks mnemex can add"
        )
    change = install_client(
        client,
        _vault_for_install(app),
        scope=scope,
        config=config,
        dry_run=dry_run,
        tools=_profile(tools, read_only),
        include_private=include_private,
    )
    if not hooks:
        emit(change.to_dict(), as_json, lambda: _print_change(change, "installed"))
        return
    from mnemex.clients.hooks import install_hooks

    hooked = install_hooks(_vault_for_install(app), scope=scope or "user", dry_run=dry_run)

    def text() -> None:
        _print_change(change, "installed")
        prefix = "would be " if hooked.dry_run and hooked.outcome != "unchanged" else ""
        click.echo(f"{prefix}{hooked.outcome} {hooked.path} (SessionStart and Stop hooks)")
        if hooked.backup:
            click.echo(f"  backup: {hooked.backup}")

    emit({**change.to_dict(), "hooks": hooked.to_dict()}, as_json, text)


@click.command()
@click.argument("client", type=click.Choice(CLIENTS))
@click.option("--scope", type=_SCOPES, help="Which registration to remove (default: user).")
@click.option("--config", type=click.Path(dir_okay=False, path_type=Path), help=_CONFIG_HELP)
@click.option("--dry-run", is_flag=True, help="Show the change without writing anything.")
@json_option
@handle_errors
def uninstall(
    client: str, scope: str | None, config: Path | None, dry_run: bool, as_json: bool
) -> None:
    """Remove the "mnemex" entry that install added to CLIENT's configuration (only it)."""
    change = uninstall_client(client, scope=scope, config=config, dry_run=dry_run)
    emit(change.to_dict(), as_json, lambda: _print_change(change, "installed"))


def register(cli: click.Group) -> None:
    """Add serve, install and uninstall to the command tree."""
    for command in (serve, install, uninstall):
        cli.add_command(command)


__all__ = ["install", "register", "serve", "uninstall"]
