"""Registering mnemex's MCP server with agent clients, and checking that it works.

``mnemex install CLIENT`` writes one entry, named ``mnemex``, into the client's
own configuration file; every other setting is kept (a JSON file is written back
with two-space indentation), a changed file is backed up first, installing twice
changes nothing, and ``uninstall`` removes exactly that entry.

- ``claude-code``: user and local scope in ``~/.claude.json`` (``mcpServers``; local
  under ``projects[<cwd>]``), project scope in ``<cwd>/.mcp.json``;
- ``claude-desktop``: ``claude_desktop_config.json`` in the app's folder for this OS;
- ``cursor``: ``~/.cursor/mcp.json``, project scope ``<cwd>/.cursor/mcp.json``;
- ``codex``: ``$CODEX_HOME/config.toml`` (``~/.codex``), project ``<cwd>/.codex/config.toml``.

Every location can be overridden, so tests and unusual set-ups never touch a
real home: ``--config PATH`` on the command line, or ``MNEMEX_<CLIENT>_CONFIG``
(``MNEMEX_CLAUDE_CODE_CONFIG``, ``MNEMEX_CLAUDE_DESKTOP_CONFIG``,
``MNEMEX_CURSOR_CONFIG``, ``MNEMEX_CODEX_CONFIG``) in the environment.

Codex's TOML is edited as text between two marker comments (Python has no TOML
writer in the standard library, and a rewrite would lose the person's comments);
the result is parsed again before it is written.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import difflib
import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mnemex import __version__
from mnemex.errors import ConfigError
from mnemex.vault import atomic_write

CLIENTS = ("claude-code", "claude-desktop", "cursor", "codex")
SCOPES = {
    "claude-code": ("user", "local", "project"),
    "claude-desktop": ("user",),
    "cursor": ("user", "project"),
    "codex": ("user", "project"),
}
SERVER_NAME = "mnemex"
#: The tool profiles of ``mnemex serve --tools``.
TOOL_PROFILES = ("all", "read")
#: Codex gives a server 10 s to start by default; a cold start (imports, first index
#: open) on a slow disk can come close, so the entry asks for more.
CODEX_STARTUP_TIMEOUT_SEC = 30
_BEGIN = "# mnemex: begin (written by `mnemex install codex`; `mnemex uninstall codex` removes it)"
_END = "# mnemex: end"


@dataclass(frozen=True)
class ServerCommand:
    """How a client starts the server: an absolute executable and its arguments."""

    command: str
    args: tuple[str, ...]


def server_command(
    vault: Path, tools: str = "all", include_private: tuple[str, ...] = ()
) -> ServerCommand:
    """The command for this installation: the ``mnemex`` script beside this Python, or ``-m``.

    ``tools`` is the served profile (``all`` or ``read``); the default adds no option.
    """
    if tools not in TOOL_PROFILES:
        raise ConfigError(f"unknown tool profile {tools!r}; choose {' or '.join(TOOL_PROFILES)}")
    script = Path(sys.executable).parent / ("mnemex.exe" if os.name == "nt" else "mnemex")
    tail = ["--vault", str(vault.expanduser().resolve()), "serve"]
    if tools != "all":
        tail += ["--tools", tools]
    for name in include_private:
        tail += ["--include-private", name]
    if script.is_file():
        return ServerCommand(str(script), tuple(tail))
    return ServerCommand(str(Path(sys.executable).resolve()), ("-m", "mnemex", *tail))


@dataclass(frozen=True)
class Target:
    """One client configuration file and where in it the server entries live."""

    client: str
    scope: str
    path: Path
    keys: tuple[str, ...]  # JSON: the path of keys to the servers mapping; TOML: ("mcp_servers",)

    @property
    def is_toml(self) -> bool:
        return self.path.suffix == ".toml"


def _env_name(client: str) -> str:
    return f"MNEMEX_{client.upper().replace('-', '_')}_CONFIG"


def _desktop_config() -> Path:
    if sys.platform == "darwin":
        return Path.home() / "Library/Application Support/Claude/claude_desktop_config.json"
    if os.name == "nt":
        base = os.environ.get("APPDATA") or str(Path.home() / "AppData/Roaming")
        return Path(base) / "Claude/claude_desktop_config.json"
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "Claude/claude_desktop_config.json"


def target(
    client: str, scope: str | None = None, config: Path | None = None, cwd: Path | None = None
) -> Target:
    """Where ``client`` keeps its MCP servers for ``scope`` (default: the first listed).

    Raises:
        ConfigError: unknown client, or a scope that client does not have.
    """
    if client not in CLIENTS:
        raise ConfigError(f"unknown client {client!r}; mnemex installs into {', '.join(CLIENTS)}")
    scopes = SCOPES[client]
    scope = scope or scopes[0]
    if scope not in scopes:
        raise ConfigError(f"{client} has no scope {scope!r}; its scopes are {', '.join(scopes)}")
    here = (cwd or Path.cwd()).resolve()
    override = config or (
        Path(os.environ[_env_name(client)]) if os.environ.get(_env_name(client)) else None
    )
    keys: tuple[str, ...] = ("mcpServers",)
    if client == "claude-code":
        if scope == "project":
            path = here / ".mcp.json"
        else:
            base = os.environ.get("CLAUDE_CONFIG_DIR")
            path = Path(base) / ".claude.json" if base else Path.home() / ".claude.json"
            if scope == "local":
                keys = ("projects", str(here), "mcpServers")
    elif client == "claude-desktop":
        path = _desktop_config()
    elif client == "cursor":
        path = here / ".cursor/mcp.json" if scope == "project" else Path.home() / ".cursor/mcp.json"
    else:
        keys = ("mcp_servers",)
        if scope == "project":
            path = here / ".codex/config.toml"
        else:
            base = os.environ.get("CODEX_HOME")
            path = (Path(base) if base else Path.home() / ".codex") / "config.toml"
    return Target(client, scope, (override or path).expanduser(), keys)


def server_entry(client: str, command: ServerCommand) -> dict[str, Any]:
    """The entry ``client`` needs to start the server."""
    entry: dict[str, Any] = {"command": command.command, "args": list(command.args)}
    if client == "claude-code":
        return {"type": "stdio", **entry, "env": {}}
    if client == "codex":
        entry["startup_timeout_sec"] = CODEX_STARTUP_TIMEOUT_SEC
    return entry


@dataclass
class ConfigChange:
    """What install or uninstall did (or, with ``dry_run``, would do) to one file."""

    client: str
    scope: str
    path: Path
    outcome: str  # created | updated | unchanged | removed | absent
    diff: str = ""
    backup: Path | None = None
    dry_run: bool = False
    entry: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "client": self.client,
            "scope": self.scope,
            "path": str(self.path),
            "outcome": self.outcome,
            "dry_run": self.dry_run,
            "backup": str(self.backup) if self.backup else None,
            "entry": self.entry,
            "diff": self.diff,
        }


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read ({exc})") from exc


def _load_json(path: Path, text: str | None) -> dict[str, Any]:
    if text is None or not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(
            f"{path} is not valid JSON (line {exc.lineno}: {exc.msg}); "
            "fix it first, nothing was changed"
        ) from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path} does not hold a JSON object; nothing was changed")
    return data


def _servers(data: dict[str, Any], keys: tuple[str, ...], create: bool) -> dict[str, Any] | None:
    node: Any = data
    for key in keys:
        if not isinstance(node, dict):
            return None
        if key not in node:
            if not create:
                return None
            node[key] = {}
        node = node[key]
    return node if isinstance(node, dict) else None


def _dump_json(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _toml_string(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)  # JSON's escapes are TOML basic-string escapes


def _toml_block(entry: dict[str, Any]) -> str:
    args = ", ".join(_toml_string(a) for a in entry["args"])
    return "\n".join(
        [
            _BEGIN,
            f"[mcp_servers.{SERVER_NAME}]",
            f"command = {_toml_string(entry['command'])}",
            f"args = [{args}]",
            f"startup_timeout_sec = {entry['startup_timeout_sec']}",
            _END,
            "",
        ]
    )


def _split_toml(text: str) -> tuple[str, str | None, str]:
    """``(before, our block or None, after)``."""
    start = text.find(_BEGIN)
    if start == -1:
        return text, None, ""
    end = text.find(_END, start)
    if end == -1:
        raise ConfigError(f"the mnemex block has a begin marker but no {_END!r}; fix it by hand")
    end += len(_END)
    if text[end : end + 1] == "\n":
        end += 1
    return text[:start], text[start:end], text[end:]


def _parse_toml(path: Path, text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML ({exc}); nothing was changed") from exc


def _installed_text(t: Target, current: str | None, entry: dict[str, Any]) -> str:
    if t.is_toml:
        text = current or ""
        before, block, after = _split_toml(text)
        if block is None:
            servers = _parse_toml(t.path, text).get("mcp_servers", {})
            if isinstance(servers, dict) and SERVER_NAME in servers:
                raise ConfigError(
                    f"{t.path} already has a [mcp_servers.{SERVER_NAME}] table that mnemex did not "
                    "write; remove it, then install again"
                )
            sep = (
                ""
                if not before or before.endswith("\n\n")
                else ("\n" if before.endswith("\n") else "\n\n")
            )
            new = before + sep + _toml_block(entry)
        else:
            new = before + _toml_block(entry) + after
        parsed = _parse_toml(t.path, new).get("mcp_servers", {})
        if (
            not isinstance(parsed, dict)
            or parsed.get(SERVER_NAME, {}).get("command") != entry["command"]
        ):
            raise ConfigError(
                f"{t.path}: the mnemex table would not parse as written; nothing was changed"
            )
        return new
    data = _load_json(t.path, current)
    servers = _servers(data, t.keys, create=True)
    if servers is None:
        raise ConfigError(f"{t.path}: {'.'.join(t.keys)} is not an object; nothing was changed")
    servers[SERVER_NAME] = entry
    return _dump_json(data)


def _uninstalled_text(t: Target, current: str) -> str | None:
    """The text without our entry, or None when it is not there."""
    if t.is_toml:
        before, block, after = _split_toml(current)
        if block is None:
            return None
        if before.endswith("\n\n") and not after:
            before = before[:-1]
        return before + after
    data = _load_json(t.path, current)
    servers = _servers(data, t.keys, create=False)
    if servers is None or SERVER_NAME not in servers:
        return None
    del servers[SERVER_NAME]
    if not servers:  # drop the mapping we made, when it held only our entry
        parent = _servers(data, t.keys[:-1], create=False) if len(t.keys) > 1 else data
        if parent is not None:
            del parent[t.keys[-1]]
    return _dump_json(data)


def _backup(path: Path) -> Path:
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
    backup = path.with_name(f"{path.name}.mnemex-{stamp}.bak")
    shutil.copy2(path, backup)
    return backup


def _apply(
    t: Target, current: str | None, new: str, dry_run: bool, outcome: str, entry: dict[str, Any]
) -> ConfigChange:
    diff = "".join(
        difflib.unified_diff(
            (current or "").splitlines(keepends=True),
            new.splitlines(keepends=True),
            fromfile=str(t.path) if current is not None else "/dev/null",
            tofile=str(t.path),
        )
    )
    change = ConfigChange(t.client, t.scope, t.path, outcome, diff, None, dry_run, entry)
    if dry_run:
        return change
    if current is not None:
        change.backup = _backup(t.path)
    atomic_write(t.path, new.encode("utf-8"))
    return change


def install_client(
    client: str,
    vault: Path,
    *,
    scope: str | None = None,
    config: Path | None = None,
    dry_run: bool = False,
    tools: str = "all",
    include_private: tuple[str, ...] = (),
    cwd: Path | None = None,
) -> ConfigChange:
    """Add (or update) the ``mnemex`` server entry in ``client``'s configuration.

    ``tools`` is the tool profile the entry starts the server with (``all`` or ``read``).

    Raises:
        ConfigError: unknown client or scope, or a file that cannot be read or parsed.
    """
    t = target(client, scope, config, cwd)
    entry = server_entry(client, server_command(vault, tools, include_private))
    current = _read(t.path)
    new = _installed_text(t, current, entry)
    if current == new:
        return ConfigChange(client, t.scope, t.path, "unchanged", dry_run=dry_run, entry=entry)
    return _apply(t, current, new, dry_run, "created" if current is None else "updated", entry)


def uninstall_client(
    client: str,
    *,
    scope: str | None = None,
    config: Path | None = None,
    dry_run: bool = False,
    cwd: Path | None = None,
) -> ConfigChange:
    """Remove the ``mnemex`` entry (only it) from ``client``'s configuration."""
    t = target(client, scope, config, cwd)
    current = _read(t.path)
    new = None if current is None else _uninstalled_text(t, current)
    if current is None or new is None:
        return ConfigChange(client, t.scope, t.path, "absent", dry_run=dry_run)
    return _apply(t, current, new, dry_run, "removed", {})


def installed_entries(cwd: Path | None = None) -> Iterator[tuple[Target, dict[str, Any]]]:
    """Every client configuration (any scope) that holds a ``mnemex`` entry."""
    seen: set[tuple[Path, tuple[str, ...]]] = set()
    for client in CLIENTS:
        for scope in SCOPES[client]:
            t = target(client, scope, cwd=cwd)
            if (t.path, t.keys) in seen:
                continue
            seen.add((t.path, t.keys))
            try:
                text = _read(t.path)
                if text is None:
                    continue
                if t.is_toml:
                    servers = _parse_toml(t.path, text).get("mcp_servers", {})
                else:
                    servers = _servers(_load_json(t.path, text), t.keys, create=False) or {}
            except ConfigError:
                continue
            entry = servers.get(SERVER_NAME) if isinstance(servers, dict) else None
            if isinstance(entry, dict):
                yield t, entry


def _rpc(
    proc: subprocess.Popen[str],
    lines: queue.Queue[str | None],
    message: dict[str, Any],
    deadline: float,
) -> dict[str, Any] | None:
    """Send one JSON-RPC message; for a request, wait for the reply with its id."""
    assert proc.stdin is not None
    proc.stdin.write(json.dumps(message) + "\n")
    proc.stdin.flush()
    if "id" not in message:
        return None
    while True:
        try:
            line = lines.get(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            return None
        if line is None:
            return None
        try:
            reply = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(reply, dict) and reply.get("id") == message["id"]:
            return reply


def probe_server(command: str, args: list[str], timeout: float = 20.0) -> tuple[bool, str]:
    """Start a stdio MCP server and ask it for its tools, speaking JSON-RPC by hand.

    Returns ``(ok, detail)``: the server's name, tool count and time to answer, or
    what went wrong. The core never imports the MCP SDK; a handshake is three messages.
    """
    started = time.monotonic()
    deadline = started + timeout
    try:
        proc = subprocess.Popen(
            [command, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
    except OSError as exc:
        return False, f"cannot start {command}: {exc.strerror or exc}"
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    try:
        hello = _rpc(
            proc,
            lines,
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "mnemex-doctor", "version": __version__},
                },
            },
            deadline,
        )
        if hello is None or "result" not in hello:
            why = "exited" if proc.poll() is not None else f"no answer within {timeout:.0f} s"
            return False, f"did not answer initialize ({why})"
        _rpc(proc, lines, {"jsonrpc": "2.0", "method": "notifications/initialized"}, deadline)
        listing = _rpc(proc, lines, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, deadline)
        tools = (listing or {}).get("result", {}).get("tools")
        if not isinstance(tools, list):
            return False, "answered initialize but did not list its tools"
        name = hello["result"].get("serverInfo", {}).get("name", "?")
        ms = (time.monotonic() - started) * 1000
        return True, f"{name} answered with {len(tools)} tools in {ms:.0f} ms"
    except OSError as exc:
        return False, f"the server closed its input: {exc.strerror or exc}"
    finally:
        with contextlib.suppress(OSError):
            if proc.stdin is not None:
                proc.stdin.close()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


def check_installed_clients(cwd: Path | None = None, probe: bool = True) -> list[dict[str, str]]:
    """One check per installed client entry: does it start a working mnemex server?"""
    checks = []
    for t, entry in installed_entries(cwd):
        name = f"client {t.client} ({t.scope})"
        command = entry.get("command")
        args = entry.get("args") or []
        if not isinstance(command, str) or not isinstance(args, list):
            checks.append(
                {"name": name, "status": "fail", "detail": f"{t.path}: entry has no command"}
            )
            continue
        if not Path(command).is_absolute() or not Path(command).exists():
            checks.append(
                {
                    "name": name,
                    "status": "fail",
                    "detail": f"{t.path}: {command} does not exist; "
                    f"run `mnemex install {t.client}` again",
                }
            )
            continue
        if "--vault" in args:
            at = args.index("--vault") + 1
            vault = Path(str(args[at])) if at < len(args) else None
            if vault is None or not vault.is_dir():
                checks.append(
                    {
                        "name": name,
                        "status": "fail",
                        "detail": f"{t.path}: vault {vault} does not exist",
                    }
                )
                continue
        if not probe:
            checks.append({"name": name, "status": "ok", "detail": f"{t.path} -> {command}"})
            continue
        ok, detail = probe_server(command, [str(a) for a in args])
        checks.append(
            {"name": name, "status": "ok" if ok else "fail", "detail": f"{detail} ({t.path})"}
        )
    return checks


__all__ = [
    "CLIENTS",
    "CODEX_STARTUP_TIMEOUT_SEC",
    "SCOPES",
    "SERVER_NAME",
    "TOOL_PROFILES",
    "ConfigChange",
    "ServerCommand",
    "Target",
    "check_installed_clients",
    "install_client",
    "installed_entries",
    "probe_server",
    "server_command",
    "server_entry",
    "target",
    "uninstall_client",
]
