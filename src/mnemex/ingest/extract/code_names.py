"""Names a document writes as code: the constructs a technical text is about.

A PEP is about ``TypedDict``, ``NotRequired`` or ``__class_getitem__``, and writes them as
inline code, which the sentence tokens leave out (a command or a snippet is no name). An
identifier in inline code is a page when the prose names it in at least
:data:`MIN_SENTENCES` sentences and it looks like a construct (:func:`qualified_code_name`:
a capital, a dunder name, a constant, a coined lower-case word). ``typing.Final`` is
``Final``, ``Required[]`` is ``Required``; single letters, ``True``/``False``/``None`` and
lower-case words (``total``, ``self``) are not names. What a document's code imports
(:func:`imported_names`) is an API it shows; what its examples define and never import
(:func:`example_names`: ``class Movie``) illustrates, and is no page.
"""

from __future__ import annotations

import re
from collections import defaultdict

from mnemex.ingest.extract.sentences import Sentence, evidence
from mnemex.ingest.extract.words import english_word, english_words
from mnemex.ingest.records import PlannedPage
from mnemex.vault.markdown import fenced_lines

#: In this many prose sentences or more, a code name is something the text is about.
MIN_SENTENCES = 2

_CODE_RE = re.compile(r"`([^`\n]{1,80})`")
#: A dotted identifier, then perhaps a call or a subscript: "typing.get_type_hints()",
#: "TypeGuard[List[str]]" (what follows the name is checked by :func:`_balanced`).
_IDENT_RE = re.compile(r"((?:[A-Za-z_]\w*\.)*)([A-Za-z_]\w*)")
#: An identifier inside code or a heading (a dotted name gives each of its parts).
_WORD_RE = re.compile(r"[A-Za-z_]\w*")
_DUNDER_RE = re.compile(r"__[a-z][a-z0-9_]*__")
_NOT_NAMES = frozenset({"True", "False", "None", "NotImplemented", "Ellipsis"})


def code_name(span: str) -> str | None:
    """The construct an inline code span names, or None: ``typing.Required[]`` -> ``Required``."""
    found = qualified_code_name(span)
    return found[1] if found else None


def qualified_code_name(span: str) -> tuple[str, str] | None:
    """A code span's name and its dotted form: ``typing.get_type_hints()`` ->
    (``typing.get_type_hints``, ``get_type_hints``), or None when it names no construct.

    A construct has a capital (``ClassVar``, ``ReadOnly``), is a dunder name
    (``__mro_entries__``), a constant with a digit or an underscore (``TYPE_CHECKING``,
    ``VERSION0``), or a lower-case identifier that is no English word, nor one's plural
    or derivative, nor two run together (``isinstance``, ``get_type_hints``,
    ``typing_extensions``; not ``total``, ``self``, ``globals`` or ``builtin``).
    """
    text = span.strip().removeprefix("@")  # a decorator: "@runtime_checkable"
    m = _IDENT_RE.match(text)
    if m is None or not _balanced(text[m.end() :]):
        return None
    name = m.group(2)
    if name in _NOT_NAMES or len(name) < 2:
        return None
    if name.isupper() or name.strip("_").isupper():
        ok = len(name) >= 4 and any(c == "_" or c.isdigit() for c in name.strip("_"))
    elif any(c.isupper() for c in name):
        ok = True
    else:
        ok = bool(_DUNDER_RE.fullmatch(name)) or (
            len(name) >= 5 and not english_word(name.strip("_").lower())
        )
    return (m.group(1) + name, name) if ok else None


#: "the ``typing`` module", "the `re` module": a code span a module word follows.
_MODULE_AFTER_RE = re.compile(r"`*\s+(module|package|library)\b")
_MODULE_RE = re.compile(r"[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*")


def _module_name(span: str) -> tuple[str, str] | None:
    """A module the prose names as one ("the ``typing`` module"), however ordinary its
    name: ``typing``, ``re``, ``collections.abc``."""
    text = span.strip()
    return (text, text) if _MODULE_RE.fullmatch(text) else None


#: A definition in code: "class Movie", "def is_str_list", "MyType: TypeAlias = ...",
#: "type ListOrSet[T] = ...", "BORDER_WIDTH = 3" (not a keyword argument, "total=False").
_DEFINED_RE = re.compile(
    r"^[ \t]*(?:async[ \t]+)?(?:class|def)[ \t]+([A-Za-z_]\w*)"
    r"|^[ \t]*(?:type[ \t]+)?([A-Za-z_]\w*)[ \t]*(?:\[[^\]=\n]*\])?(?::[^=\n]*|[ \t])=(?!=)",
    re.MULTILINE,
)
#: A module's name ("typing.Final"), not the example's own ("__main__.Movie").
_QUALIFIED_RE = re.compile(r"\b(?!__main__\.)[a-z_]\w*\.([A-Za-z_]\w*)")


def example_names(text: str) -> set[str]:
    """The names a document's code examples invent: defined there (a class, a function, a
    variable), never imported, never written as a module's (``typing.Final``), and not a
    dunder name (``__init__`` is Python's). ``Movie``, ``MyType``, ``is_str_list``,
    ``BORDER_WIDTH`` illustrate a construct; they are not things of their own."""
    lines = text.split("\n")
    code = "\n".join(
        line for line, fenced in zip(lines, fenced_lines(lines), strict=True) if fenced
    )
    defined = {a or b for a, b in _DEFINED_RE.findall(code)}
    known = set(_QUALIFIED_RE.findall(text)) | {n.rsplit(".", 1)[-1] for n in imported_names(text)}
    return {n for n in defined - known if not _DUNDER_RE.fullmatch(n)}


def _balanced(rest: str) -> bool:
    """Whether what follows a name is a call or subscripts only: "()", "[List[str]]"."""
    if not rest:
        return True
    if rest[0] not in "([":
        return False
    depth = 0
    for k, c in enumerate(rest):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
            if depth == 0:
                return _balanced(rest[k + 1 :])
    return False


def find_code_names(
    sentences: list[Sentence],
    score_of: dict[int, int],
    where: dict[str, set[int]],
    known: dict[str, PlannedPage],
    text: str = "",
) -> list[PlannedPage]:
    """Pages for the code names the prose keeps coming back to, most named first.

    ``known`` maps the names (lower case) of the pages already found to them: a code name
    among them adds its sentences to that page instead ("TypeGuard" in prose and in code).
    A module the prose names as one is a page under that name ("the ``typing`` module" is
    the "typing module", alias ``typing``). A name counts every sentence naming it: in its
    own code span, inside a longer one (``var: Final = value``) or in plain prose past a
    sentence's first word ("any other uses of Final"). A name the document's ``text``
    imports (``from typing import TypeAlias``, ``import asyncio``) is an API it shows: it
    is a page when the prose or a heading names it once, and its use counts as one more
    mention.
    """
    seen: dict[str, set[int]] = defaultdict(set)
    dotted: dict[str, set[str]] = defaultdict(set)
    spans = [(s, m) for s in sentences if not s.heading for m in _CODE_RE.finditer(s.text)]
    kind_word: dict[str, str] = {}  # "typing" -> "module": the page is the "typing module"
    for s, m in spans:
        found = qualified_code_name(m.group(1))
        after = _MODULE_AFTER_RE.match(s.text, m.end())
        if after is not None and (found is not None or _MODULE_RE.fullmatch(m.group(1).strip())):
            found = found or _module_name(m.group(1))
            if found is not None:
                kind_word.setdefault(found[1], after.group(1))
        if found is not None:
            owner = found[0].rsplit(".", 2)[-2] if "." in found[0] else ""
            if owner[:1].isupper():  # "GenericMeta.__new__": a method names its class
                seen[owner].add(s.position)
                if _DUNDER_RE.fullmatch(found[1]):
                    continue  # a class's dunder method is the class's, not a thing
            seen[found[1]].add(s.position)
            if found[0] != found[1]:
                dotted[found[1]].add(found[0])
    imported = imported_names(text)
    # a construct named once as code is named again inside longer code ("var: Final =
    # value") and in plain prose ("any other uses of Final"); an imported one in headings
    names = {n for n in (*seen, *imported) if n.isidentifier()}
    for s in sentences:
        if s.heading:
            named = set(_WORD_RE.findall(s.text)) & imported
        else:
            in_code = {w for m in _CODE_RE.finditer(s.text) for w in _WORD_RE.findall(m.group(1))}
            in_prose = {t for t, _a, _b in s.tokens[1:] if t not in english_words()}
            named = (in_code | in_prose) & names
        for name in named:
            seen[name].add(s.position)
    pages = []
    for name, positions in seen.items():
        if len(positions) < (1 if name in imported else MIN_SENTENCES):
            continue
        mentions = len(positions) + (name in imported)
        page = known.get(name.lower())
        if page is not None:  # "TypeGuard" found in prose as well: one page, all mentions
            page.mentions += mentions - len(where.get(page.name, set()) & positions)
            where[page.name] = where.get(page.name, set()) | positions
            continue
        ordered = sorted(positions)
        first = sentences[ordered[0]]
        title = f"{name} {kind_word[name]}" if name in kind_word else name
        pages.append(
            PlannedPage(
                name=title,
                kind="entity",
                type="tool" if name in kind_word else "thing",
                aliases=sorted({*dotted[name], name} - {title}),
                description=first.fact or first.text,
                facts=evidence(ordered, sentences, score_of),
                mentions=mentions,
            )
        )
        where[title] = set(positions)
    pages.sort(key=lambda p: (-p.mentions, p.name))
    return pages


def imported_names(text: str) -> set[str]:
    """What a document's code imports: ``from typing import Final, Literal as L`` gives
    ``Final`` and ``Literal``, ``import asyncio, numpy as np`` gives ``asyncio`` and
    ``numpy`` (a parenthesised list may span lines; ``*`` and single letters are left
    out)."""
    names: set[str] = set()
    lines = iter(text.splitlines())
    for line in lines:
        m = _FROM_IMPORT_RE.match(line)
        if m:
            listed = m.group(1)
            while "(" in listed and ")" not in listed:
                listed += "," + next(lines, ")")
            names |= {part.split()[0] for part in listed.strip("()").split(",") if part.split()}
        elif m := _IMPORT_RE.match(line):
            names |= {part.split()[0] for part in m.group(1).split(",") if part.split()}
    return {n.strip("()") for n in names if re.fullmatch(r"\(?[A-Za-z_][\w.]+\)?", n)}


_FROM_IMPORT_RE = re.compile(
    r"\s*(?:>>>\s*)?from\s+(?!__future__\b)[\w.]+\s+import\s+(.+?)\s*(?:#.*)?$"
)
_IMPORT_RE = re.compile(
    r"\s*(?:>>>\s*)?import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)\s*(?:#.*)?$"
)


__all__ = [
    "MIN_SENTENCES",
    "code_name",
    "example_names",
    "find_code_names",
    "imported_names",
    "qualified_code_name",
]
