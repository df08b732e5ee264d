"""Several real server processes (one per agent session) writing and searching one vault at once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_support import make_vault, ok

from helpers import write

SERVERS = 3
PAGES = 6


def test_every_write_from_concurrent_servers_lands_is_indexed_and_is_in_git(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "vault")
    write(root, "notes/shared-log.md", "# Shared log\n")
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(
        ["git", "-c", "user.name=A", "-c", "user.email=a@b", "commit", "-qm", "log"],
        cwd=root,
        check=True,
    )
    seen_by: dict[int, list[str]] = {}

    async def session(n: int) -> None:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "mnemex", "--vault", str(root), "serve", "--refresh", "0"],
            env={**os.environ},
            cwd=str(root),
        )
        async with Client(params) as client:
            found: list[str] = []
            for i in range(PAGES):
                ok(
                    await client.call_tool(
                        "write_page",
                        {
                            "path": f"notes/s{n}-p{i}",
                            "content": f"# S{n} P{i}\ntopic zebra{n}x{i}\n",
                        },
                    )
                )
                ok(
                    await client.call_tool(
                        "append_to_page",
                        {"path": "notes/shared-log", "content": f"- s{n} entry {i}"},
                    )
                )
                hits = ok(
                    await client.call_tool(
                        "search", {"query": "zebra", "k": 50, "max_tokens": 20000}
                    )
                )
                assert not hits.get("truncated"), hits.get("note")
                found += [h["path"] for h in hits["hits"]]
            ok(
                await client.call_tool(
                    "remember", {"text": f"Session {n} finished.", "project": "demo"}
                )
            )
            seen_by[n] = found

    async def main() -> None:
        async with anyio.create_task_group() as group:
            for n in range(SERVERS):
                group.start_soon(session, n)

    anyio.run(main)

    expected = {f"notes/s{n}-p{i}.md" for n in range(SERVERS) for i in range(PAGES)}
    assert all((root / rel).is_file() for rel in expected)
    log = (root / "notes/shared-log.md").read_text(encoding="utf-8")
    assert sorted(line for line in log.splitlines() if line.startswith("- ")) == sorted(
        f"- s{n} entry {i}" for n in range(SERVERS) for i in range(PAGES)
    )
    tracked = set(
        subprocess.run(
            ["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.split()
    )
    assert expected <= tracked
    assert len([p for p in tracked if p.startswith("memories/demo/")]) == SERVERS
    subjects = subprocess.run(
        ["git", "log", "--format=%s"], cwd=root, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    per_tool = {
        tool: sum(s.startswith(f"mnemex {tool}:") for s in subjects)
        for tool in ("write_page", "append_to_page", "remember")
    }
    assert per_tool == {
        "write_page": SERVERS * PAGES,
        "append_to_page": SERVERS * PAGES,
        "remember": SERVERS,
    }
    clean = subprocess.run(
        ["git", "status", "--porcelain", "notes", "memories"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert clean == ""
    # each session saw its own writes at once, and the index ends with every page
    for n, found in seen_by.items():
        assert {f"notes/s{n}-p{i}.md" for i in range(PAGES)} <= set(found)

    async def final() -> list[str]:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "mnemex", "--vault", str(root), "serve", "--read-only"],
            env={**os.environ},
        )
        async with Client(params) as client:
            hits = ok(
                await client.call_tool("search", {"query": "zebra", "k": 50, "max_tokens": 20000})
            )
            return [h["path"] for h in hits["hits"]]

    assert expected <= set(anyio.run(final))
