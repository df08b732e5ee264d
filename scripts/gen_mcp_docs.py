"""Print docs/mcp-tools.md: the MCP tool reference, generated from the registered tools.

    python scripts/gen_mcp_docs.py > docs/mcp-tools.md

It lists the tools as the server builds them (the SDK's own listing: descriptions,
and the full input schemas with the limits the server checks; clients are sent a
compact form, see mnemex.mcp.arguments). tests/mcp/test_mcp_docs.py fails when the
file is not what this prints.
"""

from __future__ import annotations

import json
from typing import Any

from mnemex.mcp.budget import TOOL_BUDGETS
from mnemex.mcp.registry import registry
from mnemex.mcp.server import PROFILE_INSTRUCTIONS, tool_listing
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
    tools = tool_listing(compact=False)
    specs = {s.name: s for s in registry.specs()}
    read_profile = [s.name for s in registry.specs("read")]
    out = [
        "# MCP tools",
        "",
        "Generated from the code by `scripts/gen_mcp_docs.py`; do not edit by hand.",
        "",
        "`mnemex serve` (stdio) or `mnemex serve --http` serves these tools. Two profiles:",
        "`--tools all` (the default) serves every tool; `--tools read` (or `--read-only`) serves",
        "only what an agent needs to read: "
        + ", ".join(f"`{name}`" for name in read_profile)
        + ".",
        "`mnemex install CLIENT --tools read` registers a server with the read profile.",
        "",
        "An agent pays for the tool list and the server's instructions in every session, used or",
        f"not. Each profile has a budget, in word pieces of the shipped MiniLM tokenizer: all "
        f"tools at most {TOOL_BUDGETS['all']:,},",
        f"the read profile at most {TOOL_BUDGETS['read']:,} "
        "(`tests/mcp/test_mcp_budget.py`; `python bench/mcp_tool_budget.py`",
        "prints the figures). So the list a client receives is compact: no titles, no output",
        "schema (every tool answers a JSON object, as `structuredContent` and as text), optional",
        "arguments as plain types, and no length or pattern caps. The server still checks those",
        "(the limits column below), and a bad argument gets one sentence naming it and what it",
        "must be (`limit must be an integer between 1 and 200`). A string where a list of",
        "strings is expected is taken as a one-item list.",
        "",
        f"Answers are bounded: lists and search default to `max_tokens={DEFAULT_MAX_TOKENS}`,",
        f"`read_page` to {DEFAULT_PAGE_TOKENS}, at most {MAX_TOKENS_CEILING}; an answer that was "
        "cut says what it left out and how to get it.",
        "Errors the model can fix (an unknown page, a path outside the vault, a stale hash) come",
        "back as tool errors whose message says what to do next.",
        "",
        "## Instructions the server gives the client",
        "",
        "With all tools:",
        "",
        "```text",
        PROFILE_INSTRUCTIONS["all"],
        "```",
        "",
        "With the read profile:",
        "",
        "```text",
        PROFILE_INSTRUCTIONS["read"],
        "```",
        "",
        "| tool | what | kind | read profile |",
        "|---|---|---|---|",
    ]
    for tool in tools:
        spec = specs[tool.name]
        kind = "write" if spec.writes else "read"
        if spec.writes and spec.destructive:
            kind += ", destructive"
        in_read = "yes" if spec.read else ""
        out.append(f"| [`{tool.name}`](#{tool.name}) | {spec.title} | {kind} | {in_read} |")
    out.append("")
    for tool in tools:
        spec = specs[tool.name]
        hints = ["writes" if spec.writes else "read-only"]
        if spec.writes and spec.destructive:
            hints.append("destructive")
        if spec.idempotent:
            hints.append("idempotent")
        if spec.read:
            hints.append("in the read profile")
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
