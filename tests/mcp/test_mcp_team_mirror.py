"""A team's mirror as an agent meets it: the real ``mnemex serve`` over stdio, a real MCP
client. Mirror pages are found and read like the member's own knowledge, named as the team's,
and refused to every write tool with a pointer to the member's own domain."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_support import error, make_vault, ok

from helpers import write

MIRRORED = "wiki/shared-acme/harbour-project--acme.md"
PAGE = (
    "---\ntype: entity\ntitle: Harbour Project\ncontributors:\n- bob\n---\n# Harbour Project\n\n"
    "## Statements\n- The harbour project dredges the zqberth basin every spring. — bob\n"
)


def test_an_agent_finds_and_reads_the_mirror_and_cannot_write_it(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "vault")
    write(root, MIRRORED, PAGE)
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "mnemex", "--vault", str(root), "serve"],
        env={**os.environ, "HOME": str(tmp_path / "home")},
        cwd=str(root),
    )

    async def go() -> None:
        async with Client(server) as client:
            with anyio.fail_after(120):
                found = ok(await client.call_tool("search", {"query": "zqberth basin dredging"}))
                hit = next(h for h in found["hits"] if h["path"] == MIRRORED)
                assert hit["team"] == "acme"
                page = ok(await client.call_tool("read_page", {"path": MIRRORED}))
                assert page["team"] == "acme" and "zqberth" in page["content"]
                refused = error(
                    await client.call_tool(
                        "write_page", {"path": "wiki/shared-acme/mine.md", "content": "# Mine\n"}
                    )
                )
                assert "your own domain" in refused
                refused = error(
                    await client.call_tool(
                        "append_to_page", {"path": MIRRORED, "content": "An edit of mine."}
                    )
                )
                assert "mnemex team pull" in refused

    anyio.run(go)
    assert (root / MIRRORED).read_text(encoding="utf-8") == PAGE
