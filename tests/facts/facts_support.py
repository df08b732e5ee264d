"""Helpers for the fact tests: a fact from a few fields, and a vault with known names."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from mnemex.facts.model import Evidence, Fact, Provenance, When, fact_id


def at(day: str) -> dt.datetime:
    """Noon UTC of ``day`` (a record time)."""
    return dt.datetime.fromisoformat(f"{day}T12:00:00+00:00")


def fact(
    subject: str,
    predicate: str,
    value: str,
    seen: str,
    *,
    provenance: Provenance = "person",
    start: str | None = None,
    until: str | None = None,
    recorded: str | None = None,
    **extra: Any,
) -> Fact:
    """A fact as the rule receives it: seen (evidence date) and recorded on the given days."""
    statement = extra.pop("statement", f"{subject} {predicate} {value}")
    return Fact(
        id=fact_id(subject, statement, f"test:{seen}"),
        subject=subject,
        statement=statement,
        predicate=predicate,
        value=value,
        recorded_at=at(recorded or seen),
        provenance=provenance,
        evidence=[Evidence(f"notes/{seen}", dt.date.fromisoformat(seen))],
        valid_from=When.parse(start) if start else None,
        valid_until=When.parse(until) if until else None,
        **extra,
    )


def entity_page(root: Path, name: str, entity_type: str, aliases: list[str]) -> str:
    """Write a wiki entity page (as ingestion leaves one) and return its path."""
    rel = f"wiki/general/entities/{name.lower().replace(' ', '-')}.md"
    listed = ", ".join(aliases)
    (root / rel).write_text(
        f"---\ntype: entity\ntitle: {name}\nentity_type: {entity_type}\naliases: [{listed}]\n"
        "created: 2025-01-01T00:00:00+00:00\nupdated: 2025-01-01T00:00:00+00:00\n"
        "sources: []\n---\n"
        f"# {name}\n",
        encoding="utf-8",
    )
    return rel
