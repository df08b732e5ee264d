"""What a statement claims, before the write rule decides what it does to the facts.

A :class:`Claim` is one reading of one sentence: whose (subject), about what
(predicate, with a kind or key where the predicate needs one), which value, under
which condition, and when it holds, with the date precision the text gave. The
offline extractor (:mod:`mnemex.facts.extract`) makes claims from text; a person's
structured command makes one directly. A :class:`NameBook` is how a statement finds
its subject: the names and aliases the brain already knows, plus the vault's owner.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Literal

from mnemex.vault import fold_name

#: The closed list of single-valued predicates: a new value replaces the old one.
#: ``uses`` and ``prefers`` are single-valued per ``kind`` (editor, shell, drink, ...);
#: ``project_attribute`` per ``key`` (database, hosting, ...).
PREDICATES: tuple[str, ...] = (
    "works_at",
    "lives_in",
    "role",
    "uses",
    "prefers",
    "project_attribute",
    "status",
)

#: Predicates that need a kind (what sort of thing is used or preferred).
KINDED = frozenset({"uses", "prefers"})
#: Predicates that need a key (which attribute of the project).
KEYED = frozenset({"project_attribute"})

Precision = Literal["day", "month", "year"]
SubjectKind = Literal["person", "project", "organisation", "place", "thing"]


def fold(text: str) -> str:
    """How names and values are compared: :func:`~mnemex.vault.fold_name` (case and
    accents, ``Inês`` -> ``ines``) with runs of white space made one space."""
    return " ".join(fold_name(text).split())


@dataclass(frozen=True)
class Name:
    """A known name: its canonical form, what it names, and where its page is (if any)."""

    canonical: str
    kind: SubjectKind
    page: str | None = None  # vault-relative path of the wiki page, if there is one


@dataclass
class NameBook:
    """Names and aliases the brain knows, by folded form; plus who "I" is.

    ``owner`` is the vault owner's canonical name (``[vault] owner``), used for
    first-person statements the owner makes herself.
    """

    owner: str | None = None
    names: dict[str, Name] = field(default_factory=dict)
    #: what readers derive from the names (a compiled pattern), dropped when a name is added
    derived: dict[str, object] = field(default_factory=dict, repr=False, compare=False)

    def add(
        self,
        canonical: str,
        kind: SubjectKind,
        aliases: tuple[str, ...] = (),
        page: str | None = None,
    ) -> None:
        entry = Name(canonical, kind, page)
        self.derived.clear()
        for alias in (canonical, *aliases):
            key = fold(alias)
            if key and key not in self.names:
                self.names[key] = entry

    def lookup(self, text: str) -> Name | None:
        """The known name ``text`` is (case and accents ignored), or None."""
        return self.names.get(fold(text))


@dataclass
class Claim:
    """One statement's reading.

    Dates: ``valid_from`` is the first day the claim holds, ``valid_until`` the
    first day it no longer holds (exclusive); None means the text does not say.
    ``from_precision`` says what the text fixed (``"month"``: ``valid_from`` is the
    1st). ``time_phrase`` is the relative phrase the dates came from (``"next
    week"``) and ``time_resolved`` is False when a phrase could not be resolved
    against the evidence date (``"a while back"``): such a claim gets no invented
    date and is flagged. ``planned`` marks a statement about the future at its
    evidence date.
    """

    subject: str
    predicate: str
    value: str
    statement: str
    kind: str | None = None
    key: str | None = None
    condition: str | None = None
    valid_from: dt.date | None = None
    valid_until: dt.date | None = None
    from_precision: Precision = "day"
    time_phrase: str | None = None
    time_resolved: bool = True
    planned: bool = False
    hedged: bool = False  # "probably", "seems", "draft", "proposal": a guess, not a claim

    @property
    def slot(self) -> tuple[str, str, str]:
        """What a single value is kept for: (subject, predicate, kind or key)."""
        return (fold(self.subject), self.predicate, fold(self.kind or self.key or ""))


__all__ = [
    "KEYED",
    "KINDED",
    "PREDICATES",
    "Claim",
    "Name",
    "NameBook",
    "Precision",
    "SubjectKind",
    "fold",
]
