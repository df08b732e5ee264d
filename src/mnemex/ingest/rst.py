"""reStructuredText sources read into the markdown-ish text the extractor understands.

:func:`read_rst` parses a ``.rst`` file and returns its title, metadata and text, where
sections are ``#`` headings (one ``#`` per level, overline-and-underline titles too),
paragraphs are joined lines, lists are ``-``/``1.`` items, tables are ``|`` rows, and
literal blocks (``::`` paragraphs, ``.. code-block::``, doctest blocks, and directives
whose body is code) are fenced, so, as in a markdown source, none of them is prose.

Roles are reduced to their text: code-like roles (``:class:``, ``:func:``, ``:data:``,
``literal``...) become inline code, as a markdown writer would put them; ``:pep:`484```
is "PEP 484"; ``:ref:`text <label>``` and ``link <url>`_`` are "text". A role this
module does not know is its text (its title when it has one); a directive docutils does
not know (Sphinx's ``seealso``, ``versionadded``, a project's own) is its argument and
its body read as reStructuredText, unless it is one that holds code. Comments, link
targets, substitution definitions, tables of contents and raw markup are dropped.

A PEP's RFC-822 header (``PEP:``, ``Title:``, ``Author:``... before the first blank
line) is metadata, not prose: its Title is the title, its Author the author (addresses
left out), its Sponsor, BDFL-Delegate and PEP-Delegate the document's other people, and
its Created the date; a plain document's bibliographic field list
(``:Author:``, ``:Date:`` right after its title) is read the same way.

Parser: docutils, the reference implementation of reStructuredText (maintained, pure
Python, no dependencies of its own). A line-based reader would have to re-derive
indentation-nested lists, quotes, tables and directive bodies, and get them wrong on
real documents; docutils gets them right. It is run with no transforms and configured
so that it neither prints (``report_level`` 5, warnings to a buffer) nor stops
(``halt_level`` 5) on bad markup, never reads another file (``include`` and ``raw``
off) and reads no configuration file. Markup errors keep their text: a malformed table
is kept as a block, an unclosed ``*`` as the character; how many there were comes back
as a warning. Anything docutils itself raises is a :class:`SourceReadError`.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from datetime import datetime

from docutils import frontend, nodes, utils
from docutils.parsers.rst import Parser, states

from mnemex.errors import SourceReadError

#: Roles whose text is code: shown as inline code, like a markdown writer's backticks.
CODE_ROLES = frozenset(
    {
        "attr", "class", "code", "command", "const", "data", "envvar", "exc", "file",
        "func", "kbd", "literal", "macro", "math", "member", "meth", "mod", "obj",
        "option", "program", "samp", "type", "var",
    }
)  # fmt: skip
#: Directives whose body is code (or a grammar, or math): fenced, never prose.
CODE_DIRECTIVES = frozenset(
    {
        "code", "code-block", "sourcecode", "doctest", "testcode", "testoutput",
        "testsetup", "testcleanup", "ipython", "jupyter-execute", "productionlist",
        "literalinclude", "highlight", "math", "graphviz", "digraph", "mermaid",
        "plantuml", "autoclass", "autofunction", "automodule", "automethod",
        "autodata", "autoattribute", "autoexception", "toctree", "include", "raw",
        "image", "figure", "index", "only", "tabularcolumns", "csv-table",
    }
)  # fmt: skip
#: Of those, the ones with nothing worth keeping even as a block: they point elsewhere.
_DROPPED_DIRECTIVES = frozenset(
    {
        "highlight", "literalinclude", "toctree", "include", "raw", "image", "index",
        "tabularcolumns", "autoclass", "autofunction", "automodule", "automethod",
        "autodata", "autoattribute", "autoexception", "figure", "only", "csv-table",
    }
)  # fmt: skip

_MAX_DEPTH = 40  # nesting of unknown directives read as reStructuredText again
_HEADER_FIELD_RE = re.compile(r"^([A-Za-z][A-Za-z0-9-]*):(?:[ \t]+(.*))?$")
_DIRECTIVE_RE = re.compile(r"^\.\.[ \t]+([\w][\w:.+-]*)[ \t]*::(.*)$")
_OPTION_RE = re.compile(r"^:[^:\s`][^:`]*:(?:\s|$)")  # ":class: x", not ":ref:`x`"
_ROLE_TITLE_RE = re.compile(r"^(.*?)\s*<([^<>]*)>$", re.DOTALL)
_EMAIL_RE = re.compile(r"\s*<[^<>]*>")  # "<guido@python.org>", "<erictr at microsoft.com>"
_WHITESPACE_RE = re.compile(r"\s+")


@dataclass
class RstDoc:
    """What :func:`read_rst` found: the text as markdown-ish blocks, and the metadata."""

    text: str
    title: str = ""
    author: str | None = None
    contributors: list[str] = field(default_factory=list)
    date: str | None = None
    warnings: list[str] = field(default_factory=list)


#: Header fields naming the people of a document besides its authors.
_PEOPLE_FIELDS = ("sponsor", "bdfl-delegate", "pep-delegate", "editor", "editors")


def read_rst(text: str, path: str) -> RstDoc:
    """Read reStructuredText ``text`` (from ``path``, for messages only).

    Raises:
        SourceReadError: docutils failed on it (a markup error does not; see the module).
    """
    header, body = _split_pep_header(text)
    converter = _Converter(path)
    try:
        blocks = converter.document(body)
    except SourceReadError:
        raise
    except Exception as exc:  # docutils' own bugs and limits (RecursionError...)
        raise SourceReadError(
            f"{path}: cannot read it as reStructuredText ({type(exc).__name__}: {exc})"
        ) from exc
    meta = {**converter.docinfo, **header}
    doc = RstDoc(
        text="\n\n".join(blocks),
        title=_plain(meta["title"], path) if meta.get("title") else converter.first_title,
        author=_author(meta.get("author") or meta.get("authors")),
        contributors=[n for k in _PEOPLE_FIELDS if (n := _author(meta.get(k))) is not None],
        date=_date(meta.get("created") or meta.get("date")),
    )
    if converter.errors:
        line, message = converter.errors[0]
        where = f" at line {line}" if line else ""
        doc.warnings.append(
            f"{path}: {len(converter.errors)} reStructuredText markup error(s), the first"
            f"{where}: {message.rstrip('.')}; their text was kept"
        )
    return doc


# --- the PEP header --------------------------------------------------------------------


def _split_pep_header(text: str) -> tuple[dict[str, str], str]:
    """The RFC-822 header at the top (keys lower-cased) and the text after it.

    A header is every line up to the first blank one, each a ``Key: value`` field or a
    continuation (indented); it counts only when it has a Title and another field, so a
    paragraph that opens with "Note: ..." stays a paragraph.
    """
    lines = text.lstrip("\n").split("\n")
    end = next((i for i, line in enumerate(lines) if not line.strip()), len(lines))
    fields: dict[str, str] = {}
    key = ""
    for line in lines[:end]:
        if line[:1] in " \t" and key:
            fields[key] = f"{fields[key]} {line.strip()}".strip()
            continue
        match = _HEADER_FIELD_RE.match(line.rstrip())
        if match is None:
            return {}, text
        key = match.group(1).lower()
        fields[key] = (match.group(2) or "").strip()
    if "title" not in fields or len(fields) < 2:
        return {}, text
    return fields, "\n".join(lines[end:])


def _plain(value: str, path: str) -> str:
    """A header value's inline markup read: "union types as ``X | Y``" -> "... X | Y"."""
    try:
        para = next(iter(_parse(value, path).findall(nodes.paragraph)), None)
    except Exception:  # a title docutils cannot read stays as written
        return value
    return (_collapse(para.astext()) if para is not None else "") or value


def _author(value: str | None) -> str | None:
    if not value:
        return None
    names = _EMAIL_RE.sub("", value)
    return " ".join(names.split()).strip(" ,") or None


def _date(value: str | None) -> str | None:
    if not value:
        return None
    for pattern in ("%d-%b-%Y", "%Y-%m-%d", "%d %B %Y", "%B %d, %Y"):
        try:
            return datetime.strptime(value.strip(), pattern).date().isoformat()
        except ValueError:
            continue
    return None


# --- roles -----------------------------------------------------------------------------


def _inliner() -> states.Inliner:
    """docutils' inliner with every interpreted-text role, known or not, read as its text.

    Patched on the instance: a subclass would break ``init_customizations``, which reads
    its patterns from the ``vars()`` of the instance's own class.
    """
    inliner = states.Inliner()
    inliner.interpreted = _interpreted  # type: ignore[method-assign]
    return inliner


def _interpreted(
    rawsource: str, text: str, role: str | None, lineno: int
) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    name = (role or "").lower().rsplit(":", 1)[-1]
    shown = _role_text(name, utils.unescape(text))
    node: nodes.Node = nodes.literal(rawsource, shown) if name in CODE_ROLES else nodes.Text(shown)
    return [node], []


def _role_text(name: str, text: str) -> str:
    """``text <target>`` shows text; ``~a.b.c`` shows c; a PEP or RFC number its name."""
    titled = _ROLE_TITLE_RE.match(text)
    if titled and titled.group(1):
        return titled.group(1)
    target = (titled.group(2) if titled else text).strip().lstrip("!")
    if target.startswith("~"):
        target = target[1:].rsplit(".", 1)[-1]
    if name in ("ref", "doc"):
        target = target.rsplit(":", 1)[-1]  # "typing:classvar": intersphinx's project prefix
    number = target.split("#", 1)[0].strip()
    if name in ("pep", "pep-reference") and number.isdigit():
        return f"PEP {int(number)}"
    if name in ("rfc", "rfc-reference") and number.isdigit():
        return f"RFC {int(number)}"
    return target


# --- the tree to markdown-ish blocks ---------------------------------------------------


_SKIPPED = (
    nodes.comment,
    nodes.target,
    nodes.substitution_definition,
    nodes.pending,
    nodes.raw,
    nodes.image,
    nodes.meta,
    nodes.decoration,
    nodes.transition,
    nodes.footnote_reference,
    nodes.citation_reference,
)


class _Converter:
    """Walks a docutils tree, gathering blocks, the first title, docinfo and errors."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.first_title = ""
        self.docinfo: dict[str, str] = {}
        self.errors: list[tuple[int | None, str]] = []
        self._depth = 0

    def document(self, text: str) -> list[str]:
        tree = _parse(text, self.path)
        top = _leading_field_list(tree)
        if top is not None:
            for item in top.findall(nodes.field):
                key = item[0].astext().strip().lower()
                self.docinfo[key] = _collapse(item[1].astext())
            top.parent.remove(top)
        return self.blocks(tree, 1)

    def blocks(self, node: nodes.Element, level: int) -> list[str]:
        out: list[str] = []
        for child in node.children:
            out.extend(self.block(child, level))
        return [b for b in out if b.strip()]

    def block(self, node: nodes.Node, level: int) -> list[str]:
        if isinstance(node, nodes.Text):
            return [_collapse(node.astext())]
        if isinstance(node, _SKIPPED) or not isinstance(node, nodes.Element):
            return []
        if isinstance(node, nodes.section):
            return self.section(node, level)
        if isinstance(node, nodes.system_message):
            return self.system_message(node, level)
        if isinstance(node, (nodes.literal_block, nodes.doctest_block, nodes.math_block)):
            return [_fenced(node.astext())]
        if isinstance(node, (nodes.paragraph, nodes.title, nodes.subtitle, nodes.rubric)):
            return [self.inline(node)]
        if isinstance(node, nodes.topic) and "contents" in node["classes"]:
            return []  # a table of contents repeats the headings
        if isinstance(node, (nodes.bullet_list, nodes.enumerated_list)):
            return [self.items(node, level)]
        if isinstance(node, nodes.definition_list):
            return [self.definitions(node, level)]
        if isinstance(node, (nodes.field_list, nodes.option_list)):
            return [self.fields(node, level)]
        if isinstance(node, nodes.table):
            return self.table(node, level)
        if isinstance(node, nodes.line_block):
            return ["\n".join(self.inline(line) for line in node.findall(nodes.line))]
        if isinstance(node, nodes.attribution):
            return [f"— {self.inline(node)}"]
        if isinstance(node, (nodes.footnote, nodes.citation)):
            label = node[0].astext() if node.children else ""
            body = self.blocks(node, level)
            if body and body[0] == label:
                body = body[1:]
            return [f"[{label}] {body[0]}", *body[1:]] if body else []
        if isinstance(node, nodes.label):
            return [node.astext()]
        return self.blocks(node, level)  # quotes, admonitions, containers, figures...

    def section(self, node: nodes.section, level: int) -> list[str]:
        out: list[str] = []
        for child in node.children:
            if isinstance(child, nodes.title):
                title = self.inline(child)
                self.first_title = self.first_title or title
                out.append(f"{'#' * min(level, 6)} {title}")
            else:
                out.extend(self.block(child, level + 1))
        return out

    def items(self, node: nodes.Element, level: int) -> str:
        lines: list[str] = []
        items = [item for item in node.children if isinstance(item, nodes.Element)]
        for i, item in enumerate(items, start=int(node.get("start", 1))):
            marker = f"{i}." if isinstance(node, nodes.enumerated_list) else "-"
            lines.extend(_item(marker, self.blocks(item, level)))
        return "\n".join(lines)

    def definitions(self, node: nodes.definition_list, level: int) -> str:
        lines: list[str] = []
        for item in node.children:
            term = " ".join(
                self.inline(part)
                for part in item.children
                if isinstance(part, (nodes.term, nodes.classifier))
            )
            body = [
                block
                for part in item.children
                if isinstance(part, nodes.definition)
                for block in self.blocks(part, level)
            ]
            lines.extend(_item("-", body, term))
        return "\n".join(lines)

    def fields(self, node: nodes.Element, level: int) -> str:
        lines: list[str] = []
        for item in node.children:
            if not isinstance(item, nodes.Element) or len(item.children) < 2:
                continue
            name = self.inline(item[0]) if isinstance(item[0], nodes.Element) else ""
            body = self.blocks(item[1], level) if isinstance(item[1], nodes.Element) else []
            lines.extend(_item("-", body, name))
        return "\n".join(lines)

    def table(self, node: nodes.table, level: int) -> list[str]:
        out = [self.inline(t) for t in node.children if isinstance(t, nodes.title)]
        rows = [
            "| " + " | ".join(_collapse(entry.astext()) for entry in row.children) + " |"
            for row in node.findall(nodes.row)
        ]
        return [*out, "\n".join(rows)] if rows else out

    def system_message(self, node: nodes.system_message, level: int) -> list[str]:
        """An unknown directive degrades to its text; other errors keep theirs as a block."""
        if node["level"] < 2:
            return []  # INFO: nothing was lost
        quoted = next(iter(node.findall(nodes.literal_block)), None)
        message = node[0].astext() if node.children else ""
        first_line = quoted.astext().split("\n", 1)[0] if quoted is not None else ""
        directive = _DIRECTIVE_RE.match(first_line)
        if directive is None or not message.startswith("Unknown directive"):
            self.errors.append((node.get("line"), _collapse(message)))
            if directive is not None and directive.group(1).lower() in _DROPPED_DIRECTIVES:
                return []  # e.g. "include" refused: it names a file, and stays unread
            return [_fenced(quoted.astext())] if quoted is not None else []
        return self.unknown_directive(quoted.astext(), level) if quoted is not None else []

    def unknown_directive(self, source: str, level: int) -> list[str]:
        """Its argument (the first line and what continues it) and its body, as rst again."""
        first, *lines = source.split("\n")
        match = _DIRECTIVE_RE.match(first)
        name = match.group(1).lower() if match else ""
        argument = [match.group(2).strip()] if match else []
        while lines and lines[0].strip() and not _OPTION_RE.match(lines[0].strip()):
            argument.append(lines.pop(0).strip())
        while lines and lines[0].strip():
            lines.pop(0)  # ":option: value" lines
        body = _dedent("\n".join(lines))
        if name in _DROPPED_DIRECTIVES:
            return []
        if name in CODE_DIRECTIVES:
            return [_fenced(body)] if body.strip() else []
        text = "\n".join(argument).strip() + "\n\n" + body
        if self._depth >= _MAX_DEPTH:
            return [_collapse(text)]
        self._depth += 1
        try:
            return self.blocks(_parse(text, self.path), level)
        finally:
            self._depth -= 1

    def inline(self, node: nodes.Element) -> str:
        parts: list[str] = []
        for child in node.children:
            if isinstance(child, nodes.Text):
                parts.append(child.astext())
            elif isinstance(child, _SKIPPED) or not isinstance(child, nodes.Element):
                continue
            elif isinstance(child, (nodes.literal, nodes.math)):
                parts.append(_code_span(child.astext()))
            else:
                parts.append(self.inline(child))
        return _collapse("".join(parts))


def _parse(text: str, path: str) -> nodes.document:
    settings = frontend.get_default_settings(Parser)
    settings.report_level = 5  # print nothing
    settings.halt_level = 5  # and never stop: errors become system_message nodes
    settings.warning_stream = io.StringIO()
    settings.file_insertion_enabled = False  # "include", "csv-table :file:" read no file
    settings.raw_enabled = False
    settings.syntax_highlight = "none"
    # docutils skips a whole document with a line over its limit (10,000); the
    # source size limit already bounds the work
    settings.line_length_limit = max(10_000, len(text) + 1)
    document = utils.new_document(path, settings)
    Parser(inliner=_inliner()).parse(text, document)
    return document


def _leading_field_list(tree: nodes.document) -> nodes.field_list | None:
    """A field list that opens the document (or its first section, after the title)."""
    container: nodes.Element = tree
    for _ in range(2):
        content = [
            c
            for c in container.children
            if not isinstance(c, (*_SKIPPED, nodes.title, nodes.system_message))
        ]
        if not content:
            return None
        if isinstance(content[0], nodes.field_list):
            return content[0]
        if not isinstance(content[0], nodes.section):
            return None
        container = content[0]
    return None


def _item(marker: str, blocks: list[str], term: str = "") -> list[str]:
    """A list item: the marker on its first block (after ``term:``), the rest after it."""
    lead = f"{term}: " if term else ""
    if not blocks:
        return [f"{marker} {term}"] if term else []
    first, rest = blocks[0], blocks[1:]
    if first.startswith(("```", "~~~")):
        return [f"{marker} {term}" if term else marker, *blocks]
    # nested items keep their marker, indented; the sentence splitter takes each alone
    return [f"{marker} {lead}{first}", *(f"  {b}" for b in "\n".join(rest).split("\n") if b)]


def _fenced(code: str) -> str:
    fence = "~~~" if re.search(r"^\s*```", code, re.MULTILINE) else "```"
    return f"{fence}\n{code.rstrip()}\n{fence}"


def _code_span(text: str) -> str:
    text = _collapse(text)
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def _collapse(text: str) -> str:
    return _WHITESPACE_RE.sub(" ", text).strip()


def _dedent(text: str) -> str:
    lines = text.split("\n")
    indents = [len(ln) - len(ln.lstrip()) for ln in lines if ln.strip()]
    cut = min(indents, default=0)
    return "\n".join(ln[cut:] for ln in lines).strip("\n")


__all__ = ["CODE_DIRECTIVES", "CODE_ROLES", "RstDoc", "read_rst"]
