"""Names compared the tolerant way: case, hyphens, plurals and honorifics ignored.

Used twice: a broken link's suggested target (``[[Ada-Lovelaces]]`` ->
``ada-lovelace.md``) and duplicate pages that differ only in such details.
Each step is kept separate so a report can say *why* two names matched.
"""

from __future__ import annotations

from collections.abc import Callable

from mnemex.vault import fold_name, word_runs

#: Titles in front of a name that do not change whom it names.
HONORIFICS = frozenset(
    {"dr", "mr", "mrs", "ms", "mx", "miss", "prof", "professor", "sir", "dame", "st", "saint"}
)


def words(text: str) -> list[str]:
    """Words folded as names are matched (:func:`~mnemex.vault.fold_name`), in any script:
    ``"Café-Notes_v2"`` -> ``["cafe", "notes", "v2"]``, ``"東京"`` -> ``["東京"]``."""
    return word_runs(fold_name(text))


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


#: Words of which any two name different things of one kind ("high-severity issues" and
#: "low-severity issues"): a page named with one is never a duplicate of one named with another.
OPPOSITES: tuple[frozenset[str], ...] = tuple(
    frozenset(group.split())
    for group in (
        "high medium low",
        "higher lower",
        "upper lower",
        "pre post",
        "before after",
        "input output",
        "in out",
        "inbound outbound",
        "import export",
        "importer exporter",
        "client server",
        "frontend backend",
        "min max",
        "minimum maximum",
        "major minor",
        "read write",
        "reader writer",
        "up down",
        "upstream downstream",
        "start end",
        "begin end",
        "first last",
        "old new",
        "left right",
        "front back",
        "top bottom",
        "head tail",
        "inner outer",
        "internal external",
        "public private",
        "open closed",
        "positive negative",
        "true false",
        "on off",
        "push pull",
        "send receive",
        "sender receiver",
        "producer consumer",
        "encode decode",
        "encoder decoder",
        "encrypt decrypt",
        "encryption decryption",
        "compress decompress",
        "compression decompression",
        "serialize deserialize",
        "serialization deserialization",
        "primary secondary",
        "local remote",
        "static dynamic",
        "sync async",
        "synchronous asynchronous",
        "horizontal vertical",
        "north south east west",
        "parent child",
        "small medium large",
        "short long",
        "early late",
        "hot cold",
        "strong weak",
        "increase decrease",
        "gain loss",
        "success failure",
        "allow deny",
        "accept reject",
        "enable disable",
        "install uninstall",
        "login logout",
        "supply demand",
        "buy sell",
        "debit credit",
        "male female",
    )
)
#: A word with one of these in front is its opposite: "supervised" and "unsupervised".
NEGATIONS = ("un", "non", "anti")


def _opposite_words(a: str, b: str) -> bool:
    if a.isdigit() and b.isdigit():  # "Kestrel 1" and "Kestrel 2": two versions
        return True
    if any(a == n + b or b == n + a for n in NEGATIONS):
        return True
    return any(a in group and b in group for group in OPPOSITES)


def opposed(a: str, b: str) -> tuple[str, str] | None:
    """The two words that make names ``a`` and ``b`` opposites, if any: a word only ``a``
    has against a word only ``b`` has, of one :data:`OPPOSITES` group (or one the other
    negated, or two numbers). ``"high-severity issues"`` and ``"low-severity issues"``
    -> ``("high", "low")``; pages so named are two things, however alike their text."""
    wa, wb = [singular(w) for w in words(a)], [singular(w) for w in words(b)]
    only_a = [w for w in wa if w not in wb]
    only_b = [w for w in wb if w not in wa]
    for x in only_a:
        for y in only_b:
            if _opposite_words(x, y):
                return x, y
    # a negated word written as two: "non-linear" against "linear"
    for extra, other in ((only_a, wb), (only_b, wa)):
        if len(extra) == 1 and extra[0] in NEGATIONS and other:
            return (extra[0], "") if extra is only_a else ("", extra[0])
    return None


def _plain(text: str) -> set[str]:
    """Keys without the honorific step, to tell plural differences from honorifics."""
    ws = words(text)
    return {" ".join(singular(w) for w in ws), " ".join(_naive_singular(w) for w in ws)}


__all__ = [
    "HONORIFICS",
    "NEGATIONS",
    "OPPOSITES",
    "basic_key",
    "name_key",
    "name_keys",
    "opposed",
    "plural_key",
    "singular",
    "why_same",
    "words",
]
