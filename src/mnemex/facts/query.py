"""Asking the facts: what held on a day, as the brain believed it on another day.

For one slot (subject, predicate, kind or key), at valid time ``as_of`` and record time
``recorded_as_of`` (None: everything recorded), over the facts believed then, agents'
facts aside:

- ``current``: one value holds (unconditionally) on ``as_of``;
- ``disputed``: two or more values hold on ``as_of``: every one is served;
- ``conditional``: nothing holds unconditionally, but a value holds under a condition;
- ``past``: nothing holds, and a value's valid time ended on or before ``as_of`` (the one
  that ended last is served, as past: "on leave until 2026-03-01" after March);
- ``unknown``: nothing the brain may count holds.

An agent's facts never decide the answer; they are returned beside it as ``drafts``.
A plan with an unresolved time is returned as ``pending``, never as the value.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any, Literal

from mnemex.facts.claims import fold
from mnemex.facts.model import Fact

Answer = Literal["current", "disputed", "conditional", "past", "unknown"]


@dataclass
class SlotAnswer:
    """The answer for one slot, with the facts behind it."""

    subject: str
    predicate: str
    aspect: str | None
    status: Answer
    values: list[str]
    condition: str | None = None
    facts: list[Fact] = field(default_factory=list)
    drafts: list[Fact] = field(default_factory=list)
    pending: list[Fact] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "subject": self.subject,
            "predicate": self.predicate,
            "aspect": self.aspect,
            "status": self.status,
            "values": self.values,
            "condition": self.condition,
            "facts": [fact_dict(f) for f in self.facts],
            "drafts": [fact_dict(f) for f in self.drafts],
            "pending": [fact_dict(f) for f in self.pending],
        }


def fact_dict(fact: Fact) -> dict[str, Any]:
    """A fact as JSON: what it says, its two times, whose word it is, and its evidence."""
    return {
        "id": fact.id,
        "subject": fact.subject,
        "statement": fact.statement,
        "predicate": fact.predicate,
        "aspect": fact.aspect,
        "value": fact.value,
        "condition": fact.condition,
        "valid_from": str(fact.valid_from) if fact.valid_from else None,
        "valid_until": str(fact.valid_until) if fact.valid_until else None,
        "served_from": fact.start.isoformat(),
        "time_note": fact.time_note,
        "time_resolved": fact.time_resolved,
        "planned": fact.planned,
        "recorded_at": fact.recorded_at.isoformat(timespec="seconds"),
        "expired_at": fact.expired_at.isoformat(timespec="seconds") if fact.expired_at else None,
        "provenance": fact.provenance,
        "status": fact.status,
        "layer": fact.layer,
        "evidence": [{"ref": e.ref, "date": e.date.isoformat()} for e in fact.evidence],
        "evidence_count": len(fact.evidence),
    }


def believed(facts: list[Fact], recorded_as_of: dt.date | None) -> list[Fact]:
    """The facts as the brain held them at the end of ``recorded_as_of``."""
    out: list[Fact] = []
    for fact in facts:
        then = fact.as_believed(recorded_as_of)
        if then is not None and (recorded_as_of is not None or then.expired_at is None):
            out.append(then)
    return out


def answer_slot(
    facts: list[Fact],
    slot: tuple[str, str, str],
    as_of: dt.date,
    recorded_as_of: dt.date | None = None,
) -> SlotAnswer:
    """What the brain holds for ``slot`` on ``as_of``, believing what was recorded by
    ``recorded_as_of`` (None: everything)."""
    mine = [f for f in believed(facts, recorded_as_of) if f.slot == slot]
    subject = mine[0].subject if mine else slot[0]
    aspect = (mine[0].aspect if mine else None) or (slot[2] or None)
    drafts = [f for f in mine if f.provenance == "agent"]
    pending = [f for f in mine if f.provenance != "agent" and f.pending]
    counted = [f for f in mine if f.provenance != "agent" and not f.pending]
    out = SlotAnswer(subject, slot[1], aspect, "unknown", [], drafts=drafts, pending=pending)
    holding = [f for f in counted if f.holds_on(as_of)]
    plain = [f for f in holding if not f.condition]
    if plain:
        values = _distinct(plain)
        out.status = "current" if len(values) == 1 else "disputed"
        out.values, out.facts = values, plain
        return out
    if holding:
        first = holding[0]
        out.status, out.values, out.condition = "conditional", _distinct(holding), first.condition
        out.facts = holding
        return out
    ended = [f for f in counted if f.end is not None and f.end <= as_of and not f.condition]
    if ended:
        last = max(f.end or as_of for f in ended)
        latest = [f for f in ended if f.end == last]
        out.status, out.values, out.facts = "past", _distinct(latest), latest
    return out


def _distinct(facts: list[Fact]) -> list[str]:
    seen: dict[str, str] = {}
    for fact in facts:
        value = fact.value or fact.statement
        seen.setdefault(fold(value), value)
    return list(seen.values())


def slots(facts: list[Fact]) -> list[tuple[str, str, str]]:
    """Every slot the facts are about, in first-recorded order (facts without a predicate aside)."""
    return list(dict.fromkeys(f.slot for f in facts if f.predicate))


__all__ = ["Answer", "SlotAnswer", "answer_slot", "believed", "fact_dict", "slots"]
