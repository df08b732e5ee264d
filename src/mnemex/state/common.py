"""What the brief, the handoffs and the journal share (vault format §6).

Limits, sanitising per field, list trimming with an explicit note, the
shrink guard, section parsing, and the error a refused save raises.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from mnemex.errors import StateRefused
from mnemex.text.sanitise import sanitise

#: At most this many items in one list section; the rest is trimmed with a note.
MAX_ITEMS = 20
#: At most this many characters in one item (or prose field); the rest is trimmed.
MAX_ITEM_CHARS = 1_000
#: Prose fields of the brief (standing brief, working model) hold more.
MAX_PROSE_CHARS = 6_000
MAX_HEADLINE = 200
#: A state file whose content (sections, without headings) is at least this long is substantial.
SUBSTANTIAL_CHARS = 400
#: A save over a substantial file keeping less than this fraction of its content is a sliver.
SLIVER_FRACTION = 0.25


def clean_line(text: str) -> str:
    """Sanitise a one-line field: the full treatment, newlines folded to spaces."""
    return " ".join(sanitise(text).split())


def clean_block(text: str) -> str:
    """Sanitise a multi-line field, trimming trailing space and blank runs."""
    lines = [ln.rstrip() for ln in sanitise(text).strip().split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines))


def cut(text: str, limit: int) -> tuple[str, str | None]:
    """``text`` within ``limit`` characters; returns (kept, the whole text if it was cut)."""
    if len(text) <= limit:
        return text, None
    keep = text[: limit - 40].rsplit(" ", 1)[0] or text[: limit - 40]
    return f"{keep} … _{len(text) - len(keep):,} characters omitted_", text


@dataclass
class Trimmed:
    """What a save left out, by section name: kept in its journal line."""

    items: dict[str, list[str]] = field(default_factory=dict)

    def add(self, section: str, values: list[str]) -> None:
        if values:
            self.items.setdefault(section, []).extend(values)

    def to_dict(self) -> dict[str, list[str]]:
        return {k: list(v) for k, v in self.items.items()}


def trim_list(section: str, items: list[str], trimmed: Trimmed) -> tuple[list[str], int]:
    """Items within :data:`MAX_ITEMS` and :data:`MAX_ITEM_CHARS`; returns (kept, omitted count)."""
    kept: list[str] = []
    for item in items[:MAX_ITEMS]:
        short, whole = cut(item, MAX_ITEM_CHARS)
        if whole is not None:
            trimmed.add(section, [whole])
        kept.append(short)
    rest = items[MAX_ITEMS:]
    trimmed.add(section, rest)
    return kept, len(rest)


def bullets(items: list[str], omitted: int = 0) -> str:
    """``- item`` lines (continuation lines indented), ending in the omission note if any."""
    out = []
    for item in items:
        first, *more = item.split("\n")
        out.append("- " + first + "".join("\n  " + m for m in more if m.strip()))
    if omitted:
        out.append(f"- _{omitted} more omitted_")
    return "\n".join(out)


def section_key(name: str) -> str:
    """A heading as a comparable key: case-folded, dashes alike, spaces collapsed."""
    name = unicodedata.normalize("NFKC", name).casefold()
    name = re.sub(r"\s*[—–-]+\s*", " - ", name)
    return " ".join(name.split())


def split_sections(body: str) -> tuple[str, list[str], dict[str, str]]:
    """(H1 title, lines before the first ``##``, section key -> text) of a state body."""
    title = ""
    preamble: list[str] = []
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    fenced = False
    for line in body.split("\n"):
        if line.startswith(("```", "~~~")):
            fenced = not fenced
        if not fenced and line.startswith("## "):
            current = sections.setdefault(section_key(line[3:].strip()), [])
            continue
        if not fenced and current is None and not title and line.startswith("# "):
            title = line[2:].strip()
            continue
        (preamble if current is None else current).append(line)
    return title, preamble, {k: "\n".join(v).strip() for k, v in sections.items()}


def parse_bullets(text: str) -> list[str]:
    """The items of a bullet list (continuation lines joined back with newlines)."""
    items: list[str] = []
    for line in text.split("\n"):
        if line.startswith(("- ", "* ")):
            items.append(line[2:].rstrip())
        elif items and line.startswith(("  ", "\t")):
            items[-1] += "\n" + line.strip()
        elif line.strip() and not items:
            items.append(line.strip())
        elif line.strip():
            items[-1] += "\n" + line.strip()
    return items


def content_size(sections: dict[str, Any]) -> int:
    """Characters of content in a mapping of sections (strings or lists of strings)."""
    total = 0
    for value in sections.values():
        if isinstance(value, str):
            total += len(value.strip())
        elif isinstance(value, list):
            total += sum(len(str(v).strip()) for v in value)
    return total


def check_shrink(what: str, path: str, old: int, new: int, replace: bool) -> None:
    """Refuse a save that would shrink a substantial file to a sliver or empty it.

    Raises:
        StateRefused: unless ``replace``.
    """
    if replace or old < SUBSTANTIAL_CHARS:
        return
    if new == 0 or new < old * SLIVER_FRACTION:
        raise StateRefused(
            f"refused: this {what} would shrink {path} from {old:,} to {new:,} characters of "
            "content, which looks like lost work. Read it first (get_context or get_handoff) and "
            "carry forward what still holds; to replace it anyway, save again with replace=True"
        )


__all__ = [
    "MAX_HEADLINE",
    "MAX_ITEMS",
    "MAX_ITEM_CHARS",
    "MAX_PROSE_CHARS",
    "SLIVER_FRACTION",
    "SUBSTANTIAL_CHARS",
    "StateRefused",
    "Trimmed",
    "bullets",
    "check_shrink",
    "clean_block",
    "clean_line",
    "content_size",
    "cut",
    "parse_bullets",
    "section_key",
    "split_sections",
    "trim_list",
]
