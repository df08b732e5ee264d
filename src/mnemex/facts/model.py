"""A fact: a statement with two times, and what the brain believed when.

**Valid time** (``valid_from``, ``valid_until``) is when the statement is true in the
world; ``valid_until`` is exclusive (the first day it no longer holds). **Record time**
(``recorded_at``, ``expired_at``) is when the brain learned it and, if ever, when it
stopped believing it (a person corrected or retracted it). A later fact never erases an
earlier one: it *revises* it (closes its valid time, marks it superseded or disputed),
and each revision is kept with its record time, so the brain can answer "what did you
believe on 1 March?" as well as "what was true on 1 March?".

A date is held with the precision the evidence gave it (:class:`When`): ``2026-07``
means "in July 2026" and starts on the 1st for comparisons. A fact without a stated
start is served from its first evidence's date: before that nothing is known.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from mnemex.facts.claims import fold

Provenance = Literal["person", "source", "session", "agent"]
Status = Literal["active", "superseded", "expired", "disputed"]
Layer = Literal["stable", "dynamic"]

PROVENANCES: tuple[Provenance, ...] = ("person", "source", "session", "agent")
STATUSES: tuple[Status, ...] = ("active", "superseded", "expired", "disputed")
LAYERS: tuple[Layer, ...] = ("stable", "dynamic")

#: Fields a revision may change, in the order they are rendered.
REVISABLE = ("valid_from", "valid_until", "status", "superseded_by", "disputes", "layer")


@dataclass(frozen=True, order=True)
class When:
    """A date with the precision its text gave: ``2026-07-14``, ``2026-07`` or ``2026``."""

    day: dt.date
    precision: Literal["day", "month", "year"] = "day"

    @classmethod
    def parse(cls, text: str) -> When:
        """``"2026-07-14"``, ``"2026-07"`` or ``"2026"``.

        Raises:
            ValueError: not one of those forms.
        """
        raw = text.strip()
        parts = raw.split("-")
        if len(parts) == 3:
            return cls(dt.date.fromisoformat(raw), "day")
        if len(parts) == 2 and len(parts[0]) == 4 and len(parts[1]) == 2:
            return cls(dt.date(int(parts[0]), int(parts[1]), 1), "month")
        if len(parts) == 1 and len(raw) == 4 and raw.isdigit():
            return cls(dt.date(int(raw), 1, 1), "year")
        raise ValueError(f"{text!r} is not a date (YYYY-MM-DD, YYYY-MM or YYYY)")

    def __str__(self) -> str:
        if self.precision == "year":
            return f"{self.day:%Y}"
        if self.precision == "month":
            return f"{self.day:%Y-%m}"
        return self.day.isoformat()


@dataclass(frozen=True)
class Evidence:
    """Where a fact was seen: a vault note (``memories/...md``) or ``user``, and its date.

    ``observation`` names the event the note records when one event leaves several notes
    (``session:<id>`` for the digests and remembered notes of one session, ``save:<sha>``
    for a handoff and its journal line): they count once towards promotion.
    """

    ref: str
    date: dt.date
    observation: str = ""

    def __str__(self) -> str:
        where = self.ref if self.ref == "user" or ":" in self.ref else f"[[{self.ref}]]"
        seen = f" · {self.observation}" if self.observation else ""
        return f"{where} ({self.date.isoformat()}){seen}"

    @property
    def event(self) -> str:
        """What counts as one observation: the named event, else the note and its date."""
        return self.observation or f"{self.ref}@{self.date.isoformat()}"


@dataclass(frozen=True)
class Revision:
    """One change to a fact after it was recorded: ``field`` went from ``old`` to ``new``."""

    at: dt.datetime
    field: str
    old: str
    new: str
    because: str = ""  # the id of the fact that caused it, or a person's word


@dataclass
class Fact:
    """One fact, as stored in ``facts/<subject>.md`` (docs/vault-format.md §8)."""

    id: str
    subject: str
    statement: str
    predicate: str | None
    value: str | None
    recorded_at: dt.datetime
    provenance: Provenance
    evidence: list[Evidence]
    kind: str | None = None
    key: str | None = None
    condition: str | None = None
    valid_from: When | None = None
    valid_until: When | None = None
    time_note: str | None = None  # the relative phrase, and whether it resolved
    time_resolved: bool = True
    planned: bool = False
    hedged: bool = False
    expired_at: dt.datetime | None = None
    status: Status = "active"
    layer: Layer = "dynamic"
    superseded_by: str | None = None
    disputes: list[str] = field(default_factory=list)
    revisions: list[Revision] = field(default_factory=list)

    # ---------------------------------------------------------------- identity
    @property
    def slot(self) -> tuple[str, str, str]:
        """What one value is kept for: (subject, predicate, kind or key), folded."""
        return (fold(self.subject), self.predicate or "", fold(self.kind or self.key or ""))

    @property
    def aspect(self) -> str | None:
        return self.kind or self.key

    @property
    def first_seen(self) -> dt.date:
        """The date of the earliest evidence (the record date when there is none)."""
        dates = [e.date for e in self.evidence]
        return min(dates) if dates else self.recorded_at.date()

    @property
    def pending(self) -> bool:
        """A plan whose time could not be resolved: kept and flagged, never served as true."""
        return self.planned and not self.time_resolved and self.valid_from is None

    def copy(self) -> Fact:
        """A copy whose lists can change without changing this one (their items are frozen)."""
        return replace(
            self,
            evidence=list(self.evidence),
            disputes=list(self.disputes),
            revisions=list(self.revisions),
        )

    # ---------------------------------------------------------------- record time
    def as_believed(self, recorded_as_of: dt.date | None) -> Fact | None:
        """This fact as the brain held it at the end of ``recorded_as_of`` (None: now).

        None when it was not recorded yet or had already expired. Revisions made after
        that day are undone.
        """
        if recorded_as_of is None:
            return self
        if self.recorded_at.date() > recorded_as_of:
            return None
        if self.expired_at is not None and self.expired_at.date() <= recorded_as_of:
            return None
        later = [r for r in self.revisions if r.at.date() > recorded_as_of]
        if not later and self.expired_at is None:
            return self
        then = replace(
            self, expired_at=None, revisions=[r for r in self.revisions if r not in later]
        )
        for rev in reversed(later):
            then = replace(then, **{rev.field: _parse_field(rev.field, rev.old)})
        return then

    # ---------------------------------------------------------------- valid time
    @property
    def start(self) -> dt.date:
        """The first day this fact is served as true (its stated start, else first evidence)."""
        return self.valid_from.day if self.valid_from is not None else self.first_seen

    @property
    def end(self) -> dt.date | None:
        """The first day it no longer holds; None while open."""
        return self.valid_until.day if self.valid_until is not None else None

    def holds_on(self, day: dt.date) -> bool:
        if self.pending:
            return False
        end = self.end
        return self.start <= day and (end is None or day < end)

    def overlaps(self, other: Fact) -> bool:
        """Whether the two valid intervals share a day (touching is not overlapping)."""
        a_end, b_end = self.end, other.end
        return (a_end is None or other.start < a_end) and (b_end is None or self.start < b_end)

    def revise(self, at: dt.datetime, name: str, new: str, because: str = "") -> bool:
        """Change one revisable field, keeping the old value in a revision; False if same."""
        old = _get_field(self, name)
        if old == new:
            return False
        self.revisions.append(Revision(at, name, old, new, because))
        setattr(self, name, _parse_field(name, new))
        return True


def _get_field(fact: Fact, name: str) -> str:
    value = getattr(fact, name)
    if name == "disputes":
        return ",".join(value)
    return "" if value is None else str(value)


def _parse_field(name: str, raw: str) -> Any:
    """A revisable field's value from its text in a revision."""
    if name in ("valid_from", "valid_until"):
        return When.parse(raw) if raw else None
    if name == "disputes":
        return [part for part in raw.split(",") if part]
    if name == "superseded_by":
        return raw or None
    return raw


def fact_id(subject: str, statement: str, first_evidence: str) -> str:
    """Derived from subject + statement + first evidence: two machines agree on it."""
    material = "\n".join((fold(subject), " ".join(statement.split()), first_evidence))
    return hashlib.sha256(material.encode("utf-8")).hexdigest()[:10]


__all__ = [
    "LAYERS",
    "PROVENANCES",
    "REVISABLE",
    "STATUSES",
    "Evidence",
    "Fact",
    "Layer",
    "Provenance",
    "Revision",
    "Status",
    "When",
    "fact_id",
]
