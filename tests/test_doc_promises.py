"""Docs say what is: they cite files that exist, and mark as planned what no code does yet."""

from __future__ import annotations

import re
from pathlib import Path

import mnemex.mcp.tools  # noqa: F401  (registers the tools)
from mnemex.cli import cli
from mnemex.mcp.registry import registry

ROOT = Path(__file__).resolve().parents[1]
#: Instruction and design files of the person's own projects that mnemex's docs name as
#: examples (hooks write to CLAUDE.md/AGENTS.md; a foundation example adds ARCHITECTURE.md).
THEIR_FILES = {"CLAUDE.md", "AGENTS.md", "ARCHITECTURE.md"}


def _our_texts() -> list[tuple[Path, str]]:
    paths = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "AGENTS.md"]
    paths += sorted((ROOT / "src" / "mnemex").rglob("*.py"))
    return [(p, p.read_text(encoding="utf-8")) for p in paths]


def test_the_docs_and_docstrings_cite_no_project_file_that_is_missing() -> None:
    ours = {p.name for p in ROOT.glob("*.md")} | {p.name for p in (ROOT / "src").rglob("*.md")}
    missing = [
        f"{path.relative_to(ROOT)}: {name}"
        for path, text in _our_texts()
        for name in set(re.findall(r"\b[A-Z][A-Z_]*\.md\b", text))
        if name not in ours | THEIR_FILES
    ]
    assert missing == [], missing


def _cli_names() -> set[str]:
    names: set[str] = set()
    todo = [cli]
    while todo:
        group = todo.pop()
        for name, command in getattr(group, "commands", {}).items():
            names.add(name)
            todo.append(command)
    return names


def test_the_facts_section_is_marked_planned_while_no_tool_or_command_handles_facts() -> None:
    spec = (ROOT / "docs/vault-format.md").read_text(encoding="utf-8")
    [heading] = [ln for ln in spec.splitlines() if ln.startswith("## 8. Facts")]
    tools = {s.name for s in registry.specs()}
    assert tools and "search" in tools
    handled = [n for n in tools | _cli_names() if "fact" in n]
    if not handled:
        assert "planned" in heading, heading
        [row] = [ln for ln in spec.splitlines() if ln.startswith("| `facts/")]
        assert "fact tools" not in row, row
