"""A note's markdown as safe HTML, for the local web page (standard library only).

The page shows the HTML through ``innerHTML`` under a strict Content-Security-Policy, so
nothing a note says may become executable HTML. The rule that makes it so is simple: every
piece of the note's text is passed through :func:`html.escape` (``quote=True``), and the only
tags in the output are the ones built here, from a fixed list, with escaped attribute values.
Raw HTML in a note (``<script>``, ``<img onerror=...>``) is shown as text. Links keep an
``href`` only for ``http:``, ``https:``, ``mailto:`` and ``obsidian:``; links inside the vault
become ``#/page/<path>`` routes and files are served from ``/api/file?path=<path>``, with the
path percent-quoted.

Two passes, both linear in the length of the note (hostile notes such as 200,000 unclosed
``[[`` must not take quadratic time):

* blocks: lines become headings, paragraphs, fenced code, lists (nested by indentation, task
  items), blockquotes and Obsidian callouts, pipe tables and rules (:class:`_Renderer`);
* inlines: a left-to-right scan turns code spans, wikilinks, embeds, markdown links and
  images, autolinks, bare URLs, tags and hard breaks into finished HTML held behind
  placeholders; the rest of the text is escaped, emphasis (``**``, ``*``, ``_``, ``~~``,
  ``==``) is matched on it, and the placeholders are put back (:class:`_Inline`).

HTML comments and Obsidian ``%% comments %%`` are dropped before either pass.

Not supported: setext headings (``---`` under a line is a rule), indented code blocks, HTML
blocks (shown as text), reference-style links, footnotes, math, link titles, nested brackets
in link text and table column alignment beyond a CSS class.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Callable, Iterable
from html import escape
from urllib.parse import quote, unquote

from mnemex.vault.markdown import Wikilink, parse_wikilink

__all__ = ["frontmatter_rows", "render_markdown"]

_Resolve = Callable[[str], str | None]

_IMAGE_EXTENSIONS = frozenset({"png", "jpg", "jpeg", "gif", "webp", "svg", "bmp", "avif"})
#: Schemes a markdown link may keep as its href; ``obsidian:`` opens in the same tab.
_EXTERNAL_SCHEMES = ("http", "https", "mailto")
_APP_SCHEMES = ("obsidian",)

# Private-use characters mark the placeholders of finished HTML; the note's own are replaced.
_OPEN, _CLOSE = "\ue000", "\ue001"
_HOLE = re.compile("\ue000(\\d+)\ue001")
_MAX_NESTING = 12  # blockquotes in lists in blockquotes...; deeper is shown as text

# ---------------------------------------------------------------------------------- helpers


def _attr(value: str) -> str:
    return escape(value, quote=True)


def _slug(text: str) -> str:
    """A heading's id: lowercase, every run of non-alphanumerics one ``-``."""
    out = "".join(ch if ch.isalnum() else "-" for ch in text.lower())
    return re.sub("-+", "-", out).strip("-") or "section"


def _page_href(path: str, heading: str | None = None) -> str:
    href = "#/page/" + quote(path, safe="/")
    if heading:
        href += "?h=" + quote(heading, safe="")
    return href


def _file_href(path: str) -> str:
    return "/api/file?path=" + quote(path, safe="/")


def _extension(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[-1].lower() if "." in name else ""


def _is_image(path: str) -> bool:
    return _extension(path) in _IMAGE_EXTENSIONS


def _is_note(path: str) -> bool:
    return _extension(path) in ("", "md", "markdown")


def _external(url: str, text_html: str) -> str | None:
    """``<a>`` to ``url`` when its scheme is allowed, else None (the caller shows text).

    Whitespace and control characters are percent-encoded, not removed, so the href starts
    with an allowed scheme exactly as written or it is refused.
    """
    href = "".join(quote(ch) if ch.isspace() or not ch.isprintable() else ch for ch in url.strip())
    scheme = href.split(":", 1)[0].lower() if ":" in href else ""
    if not re.fullmatch(r"[a-z][a-z0-9+.\-]*", scheme):
        return None
    if scheme in _EXTERNAL_SCHEMES:
        extra = ' target="_blank" rel="noopener noreferrer"'
    elif scheme in _APP_SCHEMES:
        extra = ' rel="noopener noreferrer"'
    else:
        return None
    return f'<a href="{_attr(href)}" class="external"{extra}>{text_html}</a>'


def _has_scheme(url: str) -> bool:
    """Whether a browser could read ``url`` as absolute: a colon before the first ``/``.

    Whitespace and control characters are ignored first (``java\\tscript:`` has a scheme).
    """
    cleaned = "".join(ch for ch in url if ch.isprintable() and not ch.isspace())
    return ":" in cleaned.split("/", 1)[0] or cleaned.startswith(("//", "\\\\", "/\\", "\\/"))


# ------------------------------------------------------------------------ comments, code spans


def _code_spans(text: str) -> dict[int, tuple[int, int, int]]:
    """Backtick code spans: opening run's start -> (content start, content end, span end).

    An opening run of n backticks closes at the next run of exactly n. One pass over the
    runs, with a pointer per run length, so it stays linear.
    """
    runs = [(m.start(), m.end()) for m in re.finditer("`+", text)]
    by_length: dict[int, list[int]] = {}
    for index, (start, end) in enumerate(runs):
        by_length.setdefault(end - start, []).append(index)
    pointer: dict[int, int] = {}
    spans: dict[int, tuple[int, int, int]] = {}
    index = 0
    while index < len(runs):
        start, end = runs[index]
        same = by_length[end - start]
        p = pointer.get(end - start, 0)
        while p < len(same) and same[p] <= index:
            p += 1
        pointer[end - start] = p
        if p < len(same):
            closer = same[p]
            spans[start] = (end, runs[closer][0], runs[closer][1])
            index = closer + 1
        else:
            index += 1
    return spans


_COMMENT_OPEN = re.compile(r"<!--|%%|`+")
_COMMENT_CLOSE = {"<!--": "-->", "%%": "%%"}
_FENCE_LINE = re.compile(r"^[ \t>]*(?:[-*+][ \t]+|\d{1,9}[.)][ \t]+)?(`{3,}|~{3,})")


def _drop_comments(lines: list[str]) -> list[str]:
    """The lines without ``<!-- -->`` and ``%% %%`` comments (outside code).

    A comment may span lines; lines wholly inside one are dropped, so a comment between
    two paragraphs does not join them and one inside a paragraph does not split it. An
    unclosed comment runs to the end of the note, as in Obsidian and in browsers.
    """
    out: list[str] = []
    fence = ""
    closing = ""  # the end of the comment we are in, or ""
    for line in lines:
        if fence:
            out.append(line)
            stripped = line.lstrip(" \t>")
            if stripped.startswith(fence) and not stripped.strip(fence[0]).strip():
                fence = ""
            continue
        if not closing:
            opener = _FENCE_LINE.match(line)
            if opener and not (opener.group(1)[0] == "`" and "`" in line[opener.end() :]):
                fence = opener.group(1)
                out.append(line)
                continue
        started_inside = bool(closing)
        kept: list[str] = []
        spans = _code_spans(line)
        i = 0
        while i < len(line):
            if closing:
                end = line.find(closing, i)
                if end < 0:
                    break
                i = end + len(closing)
                closing = ""
                continue
            m = _COMMENT_OPEN.search(line, i)
            if m is None:
                kept.append(line[i:])
                break
            if m.group().startswith("`"):
                stop = spans[m.start()][2] if m.start() in spans else m.end()
                kept.append(line[i:stop])
                i = stop
                continue
            kept.append(line[i : m.start()])
            closing = _COMMENT_CLOSE[m.group()]
            i = m.end()
        if not (started_inside and closing):  # lines wholly inside a comment are dropped
            out.append("".join(kept))
    return out


# ----------------------------------------------------------------------------------- inlines


class _Finder:
    """``str.find`` for scans that only move forward: each token's last answer is reused."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._last: dict[str, tuple[int, int]] = {}

    def find(self, token: str, start: int) -> int:
        if token in self._last:
            asked, found = self._last[token]
            if asked <= start and (found < 0 or found >= start):
                return found
        found = self._text.find(token, start)
        self._last[token] = (start, found)
        return found


_SPECIAL = re.compile(r"[\\`!\[<#\n]|(?i:https?://)")
_DESTINATION = re.compile(
    r"[ \t\n]*(?:<([^<>\n]*)>|((?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))*))"
    r"(?:[ \t\n]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?[ \t\n]*\)"
)
_AUTOLINK = re.compile(r"<((?i:https?://|mailto:)[^\s<>]+)>")
_BARE_URL = re.compile(r"(?i:https?://)[^\s<>]+")
_TAG = re.compile(r"#[\w/\-]+")
_SIZE = re.compile(r"(\d{1,5})(?:x\d{1,5})?")
_PUNCTUATION = frozenset(string.punctuation)
_EMPHASIS_RUN = re.compile(r"\*+|_+|~+|=+")
_EMPHASIS_TAGS = {
    ("*", 1): ("<em>", "</em>"),
    ("_", 1): ("<em>", "</em>"),
    ("*", 2): ("<strong>", "</strong>"),
    ("_", 2): ("<strong>", "</strong>"),
    ("*", 3): ("<em><strong>", "</strong></em>"),
    ("_", 3): ("<em><strong>", "</strong></em>"),
    ("~", 2): ("<del>", "</del>"),
    ("=", 2): ("<mark>", "</mark>"),
}


def _unescape(text: str) -> str:
    """Backslash escapes in a link destination: ``\\(`` -> ``(``."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


class _Inline:
    """One run of inline text (a paragraph, a heading, a cell) rendered to HTML."""

    def __init__(self, resolve: _Resolve, text: str, links: bool = True) -> None:
        self.resolve = resolve
        self.text = text
        self.links = links  # False inside link text: no links in links
        self.held: list[str] = []
        self.spans = _code_spans(text)
        self.finder = _Finder(text)
        self.wikilink_fails_before = -1
        self.link_fails_before = -1

    def hold(self, html: str) -> str:
        self.held.append(html)
        return f"{_OPEN}{len(self.held) - 1}{_CLOSE}"

    def render(self) -> str:
        text = self.text
        out: list[str] = []
        i = 0
        while i < len(text):
            m = _SPECIAL.search(text, i)
            if m is None:
                out.append(text[i:])
                break
            out.append(text[i : m.start()])
            i = m.start()
            piece, i = self.special(i, out)
            out.append(piece)
        marked = _emphasis(escape("".join(out), quote=True)).replace("\n", " ")
        return _HOLE.sub(lambda h: self.held[int(h.group(1))], marked)

    def special(self, i: int, out: list[str]) -> tuple[str, int]:
        """What to write for the special character at ``i``, and where to go on."""
        text, c = self.text, self.text[i]
        if c == "\\":
            following = text[i + 1 : i + 2]
            if following == "\n":
                return self.hold("<br>") + "\n", i + 2
            if following in _PUNCTUATION and following:
                return self.hold(escape(following, quote=True)), i + 2
            return c, i + 1
        if c == "`":
            end = i
            while end < len(text) and text[end] == "`":
                end += 1
            if i not in self.spans:
                return text[i:end], end
            start, stop, after = self.spans[i]
            code = text[start:stop].replace("\n", " ")
            if len(code) > 2 and code[0] == code[-1] == " " and code.strip():
                code = code[1:-1]
            return self.hold(f"<code>{escape(code, quote=True)}</code>"), after
        if c == "\n":
            if out and out[-1].endswith("  "):
                out[-1] = out[-1].rstrip(" ")
                return self.hold("<br>") + "\n", i + 1
            return c, i + 1
        if not self.links:
            return c, i + 1
        done: tuple[str, int] | None = None
        if c == "!" and text.startswith("![[", i):
            done = self.wikilink(i + 1, embed=True)
        elif c == "!" and text.startswith("![", i):
            done = self.link(i + 1, image=True)
        elif c == "[" and text.startswith("[[", i):
            done = self.wikilink(i, embed=False)
        elif c == "[":
            done = self.link(i, image=False)
        elif c == "<":
            auto = _AUTOLINK.match(text, i)
            if auto:
                url = auto.group(1)
                label = url[7:] if url.lower().startswith("mailto:") else url
                html = _external(url, escape(label, quote=True))
                done = (self.hold(html), auto.end()) if html else None
        elif c == "#":
            done = self.tag(i)
        elif c in "hH":
            done = self.bare_url(i)
        return done if done is not None else (c, i + 1)

    # -- links ------------------------------------------------------------------------------

    def wikilink(self, i: int, embed: bool) -> tuple[str, int] | None:
        """``[[...]]`` at ``i`` (``![[...]]`` when ``embed``, ``i`` at the ``[[``)."""
        if i < self.wikilink_fails_before:
            return None
        text = self.text
        close = self.finder.find("]]", i + 2)
        if close < 0:
            self.wikilink_fails_before = len(text)
            return None
        inner = text[i + 2 : close]
        bad = max(inner.rfind("[["), inner.rfind("\n"))
        if bad >= 0:  # every opener up to there would take in the same bad text
            self.wikilink_fails_before = i + 2 + bad
            return None
        link = parse_wikilink(inner, embed)  # as the index reads it: N#heading|alias, N\\|a
        if not link.target and not (link.heading or "").strip("#"):
            return None
        html = self.embed(link) if embed else self.wikilink_html(link)
        return self.hold(html), close + 2

    def wikilink_html(self, link: Wikilink) -> str:
        page, sub = link.target, (link.heading or "")
        if link.alias:
            label = link.alias
        elif page and sub:
            label = f"{page} > {sub}"
        else:
            label = page or sub
        label_html = escape(label, quote=True)
        if not page:
            return f'<a class="wikilink" href="#{_attr(_slug(sub))}">{label_html}</a>'
        path = self.resolve(page)
        if path is None:
            return f'<a class="wikilink unresolved" data-target="{_attr(page)}">{label_html}</a>'
        heading = sub if sub and not sub.startswith("^") else None
        return (
            f'<a class="wikilink" href="{_attr(_page_href(path, heading))}"'
            f' data-path="{_attr(path)}">{label_html}</a>'
        )

    def embed(self, link: Wikilink) -> str:
        page, sub, option = link.target, (link.heading or ""), (link.alias or "")
        written = page + (f"#{sub}" if sub else "")
        size = _SIZE.fullmatch(option)
        name = escape(option if option and not size else written, quote=True)
        path = self.resolve(page) if page else None
        if path is None:
            return f'<span class="embed unresolved">⤷ {name}</span>'
        if _is_image(path):
            width = f' width="{_attr(size.group(1))}"' if size else ""
            alt = option if option and not size else page
            return f'<img src="{_attr(_file_href(path))}" alt="{_attr(alt)}"{width} loading="lazy">'
        if _is_note(path):
            heading = sub if sub and not sub.startswith("^") else None
            return (
                f'<a class="embed" href="{_attr(_page_href(path, heading))}"'
                f' data-path="{_attr(path)}">⤷ {name}</a>'
            )
        href = _file_href(path)
        page_number = re.fullmatch(r"page=(\d{1,6})", sub)
        if page_number:
            href += f"#page={page_number.group(1)}"
        return f'<a class="embed" href="{_attr(href)}">⤷ {name}</a>'

    def link(self, i: int, image: bool) -> tuple[str, int] | None:
        """``[text](url)`` at ``i`` (the ``[``); ``![alt](url)`` when ``image``."""
        if i < self.link_fails_before:
            return None
        text = self.text
        close = self.finder.find("]", i + 1)
        if close < 0:
            self.link_fails_before = len(text)
            return None
        label = text[i + 1 : close]
        nested = label.rfind("[")
        if nested >= 0:  # the innermost brackets make the link
            self.link_fails_before = i + 1 + nested
            return None
        if text[close + 1 : close + 2] != "(":
            return None
        dest = _DESTINATION.match(text, close + 2)
        if dest is None:
            return None
        url = _unescape(dest.group(1) if dest.group(1) is not None else dest.group(2))
        if not url.strip():
            return None
        start = i - 1 if image else i
        return self.hold(self.link_html(label, url, image, text[start : dest.end()])), dest.end()

    def link_html(self, label: str, url: str, image: bool, source: str) -> str:
        if image:
            label_html = escape(label or url, quote=True)
        else:
            label_html = _Inline(self.resolve, label, links=False).render() if label else ""
            label_html = label_html or escape(url, quote=True)
        if url.startswith("#"):
            fragment = unquote(url[1:])
            return f'<a class="wikilink" href="#{_attr(_slug(fragment))}">{label_html}</a>'
        if _has_scheme(url):
            # refused schemes (javascript:, data:, ...) keep only their text, with no href
            return _external(url, label_html) or label_html
        written, _, fragment = url.partition("#")
        target, fragment = unquote(written), unquote(fragment)
        path = self.resolve(target) if target.strip() else None
        if path is None:
            return f'<a class="unresolved" data-target="{_attr(target)}">{label_html}</a>'
        if image and _is_image(path):
            return f'<img src="{_attr(_file_href(path))}" alt="{_attr(label)}" loading="lazy">'
        if _is_note(path):
            heading = fragment if fragment and not fragment.startswith("^") else None
            return (
                f'<a class="wikilink" href="{_attr(_page_href(path, heading))}"'
                f' data-path="{_attr(path)}">{label_html}</a>'
            )
        return f'<a class="attachment" href="{_attr(_file_href(path))}">{label_html}</a>'

    def bare_url(self, i: int) -> tuple[str, int] | None:
        text = self.text
        if i > 0 and (text[i - 1].isalnum() or text[i - 1] in "/:@.&=_-"):
            return None
        m = _BARE_URL.match(text, i)
        if m is None:
            return None
        url = m.group().rstrip(".,:;!?*_~'\"]")
        while url.endswith(")") and url.count(")") > url.count("("):
            url = url[:-1].rstrip(".,:;!?*_~'\"]")
        if len(url) <= len("https://") or "://" not in url[:8]:
            return None
        html = _external(url, escape(url, quote=True))
        return (self.hold(html), i + len(url)) if html else None

    def tag(self, i: int) -> tuple[str, int] | None:
        text = self.text
        if i > 0 and not text[i - 1].isspace():
            return None
        m = _TAG.match(text, i)
        if m is None or m.group()[1:].isdigit():
            return None
        return self.hold(f'<span class="tag">{escape(m.group(), quote=True)}</span>'), m.end()


class _Closers:
    """The next run that can close an emphasis, per (character, size), found forward only."""

    def __init__(self, text: str, runs: list[tuple[int, int, str]]) -> None:
        self.text = text
        self.runs = runs
        self._last: dict[tuple[str, int], tuple[int, int]] = {}

    def closes(self, index: int, char: str, size: int) -> bool:
        start, end, c = self.runs[index]
        if c != char or self.text[start - 1].isspace():
            return False
        if char == "_" and end < len(self.text) and self.text[end].isalnum():
            return False
        length = end - start
        return length == 2 if char in "~=" else length == size or length >= 3

    def find(self, after: int, char: str, size: int) -> int:
        key = (char, size)
        if key in self._last:
            asked, found = self._last[key]
            if asked <= after and (found < 0 or found > after):
                return found
        found = -1
        for index in range(after + 1, len(self.runs)):
            if self.closes(index, char, size):
                found = index
                break
        self._last[key] = (after, found)
        return found


def _emphasis(text: str, depth: int = 0) -> str:
    """``**strong**``, ``*em*``, ``_em_``, ``~~del~~``, ``==mark==`` on escaped text.

    An opener is a run followed by non-space (``_`` not inside a word); it closes at the
    next run of its character preceded by non-space. Runs of three make ``<em><strong>``.
    """
    if depth > _MAX_NESTING:
        return text
    runs = [(m.start(), m.end(), m.group()[0]) for m in _EMPHASIS_RUN.finditer(text)]
    closers = _Closers(text, runs)
    out: list[str] = []
    written = 0
    index = 0
    while index < len(runs):
        start, end, char = runs[index]
        length = end - start
        size = min(length, 3) if char in "*_" else 2
        opens = (
            (char in "*_" or length == 2)
            and end < len(text)
            and not text[end].isspace()
            and not (char == "_" and start > 0 and text[start - 1].isalnum())
        )
        closer = closers.find(index, char, size) if opens else -1
        if closer < 0:
            index += 1
            continue
        close_end = runs[closer][1]
        open_tag, close_tag = _EMPHASIS_TAGS[(char, size)]
        inner = _emphasis(text[end : close_end - size], depth + 1)
        out += [text[written : end - size], open_tag, inner, close_tag]
        written = close_end
        index = closer + 1
    out.append(text[written:])
    return "".join(out)


# ------------------------------------------------------------------------------------ blocks

_HEADING = re.compile(r" {0,3}(#{1,6})(?:[ \t]|$)")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")
_QUOTE = re.compile(r" {0,3}> ?")
_LIST_ITEM = re.compile(r"( *)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*)|$)")
_TASK = re.compile(r"\[([ xX])\](?:[ \t]+(.*)|$)")
_CALLOUT = re.compile(r"\[!([A-Za-z0-9_-]+)\]([+-]?)[ \t]*(.*)")
_SEPARATOR_CELL = re.compile(r":?-+:?")


def _expand(line: str) -> str:
    """The line with the tabs in its indentation as four-column stops."""
    body = line.lstrip(" \t")
    return line[: len(line) - len(body)].expandtabs(4) + body


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _is_rule(line: str) -> bool:
    if _indent(line) > 3:
        return False
    marks = line.replace(" ", "").replace("\t", "")
    return len(marks) >= 3 and marks[0] in "-*_" and marks == marks[0] * len(marks)


def _fence(line: str) -> re.Match[str] | None:
    m = _FENCE.match(line)
    if m and m.group(1)[0] == "`" and "`" in m.group(2):
        return None
    return m


def _split_row(line: str) -> list[str]:
    """A table row's cells; ``\\|`` is a ``|`` inside a cell (``[[N\\|alias]]``, code)."""
    row = line.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    cells: list[str] = []
    current: list[str] = []
    i = 0
    while i < len(row):
        if row[i] == "\\" and i + 1 < len(row):
            current.append("|" if row[i + 1] == "|" else row[i : i + 2])
            i += 2
            continue
        if row[i] == "|":
            cells.append("".join(current).strip())
            current = []
        else:
            current.append(row[i])
        i += 1
    cells.append("".join(current).strip())
    return cells


def _alignments(line: str) -> list[str] | None:
    """The alignment of each column if ``line`` is a table's separator row, else None."""
    if "-" not in line or not set(line.strip()) <= set("|:- \t"):
        return None
    cells = _split_row(line)
    if not all(_SEPARATOR_CELL.fullmatch(cell) for cell in cells):
        return None
    out = []
    for cell in cells:
        left, right = cell.startswith(":"), cell.endswith(":")
        out.append("center" if left and right else "right" if right else "left" if left else "")
    return out


def _sibling(line: str, base: int, ordered: bool) -> re.Match[str] | None:
    """The list item on ``line`` if it continues a list indented ``base`` columns."""
    m = _LIST_ITEM.match(line)
    if (
        m is None
        or _is_rule(line)
        or not base <= len(m.group(1)) < base + 2
        or m.group(2)[0].isdigit() != ordered
    ):
        return None
    return m


class _Renderer:
    """Blocks of one note; holds the heading ids already used so each is unique."""

    def __init__(self, resolve: _Resolve) -> None:
        self.resolve = resolve
        self.ids: dict[str, int] = {}

    def inline(self, text: str) -> str:
        return _Inline(self.resolve, text).render()

    def heading_id(self, text: str) -> str:
        slug = _slug(text)
        seen = self.ids.get(slug, 0)
        self.ids[slug] = seen + 1
        return slug if not seen else f"{slug}-{seen}"

    def starts_block(self, lines: list[str], i: int) -> bool:
        """Whether line ``i`` starts a block that ends a paragraph before it."""
        line = _expand(lines[i])
        return bool(
            _HEADING.match(line)
            or _fence(line)
            or _is_rule(line)
            or _QUOTE.match(line)
            or _LIST_ITEM.match(line)
            or self.table_at(lines, i)
        )

    def table_at(self, lines: list[str], i: int) -> bool:
        if "|" not in lines[i] or i + 1 >= len(lines):
            return False
        alignments = _alignments(lines[i + 1])
        return alignments is not None and len(alignments) == len(_split_row(lines[i]))

    def blocks(self, lines: list[str], tight: bool = False, depth: int = 0) -> str:
        """HTML for ``lines``; ``tight`` (a list item) leaves paragraphs without ``<p>``."""
        if depth > _MAX_NESTING:
            return f"<p>{escape(chr(10).join(lines), quote=True)}</p>"
        out: list[str] = []
        i = 0
        while i < len(lines):
            line = _expand(lines[i])
            if not line.strip():
                i += 1
            elif heading := _HEADING.match(line):
                level = len(heading.group(1))
                content = line[heading.end() :].strip()
                trimmed = content.rstrip("#")
                if not trimmed or trimmed[-1] in " \t":
                    content = trimmed.rstrip()
                ident = _attr(self.heading_id(content))
                out.append(f'<h{level} id="{ident}">{self.inline(content)}</h{level}>')
                i += 1
            elif fence := _fence(line):
                i = self.code(lines, i, fence, out)
            elif _is_rule(line):
                out.append("<hr>")
                i += 1
            elif _QUOTE.match(line):
                i = self.quote(lines, i, out, depth)
            elif item := _LIST_ITEM.match(line):
                i = self.listing(lines, i, item, out, depth)
            elif self.table_at(lines, i):
                i = self.table(lines, i, out)
            else:
                i = self.paragraph(lines, i, out, tight)
        return "\n".join(out)

    def paragraph(self, lines: list[str], i: int, out: list[str], tight: bool) -> int:
        text = [lines[i].lstrip()]
        i += 1
        while i < len(lines) and lines[i].strip() and not self.starts_block(lines, i):
            text.append(lines[i].lstrip())
            i += 1
        html = self.inline("\n".join(text).rstrip())
        out.append(html if tight else f"<p>{html}</p>")
        return i

    def code(self, lines: list[str], i: int, fence: re.Match[str], out: list[str]) -> int:
        marker = fence.group(1)
        indent = _indent(lines[i])
        words = fence.group(2).split()
        language = re.sub(r"[^A-Za-z0-9_+#.-]", "", words[0]) if words else ""
        body: list[str] = []
        i += 1
        while i < len(lines):
            line = lines[i]
            closing = line.strip()
            if _indent(line) <= 3 and closing.startswith(marker) and not closing.strip(marker[0]):
                i += 1
                break
            body.append(line[min(indent, _indent(line)) :])
            i += 1
        cls = f' class="language-{_attr(language)}"' if language else ""
        code = escape("\n".join(body), quote=True)
        out.append(f"<pre><code{cls}>{code}</code></pre>")
        return i

    def quote(self, lines: list[str], i: int, out: list[str], depth: int) -> int:
        inner: list[str] = []
        while i < len(lines):
            line = _expand(lines[i])
            m = _QUOTE.match(line)
            if m:
                inner.append(line[m.end() :])
            elif line.strip() and inner and inner[-1].strip() and not self.starts_block(lines, i):
                inner.append(line)  # a lazy continuation of the quoted paragraph
            else:
                break
            i += 1
        callout = _CALLOUT.fullmatch(inner[0].strip())
        if callout is None:
            out.append(f"<blockquote>\n{self.blocks(inner, depth=depth + 1)}\n</blockquote>")
            return i
        kind = callout.group(1).lower()
        title = callout.group(3).strip() or kind.capitalize()
        body = self.blocks(inner[1:], depth=depth + 1)
        out.append(
            f'<div class="callout callout-{_attr(kind)}">'
            f'<div class="callout-title">{self.inline(title)}</div>'
            f'<div class="callout-content">{body}</div></div>'
        )
        return i

    def listing(
        self, lines: list[str], i: int, first: re.Match[str], out: list[str], depth: int
    ) -> int:
        base = len(first.group(1))
        ordered = first.group(2)[0].isdigit()
        items: list[tuple[str, list[str]]] = []  # (marker, content lines)
        loose = False
        while i < len(lines):
            m = _sibling(_expand(lines[i]), base, ordered)
            if m is None:
                break
            content_column = min(len(m.group(1)) + len(m.group(2)) + 1, base + 4)
            content = [m.group(3) or ""]
            i += 1
            while i < len(lines):
                line = _expand(lines[i])
                if not line.strip():
                    ahead = i
                    while ahead < len(lines) and not lines[ahead].strip():
                        ahead += 1
                    if ahead < len(lines) and _indent(_expand(lines[ahead])) >= base + 2:
                        content += [""] * (ahead - i)
                        i = ahead
                        loose = True
                        continue
                    break
                if _indent(line) >= base + 2:
                    content.append(line[min(_indent(line), content_column) :])
                elif content[-1].strip() and not self.starts_block(lines, i):
                    content.append(line.strip())  # a lazy continuation line
                else:
                    break
                i += 1
            items.append((m.group(2), content))
            if i < len(lines) and not lines[i].strip():
                ahead = i
                while ahead < len(lines) and not lines[ahead].strip():
                    ahead += 1
                if ahead >= len(lines) or _sibling(_expand(lines[ahead]), base, ordered) is None:
                    break
                i = ahead
                loose = True  # a blank line between items
        tag = "ol" if ordered else "ul"
        start = int(items[0][0][:-1]) if ordered else 1
        opening = f'<ol start="{start}">' if ordered and start != 1 else f"<{tag}>"
        rendered = [opening]
        for _marker, content in items:
            task = _TASK.fullmatch(content[0])
            box = ""
            if task:
                checked = " checked" if task.group(1) in "xX" else ""
                box = f'<input type="checkbox" disabled{checked}> '
                content = [task.group(2) or "", *content[1:]]
            inner = self.blocks(content, tight=not loose, depth=depth + 1)
            cls = ' class="task"' if task else ""
            rendered.append(f"<li{cls}>{box}{inner}</li>")
        rendered.append(f"</{tag}>")
        out.append("\n".join(rendered))
        return i

    def table(self, lines: list[str], i: int, out: list[str]) -> int:
        header = _split_row(lines[i])
        alignments = _alignments(lines[i + 1]) or []
        i += 2
        rows: list[list[str]] = []
        while i < len(lines) and lines[i].strip() and "|" in lines[i]:
            cells = _split_row(lines[i])
            rows.append((cells + [""] * len(header))[: len(header)])
            i += 1

        def cell(tag: str, text: str, align: str) -> str:
            cls = f' class="align-{align}"' if align else ""
            return f"<{tag}{cls}>{self.inline(text)}</{tag}>"

        head = "".join(cell("th", t, a) for t, a in zip(header, alignments, strict=True))
        body = "".join(
            "<tr>"
            + "".join(cell("td", t, a) for t, a in zip(row, alignments, strict=True))
            + "</tr>"
            for row in rows
        )
        tbody = f"<tbody>{body}</tbody>" if rows else ""
        out.append(f"<table><thead><tr>{head}</tr></thead>{tbody}</table>")
        return i


# -------------------------------------------------------------------------------- public API


def render_markdown(body: str, resolve: Callable[[str], str | None]) -> str:
    """HTML for a note body (frontmatter already removed).

    ``resolve(target)`` takes a link target as written, without ``#heading`` or ``|alias``
    (``Deploy``, ``notes/deploy``, ``image.png``, a decoded relative markdown link), and
    returns the vault-relative path of the note or file, or None when there is none.
    The result is safe to insert with ``innerHTML``: the note's text is always escaped.
    """
    text = body.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "\ufffd")
    text = text.replace(_OPEN, "\ufffd").replace(_CLOSE, "\ufffd")
    lines = _drop_comments(text.split("\n"))
    return _Renderer(resolve).blocks(lines)


def _as_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    if isinstance(value, list | tuple | set | frozenset):
        items: Iterable[object] = (
            sorted(value, key=str) if isinstance(value, set | frozenset) else value
        )
        return ", ".join(_as_text(item) for item in items)
    return str(value)


def frontmatter_rows(meta: dict[str, object]) -> list[tuple[str, str]]:
    """Frontmatter as (key, value-as-text) rows for a table; lists joined with ', ', nested
    dicts as compact JSON.

    The rows are plain text, not HTML: put them in the page with ``textContent`` (or escape
    them). ``None`` is an empty cell, booleans are ``true``/``false``, dates are ISO.
    """
    return [(str(key), _as_text(value)) for key, value in meta.items()]
