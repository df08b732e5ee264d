"""Reading a note: YAML frontmatter, body, ``[[wikilinks]]`` and ``#tags``.

Parsing never fails on a note's content: broken YAML becomes a warning that
names the line, and the note is still read as body text. Links and tags inside
code (fenced blocks and inline spans) are not links or tags, as in Obsidian.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import unquote

import yaml

try:  # the C loader is ~10x faster; fall back where libyaml is missing
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]


@dataclass(frozen=True)
class Wikilink:
    """One link as written: ``[[target#heading|alias]]`` or an embed ``![[...]]``."""

    target: str
    heading: str | None = None
    alias: str | None = None
    embed: bool = False
    line: int = 0  # 1-based line in the file

    @property
    def raw(self) -> str:
        inner = self.target + (f"#{self.heading}" if self.heading else "")
        inner += f"|{self.alias}" if self.alias else ""
        return ("!" if self.embed else "") + f"[[{inner}]]"


@dataclass
class ParsedNote:
    """What a note says, as mnemex reads it."""

    frontmatter: dict[str, Any]
    body: str
    body_line: int  # 1-based line where the body starts
    title: str
    #: False when frontmatter says ``title: ""``: the displayed title is the file name,
    #: but it is not context worth embedding.
    titled: bool = True
    links: list[Wikilink] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


# Every pattern here must run in time linear in the line: a note is hostile input
# (a line of 200,000 unclosed "[[" once took minutes). No pattern may rescan what an
# earlier start already scanned: each bracket run stops at the next bracket, and what
# cannot be said that way (headings, code spans, link targets) is done in Python.
#: A fence opens with three or more backticks or tildes (backticks not repeated in its
#: info string); it closes on a line of the same character, at least as long, alone.
_FENCE_RE = re.compile(r"(`{3,}(?=[^`]*$)|~{3,})")
#: The ``>`` markers of a blockquote or callout, each with one optional space after it.
_QUOTE_RE = re.compile(r"[ \t]*(?:>[ \t]?)*")
_BACKTICKS_RE = re.compile(r"`+")
_WIKILINK_RE = re.compile(r"(!?)\[\[([^\[\]\n]+?)\]\]")
# [text](target) links to local files; Obsidian resolves these too. The text holds no
# bracket and the target no "(", so a run of "[t](" never rescans the rest of the line.
# The target is written bare (``N%20x.md``) or in angle brackets (``<N x.md>``), and may be
# followed by a title (``"caption"``); telling a URL from a file is done in _markdown_target.
_MDLINK_RE = re.compile(
    r"(!?)\[[^\[\]\n]*\]\((?:<([^<>()\n]+)>|([^()\s<>]+))(?:\s+\"[^\"\n]*\")?\)"
)
#: ``https:``, ``mailto:``, ``obsidian:``...: a URL, never a file of the vault.
_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
#: A run of tags: the first ``#`` at the start of a line or after white space (so
#: ``color:#0a8c28``, ``a#b`` and an escaped ``\\#tag`` are not tags), then any tags
#: written straight after it (``#one#two``), as Obsidian reads them.
_TAG_RUN_RE = re.compile(r"(?<!\S)#[\w\-/]+(?:#[\w\-/]+)*", re.UNICODE)
#: A tag needs a letter or an underscore (``#2024`` is not a tag).
_TAG_LETTER_RE = re.compile(r"[^\W\d]", re.UNICODE)
_ATX_OPEN_RE = re.compile(r"(#{1,6})(\s+)")
#: Frontmatter expanding to more values than this (plus its length) is refused: YAML
#: aliases can make a few lines stand for billions of values ("billion laughs").
_FRONTMATTER_SLACK = 10_000
#: Deeper nesting than this is refused before Python's recursion limit is reached.
_FRONTMATTER_DEPTH = 100


class _TooLarge(Exception):
    pass


def _json_safe(value: Any, budget: list[int] | None = None, depth: int = 0) -> Any:
    """YAML gives dates and datetimes; keep frontmatter JSON-representable.

    ``budget`` is the number of values still allowed (one item list, shared down the
    recursion): aliases are expanded here, so without it a ten-line frontmatter could
    take minutes and gigabytes.
    """
    if budget is not None:
        budget[0] -= 1
        if budget[0] < 0 or depth > _FRONTMATTER_DEPTH:
            raise _TooLarge
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _json_safe(v, budget, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(v, budget, depth + 1) for v in value]
    return value


def atx_heading(line: str, *, empty: bool = False) -> tuple[int, str] | None:
    """``(level, text)`` of an ATX heading line (``## Text ##``), else None.

    What ``^(#{1,6})\\s+(.+?)\\s*#*\\s*$`` matches (``(.*?)`` with ``empty``), in
    linear time: that pattern is cubic on a heading with a long run of spaces or ``#``.
    ``text`` keeps its inner spacing; trailing spaces and a closing run of ``#`` are cut.
    """
    m = _ATX_OPEN_RE.match(line)
    if m is None:
        return None
    rest = line[m.end() :]
    if not rest:
        if empty:
            return len(m.group(1)), ""
        # the pattern lends the text one character of the spacing when there are two
        return (len(m.group(1)), m.group(2)[-1]) if len(m.group(2)) > 1 else None
    core = rest.rstrip().rstrip("#").rstrip()
    return len(m.group(1)), rest[: len(core) if empty else max(1, len(core))]


def split_frontmatter(text: str) -> tuple[str | None, str, int]:
    """Split ``---`` fenced YAML from the body.

    Returns ``(yaml_text or None, body, body_line)``; a fence that never closes
    means there is no frontmatter and the whole text is body.
    """
    # a BOM (U+FEFF) before the fence hides nothing: Obsidian reads the frontmatter
    start = 1 if text.startswith("\ufeff") else 0
    if not text.startswith("---", start):
        return None, text, 1
    first_nl = text.find("\n")
    if first_nl == -1 or text[start:first_nl].strip() != "---":
        return None, text, 1
    pos = first_nl + 1
    line_no = 2
    while pos <= len(text):
        nl = text.find("\n", pos)
        line = text[pos:] if nl == -1 else text[pos:nl]
        if line.rstrip() in ("---", "..."):
            body = "" if nl == -1 else text[nl + 1 :]
            return text[first_nl + 1 : pos], body, line_no + 1
        if nl == -1:
            break
        pos = nl + 1
        line_no += 1
    return None, text, 1


def _string_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in re.split(r"[,\s]+", value) if v.strip()]
    if isinstance(value, list):
        return [str(v).strip() for v in value if v is not None and str(v).strip()]
    return [str(value)]


def _aliases(value: Any) -> list[str]:
    # An alias may contain spaces and commas, so a single string is one alias.
    if isinstance(value, str):
        return [value.strip()] if value.strip() else []
    return _string_list(value)


def fenced_lines(lines: list[str]) -> list[bool]:
    """For each line, whether it belongs to a fenced code block (its fences included).

    Fences inside a blockquote or callout (``> ```python``) count too, and such a
    fence ends where its quote ends, as in CommonMark; a fence closes only on a line
    of its own character, at least as long as the one that opened it.
    """
    flags: list[bool] = []
    fence: str | None = None  # the opening run of the fence we are in
    depth = 0  # the quote depth the fence was opened at
    for line in lines:
        quote = _QUOTE_RE.match(line)
        prefix = quote.group(0) if quote else ""
        level = prefix.count(">")
        rest = line[len(prefix) :]
        m = _FENCE_RE.match(rest)
        if fence is not None and level < depth:
            fence = None  # the quote holding the fence has ended
        if fence is not None:
            flags.append(True)
            run = m.group(1) if m else ""
            if run[:1] == fence[0] and len(run) >= len(fence) and not rest[len(run) :].strip():
                fence = None
            continue
        if m:
            fence, depth = m.group(1), level
        flags.append(m is not None)
    return flags


def mask_code(body: str) -> str:
    """Blank out fenced code and inline code, keeping line structure and offsets."""
    lines = body.split("\n")
    return "\n".join(
        " " * len(line) if fenced else (_mask_spans(line) if "`" in line else line)
        for line, fenced in zip(lines, fenced_lines(lines), strict=True)
    )


def _mask_spans(line: str) -> str:
    """Blank inline code spans: a run of backticks opens one, the next run as long closes it.

    A run with no partner of its length is plain text. Runs are paired through a table of
    each run's next partner, so a line of unmatched runs costs one pass, not one per run.
    """
    runs = [(m.start(), m.end()) for m in _BACKTICKS_RE.finditer(line)]
    partner: list[int | None] = [None] * len(runs)
    last: dict[int, int] = {}
    for i in range(len(runs) - 1, -1, -1):
        width = runs[i][1] - runs[i][0]
        partner[i] = last.get(width)
        last[width] = i
    pieces: list[str] = []
    done = 0
    i = 0
    while i < len(runs):
        j = partner[i]
        if j is None:
            i += 1
            continue
        start, end = runs[i][0], runs[j][1]
        pieces += [line[done:start], " " * (end - start)]
        done = end
        i = j + 1
    if not pieces:
        return line
    pieces.append(line[done:])
    return "".join(pieces)


def is_placeholder(target: str) -> bool:
    """A template's placeholder (``[[{{date}}]]``, Templater's ``<% ... %>``), not a name."""
    return "{{" in target or "<%" in target


def parse_wikilink(inner: str, embed: bool = False, line: int = 0) -> Wikilink:
    """Split ``target#heading|alias`` into its parts.

    In a table the pipe is written ``\\|`` (``[[N\\|alias]]``); the backslash belongs to
    the pipe, so the target is ``N``, as Obsidian reads it.
    """
    target, sep, alias = inner.partition("|")
    if sep and target.endswith("\\"):
        target = target[:-1]
    target, _, heading = target.partition("#")
    return Wikilink(
        target=target.strip(),
        heading=heading.strip() or None,
        alias=alias.strip() or None,
        embed=embed,
        line=line,
    )


def _line_spans(line: str, index: int, line_no: int) -> list[LinkSpan]:
    """The links of one code-masked line, each with where its target is written."""
    spans: list[LinkSpan] = []
    for m in _WIKILINK_RE.finditer(line):
        link = parse_wikilink(m.group(2), embed=bool(m.group(1)), line=line_no)
        if not (link.target or link.heading) or is_placeholder(link.target):
            continue
        written = m.group(2).partition("|")[0]
        if written.endswith("\\") and "|" in m.group(2):
            written = written[:-1]
        written = written.partition("#")[0]
        spans.append(LinkSpan(index, m.start(2), m.start(2) + len(written), link, False))
    for m in _MDLINK_RE.finditer(line):
        group = 2 if m.group(2) is not None else 3
        split = _markdown_target(m.group(group))
        if split is None:
            continue
        target, heading = split
        link = Wikilink(target, heading, embed=bool(m.group(1)), line=line_no)
        start = m.start(group)
        end = start + len(m.group(group).partition("#")[0])
        spans.append(LinkSpan(index, start, end, link, True))
    return spans


def extract_links(masked_body: str, first_line: int = 1) -> list[Wikilink]:
    """Every ``[[wikilink]]``, embed and local ``[text](path)`` link in a code-masked body."""
    links: list[Wikilink] = []
    for offset, line in enumerate(masked_body.split("\n")):
        if "[" in line:
            links += [span.link for span in _line_spans(line, offset, first_line + offset)]
    return links


def _markdown_target(written: str) -> tuple[str, str | None] | None:
    """``notes/a%20b.md#Part`` -> ``("notes/a b.md", "Part")``; None for a URL.

    Obsidian reads the destination %-decoded; ``#Part`` alone is a heading of the same
    note (target ``""``). ``https:``, ``mailto:``, ``obsidian:``... name no file.
    """
    if _SCHEME_RE.match(written) or written.lower().startswith("www."):
        return None
    path, _, anchor = written.partition("#")
    path, anchor = unquote(path).strip(), unquote(anchor).strip()
    if not path and not anchor:
        return None
    return path, anchor or None


@dataclass(frozen=True)
class LinkSpan:
    """Where a link's target is written in a body: line (0-based) and columns of the target.

    Replacing ``line[start:end]`` re-points the link and keeps its heading,
    alias and embed mark as written.
    """

    line: int
    start: int
    end: int
    link: Wikilink
    markdown: bool  # a ``[text](path.md)`` link (its target is a path, spaces as %20)


def link_spans(body: str) -> list[LinkSpan]:
    """Every link in ``body`` (not in code) to another file, with the position of its target."""
    spans: list[LinkSpan] = []
    for index, line in enumerate(mask_code(body).split("\n")):
        if "[" in line:
            spans += [s for s in _line_spans(line, index, index + 1) if s.link.target]
    return sorted(spans, key=lambda s: (s.line, s.start))


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group(0))


def extract_tags(masked_body: str) -> list[str]:
    """Inline ``#tags`` (nested ``#a/b`` kept whole), not headings, not all digits.

    A ``#`` inside a link is a heading of its target (``[[#Part]]``, ``[x](#part)``),
    never a tag.
    """
    tags: list[str] = []
    for line in masked_body.split("\n"):
        if "#" not in line:
            continue
        if "[" in line:
            line = _MDLINK_RE.sub(_blank, _WIKILINK_RE.sub(_blank, line))
        for m in _TAG_RUN_RE.finditer(line):
            for part in m.group(0).split("#"):
                tag = part.strip("/")
                if tag and _TAG_LETTER_RE.search(tag):
                    tags.append(tag)
    return tags


def frontmatter_links(frontmatter: dict[str, Any], fm_text: str) -> list[Wikilink]:
    """The ``[[links]]`` in property values (``related: "[[Ada]]"``): Obsidian follows them.

    Each gets the line of the frontmatter where it is first written (1 when YAML
    escapes hide it).
    """
    first_line: dict[str, int] = {}
    for index, line in enumerate(fm_text.split("\n")):
        if "[[" in line:
            for m in _WIKILINK_RE.finditer(line):
                first_line.setdefault(m.group(0), index + 2)
    links: list[Wikilink] = []
    pending: list[Any] = [frontmatter]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            pending += reversed(list(value.values()))
        elif isinstance(value, list):
            pending += reversed(value)
        elif isinstance(value, str) and "[[" in value:
            for m in _WIKILINK_RE.finditer(value):
                link = parse_wikilink(m.group(2), line=first_line.get(m.group(0), 1))
                if link.target and not is_placeholder(link.target):
                    links.append(link)
    return links


def parse_note(text: str, path: str = "") -> ParsedNote:
    """Parse a note's text. Never raises on content; problems become ``warnings``."""
    warnings: list[str] = []
    fm_text, body, body_line = split_frontmatter(text)
    frontmatter: dict[str, Any] = {}
    if fm_text is not None and fm_text.strip():
        try:
            loaded = yaml.load(fm_text, Loader=_Loader)
        except yaml.YAMLError as exc:
            # context_mark is where the broken construct began (the "[" never closed);
            # problem_mark is where the parser gave up, often the next line
            mark = getattr(exc, "context_mark", None) or getattr(exc, "problem_mark", None)
            where = f"line {mark.line + 2}" if mark is not None else "frontmatter"
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            warnings.append(f"malformed frontmatter at {where}: {problem}; read as body text")
        else:
            if isinstance(loaded, dict):
                try:
                    frontmatter = _json_safe(loaded, [len(fm_text) + _FRONTMATTER_SLACK])
                except _TooLarge:
                    warnings.append(
                        "frontmatter expands to too many values (YAML aliases) or nests "
                        f"deeper than {_FRONTMATTER_DEPTH} levels; ignored"
                    )
            elif loaded is not None:
                warnings.append("frontmatter is not a mapping of keys to values; ignored")
    masked = mask_code(body)
    links = frontmatter_links(frontmatter, fm_text) if fm_text and frontmatter else []
    links += extract_links(masked, body_line)
    tags = [t.lstrip("#") for t in _string_list(frontmatter.get("tags"))]
    tags += extract_tags(masked)
    seen: set[str] = set()
    unique_tags = []
    for tag in tags:
        key = tag.lower()
        if key not in seen:
            seen.add(key)
            unique_tags.append(tag)
    title = str(frontmatter.get("title") or "").strip()
    titled = True
    if not title and "title" in frontmatter:
        titled = False  # `title: ""` says the note has no title (records, turns, logs)
    elif not title:
        for line in masked.split("\n"):
            if line.startswith("#"):
                heading = atx_heading(line)
                if heading is not None and heading[0] == 1:
                    title = heading[1].strip()
                    break
    if not title:
        title = PurePosixPath(path).stem if path else "untitled"
    return ParsedNote(
        frontmatter=frontmatter,
        body=body,
        body_line=body_line,
        title=title,
        titled=titled,
        links=links,
        tags=unique_tags,
        aliases=_aliases(frontmatter.get("aliases", frontmatter.get("alias"))),
        warnings=warnings,
    )


def render_note(frontmatter: dict[str, Any], body: str) -> str:
    """Write frontmatter + body back as note text (keys in the given order)."""
    if not frontmatter:
        return body
    dumped = yaml.safe_dump(frontmatter, sort_keys=False, allow_unicode=True, width=1000)
    return f"---\n{dumped}---\n{body}"


__all__ = [
    "LinkSpan",
    "ParsedNote",
    "Wikilink",
    "atx_heading",
    "extract_links",
    "extract_tags",
    "fenced_lines",
    "frontmatter_links",
    "is_placeholder",
    "link_spans",
    "mask_code",
    "parse_note",
    "parse_wikilink",
    "render_note",
    "split_frontmatter",
]
