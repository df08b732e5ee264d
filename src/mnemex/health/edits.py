"""Text edits the fixes make: re-pointing links, adding a line to a section, merging pages.

Pure functions of text, so a fix can be previewed (and diffed) before anything
is written. They change only what they are asked to: a re-pointed link keeps its
heading, its alias and its embed mark, and a merge only adds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from mnemex.vault import parse_note, plain, render_note, restyle, retarget, table_rows
from mnemex.vault.markdown import ParsedNote, atx_heading, link_spans, mask_code, split_frontmatter
from mnemex.vault.preserve import set_frontmatter_key


def repoint(
    text: str, wants: Callable[[str], str | None], keep_label: bool = True
) -> tuple[str, list[dict[str, Any]]]:
    """Rewrite the links whose written target ``wants`` maps to a new one.

    ``wants(target)`` returns the new wikilink target (or a path, for a markdown
    link) or None to leave the link alone. A link keeps what the reader sees
    (:func:`~mnemex.vault.preserve.retarget`): an unaliased wikilink whose target
    changes gets the text it showed as its alias. The file keeps its style
    (BOM, line endings, final newline). Returns the new text and one
    ``{line, from, to}`` per change.
    """
    source = plain(text)
    _, body, body_line = split_frontmatter(source)
    prefix = source[: len(source) - len(body)]
    lines = body.split("\n")
    rows = table_rows(lines)
    changes: list[dict[str, Any]] = []
    for span in reversed(link_spans(body)):
        new = wants(span.link.target)
        if new is None:
            continue
        line = lines[span.line]
        written = line[span.start : span.end]
        if span.markdown:
            new = new.replace(" ", "%20") + ("" if new.lower().endswith(".md") else ".md")
        if keep_label:
            lines[span.line] = retarget(line, span, new, in_table=span.line in rows)
        else:
            lines[span.line] = line[: span.start] + new + line[span.end :]
        changes.append({"line": body_line + span.line, "from": written, "to": new})
    changes.reverse()
    return restyle(text, prefix + "\n".join(lines)), changes


def _norm(text: str) -> str:
    return " ".join(text.replace("—", "-").replace("–", "-").lower().split())


@dataclass
class Section:
    """A ``## `` section of a body: its name, its heading line as written, its lines."""

    name: str
    head: str
    lines: list[str] = field(default_factory=list)


def split_sections(body: str) -> tuple[list[str], list[Section]]:
    """``(lead lines, sections)`` split at ``## `` headings (not in code); the H1 stays in
    the lead. :func:`join_sections` puts them back byte for byte."""
    lead: list[str] = []
    sections: list[Section] = []
    for line, masked in zip(body.split("\n"), mask_code(body).split("\n"), strict=True):
        m = atx_heading(masked, empty=True)
        if m and m[0] == 2:
            sections.append(Section(m[1], line))
        elif sections:
            sections[-1].lines.append(line)
        else:
            lead.append(line)
    return lead, sections


def join_sections(lead: list[str], sections: list[Section]) -> str:
    out = list(lead)
    for section in sections:
        out.append(section.head)
        out.extend(section.lines)
    return "\n".join(out)


def _add_lines(lead: list[str], sections: list[Section], heading: str, new: list[str]) -> None:
    """Put ``new`` after the last written line of section ``heading``, or end the body with
    a new ``## heading`` holding them; every other line stays as it was."""
    for section in sections:
        if _norm(section.name) == _norm(heading):
            end = len(section.lines)
            while end and not section.lines[end - 1].strip():
                end -= 1
            section.lines[end:end] = new
            return
    last = sections[-1].lines if sections else lead
    if not any(line.strip() for line in lead) and not sections:
        last.clear()  # an empty body: the section is all there is
    elif not last or last[-1] != "":
        last.append("")  # with the line break the heading adds, a blank line before it
    sections.append(Section(heading, f"## {heading}", [*new, ""]))


def add_to_section(text: str, heading: str, line: str) -> str:
    """Append ``line`` at the end of section ``## heading`` (made at the end if missing).

    Nothing else changes: the other lines keep their bytes, and the file its style.
    """
    source = plain(text)
    _, body, _ = split_frontmatter(source)
    prefix = source[: len(source) - len(body)]
    lead, sections = split_sections(body)
    _add_lines(lead, sections, heading, [line])
    return restyle(text, prefix + join_sections(lead, sections))


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
    keep = parse_note(plain(keep_text), keep_path)
    gone = parse_note(plain(gone_text), gone_path)
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
    for theirs in gone_sections:
        new = [ln for ln in theirs.lines if ln.strip() and _norm(ln) not in present]
        if not new:
            continue
        present.update(_norm(ln) for ln in new)
        _add_lines(lead, sections, theirs.name, new)
    if extra_lead:
        _add_lines(lead, sections, f"Merged from {gone.title}", extra_lead)
    body = join_sections(lead, sections)
    return restyle(keep_text, _with_frontmatter(plain(keep_text), keep, fm, body))


def _with_frontmatter(text: str, note: ParsedNote, fm: dict[str, Any], body: str) -> str:
    """``body`` under the note's own frontmatter with the keys of ``fm`` that differ set
    line by line, so the person's quoting, comments and list style stay; rendered whole
    only where a key cannot be set on its own lines."""
    if not fm:
        return body
    fm_text, old_body, _ = split_frontmatter(text)
    if fm_text is None:
        return render_note(fm, body)
    new = text[: len(text) - len(old_body)] + body if text.endswith(old_body) else None
    for key, value in fm.items():
        if new is None:
            break
        if key not in note.frontmatter or note.frontmatter[key] != value:
            new = set_frontmatter_key(new, key, value)
    return new if new is not None else render_note(fm, body)


def _is_title(line: str, title: str) -> bool:
    m = atx_heading(line, empty=True)
    return bool(m and m[0] == 1 and _norm(m[1]) == _norm(title))


__all__ = ["Section", "add_to_section", "join_sections", "merge_pages", "repoint", "split_sections"]
