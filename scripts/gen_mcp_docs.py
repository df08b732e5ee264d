"""Print docs/mcp-tools.md: the MCP tool reference, generated from the registered tools.

    python scripts/gen_mcp_docs.py > docs/mcp-tools.md

It lists the tools as a client sees them (the SDK's own listing: descriptions,
input schemas, annotations). tests/mcp/test_docs.py fails when the file is not
what this prints.
"""

from __future__ import annotations

import json
from typing import Any

from mnemex.mcp.server import INSTRUCTIONS, tool_listing
from mnemex.mcp.state import DEFAULT_MAX_TOKENS, DEFAULT_PAGE_TOKENS, MAX_TOKENS_CEILING


def _type(schema: dict[str, Any]) -> str:
    if "anyOf" in schema:
        kinds = [_type(s) for s in schema["anyOf"] if s.get("type") != "null"]
        return " or ".join(kinds) + (" or null" if len(kinds) < len(schema["anyOf"]) else "")
    if "enum" in schema:
        return " \\| ".join(f"`{v}`" for v in schema["enum"])
    if schema.get("type") == "array":
        return f"list of {_type(schema.get('items', {}))}"
    return str(schema.get("type", "any"))


def _limits(schema: dict[str, Any]) -> str:
    parts = []
    for sub in [schema, *schema.get("anyOf", [])]:
        for key, label in (
            ("minimum", "≥"),
            ("maximum", "≤"),
            ("minLength", "min length"),
            ("maxLength", "max length"),
            ("maxItems", "at most items"),
            ("pattern", "pattern"),
        ):
            if key in sub:
                value = f"`{sub[key]}`" if key == "pattern" else f"{sub[key]:,}"
                parts.append(f"{label} {value}")
    return "; ".join(parts)


def render() -> str:
    tools = tool_listing()
    read_only = {t.name for t in tool_listing(read_only=True)}
    out = [
        "# MCP tools",
        "",
        "Generated from the code by `scripts/gen_mcp_docs.py`; do not edit by hand.",
        "",
        "`mnemex serve` (stdio) or `mnemex serve --http` serves these tools; `--read-only` serves",
        "only the read tools. Answers are bounded: lists and search default to "
        f"`max_tokens={DEFAULT_MAX_TOKENS}`,",
        f"`read_page` to {DEFAULT_PAGE_TOKENS}, at most {MAX_TOKENS_CEILING}; an answer that was "
        "cut says what it left out and how to get it.",
        "Errors the model can fix (an unknown page, a path outside the vault, a stale hash) come",
        "back as tool errors whose message says what to do next.",
        "",
        "## Instructions the server gives the client",
        "",
        "```text",
        INSTRUCTIONS,
        "```",
        "",
        "| tool | what | kind |",
        "|---|---|---|",
    ]
    for tool in tools:
        ann = tool.annotations
        kind = "read" if tool.name in read_only else "write"
        if ann is not None and ann.destructive_hint:
            kind += ", destructive"
        out.append(f"| [`{tool.name}`](#{tool.name}) | {ann.title if ann else ''} | {kind} |")
    out.append("")
    for tool in tools:
        ann = tool.annotations
        hints = []
        if ann is not None:
            hints.append("read-only" if ann.read_only_hint else "writes")
            if ann.destructive_hint:
                hints.append("destructive")
            if ann.idempotent_hint:
                hints.append("idempotent")
        out += [f"## `{tool.name}`", "", f"*{', '.join(hints)}*", "", tool.description or "", ""]
        props = tool.input_schema.get("properties", {})
        required = set(tool.input_schema.get("required", []))
        if props:
            out += ["| argument | type | required | default | limits | description |"]
            out += ["|---|---|---|---|---|---|"]
            for name, schema in props.items():
                default = "" if name in required else f"`{json.dumps(schema.get('default'))}`"
                description = schema.get("description", "").replace("|", "\\|")
                out.append(
                    f"| `{name}` | {_type(schema)} | {'yes' if name in required else 'no'} | "
                    f"{default} | {_limits(schema)} | {description} |"
                )
            out.append("")
        else:
            out += ["No arguments.", ""]
    return "\n".join(out)


if __name__ == "__main__":
    print(render(), end="")
