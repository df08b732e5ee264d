"""A real MCP client (the SDK's, over stdio, the server in a subprocess) never gets text
from outside the vault, whichever tool it asks: the index leaves out what a read refuses."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_support import make_vault, text_of

from helpers import write

SECRET = "the launch code is swordfish"


def stdio(root: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "mnemex", "--vault", str(root), "serve"],
        env={**os.environ},
        cwd=str(root),
    )


def test_no_tool_answers_with_the_text_of_a_symlink_pointing_outside_the_vault(
    tmp_path: Path,
) -> None:
    root = make_vault(tmp_path / "vault")
    outside = tmp_path / "outside"
    write(outside, "secret.md", f"# Secret\n\n{SECRET} [[deploy]]\n")
    os.symlink(outside / "secret.md", root / "notes/leak.md")
    os.symlink(outside, root / "notes/ext")

    async def go() -> dict[str, Any]:
        async with Client(stdio(root)) as client:
            answers = {}
            for name, args in [
                ("search", {"query": "launch code"}),
                ("search", {"query": "secret", "folder": "notes"}),
                ("recent", {}),
                ("get_backlinks", {"path": "notes/deploy"}),
                ("get_graph_overview", {}),
                ("get_connected_nodes", {"path": "notes/deploy"}),
                ("read_page", {"path": "notes/leak"}),
                ("read_page", {"path": "notes/ext/secret"}),
            ]:
                result = await client.call_tool(name, args)
                answers[f"{name} {args}"] = (result.is_error, text_of(result))
            return answers

    answers = anyio.run(go)
    for call, (_, text) in answers.items():
        assert "swordfish" not in text, call
        assert "leak" not in text or call.startswith("read_page"), call
    refused = answers["read_page {'path': 'notes/leak'}"]
    assert refused[0] and "outside the vault" in refused[1]
