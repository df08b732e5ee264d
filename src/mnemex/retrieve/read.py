"""Reading one note back: its frontmatter, body or one section, links and tags.

The read side of :mod:`mnemex.pages.notes`; every interface serves a note through it.
"""

from __future__ import annotations

from typing import Any

from mnemex.brain import Brain
from mnemex.errors import NoteNotFound
from mnemex.text.tokens import estimate_tokens, trim_to_tokens
from mnemex.vault import parse_note
from mnemex.vault.markdown import atx_heading


def select_section(body: str, heading: str) -> str:
    """The part of ``body`` under ``heading`` (case-insensitive), up to the next heading
    of the same or a higher level.

    Raises:
        NoteNotFound: no such heading; the message lists the headings there are.
    """
    lines = body.split("\n")
    found: list[str] = []
    start = level = None
    for i, line in enumerate(lines):
        m = atx_heading(line, empty=True)
        if not m:
            continue
        found.append(m[1])
        if start is None and m[1].strip().lower() == heading.strip().lower():
            start, level = i, m[0]
        elif start is not None and level is not None and m[0] <= level:
            return "\n".join(lines[start:i]).strip() + "\n"
    if start is None:
        listed = "; ".join(found) or "none"
        raise NoteNotFound(f"no section {heading!r}; headings: {listed}")
    return "\n".join(lines[start:]).strip() + "\n"


def read_note(
    brain: Brain, path: str, *, section: str | None = None, max_tokens: int | None = None
) -> dict[str, Any]:
    """A note's frontmatter, body (or one section), links, tags and hash."""
    note = brain.vault.read_note(path)
    parsed = parse_note(note.text, note.rel)
    body = select_section(parsed.body, section) if section else parsed.body
    truncated = False
    if max_tokens is not None:
        body, truncated = trim_to_tokens(body, max_tokens)
    return {
        "path": note.rel,
        "title": parsed.title,
        "hash": note.hash,
        "frontmatter": parsed.frontmatter,
        "tags": parsed.tags,
        "links": [link.raw for link in parsed.links],
        "warnings": parsed.warnings,
        "content": body,
        "tokens": estimate_tokens(body),
        "truncated": truncated,
    }


__all__ = ["read_note", "select_section"]
