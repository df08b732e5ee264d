"""Names compared the tolerant way: case, hyphens, plurals and honorifics ignored.

Used twice: a broken link's suggested target (``[[Ada-Lovelaces]]`` ->
``ada-lovelace.md``) and duplicate pages that differ only in such details.
Each step is kept separate so a report can say *why* two names matched.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

_WORD_RE = re.compile(r"[a-z0-9]+")

#: Titles in front of a name that do not change whom it names.
HONORIFICS = frozenset(
    {"dr", "mr", "mrs", "ms", "mx", "miss", "prof", "professor", "sir", "dame", "st", "saint"}
)


def words(text: str) -> list[str]:
    """Lower-case ASCII words: ``"Café-Notes_v2"`` -> ``["cafe", "notes", "v2"]``."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return _WORD_RE.findall(folded)


def singular(word: str) -> str:
    """A plain English singular; short words and ``-ss``/``-us``/``-is`` are kept."""
    if len(word) <= 3 or word.isdigit():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def basic_key(text: str) -> str:
    """Case, accents, hyphens, underscores and spaces ignored."""
    return " ".join(words(text))


def plural_key(text: str) -> str:
    """:func:`basic_key`, plus singular and plural the same."""
    return " ".join(singular(w) for w in words(text))


def _naive_singular(word: str) -> str:
    """Just a final ``s`` dropped: ``Holemis`` -> ``Holemi``, which :func:`singular` keeps
    (it cannot tell a plural of ``-i`` from ``analysis``)."""
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss") and not word.isdigit():
        return word[:-1]
    return word


def _key(text: str, fold: Callable[[str], str]) -> str:
    parts = [fold(w) for w in words(text)]
    while len(parts) > 1 and parts[0] in HONORIFICS:
        parts = parts[1:]
    return " ".join(parts)


def name_key(text: str) -> str:
    """:func:`plural_key`, plus a leading honorific dropped (``Dr. Ada`` is ``Ada``)."""
    return _key(text, singular)


def name_keys(text: str) -> set[str]:
    """Every key a name is known by: :func:`name_key`, the same with a final ``s`` simply
    dropped, and both with the spaces between words taken out (``AdaLovelace``,
    ``ada_lovelace`` and ``Ada Lovelace`` meet). Two names are the same when their key
    sets meet."""
    keys = {k for k in (_key(text, singular), _key(text, _naive_singular)) if k}
    joined = keys | {_key(text, str)}  # as written too: "CharlesBabbage" is one word
    return keys | {"~" + k.replace(" ", "") for k in joined if k}


def why_same(a: str, b: str) -> str:
    """Which difference :func:`name_key` ignored to find ``a`` and ``b`` equal."""
    if basic_key(a).replace(" ", "") == basic_key(b).replace(" ", ""):
        return "differ only in case, accents, spaces or hyphens"
    if plural_key(a) == plural_key(b) or _plain(a) & _plain(b):
        return "differ only as singular and plural"
    return "differ only by an honorific (Dr, Mr, Prof, ...)"


def _plain(text: str) -> set[str]:
    """Keys without the honorific step, to tell plural differences from honorifics."""
    ws = words(text)
    return {" ".join(singular(w) for w in ws), " ".join(_naive_singular(w) for w in ws)}


__all__ = [
    "HONORIFICS",
    "basic_key",
    "name_key",
    "name_keys",
    "plural_key",
    "singular",
    "why_same",
    "words",
]
