"""The real server in a subprocess, reached by the SDK's client over stdio and streamable HTTP."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp_support import MNEMEX, free_port, make_vault, ok

from mnemex.mcp.http import load_or_create_token
from mnemex.vault import Vault


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_vault(tmp_path / "vault")


def stdio(root: Path, *args: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "mnemex", "--vault", str(root), "serve", *args],
        env={**os.environ},
        cwd=str(root),
    )


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_client_over_stdio_lists_tools_searches_and_writes(root: Path, mode: str) -> None:
    async def go() -> dict[str, Any]:
        async with Client(stdio(root), mode=mode) as client:
            tools = [t.name for t in (await client.list_tools()).tools]
            hits = ok(await client.call_tool("search", {"query": "deploy tuesdays"}))
            made = ok(
                await client.call_tool(
                    "write_page", {"path": "notes/new", "content": "# New\nfresh\n"}
                )
            )
            found = ok(await client.call_tool("search", {"query": "fresh"}))
            return {"tools": tools, "hits": hits, "made": made, "found": found}

    out = anyio.run(go)
    assert "write_page" in out["tools"] and "search" in out["tools"]
    assert out["hits"]["hits"][0]["path"] == "notes/deploy.md"
    assert out["made"]["commit"]["committed"] is True
    assert out["found"]["hits"][0]["path"] == "notes/new.md"


@pytest.mark.parametrize("flag", [["--tools", "read"], ["--read-only"]])
def test_the_read_profile_over_stdio_has_no_write_tools(root: Path, flag: list[str]) -> None:
    async def go() -> list[str]:
        async with Client(stdio(root, *flag)) as client:
            return [t.name for t in (await client.list_tools()).tools]

    tools = anyio.run(go)
    assert "search" in tools and "write_page" not in tools


def test_the_http_token_is_made_once_and_readable_by_its_owner_only(root: Path) -> None:
    vault = Vault(root)
    token = load_or_create_token(vault)
    path = vault.local_dir / "mcp-token"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_or_create_token(vault) == token and len(token) >= 32


def test_http_refuses_requests_without_the_token_and_serves_those_with_it(root: Path) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [*MNEMEX, "--vault", str(root), "serve", "--http", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        token = _wait_for_server(root, port, proc)

        async def go() -> tuple[int, int, dict[str, Any]]:
            async with httpx2.AsyncClient() as bare:
                missing = await bare.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
                wrong = await bare.post(
                    url, json={}, headers={"Authorization": "Bearer not-the-token"}
                )
            headers = {"Authorization": f"Bearer {token}"}
            async with (
                httpx2.AsyncClient(headers=headers) as http,
                Client(streamable_http_client(url, http_client=http)) as client,
            ):
                hits = ok(await client.call_tool("search", {"query": "deploy"}))
            return missing.status_code, wrong.status_code, hits

        missing, wrong, hits = anyio.run(go)
        assert (missing, wrong) == (401, 401)
        assert hits["hits"][0]["path"] == "notes/deploy.md"
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert b"Traceback" not in err


def _wait_for_server(root: Path, port: int, proc: subprocess.Popen[bytes]) -> str:
    import socket

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return (root / ".mnemex" / "mcp-token").read_text(encoding="utf-8").strip()
        except OSError:
            time.sleep(0.05)
    raise AssertionError("the HTTP server did not start")


def test_binding_beyond_loopback_needs_an_explicit_flag(root: Path) -> None:
    done = subprocess.run(
        [*MNEMEX, "--vault", str(root), "serve", "--http", "--host", "0.0.0.0"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert "--allow-remote" in done.stderr
