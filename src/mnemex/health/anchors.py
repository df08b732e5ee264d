"""Broken anchors: a link to a heading or block its note does not have.

Obsidian opens the note anyway (at its top), so this is a low-severity kind of its own,
never a broken link. Headings are matched leniently, never reporting a false one: case,
punctuation and spacing are ignored (Obsidian drops ``#``, ``|``, ``^``, ``:``, ``%%``,
``[[``, ``]]`` from a heading when it writes a link to it, and a markdown link may spell
it ``#my-heading``), a link in a heading matches by its text or its target, and of
nested headings (``[[N#Part#Sub]]``) only the last is looked for. Block ids
(``[[N#^id]]``) are the ``^id`` ending a paragraph or list item line, or standing on a
line of their own after a table or quote, compared case-insensitively. Links to
attachments (``doc.pdf#page=3``) are not checked.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from dataclasses import dataclass, field

from mnemex.health.ids import Issue
from mnemex.health.links import links_checked
from mnemex.health.scan import ScanContext, register_checker
from mnemex.vault.markdown import atx_heading, fenced_lines, split_frontmatter

_QUOTE_RE = re.compile(r"^(?:\s*>)+")
_SETEXT_RE = re.compile(r"^\s{0,3}(=+|-+)\s*$")
_BLOCK_ID_RE = re.compile(r"(?:^|\s)\^([A-Za-z0-9-]+)\s*$")
_WIKILINK_RE = re.compile(r"\[\[([^\[\]|]*)(?:\|([^\[\]]*))?\]\]")
_MDLINK_RE = re.compile(r"\[([^\[\]]*)\]\(([^()]*)\)")
_WORD_RE = re.compile(r"[^\W_]+")


def anchor_key(text: str) -> str:
    """A heading as compared: its letters and digits, lower-case, nothing between them."""
    return "".join(_WORD_RE.findall(text.lower()))


def _heading_keys(text: str) -> set[str]:
    """The keys a heading may be linked by: as written, with each link as its display
    text, and with each link as its target."""
    shown = _MDLINK_RE.sub(r"\1", _WIKILINK_RE.sub(lambda m: m.group(2) or m.group(1), text))
    targets = _MDLINK_RE.sub(r"\1", _WIKILINK_RE.sub(lambda m: m.group(1), text))
    return {anchor_key(text), anchor_key(shown), anchor_key(targets)}


@dataclass
class Anchors:
    """What a note's links may point into: its headings and its block ids."""

    headings: list[str] = field(default_factory=list)
    keys: set[str] = field(default_factory=set)
    blocks: set[str] = field(default_factory=set)

    def has(self, anchor: str) -> bool:
        """Whether ``anchor`` (``Heading``, ``Part#Sub``, ``^block``) names a place here."""
        if anchor.startswith("^"):
            return anchor[1:].strip().lower() in self.blocks
        key = anchor_key(anchor.rsplit("#", 1)[-1])
        return not key or key in self.keys


def note_anchors(text: str) -> Anchors:
    """The headings (ATX and setext, also inside callouts) and block ids of a note's text,
    code blocks left out."""
    _, body, _ = split_frontmatter(text)
    found = Anchors()
    previous = ""
    lines = body.split("\n")
    for line, fenced in zip(lines, fenced_lines(lines), strict=True):
        if fenced:
            previous = ""
            continue
        plain = _QUOTE_RE.sub("", line).strip()
        heading = atx_heading(plain) if plain.startswith("#") else None
        if heading is not None:
            found.headings.append(heading[1].strip())
        elif previous and _SETEXT_RE.match(line):
            found.headings.append(previous)
        block = _BLOCK_ID_RE.search(plain) if "^" in plain else None
        if block is not None:
            found.blocks.add(block.group(1).lower())
        previous = plain
    for heading_text in found.headings:
        found.keys |= _heading_keys(heading_text)
    return found


@register_checker("broken_anchors", "headings_blocks")
def broken_anchors(ctx: ScanContext) -> list[Issue]:
    """Links to a ``#heading`` or ``#^block`` their note does not have, one issue per
    (page, link)."""
    notes = ctx.view.notes
    checked = links_checked(ctx)
    cache: dict[str, Anchors | None] = {}
    grouped: dict[tuple[str, str, str, str], list[int]] = defaultdict(list)
    for link in ctx.view.links:
        if not link.heading or link.dst is None or link.dst not in notes:
            continue  # no anchor, broken (reported as such), or an attachment
        source = notes.get(link.src)
        if source is None or not checked(source):
            continue
        if link.dst not in cache:
            text = ctx.body(link.dst)
            cache[link.dst] = None if text is None else note_anchors(text)
        anchors = cache[link.dst]
        if anchors is None or anchors.has(link.heading):
            continue
        grouped[(link.src, link.target, link.heading, link.dst)].append(link.line)
    issues = []
    for (src, target, anchor, dst), lines in sorted(grouped.items()):
        anchors = cache[dst]
        assert anchors is not None
        where = "line " + ", ".join(str(n) for n in sorted(set(lines))[:5])
        what = "block" if anchor.startswith("^") else "heading"
        written = f"[[{target}#{anchor}]]"
        parent, _, last = anchor.rpartition("#")
        missing = f"{last!r} (under {parent.replace('#', ' > ')!r})" if parent else repr(anchor)
        detail = f"{written} ({where}): {dst} has no {what} {missing}; Obsidian opens the note"
        close = (
            []
            if what == "block"
            else difflib.get_close_matches(anchor.rsplit("#", 1)[-1], anchors.headings, 1)
        )
        suggestion = (
            f"link to #{close[0]}" if close else f"correct or remove the #{anchor} part of the link"
        )
        data = {"target": target, "anchor": anchor, "page": dst, "lines": sorted(set(lines))}
        issues.append(
            Issue("broken_anchors", [src], detail, f"{target}#{anchor}", suggestion, data=data)
        )
    return issues


__all__ = ["Anchors", "anchor_key", "broken_anchors", "note_anchors"]
