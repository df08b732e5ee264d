"""Writing wiki pages: new entity, concept and summary pages, and additive merges.

A merge only adds (vault format §4): frontmatter lists are unioned, a field two
sources disagree on keeps both values, and body items are appended to the end
of their section unless an equal line is already there. Existing lines are
never rewritten or moved, so whatever a person wrote by hand stays where it is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import yaml

from mnemex.text.sanitise import escape, strip
from mnemex.vault.markdown import atx_heading, split_frontmatter

#: The sections mnemex writes on entity and concept pages, in order.
PAGE_SECTIONS = ("Key points", "Related", "Sources")

_SPACE_RE = re.compile(r"\s+")


def clean_text(text: str) -> str:
    """Ingested text as it may be written: stripped, escaped, one line, and link-inert.

    Brackets that would make a ``[[wikilink]]`` or a local ``[x](y.md)`` link are
    escaped, so the only links on a page are the ones ingestion grounded.
    """
    one = _SPACE_RE.sub(" ", escape(strip(text))).strip()
    return one.replace("[[", "\\[\\[").replace("]]", "\\]\\]").replace("](", "]\\(")


def dump_frontmatter(meta: dict[str, Any]) -> str:
    """YAML frontmatter in the given key order, block-style lists (times come out quoted)."""
    text = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, default_flow_style=False)
    return f"---\n{text}---\n"


def split_page(text: str) -> tuple[dict[str, Any], str]:
    """A page's frontmatter (``{}`` when absent or broken) and body."""
    fm_text, body, _ = split_frontmatter(text)
    if not fm_text:
        return {}, body
    try:
        meta = yaml.safe_load(fm_text)
    except yaml.YAMLError:
        return {}, text
    return (meta if isinstance(meta, dict) else {}), body


def _norm(line: str) -> str:
    return _SPACE_RE.sub(" ", line.strip().lstrip("-*").strip()).casefold()


def _section_name(line: str) -> str | None:
    match = atx_heading(line, empty=True)
    if match is None or match[0] != 2:
        return None
    return match[1].replace("—", "-").replace("–", "-").casefold()


def new_body(title: str, lead: str, sections: Mapping[str, list[str] | str]) -> str:
    """A body: ``# title``, the lead paragraph, then each non-empty section in order.

    A section given as a list is bullets; one given as a string is a paragraph.
    """
    parts = [f"# {title}\n"]
    if lead:
        parts.append(f"{lead}\n")
    for name, items in sections.items():
        if isinstance(items, str):
            parts.append(f"\n## {name}\n{items}\n" if items else "")
        elif items:
            parts.append(f"\n## {name}\n" + "".join(f"- {item}\n" for item in items))
    return "".join(parts)


def merge_body(body: str, lead: str, sections: dict[str, list[str]]) -> str:
    """Append ``sections``' new items to ``body``; existing lines are kept as they are.

    An item equal to a line already in its section (case and spacing ignored) is
    not added again. A missing section is appended at the end. ``lead`` is written
    under the title only when the page has no lead paragraph yet.
    """
    lines = body.split("\n")
    if lead:
        lines = _with_lead(lines, lead)
    for name, items in sections.items():
        if not items:
            continue
        start, end = _find_section(lines, name.casefold())
        if start is None:
            while lines and not lines[-1].strip():
                lines.pop()
            fresh = list(dict.fromkeys(items))
            lines += ["", f"## {name}", *(f"- {i}" for i in fresh), ""]
            continue
        have = {_norm(line) for line in lines[start + 1 : end]}
        fresh = [i for i in dict.fromkeys(items) if _norm(i) not in have]
        if not fresh:
            continue
        insert = end
        while insert > start + 1 and not lines[insert - 1].strip():
            insert -= 1
        lines[insert:insert] = [f"- {i}" for i in fresh]
    text = "\n".join(lines)
    return text if text.endswith("\n") else text + "\n"


def _find_section(lines: list[str], name: str) -> tuple[int | None, int]:
    start: int | None = None
    for index, line in enumerate(lines):
        heading = atx_heading(line, empty=True)
        if start is not None and heading is not None and heading[0] <= 2:
            return start, index
        if start is None and _section_name(line) == name:
            start = index
    return start, len(lines)


def _with_lead(lines: list[str], lead: str) -> list[str]:
    """Put the lead under ``# title`` when nothing stands between it and the first section."""
    title_at = next((i for i, line in enumerate(lines) if line.startswith("# ")), None)
    if title_at is None:
        return lines
    after = title_at + 1
    while after < len(lines) and not lines[after].strip():
        after += 1
    if after < len(lines) and not lines[after].startswith("#"):
        return lines  # a lead paragraph is there already
    return [*lines[: title_at + 1], lead, *([""] if after < len(lines) else []), *lines[after:]]


def union(existing: Any, new: list[Any]) -> list[Any]:
    """A frontmatter list plus new values not already in it (order kept, existing first)."""
    have: list[Any] = (
        list(existing) if isinstance(existing, list) else ([existing] if existing else [])
    )
    keys = {_key(v) for v in have}
    for value in new:
        if _key(value) not in keys:
            have.append(value)
            keys.add(_key(value))
    return have


def _key(value: Any) -> str:
    if isinstance(value, dict):
        return str(value.get("sha256") or value.get("path") or value)
    return str(value).casefold()


def keep_both(existing: Any, new: Any) -> Any:
    """A scalar field two sources disagree on keeps both values (a list), never overwritten."""
    if existing in (None, "", []) or existing == new:
        return new if existing in (None, "", []) else existing
    return union(existing, [new])


__all__ = [
    "PAGE_SECTIONS",
    "clean_text",
    "dump_frontmatter",
    "keep_both",
    "merge_body",
    "new_body",
    "split_page",
    "union",
]
