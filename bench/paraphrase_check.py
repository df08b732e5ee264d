"""Check the paraphrase queries over the typing PEPs: each may share at most one stemmed
content word with the passage it targets (issue 16).

    python bench/paraphrase_check.py [FILE ...]      # default: bench/data/peps_paraphrase.json

A query's **target passage** is the section it names, as ``bench/peps_eval.py`` reads the
PEP's sections (a title underlined in the ``.rst``), with its subsections, and the PEP's
``Title:`` header when the section is the title itself (``"section": ""``). Its **content
words** are its words of two characters or more (letters, digits, ``_``; ``TypeGuard`` is
one word, ``typing.Final`` two) lower-cased, less the stopwords keyword search drops and a
few question words, each
cut to a stem by :func:`stem` (``annotations`` and ``annotated`` are ``annot``). A query
passes when at most one of its stems is in its passage: keyword search alone can then hit
it by at most one word, so what finds it is meaning.

Also checked: every field is there, ids are unique, types and halves are the declared
ones, a query's targets are all in its half's PEPs (the tuning half: the 1st, 3rd, 5th...
PEP in sorted file order, as issue 15 declares it). Prints one line per failing query and
a summary; exits 1 when any fails. The PEPs are read at run time from
``../shared/data/peps-typing/`` and never copied.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mnemex.retrieve.stopwords import STOPWORDS
from peps_eval import PEPS, rst_to_markdown

REPO = Path(__file__).resolve().parents[1]
QUERIES = REPO / "bench" / "data" / "peps_paraphrase.json"
TYPES = ("paraphrase", "identifier", "multi-part", "name")
HALVES = ("tuning", "report")
#: Words a question carries that say nothing of its subject.
_QUESTION = """also can cannot could get gets give how i just like make makes may might must
need one ones say says should something thing things use used uses using way ways will would"""
QUESTION_WORDS = frozenset(_QUESTION.split())
_WORD_RE = re.compile(r"[a-z0-9_]+")
_SUFFIXES = (
    "ational", "izations", "ization", "ations", "ation", "ating", "ated", "ates", "ate",
    "ements", "ement", "ments", "ment",
    "ities", "ity", "ness", "ings", "ing", "ions", "ion", "ables", "able", "ibles", "ible",
    "ives", "ive", "ers", "er", "ors", "or", "ies", "ied", "es", "ed", "ly", "al", "s", "e",
)  # fmt: skip


def stem(word: str) -> str:
    """A crude stem: the longest listed suffix off while three letters or more stay."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def content_stems(text: str) -> set[str]:
    """The stems of a text's content words (see the module's docstring)."""
    words = _WORD_RE.findall(text.replace("`", "").lower())
    return {stem(w) for w in words if len(w) > 1 and w not in STOPWORDS and w not in QUESTION_WORDS}


def pep_halves() -> dict[str, str]:
    """Each PEP's half: tuning = 1st, 3rd, 5th... in sorted file order; report = the rest."""
    files = sorted(PEPS.glob("pep-*.rst"))
    return {f.stem: ("tuning" if k % 2 == 0 else "report") for k, f in enumerate(files)}


def sections(stem_: str) -> dict[str, str]:
    """A PEP's sections by lower-cased title, each with its subsections' text (two
    sections of one title together), and ``""`` for its title (the ``Title:`` header)."""
    body, title = rst_to_markdown((PEPS / f"{stem_}.rst").read_text(encoding="utf-8"))
    lines = body.split("\n")
    heads = [(k, len(m.group(1)), m.group(2)) for k, line in enumerate(lines)
             if (m := re.match(r"(#+) (.*)$", line))]  # fmt: skip
    found = {"": title}
    for n, (k, level, name) in enumerate(heads):
        end = next((j for j, lv, _ in heads[n + 1 :] if lv <= level), len(lines))
        # a title used twice ("Motivation" under two parts): either section answers, as
        # in the evaluation, so both count as the passage
        text = "\n".join(lines[k:end])
        found[_key(name)] = f"{found[_key(name)]}\n{text}" if _key(name) in found else text
    return found


def _key(title: str) -> str:
    return " ".join(title.replace("`", "").split()).lower()


def check(queries: list[dict[str, Any]]) -> list[str]:
    """What is wrong with each query, one line each (empty: all pass)."""
    halves = pep_halves()
    cache: dict[str, dict[str, str]] = {}
    problems: list[str] = []
    seen: set[str] = set()
    for q in queries:
        qid = q.get("id", "?")
        missing = [f for f in ("id", "text", "type", "half", "targets") if not q.get(f)]
        if missing:
            problems.append(f"{qid}: missing {', '.join(missing)}")
            continue
        if qid in seen:
            problems.append(f"{qid}: id used twice")
        seen.add(qid)
        if q["type"] not in TYPES or q["half"] not in HALVES:
            problems.append(f"{qid}: type {q['type']!r} / half {q['half']!r} not declared")
        passage = []
        for t in q["targets"]:
            doc, section = t.get("doc", ""), _key(t.get("section", ""))
            if doc not in halves:
                problems.append(f"{qid}: no PEP {doc!r}")
                continue
            if halves[doc] != q["half"]:
                problems.append(f"{qid}: {doc} is in the {halves[doc]} half, not {q['half']}")
            found = cache.setdefault(doc, sections(doc))
            if section not in found:
                problems.append(f"{qid}: {doc} has no section {t.get('section')!r}")
                continue
            passage.append(found[section])
        shared = sorted(content_stems(q["text"]) & content_stems("\n".join(passage)))
        if len(shared) > 1:
            problems.append(f"{qid}: shares {len(shared)} stems with its passage: {shared}")
    return problems


def main(argv: list[str] | None = None) -> int:
    files = [Path(a) for a in (argv if argv is not None else sys.argv[1:])] or [QUERIES]
    queries = [q for f in files for q in json.loads(f.read_text(encoding="utf-8"))["queries"]]
    problems = check(queries)
    for line in problems:
        print(line)
    by_type = {t: sum(q.get("type") == t for q in queries) for t in TYPES}
    by_half = {h: sum(q.get("half") == h for q in queries) for h in HALVES}
    failing = len({p.split(":")[0] for p in problems})
    print(f"{len(queries)} queries, {failing} failing; types {by_type}; halves {by_half}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
