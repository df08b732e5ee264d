"""Fact hits, served with their times: labelled, ranked below current ones, not said twice.

A hit on ``facts/<subject>.md`` is one subject's file; the index cannot tell which of its
facts answered. So the facts of such a hit are re-read and matched to the query's terms,
and the best one or two are served as the hit's snippets, each labelled with what it is on
``as_of`` as the brain believed it on ``recorded_as_of``: ``current``, ``disputed``,
``past``, ``superseded``, ``not yet`` (a plan), ``expired`` (retracted), ``agent's
guess`` or ``date unresolved``. A hit whose best fact is not current or disputed has its
score halved, so current facts rank first. A wiki hit whose snippets only repeat a
served fact's statement (the page's dated fact line) is left out: the fact says it, with
its time.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from mnemex.errors import FactError
from mnemex.facts.claims import fold
from mnemex.facts.model import Fact
from mnemex.facts.query import answer_slot, believed, fact_dict
from mnemex.facts.store import parse_facts
from mnemex.vault import Vault

#: What a fact that is not true on ``as_of`` keeps of its score.
NOT_CURRENT = 0.5
_WORD = re.compile(r"\w+")


def fact_label(
    fact: Fact, facts: list[Fact], as_of: dt.date, recorded_as_of: dt.date | None
) -> str:
    """What ``fact`` is on ``as_of``, as believed on ``recorded_as_of``."""
    if fact.expired_at is not None and (
        recorded_as_of is None or fact.expired_at.date() <= recorded_as_of
    ):
        return "expired"
    if fact.provenance == "agent":
        return "agent's guess"
    if fact.pending:
        return "date unresolved"
    if fact.holds_on(as_of):
        if fact.predicate:
            ans = answer_slot(facts, fact.slot, as_of, recorded_as_of)
            if ans.status == "disputed":
                return "disputed"
        return "current"
    if fact.start > as_of:
        return "not yet"
    return "superseded" if fact.superseded_by else "past"


def _when(fact: Fact) -> str:
    if fact.valid_from and fact.valid_until:
        return f"{fact.valid_from} → {fact.valid_until}"
    if fact.valid_from:
        return f"since {fact.valid_from}"
    if fact.valid_until:
        return f"until {fact.valid_until}"
    return f"seen {fact.first_seen.isoformat()}"


def _overlap(fact: Fact, terms: list[str]) -> int:
    words = set(_WORD.findall(fold(f"{fact.statement} {fact.value or ''} {fact.subject}")))
    return sum(1 for t in terms if fold(t) in words)


@dataclass(frozen=True)
class ServedFact:
    """One fact as a hit serves it: its snippet, its label on the day, and its fields."""

    heading: str
    text: str
    label: str
    fields: dict[str, Any]

    @property
    def current(self) -> bool:
        return self.label in ("current", "disputed")


def served_facts(
    vault: Vault,
    path: str,
    terms: list[str],
    as_of: dt.date,
    recorded_as_of: dt.date | None,
    most: int = 2,
) -> list[ServedFact] | None:
    """The facts of the fact file ``path`` that best answer ``terms``, labelled for ``as_of``.

    None when the file cannot be read as facts (it is then served as plain text); an
    empty list when none of its facts had been recorded by ``recorded_as_of``. The facts
    the query names come first, current ones before the others; then the rest.
    """
    try:
        file = parse_facts((vault.root / path).read_text(encoding="utf-8"), path)
    except (OSError, UnicodeDecodeError, FactError):
        return None
    facts = file.facts if recorded_as_of is None else believed(file.facts, recorded_as_of)
    labelled = [(f, fact_label(f, facts, as_of, recorded_as_of)) for f in facts]
    rank = {"current": 0, "disputed": 0, "not yet": 1, "past": 2, "superseded": 2}
    labelled.sort(
        key=lambda p: (
            _overlap(p[0], terms) == 0,
            rank.get(p[1], 3),
            -_overlap(p[0], terms),
            -p[0].start.toordinal(),
        )
    )
    out: list[ServedFact] = []
    for fact, label in labelled[:most]:
        what = (fact.predicate or "fact").replace("_", " ")
        text = f"{fact.statement} ({label}; {_when(fact)}; {fact.provenance}; id {fact.id})"
        out.append(
            ServedFact(f"{fact.subject}: {what}", text, label, {**fact_dict(fact), "label": label})
        )
    return out


def repeats(texts: list[str], statements: list[str]) -> bool:
    """Whether every one of ``texts`` only repeats one of the served fact ``statements``."""
    folded = [fold(t) for t in texts if t]
    return bool(folded) and all(any(st and st in text for st in statements) for text in folded)


__all__ = ["NOT_CURRENT", "ServedFact", "fact_label", "repeats", "served_facts"]
