"""The MCP tool reference is generated from the registered tools, and checked here."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_mcp_docs", ROOT / "scripts/gen_mcp_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docs_mcp_tools_md_matches_the_tools_in_the_code() -> None:
    expected = _generator().render()
    actual = (ROOT / "docs/mcp-tools.md").read_text(encoding="utf-8")
    assert actual == expected, "docs/mcp-tools.md is stale: run `make docs`"


def test_every_tool_and_argument_is_described() -> None:
    from mnemex.mcp.server import tool_listing

    for tool in tool_listing():
        assert tool.description and "Example:" in tool.description, tool.name
        for name, schema in tool.input_schema.get("properties", {}).items():
            assert schema.get("description"), f"{tool.name}.{name} has no description"
