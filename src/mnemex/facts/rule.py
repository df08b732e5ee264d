"""The write rule: what a new claim does to the facts already held about its subject.

Every predicate in :data:`~mnemex.facts.claims.PREDICATES` is single-valued per slot
(subject, predicate, kind or key) and per condition. For a new fact N against each
believed fact E of the same slot and condition (agents' facts aside):

- **same value, overlapping valid time**: N *confirms* E. E gains N's evidence; a bound
  N states (an end, a more precise start) revises E, and a fact E had closed is re-closed
  at E's new start. Nothing new is stored.
- **different value, overlapping valid time**:
  - N is open-ended and starts strictly later: E is **superseded**: its valid time closes
    where N starts; it stays, marked, with ``superseded_by``;
  - N is open-ended and starts strictly earlier: N is older history and closes where E
    starts;
  - otherwise (the same start, or N is a claim about a bounded period): the two disagree
    about the same time, and both are kept as **disputed**, each naming the other.
- **no overlap**: nothing to do; a value that held once may hold again later.

Never overwrite silently: when unsure, both stay, dated, and the dispute is surfaced.
An **agent's** fact (its inference or draft) is stored beside the others and changes none
of them: an agent's word is never a person's. A **plan whose time could not be resolved**
("after the reorg") is stored, flagged, and changes nothing until a dated claim comes.
A **conditional** fact ("when on the staging cluster") is its own slot.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal

from mnemex.facts.claims import fold
from mnemex.facts.model import Fact, When

Outcome = Literal["created", "confirmed", "unchanged"]


@dataclass
class Applied:
    """What one new fact did: its outcome, the fact that holds it, and what it revised."""

    outcome: Outcome
    fact: Fact
    superseded: list[str]
    disputed: list[str]
    revised: list[str]


def _same_value(a: Fact, b: Fact) -> bool:
    return fold(a.value or a.statement) == fold(b.value or b.statement)


def _same_condition(a: Fact, b: Fact) -> bool:
    return fold(a.condition or "") == fold(b.condition or "")


def _rivals(facts: list[Fact], new: Fact) -> list[Fact]:
    """Believed facts that a new fact can confirm, supersede or dispute."""
    if new.predicate is None:
        return []
    return [
        f
        for f in facts
        if f.slot == new.slot
        and f.expired_at is None
        and f.provenance != "agent"
        and not f.pending
        and _same_condition(f, new)
    ]


def _finer(new: When | None, old: When | None) -> bool:
    """Whether ``new`` states a start ``old`` did not, or the same one more precisely."""
    if new is None:
        return False
    if old is None:
        return True
    rank = {"year": 0, "month": 1, "day": 2}
    if rank[new.precision] <= rank[old.precision]:
        return False
    if old.precision == "month":
        return (new.day.year, new.day.month) == (old.day.year, old.day.month)
    return new.day.year == old.day.year


def _confirm(facts: list[Fact], held: Fact, new: Fact, at: dt.datetime) -> list[str]:
    revised: list[str] = []
    for ev in new.evidence:
        if ev not in held.evidence:
            held.evidence.append(ev)
    bound = new.valid_until is not None and held.superseded_by is None
    if bound and held.revise(at, "valid_until", str(new.valid_until), new.id):
        revised.append(held.id)
    if _finer(new.valid_from, held.valid_from) and new.valid_from is not None:
        old_start = held.start
        held.revise(at, "valid_from", str(new.valid_from), new.id)
        revised.append(held.id)
        # the fact this one had closed now closes where this one really starts
        for prior in facts:
            if prior.superseded_by == held.id and prior.end == old_start:
                prior.revise(at, "valid_until", str(new.valid_from), new.id)
                revised.append(prior.id)
    if new.provenance == "person" and held.layer != "stable":
        held.revise(at, "layer", "stable", new.id)
    return revised


def _mark_disputed(held: Fact, new: Fact, at: dt.datetime) -> None:
    if held.id not in new.disputes:  # the new fact is not recorded yet: no revision
        new.disputes.append(held.id)
    new.status = "disputed"
    if new.id not in held.disputes:
        held.revise(at, "disputes", ",".join([*held.disputes, new.id]), new.id)
    if held.status == "active":
        held.revise(at, "status", "disputed", new.id)


def apply_fact(facts: list[Fact], new: Fact, at: dt.datetime) -> Applied:
    """Apply ``new`` to ``facts`` (the subject's facts, changed in place) under the rule.

    ``at`` is the record time of the change. Returns what happened; a created fact is
    appended to ``facts``.
    """
    existing = next((f for f in facts if f.id == new.id), None)
    if existing is not None:  # the same note read again: only a new save of it adds evidence
        added = [ev for ev in new.evidence if ev not in existing.evidence]
        existing.evidence.extend(added)
        return Applied("confirmed" if added else "unchanged", existing, [], [], [])
    if new.provenance == "agent":
        same = next(
            (
                f
                for f in facts
                if f.provenance == "agent"
                and f.expired_at is None
                and f.slot == new.slot
                and _same_value(f, new)
                and _same_condition(f, new)
            ),
            None,
        )
        if same is not None and new.predicate is not None:
            for ev in new.evidence:
                if ev not in same.evidence:
                    same.evidence.append(ev)
            return Applied("confirmed", same, [], [], [])
        facts.append(new)
        return Applied("created", new, [], [], [])
    if new.pending:
        facts.append(new)
        return Applied("created", new, [], [], [])
    rivals = _rivals(facts, new)
    for held in rivals:
        if _same_value(held, new) and held.overlaps(new):
            before = (len(held.evidence), len(held.revisions))
            revised = _confirm(facts, held, new, at)
            changed = revised or (len(held.evidence), len(held.revisions)) != before
            return Applied("confirmed" if changed else "unchanged", held, [], [], revised)
    superseded: list[str] = []
    disputed: list[str] = []
    facts.append(new)
    for held in rivals:
        if _same_value(held, new) or not held.overlaps(new):
            continue
        if new.valid_until is None and new.start > held.start:
            held.revise(at, "valid_until", str(_start_when(new)), new.id)
            held.revise(at, "superseded_by", new.id, new.id)
            if held.status == "active":
                held.revise(at, "status", "superseded", new.id)
            superseded.append(held.id)
        elif new.valid_until is None and new.start < held.start:
            new.valid_until = _start_when(held)
            new.superseded_by = held.id
            new.status = "superseded"
        else:
            _mark_disputed(held, new, at)
            disputed.append(held.id)
    return Applied("created", new, superseded, disputed, [])


def _start_when(fact: Fact) -> When:
    return fact.valid_from if fact.valid_from is not None else When(fact.first_seen)


__all__ = ["Applied", "Outcome", "apply_fact"]
