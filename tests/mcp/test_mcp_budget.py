"""What an agent pays before its first call: each tool profile's list stays within its budget.

The real server in a subprocess, listed by the SDK's client over stdio, counted as
the tools/list JSON plus the initialize instructions in MiniLM word pieces. A tool
added later has to fit too: this fails when a profile grows past its budget.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_support import make_vault

from mnemex.mcp.budget import TOOL_BUDGETS, ListingCost, listing_cost, word_pieces
from mnemex.mcp.registry import registry


def served(root: Path, *args: str) -> ListingCost:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "mnemex", "--vault", str(root), "serve", *args],
        env={**os.environ},
    )

    async def go() -> ListingCost:
        async with Client(params, mode="legacy") as client:
            return await listing_cost(client)

    return anyio.run(go)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_vault(tmp_path_factory.mktemp("budget") / "vault", git=False)


@pytest.mark.parametrize("profile", ["all", "read"])
def test_each_tool_profile_costs_an_agent_no_more_than_its_budget(root: Path, profile: str) -> None:
    cost = served(root, "--tools", profile)
    assert cost.tools == len(registry.specs(profile))  # type: ignore[arg-type]
    assert cost.instructions, "the server gives the client instructions"
    pieces = word_pieces(cost.tools_json) + word_pieces(cost.instructions)
    assert pieces == cost.word_pieces
    assert pieces <= TOOL_BUDGETS[profile], (
        f"the {profile} tool list costs {pieces} word pieces, over its budget of "
        f"{TOOL_BUDGETS[profile]}: shorten descriptions before adding a tool"
    )


def test_the_listing_carries_no_schema_noise(root: Path) -> None:
    tools = json.loads(served(root, "--tools", "all").tools_json)["tools"]
    for tool in tools:
        assert set(tool) <= {"name", "description", "inputSchema", "annotations"}, tool["name"]
        assert "title" not in tool["inputSchema"]
        for name, schema in tool["inputSchema"].get("properties", {}).items():
            assert not {"title", "anyOf", "maxLength"} & set(schema), f"{tool['name']}.{name}"
            assert schema.get("default", 0) is not None, f"{tool['name']}.{name}"


def test_read_only_serves_the_read_profile(root: Path) -> None:
    assert served(root, "--read-only").tools_json == served(root, "--tools", "read").tools_json


def test_word_pieces_are_counted_whole_without_padding_or_truncation() -> None:
    assert word_pieces("") == 0
    assert word_pieces("search") == 1
    assert word_pieces("word " * 1000) == 1000
