"""Start a stdio MCP server the way an agent client does, and time its first answers.

``mnemex doctor`` uses it: the SDK's own client launches the command, does the
``initialize`` handshake and asks for ``tools/list``. Clients give a server a start-up
limit (Codex: 10 s by default), so the time is worth reporting; it is a doctor check and
not a test because it measures the machine as much as the code.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from mnemex.clients.install import server_command
from mnemex.errors import ServerProbeFailed
from mnemex.health.doctor import SERVE_GIVE_UP, SERVE_LIMIT, Check


@dataclass(frozen=True)
class ProbeResult:
    """What the server answered: its name, how many tools, and seconds from launch to the list."""

    server: str
    tools: int
    seconds: float


def probe_stdio_server(command: str, args: Sequence[str], *, timeout: float = 30.0) -> ProbeResult:
    """Launch ``command args`` and wait (at most ``timeout`` s) for initialize and tools/list.

    The server gets this process's environment, as a client launching it from the same
    shell would; its stderr is kept aside and its last line quoted when it fails.

    Raises:
        ServerProbeFailed: it could not be launched, exited, or did not answer in time.
    """
    with (
        tempfile.TemporaryDirectory(prefix="mnemex-probe-") as folder,
        open(Path(folder) / "stderr", "w+", encoding="utf-8") as errlog,
    ):
        params = StdioServerParameters(command=command, args=list(args), env=dict(os.environ))
        try:
            return anyio.run(_probe, params, timeout, errlog)
        except TimeoutError:
            raise ServerProbeFailed(
                f"no answer to initialize and tools/list within {timeout:g} s{_last_line(errlog)}"
            ) from None
        except Exception as exc:  # the SDK wraps what went wrong in task groups
            raise ServerProbeFailed(
                f"the server did not start: {_first_cause(exc)}{_last_line(errlog)}"
            ) from None


async def _probe(params: StdioServerParameters, timeout: float, errlog: TextIO) -> ProbeResult:
    started = time.perf_counter()
    with anyio.fail_after(timeout):
        async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
            listed = await client.list_tools()
            seconds = time.perf_counter() - started
            info = client.server_info
    return ProbeResult(info.name if info else "?", len(listed.tools), seconds)


def _first_cause(exc: BaseException) -> str:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _last_line(errlog: TextIO) -> str:
    errlog.seek(0)
    lines = [line.strip() for line in errlog.read().splitlines() if line.strip()]
    return f" (its stderr: {lines[-1][:300]})" if lines else ""


def serve_check(vault_root: Path) -> Check:
    """Start ``mnemex serve`` for this vault as a client would and time its first answers."""
    command = server_command(vault_root)
    try:
        found = probe_stdio_server(command.command, command.args, timeout=SERVE_GIVE_UP)
    except ServerProbeFailed as exc:
        return Check("serve", "fail", f"`mnemex serve` (stdio): {exc}")
    detail = (
        f"`mnemex serve` (stdio) answered initialize and tools/list ({found.tools} tools) "
        f"in {found.seconds:.1f} s"
    )
    if found.seconds > SERVE_LIMIT:  # slow, not broken: clients with a longer limit still work
        return Check(
            "serve",
            "warn",
            f"{detail}, over the {SERVE_LIMIT:g} s a client such as Codex waits by default",
        )
    return Check("serve", "ok", f"{detail} (limit {SERVE_LIMIT:g} s)")


__all__ = ["ProbeResult", "ServerProbeFailed", "probe_stdio_server", "serve_check"]
