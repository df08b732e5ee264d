"""Text edits the fixes make: re-pointing links, adding a line to a section, merging pages.

Pure functions of text, so a fix can be previewed (and diffed) before anything
is written. They change only what they are asked to: a re-pointed link keeps its
heading, its alias and its embed mark, and a merge only adds.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

from mnemex.vault import parse_note, render_note
from mnemex.vault.markdown import link_spans, split_frontmatter

_HEADING_RE = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_SLUG_LIKE = re.compile(r"^[a-z0-9/._-]+$")


def repoint(
    text: str, wants: Callable[[str], str | None], keep_label: bool = True
) -> tuple[str, list[dict[str, Any]]]:
    """Rewrite the links whose written target ``wants`` maps to a new one.

    ``wants(target)`` returns the new wikilink target (or a path, for a markdown
    link) or None to leave the link alone. A wikilink without an alias whose
    written target was readable text keeps it as its alias, so the page reads
    the same. Returns the new text and one ``{line, from, to}`` per change.
    """
    _, body, body_line = split_frontmatter(text)
    prefix = text[: len(text) - len(body)]
    lines = body.split("\n")
    changes: list[dict[str, Any]] = []
    for span in reversed(link_spans(body)):
        new = wants(span.link.target)
        if new is None:
            continue
        line = lines[span.line]
        written = line[span.start : span.end]
        if span.markdown:
            new = new.replace(" ", "%20") + ("" if new.lower().endswith(".md") else ".md")
            lines[span.line] = line[: span.start] + new + line[span.end :]
        else:
            rest = line[span.end :]
            close = rest.find("]]")
            label = ""
            if (
                keep_label
                and span.link.alias is None
                and not _SLUG_LIKE.match(written.strip())
                and written.strip().lower() != new.lower()
            ):
                label = f"|{written.strip()}"
            if close >= 0 and label:
                rest = rest[:close] + label + rest[close:]
            lines[span.line] = line[: span.start] + new + rest
        changes.append({"line": body_line + span.line, "from": written, "to": new})
    changes.reverse()
    return prefix + "\n".join(lines), changes


def _norm(text: str) -> str:
    return " ".join(text.replace("—", "-").replace("–", "-").lower().split())


def split_sections(body: str) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """``(lead lines, [(## heading, lines)])``; the H1 stays in the lead."""
    lead: list[str] = []
    sections: list[tuple[str, list[str]]] = []
    for line in body.split("\n"):
        m = _HEADING_RE.match(line)
        if m and len(m.group(1)) == 2:
            sections.append((m.group(2), []))
        elif sections:
            sections[-1][1].append(line)
        else:
            lead.append(line)
    return lead, sections


def join_sections(lead: list[str], sections: list[tuple[str, list[str]]]) -> str:
    out = list(lead)
    for heading, lines in sections:
        while out and not out[-1].strip():
            out.pop()
        out.append(f"## {heading}")
        out.extend(lines)
    text = "\n".join(out)
    return text if text.endswith("\n") else text + "\n"


def add_to_section(text: str, heading: str, line: str) -> str:
    """Append ``line`` at the end of section ``## heading`` (made at the end if missing)."""
    _, body, _ = split_frontmatter(text)
    prefix = text[: len(text) - len(body)]
    lead, sections = split_sections(body)
    for name, lines in sections:
        if _norm(name) == _norm(heading):
            while lines and not lines[-1].strip():
                lines.pop()
            lines.append(line)
            lines.append("")
            break
    else:
        sections.append((heading, [line, ""]))
    return prefix + join_sections(lead, sections)


def _union(first: list[Any], second: list[Any], key: Callable[[Any], str]) -> list[Any]:
    out = list(first)
    seen = {key(v) for v in first}
    for value in second:
        if key(value) not in seen:
            seen.add(key(value))
            out.append(value)
    return out


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def merge_pages(keep_text: str, keep_path: str, gone_text: str, gone_path: str, now: str) -> str:
    """``keep`` with everything ``gone`` says that it does not: names as aliases, tags and
    sources unioned, each section's new lines appended to the same section (or the
    section added), the lead paragraph kept under ``## Merged from <title>``; ``updated``
    becomes ``now`` (given, so a preview and its apply produce the same text)."""
    keep = parse_note(keep_text, keep_path)
    gone = parse_note(gone_text, gone_path)
    fm = dict(keep.frontmatter)
    names = [gone.title, *gone.aliases]
    stem = PurePosixPath(gone_path).stem
    if stem.lower() != gone.title.lower():
        names.append(stem)
    aliases = _union(
        [a for a in _as_list(fm.get("aliases")) if str(a)],
        [n for n in names if n.strip().lower() != keep.title.strip().lower()],
        lambda v: str(v).strip().lower(),
    )
    if aliases:
        fm["aliases"] = aliases
    tags = _union(_as_list(fm.get("tags")), _as_list(gone.frontmatter.get("tags")), str)
    if tags:
        fm["tags"] = tags
    sources = _union(
        _as_list(fm.get("sources")),
        _as_list(gone.frontmatter.get("sources")),
        lambda v: str(v.get("path")) if isinstance(v, dict) else str(v),
    )
    if sources or "sources" in fm:
        fm["sources"] = sources
    for key, value in gone.frontmatter.items():
        if key not in fm and key not in ("type", "title", "created", "updated"):
            fm[key] = value
    if "updated" in fm:
        fm["updated"] = now
    lead, sections = split_sections(keep.body)
    present = {_norm(line) for line in keep.body.split("\n") if line.strip()}
    gone_lead, gone_sections = split_sections(gone.body)
    extra_lead = [
        ln
        for ln in gone_lead
        if ln.strip() and _norm(ln) not in present and not _is_title(ln, gone.title)
    ]
    for heading, lines in gone_sections:
        new = [ln for ln in lines if ln.strip() and _norm(ln) not in present]
        if not new:
            continue
        present.update(_norm(ln) for ln in new)
        for name, mine in sections:
            if _norm(name) == _norm(heading):
                while mine and not mine[-1].strip():
                    mine.pop()
                mine.extend([*new, ""])
                break
        else:
            sections.append((heading, [*new, ""]))
    if extra_lead:
        sections.append((f"Merged from {gone.title}", [*extra_lead, ""]))
    body = join_sections(lead, sections)
    return render_note(fm, body) if fm else body


def _is_title(line: str, title: str) -> bool:
    m = _HEADING_RE.match(line)
    return bool(m and len(m.group(1)) == 1 and _norm(m.group(2)) == _norm(title))


__all__ = ["add_to_section", "merge_pages", "repoint", "split_sections"]
