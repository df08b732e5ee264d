"""Helpers for the MCP tests: a small vault, a served brain, and calls through the SDK's client."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import anyio
from mcp import Client
from mcp.types import CallToolResult

from helpers import write
from mnemex.brain import Brain
from mnemex.config import settings_template
from mnemex.embed.hashing import HashingEmbedder
from mnemex.mcp.registry import Profile
from mnemex.mcp.server import build_server
from mnemex.mcp.state import ServeOptions, ServerState
from mnemex.vault import Vault, init_vault

T = TypeVar("T")
MNEMEX = [sys.executable, "-m", "mnemex"]


def make_vault(root: Path, git: bool = True) -> Path:
    """A git vault with the hashing embedder, a few linked notes and a private domain."""
    root.mkdir(parents=True)
    (root / "mnemex.toml").write_text(  # before init, so .gitignore keeps the private names out
        settings_template("test-brain")
        .replace('name = "minilm"', 'name = "hashing"')
        .replace('private = ["private"]', 'private = ["private", "secret-project"]'),
        encoding="utf-8",
    )
    init_vault(root, git=git)
    write(
        root,
        "notes/deploy.md",
        "---\ntitle: Deploying\ntags: [ops]\n---\n# Deploying\n\n- We deploy on Tuesdays with "
        "blue green switches\n- Rollback takes a minute\n\nSee [[database]].\n",
    )
    write(root, "notes/database.md", "# Database\n\nPostgreSQL is the system of record. #ops\n")
    write(
        root,
        "wiki/general/concepts/bm25.md",
        "---\ntype: concept\ntitle: BM25\n---\n# BM25\nBM25 ranks documents by term frequency.\n"
        "Used by [[deploy]] search.\n",
    )
    write(
        root,
        "wiki/private/entities/diary.md",
        "# Diary\nThe launch codes are hidden deploy words.\n",
    )
    write(
        root,
        "memories/secret-project/2026-12/2026-12-01-plan-1a2b3c4d.md",
        "---\ntype: memory\ntitle: Plan\nproject: secret-project\nharness: mnemex\n---\n"
        "# Plan\nThe secret deploy plan.\n",
    )
    if git:  # the person's own history: everything but what .gitignore keeps out
        identity = ["-c", "user.name=Ada", "-c", "user.email=ada@example.org"]
        subprocess.run(["git", "add", "-A"], cwd=root, check=True)
        subprocess.run(["git", *identity, "commit", "-qm", "start"], cwd=root, check=True)
    return root


def state_for(root: Path, **options: Any) -> ServerState:
    options.setdefault("refresh_seconds", 0.0)
    brain = Brain(Vault(root), embedder=HashingEmbedder())
    return ServerState(brain, ServeOptions(**options))


def run_with_client(
    state: ServerState, body: Callable[[Client], Awaitable[T]], profile: Profile | None = None
) -> T:
    server = build_server(state, profile=profile)

    async def go() -> T:
        async with Client(server) as client:
            return await body(client)

    return anyio.run(go)


def call(state: ServerState, name: str, **arguments: Any) -> CallToolResult:
    async def body(client: Client) -> CallToolResult:
        return await client.call_tool(name, arguments)

    return run_with_client(state, body)


def ok(result: CallToolResult) -> dict[str, Any]:
    """The structured answer of a successful call (the text is the same JSON)."""
    assert not result.is_error, text_of(result)
    assert result.structured_content is not None
    assert json.loads(text_of(result)) == result.structured_content
    return result.structured_content


def error(result: CallToolResult) -> str:
    """The message of a tool error."""
    assert result.is_error, text_of(result)
    return text_of(result)


def text_of(result: CallToolResult) -> str:
    block = result.content[0]
    return str(getattr(block, "text", block))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve_process(root: Path, *args: str, stdin: int | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [*MNEMEX, "--vault", str(root), "serve", *args],
        stdin=stdin,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ},
    )
