"""Names a document writes as code: the constructs a technical text is about.

A PEP is about ``TypedDict``, ``NotRequired`` or ``__class_getitem__``, and writes them as
inline code, which the sentence tokens leave out (a command or a snippet is no name). An
identifier in inline code is a page when the prose names it in at least
:data:`MIN_SENTENCES` sentences and it looks like a construct: it has a capital
(``ClassVar``, ``ReadOnly``) or is a dunder name (``__mro_entries__``). ``typing.Final`` is
``Final``, ``Required[]`` is ``Required``; single letters, ``True``/``False``/``None`` and
lower-case words (``total``, ``self``) are not names.
"""

from __future__ import annotations

import re
from collections import defaultdict

from mnemex.ingest.extract.sentences import Sentence, evidence
from mnemex.ingest.records import PlannedPage

#: In this many prose sentences or more, a code name is something the text is about.
MIN_SENTENCES = 3

_CODE_RE = re.compile(r"`([^`\n]{1,80})`")
_IDENT_RE = re.compile(r"(?:[A-Za-z_][\w]*\.)*([A-Za-z_]\w*)(?:\[[^\]]*\]|\(\))?")
_DUNDER_RE = re.compile(r"__[a-z][a-z0-9_]*__")
_NOT_NAMES = frozenset({"True", "False", "None", "NotImplemented", "Ellipsis"})


def code_name(span: str) -> str | None:
    """The construct an inline code span names, or None: ``typing.Required[]`` -> ``Required``."""
    m = _IDENT_RE.fullmatch(span.strip())
    if m is None:
        return None
    name = m.group(1)
    if name in _NOT_NAMES or len(name) < 2:
        return None
    if _DUNDER_RE.fullmatch(name) or (any(c.isupper() for c in name) and not name.isupper()):
        return name
    return None


def find_code_names(
    sentences: list[Sentence],
    score_of: dict[int, int],
    where: dict[str, set[int]],
    known: set[str],
) -> list[PlannedPage]:
    """Pages for the code names the prose keeps coming back to, most named first;
    ``known`` (folded, lower case) are names that already have a page."""
    seen: dict[str, set[int]] = defaultdict(set)
    for s in sentences:
        if s.heading:
            continue
        for m in _CODE_RE.finditer(s.text):
            name = code_name(m.group(1))
            if name is not None:
                seen[name].add(s.position)
    pages = []
    for name, positions in seen.items():
        if len(positions) < MIN_SENTENCES or name.lower() in known:
            continue
        ordered = sorted(positions)
        first = sentences[ordered[0]]
        pages.append(
            PlannedPage(
                name=name,
                kind="entity",
                type="thing",
                description=first.fact or first.text,
                facts=evidence(ordered, sentences, score_of),
                mentions=len(positions),
            )
        )
        where[name] = set(positions)
    pages.sort(key=lambda p: (-p.mentions, p.name))
    return pages


__all__ = ["MIN_SENTENCES", "code_name", "find_code_names"]
