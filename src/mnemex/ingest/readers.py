"""Reading sources into :class:`~mnemex.ingest.records.SourceDoc`: markdown, text,
reStructuredText (:mod:`mnemex.ingest.rst`), HTML, PDF.

Every reader ends in the same cleaning (vault format §13): control and invisible
characters are stripped and impersonation markers escaped, but URLs are *not*
defanged, because in a source they are references the wiki should keep.

Metadata is taken only where the document states it. For HTML that means meta tags,
``<time>`` inside the article and JSON-LD; trafilatura's own date guessing (which
happily reads a copyright footer) is never used. Structure around the prose is not
prose: YAML frontmatter at the top of a markdown or text source is its metadata, and
HTML comments (``<!-- ... -->``, outside code) are dropped from both.

A file that cannot be read raises :class:`SourceReadError` with the reason;
:func:`read_sources` turns that into a :class:`ReadFailure` and goes on with the rest.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import warnings
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from pypdf import PdfReader
from pypdf.errors import PdfReadError

from mnemex.errors import SourceReadError
from mnemex.ingest.records import SourceDoc
from mnemex.ingest.rst import read_rst
from mnemex.text.sanitise import escape, strip
from mnemex.vault.markdown import atx_heading, mask_code, split_frontmatter

if TYPE_CHECKING:
    from mnemex.index.sync import ProgressFactory

#: Refuse anything larger: a source is read whole into memory and into the vault.
DEFAULT_MAX_BYTES = 50 * 1024 * 1024

# HTML budget. Main-text extraction (trafilatura on lxml) grows faster than the page:
# measured ~1 s for 10,000 elements, ~3.6 s for 20,000, ~11 s for 40,000 and ~48 s for
# 80,000 (2 MB). Within these limits it stays under ~5 s; a larger page is read as its
# plain text (navigation, footers and scripts left out) in time linear in its size.
MAX_EXTRACT_ELEMENTS = 25_000
MAX_EXTRACT_BYTES = 5 * 1024 * 1024
#: libxml2 compares each attribute with every earlier one of its tag (a million took
#: hours); no page a person reads has a tag with more than a few dozen.
MAX_ATTRIBUTES = 1_000

#: File extensions a folder walk picks up, and the format each is read as.
SUPPORTED_FORMATS = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".text": "text",
    ".rst": "rst",
    ".rest": "rst",
    ".html": "html",
    ".htm": "html",
    ".pdf": "pdf",
}

# A text file whose first bytes hold NULs, or mostly control bytes, is binary junk.
_SNIFF_BYTES = 8192
_MAX_CONTROL_SHARE = 0.05
_ISO_DATE_RE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_PDF_DATE_RE = re.compile(r"D:(\d{4})(\d{2})(\d{2})")
_LINE_HYPHEN_RE = re.compile(r"([A-Za-z]{2,})-[ \t]*\n[ \t]*([a-z]{2,})")
_TOOL_TITLE_RE = re.compile(
    r"^(Microsoft \w+ - )|\.(docx?|odt|pdf|tex|rtf|pages|indd)$|^untitled$", re.I
)
_MD_ESCAPE_RE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!<>|~])")


@dataclass(frozen=True)
class ReadFailure:
    """A file of a batch that could not be read, and why (the rest of the batch goes on)."""

    path: str
    reason: str


def read_source(path: Path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> SourceDoc:
    """Read one file as a source, by its extension.

    Raises:
        SourceReadError: unsupported extension, too large, unreadable, binary, encrypted
            or broken PDF, or no text in it.
    """
    fmt = SUPPORTED_FORMATS.get(path.suffix.lower())
    if fmt is None:
        known = ", ".join(sorted(SUPPORTED_FORMATS))
        raise SourceReadError(f"{path}: unsupported file type {path.suffix!r} (reads {known})")
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise SourceReadError(
                f"{path}: {size:,} bytes is over the {max_bytes:,}-byte limit for a source"
            )
        raw = path.read_bytes()
    except OSError as exc:
        raise SourceReadError(f"{path}: cannot read it ({exc.strerror or exc})") from exc
    return read_bytes(raw, path=str(path), format=fmt)


def read_sources(
    path: Path, *, max_bytes: int = DEFAULT_MAX_BYTES, progress: ProgressFactory | None = None
) -> Iterator[SourceDoc | ReadFailure]:
    """Read a file, or every supported file under a folder (recursive, sorted by path).

    Hidden files and folders (``.git``, ``.obsidian``, ``.mnemex``) are left out and
    files of other types are skipped; a file that fails is yielded as a
    :class:`ReadFailure` and the walk goes on. ``progress(total, label)`` returns a
    ``tick(n)`` callback, ticked once per file read.
    """
    if not path.exists():
        yield ReadFailure(str(path), f"{path}: no such file or folder")
        return
    files = [path] if path.is_file() else _source_files(path)
    tick = progress(len(files), "reading") if progress else None
    for file in files:
        item: SourceDoc | ReadFailure
        try:
            item = read_source(file, max_bytes=max_bytes)
        except SourceReadError as exc:
            item = ReadFailure(str(file), str(exc))
        if tick is not None:
            tick(1)
        yield item


def read_text_source(
    text: str, *, title: str | None = None, format: str = "markdown", path: str = "<text>"
) -> SourceDoc:
    """Read text handed over directly (MCP ``ingest_text``) as a source of ``format``.

    Raises:
        SourceReadError: an unknown format, or no text.
    """
    if format not in ("markdown", "text", "html"):
        raise SourceReadError(f"{path}: format must be markdown, text or html, not {format!r}")
    doc = read_bytes(text.encode("utf-8"), path=path, format=format)
    if title and title.strip():
        doc.title = _clean_line(title)
    return doc


def read_bytes(raw: bytes, *, path: str, format: str) -> SourceDoc:
    """Turn a source's bytes into a cleaned :class:`SourceDoc` (the readers' common core)."""
    if format == "pdf":
        doc = _read_pdf(raw, path)
    elif format == "html":
        text, warns = _decode(raw, path, html=True)
        doc = _read_html(text, raw, path)
        doc.warnings[:0] = warns
    elif format in ("markdown", "text", "rst"):
        text, warns = _decode(raw, path, html=False)
        reader = {"markdown": _read_markdown, "text": _read_text, "rst": _read_rst}[format]
        doc = reader(text, raw, path)
        doc.warnings[:0] = warns
    else:
        raise SourceReadError(f"{path}: unknown source format {format!r}")
    doc.text = _clean_text(doc.text)
    if not doc.text.strip():
        raise SourceReadError(f"{path}: no text in it")
    doc.title = _clean_line(doc.title) or _title_from_path(path)
    doc.author = _clean_line(doc.author) if doc.author else None
    doc.url = (strip(doc.url).strip() or None) if doc.url else None
    return doc


def _source_files(folder: Path) -> list[Path]:
    found = []
    for file in folder.rglob("*"):
        rel = file.relative_to(folder)
        if any(part.startswith(".") for part in rel.parts):
            continue
        if file.is_file() and file.suffix.lower() in SUPPORTED_FORMATS:
            found.append(file)
    return sorted(found)


def _new_doc(raw: bytes, path: str, format: str, title: str, text: str) -> SourceDoc:
    return SourceDoc(
        path=path,
        format=format,
        title=title,
        text=text,
        sha256=hashlib.sha256(raw).hexdigest(),
        raw=raw,
    )


# --- decoding and cleaning -------------------------------------------------------------


def _decode(raw: bytes, path: str, *, html: bool) -> tuple[str, list[str]]:
    """UTF-8 when it is; else the declared (HTML) or cp1252/latin-1 charset, with a warning."""
    head = raw[:_SNIFF_BYTES]
    if b"\x00" in head and not head.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise SourceReadError(f"{path}: looks like a binary file, not text (it has NUL bytes)")
    try:
        text = raw.decode("utf-8-sig")
        warns: list[str] = []
    except UnicodeDecodeError:
        text, used = _decode_fallback(raw, html=html)
        warns = [f"{path}: not valid UTF-8; decoded as {used}"]
    sample = text[:_SNIFF_BYTES]
    controls = sum(1 for ch in sample if ord(ch) < 32 and ch not in "\t\n\r\f")
    if sample and controls / len(sample) > _MAX_CONTROL_SHARE:
        raise SourceReadError(f"{path}: looks like a binary file, not text (control bytes)")
    return text, warns


def _decode_fallback(raw: bytes, *, html: bool) -> tuple[str, str]:
    candidates = []
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        candidates.append("utf-16")
    if html:
        declared = re.search(rb"""charset=["']?([A-Za-z0-9_-]{1,40})""", raw[:4096])
        if declared:
            candidates.append(declared.group(1).decode("ascii"))
    candidates.append("cp1252")
    for encoding in candidates:
        try:
            return raw.decode(encoding), encoding
        except (UnicodeDecodeError, LookupError):
            continue
    return raw.decode("latin-1"), "latin-1"


def _clean_text(text: str) -> str:
    """Strip invisibles, escape impersonation markers, tidy blank runs (URLs stay)."""
    text = escape(strip(text))
    text = re.sub(r"[ \t]+\n", "\n", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def _clean_line(value: str | None) -> str:
    if not value:
        return ""
    return " ".join(escape(strip(value)).split())[:300]


def _title_from_path(path: str) -> str:
    stem = Path(path).stem if path and not path.startswith("<") else "untitled"
    return re.sub(r"[-_]+", " ", stem).strip().capitalize() or "Untitled"


def _iso_date(value: Any) -> str | None:
    """An ISO date from a date, a datetime, or a string that starts with one."""
    if isinstance(value, datetime):
        return value.date().isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if not isinstance(value, str):
        return None
    match = _ISO_DATE_RE.search(value) or _PDF_DATE_RE.search(value)
    if not match:
        return None
    try:
        return date(int(match[1]), int(match[2]), int(match[3])).isoformat()
    except ValueError:
        return None


# --- markdown and text -----------------------------------------------------------------


def _read_markdown(text: str, raw: bytes, path: str) -> SourceDoc:
    meta, body, warns = _frontmatter(text, path, strict=False)
    body = _without_html_comments(body)
    heading = next((h for h in map(atx_heading, body.split("\n")) if h), None)
    title = _meta_str(meta.get("title")) or (heading[1] if heading else "")
    doc = _new_doc(raw, path, "markdown", title, body)
    _set_meta(doc, meta)
    doc.warnings.extend(warns)
    return doc


def _read_text(text: str, raw: bytes, path: str) -> SourceDoc:
    meta, body, warns = _frontmatter(text, path, strict=True)
    body = _without_html_comments(body)
    # A short first line that does not end a sentence reads as a title.
    first = next((line.strip() for line in body.splitlines() if line.strip()), "")
    title = first if len(first) <= 100 and not first.endswith((".", ",", ";", ":")) else ""
    doc = _new_doc(raw, path, "text", _meta_str(meta.get("title")) or title, body)
    _set_meta(doc, meta)
    doc.warnings.extend(warns)
    return doc


def _read_rst(text: str, raw: bytes, path: str) -> SourceDoc:
    read = read_rst(text, path)
    doc = _new_doc(raw, path, "rst", read.title, read.text)
    doc.author, doc.date = read.author, read.date
    doc.contributors = read.contributors
    doc.warnings.extend(read.warnings)
    return doc


def _frontmatter(text: str, path: str, *, strict: bool) -> tuple[dict[str, Any], str, list[str]]:
    """``(metadata, body, warnings)``: YAML between ``---`` lines at the top is metadata.

    In markdown the fence is the convention, so the block goes even when it holds no
    mapping; invalid YAML is read as body, with a warning. ``strict`` (a text file, where
    ``---`` may be a plain rule) takes the block only when it is a YAML mapping.
    """
    fm_text, body, _line = split_frontmatter(text)
    if fm_text is None:
        return {}, text, []
    try:
        loaded = yaml.safe_load(fm_text)
    except yaml.YAMLError:
        return {}, text, [] if strict else [f"{path}: frontmatter is not valid YAML; read as body"]
    if isinstance(loaded, dict):
        return loaded, body, []
    return {}, (text if strict else body), []


def _set_meta(doc: SourceDoc, meta: dict[str, Any]) -> None:
    doc.author = _meta_str(meta.get("author") or meta.get("authors"))
    doc.date = _iso_date(meta.get("date") or meta.get("published"))
    doc.url = _meta_str(meta.get("url") or meta.get("source"))


def _without_html_comments(text: str) -> str:
    """The text with its HTML comments taken out (nobody reads them), code left as it is
    (:func:`~mnemex.vault.markdown.mask_code` decides what is code, as everywhere).

    Linear in the text: a ``<!--`` with no ``-->`` leaves the rest of the text as it is.
    """
    if "<!--" not in text:
        return text
    masked = mask_code(text)  # same offsets, code blanked
    out: list[str] = []
    pos = 0
    while (start := masked.find("<!--", pos)) != -1:
        end = masked.find("-->", start + 4)
        if end == -1:
            break
        out.append(text[pos:start])
        pos = end + 3
    out.append(text[pos:])
    return "".join(out)


def _meta_str(value: Any) -> str | None:
    if isinstance(value, list):
        value = ", ".join(str(v) for v in value if v)
    if value is None or isinstance(value, dict):
        return None
    return str(value).strip() or None


# --- HTML ------------------------------------------------------------------------------


class _HtmlMeta(HTMLParser):
    """Collects title, meta tags, article ``<time>``, JSON-LD, and a plain-text fallback."""

    _SKIP = frozenset({"script", "style", "noscript", "template", "svg", "nav", "footer", "aside"})
    _BLOCK = frozenset(
        {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article"}
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title = ""
        self.meta: dict[str, str] = {}
        self.canonical: str | None = None
        self.time_dates: list[str] = []
        self.json_ld: list[str] = []
        self.text: list[str] = []
        self._stack: list[str] = []
        # how many of each tag are open: `tag in self._stack` would cost the depth each time
        self._open: Counter[str] = Counter()
        self._skip_depth = 0
        self._in_title = False
        self._in_json_ld = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k.lower(): (v or "") for k, v in attrs}
        if tag == "meta":
            key = (a.get("property") or a.get("name") or a.get("itemprop") or "").lower()
            if key and a.get("content"):
                self.meta.setdefault(key, a["content"])
            return
        if tag == "link" and "canonical" in a.get("rel", "").lower() and a.get("href"):
            self.canonical = a["href"]
            return
        if tag == "time" and a.get("datetime") and self._time_is_publication(a):
            self.time_dates.append(a["datetime"])
        if tag == "script" and "ld+json" in a.get("type", ""):
            self._in_json_ld = True
        if tag in ("br", "img", "hr", "input", "wbr"):
            return
        self._stack.append(tag)
        self._open[tag] += 1
        if tag in self._SKIP:
            self._skip_depth += 1
        if tag == "title":
            self._in_title = True
        if tag in self._BLOCK:
            self.text.append("\n")

    def _time_is_publication(self, attrs: dict[str, str]) -> bool:
        # A <time> in the footer is a copyright or "last built" date: only the
        # article's own, or one marked as the publication date, counts.
        if attrs.get("itemprop") == "datePublished" or "pubdate" in attrs:
            return True
        open_ = self._open
        return bool(open_["article"] or open_["header"]) and not open_["footer"]

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_json_ld = False
        if tag == "title":
            self._in_title = False
        if self._open[tag]:
            while self._stack:
                top = self._stack.pop()
                self._open[top] -= 1
                if top in self._SKIP:
                    self._skip_depth -= 1
                if top == tag:
                    break
        if tag in self._BLOCK:
            self.text.append("\n")

    def handle_data(self, data: str) -> None:
        if self._in_json_ld:
            self.json_ld.append(data)
        elif self._in_title:
            self.title += data
        elif not self._skip_depth:
            self.text.append(data)


_TITLE_SEPARATOR = re.compile(r"\s+(?:\||–|—|::|-|·)\s+")


def _without_site_name(title: str, site: str | None, text: str) -> str:
    """ "How barges adapted | River Weekly" -> "How barges adapted", when the tail is the site.

    The tail goes only when the page says so (``og:site_name``) or the article's text opens
    with the head (its own heading); a title that merely holds a dash stays whole.
    """
    parts = _TITLE_SEPARATOR.split(title.strip())
    if len(parts) < 2:
        return title
    head, tail = title[: title.rfind(parts[-1])].rstrip(" |–—:-·"), parts[-1]
    if site and tail.strip().lower() == site.strip().lower():
        return head
    opening = text.lstrip("# \n")[: len(head) + 5].lower()
    return head if head and opening.startswith(head.lower()) else title


# The pre-pass: possessive quantifiers and no quoted value spanning a "<", so each try
# stops at the next "<" and no character is scanned twice (see _tidy_markup).
_TAG_RE = re.compile(r"""<(/?)([A-Za-z][^\s/>"'=<]*+)((?:[^<>"']++|"[^"<]*+"|'[^'<]*+')*+)>""")
_ATTR_RE = re.compile(r"""[^\s"'>/=]++(?:\s*+=\s*+(?:"[^"]*+"|'[^']*+'|[^\s>]*+))?""")
_DECL_RE = re.compile(r"<[!?][^<>]*+>")
_RAW_TEXT = frozenset({"script", "style"})
_RAW_END = {tag: re.compile(rf"</{tag}\s*>", re.IGNORECASE) for tag in _RAW_TEXT}


def _tidy_markup(html: str, path: str) -> tuple[str, int]:
    """The page with nothing a parser can choke on, and its number of start tags.

    Tags stay as written; a ``<`` that opens no complete tag becomes ``&lt;``, comments
    and declarations go, scripts and styles lose their content (JSON-LD keeps its own),
    and an unclosed comment or script runs to the end, as in a browser. Linear in the
    page: Python's HTMLParser is quadratic on a run of ``<a`` with no ``>`` after it.

    Raises:
        SourceReadError: a tag with more than :data:`MAX_ATTRIBUTES` attributes.
    """
    out: list[str] = []
    tags = 0
    done = 0
    pos = html.find("<")
    while pos != -1:
        out.append(html[done:pos])
        if html.startswith("<!--", pos):
            end = html.find("-->", pos + 4)
            done = len(html) if end == -1 else end + 3
        elif (m := _TAG_RE.match(html, pos)) is not None:
            done = m.end()
            name = m.group(2).lower()
            if m.group(1):
                out.append(m.group(0))
            else:
                tags += 1
                attributes = len(_ATTR_RE.findall(m.group(3)))
                if attributes > MAX_ATTRIBUTES:
                    raise SourceReadError(
                        f"{path}: a <{name[:40]}> tag has {attributes:,} attributes (more than "
                        f"{MAX_ATTRIBUTES:,}): pathological markup, not read"
                    )
                out.append(m.group(0))
                if name in _RAW_TEXT and not m.group(3).rstrip().endswith("/"):
                    close = _RAW_END[name].search(html, done)
                    body_end = len(html) if close is None else close.start()
                    if "ld+json" in m.group(3).lower():
                        # "<\/" is "</" in a JSON string, and cannot end the script early
                        out.append(html[done:body_end].replace("</", "<\\/"))
                    out.append(f"</{name}>")
                    done = len(html) if close is None else close.end()
        elif (d := _DECL_RE.match(html, pos)) is not None:
            done = d.end()
        else:
            out.append("&lt;")
            done = pos + 1
        pos = html.find("<", done)
    out.append(html[done:])
    return "".join(out), tags


def _read_html(html: str, raw: bytes, path: str) -> SourceDoc:
    html, elements = _tidy_markup(html, path)
    parser = _HtmlMeta()
    parser.feed(html)
    parser.close()
    ld = _json_ld_fields(parser.json_ld)
    meta = parser.meta
    title = meta.get("og:title") or ld.get("headline") or parser.title or meta.get("dc.title") or ""
    warns = []
    if elements > MAX_EXTRACT_ELEMENTS or len(html) > MAX_EXTRACT_BYTES:
        text = ""
        warns.append(
            f"{path}: {elements:,} elements, {len(html) / 1e6:.1f} MB: too large for "
            f"main-text extraction (at most {MAX_EXTRACT_ELEMENTS:,} elements and "
            f"{MAX_EXTRACT_BYTES / 1e6:.0f} MB); used the page's plain text"
        )
    else:
        text = _trafilatura_text(html)
        if not text.strip():
            warns.append(f"{path}: main-text extraction found nothing; used the page's plain text")
    if not text.strip():
        text = re.sub(r"[ \t]+", " ", "".join(parser.text))
    if not (meta.get("og:title") or ld.get("headline")):
        title = _without_site_name(title, meta.get("og:site_name"), text)
    doc = _new_doc(raw, path, "html", title.strip(), text)
    doc.author = meta.get("author") or meta.get("article:author") or ld.get("author") or None
    doc.date = _first_date(
        meta.get("article:published_time"),
        meta.get("datepublished"),
        ld.get("datePublished"),
        meta.get("dc.date"),
        meta.get("citation_publication_date"),
        meta.get("date"),
        *parser.time_dates,
    )
    doc.url = meta.get("og:url") or parser.canonical or ld.get("url") or None
    doc.warnings.extend(warns)
    return doc


def _first_date(*values: str | None) -> str | None:
    for value in values:
        found = _iso_date(value)
        if found:
            return found
    return None


def _json_ld_fields(blocks: list[str]) -> dict[str, str]:
    """headline, author, datePublished and url from the page's JSON-LD, first found wins."""
    found: dict[str, str] = {}
    for block in blocks:
        try:
            data = json.loads(block)
        except ValueError:
            continue
        for item in _json_ld_items(data):
            for key in ("headline", "datePublished", "url"):
                if isinstance(item.get(key), str):
                    found.setdefault(key, item[key])
            author = item.get("author")
            if isinstance(author, list) and author:
                author = author[0]
            if isinstance(author, dict):
                author = author.get("name")
            if isinstance(author, str):
                found.setdefault("author", author)
    return found


def _json_ld_items(data: Any) -> Iterator[dict[str, Any]]:
    if isinstance(data, list):
        for entry in data:
            yield from _json_ld_items(entry)
    elif isinstance(data, dict):
        yield data
        if "@graph" in data:
            yield from _json_ld_items(data["@graph"])


def _trafilatura_text(html: str) -> str:
    # Imported here: it costs a third of a second and only HTML sources need it.
    import trafilatura

    try:
        text = trafilatura.extract(
            html,
            output_format="markdown",
            include_comments=False,
            include_tables=True,
            include_formatting=True,
            with_metadata=False,
            deduplicate=False,
        )
    except (ValueError, TypeError):  # trafilatura gives up on some malformed trees
        return ""
    # Its markdown backslash-escapes punctuation ("\\<|im\\_start|>", "snake\\_case"): undo
    # that, or an impersonation marker would slip past the escaping in _clean_text.
    return _MD_ESCAPE_RE.sub(r"\1", text or "")


# --- PDF -------------------------------------------------------------------------------


def _read_pdf(raw: bytes, path: str) -> SourceDoc:
    if not raw.lstrip()[:5].startswith(b"%PDF"):
        raise SourceReadError(f"{path}: not a PDF (no %PDF header)")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            reader = PdfReader(io.BytesIO(raw))
            if reader.is_encrypted and not _decrypts_without_password(reader):
                raise SourceReadError(f"{path}: the PDF is encrypted with a password")
            pages = [page.extract_text() or "" for page in reader.pages]
            info = reader.metadata
        except SourceReadError:
            raise
        except PdfReadError as exc:
            raise SourceReadError(f"{path}: broken PDF ({exc})") from exc
        # pypdf raises a zoo of plain exceptions (KeyError, ValueError, struct.error,
        # RecursionError...) on damaged files; any of them means "broken PDF".
        except Exception as exc:
            raise SourceReadError(f"{path}: broken PDF ({type(exc).__name__}: {exc})") from exc
    text = _dehyphenate("\n\n".join(page.strip() for page in pages))
    if not text.strip():
        raise SourceReadError(f"{path}: no extractable text in the PDF (scanned? OCR it first)")
    first_line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    stated = str(info.title).strip() if info and info.title else ""
    if _TOOL_TITLE_RE.search(stated):
        stated = ""  # "Microsoft Word - draft3.docx" is the file, not the title
    title = stated or (first_line if len(first_line) <= 100 else "")
    doc = _new_doc(raw, path, "pdf", str(title), text)
    doc.pages = len(pages)
    if info:
        doc.author = str(info.author) if info.author else None
        doc.date = _iso_date(info.get("/CreationDate"))
    doc.warnings.extend(f"{path}: {w.message}" for w in caught[:5])
    return doc


def _dehyphenate(text: str) -> str:
    """Join words a PDF broke at a line end: "compres-\nsion" is "compression" when the
    source spells it so elsewhere; otherwise the hyphen was real ("time-\nseries")."""
    plain = set(re.findall(r"[a-z]{4,}", text))

    def join(match: re.Match[str]) -> str:
        head, tail = match.group(1), match.group(2)
        return head + tail if (head + tail).lower() in plain else f"{head}-{tail}"

    return _LINE_HYPHEN_RE.sub(join, text)


def _decrypts_without_password(reader: Any) -> bool:
    """An owner-password-only PDF opens with the empty user password; anything else does not."""
    try:
        return bool(reader.decrypt(""))
    except Exception:  # missing crypto backend or a scheme pypdf cannot do: still encrypted
        return False


__all__ = [
    "DEFAULT_MAX_BYTES",
    "MAX_ATTRIBUTES",
    "MAX_EXTRACT_BYTES",
    "MAX_EXTRACT_ELEMENTS",
    "SUPPORTED_FORMATS",
    "ReadFailure",
    "SourceReadError",
    "read_bytes",
    "read_source",
    "read_sources",
    "read_text_source",
]
