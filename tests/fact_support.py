"""Helpers for the fact tests: a fact or claim from a few fields, recording one, and a wiki
entity page for the names a statement may use."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from mnemex.brain import Brain
from mnemex.facts.claims import Claim
from mnemex.facts.model import Evidence, Fact, Provenance, When, fact_id
from mnemex.facts.record import record_claims


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


def owned_vault(root: Path, owner: str) -> Path:
    """A new vault at ``root`` whose ``[vault] owner`` is ``owner``, with the hashing
    embedder (no model to load)."""
    from mnemex.vault import init_vault

    init_vault(root)
    settings = root / "mnemex.toml"
    text = settings.read_text(encoding="utf-8").replace('name = "minilm"', 'name = "hashing"')
    settings.write_text(text.replace("[vault]\n", f'[vault]\nowner = "{owner}"\n', 1), "utf-8")
    return root


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


def project_claim(key: str, value: str, subject: str = "mnemex", **when: dt.date) -> Claim:
    """A claim about a project's attribute (``mnemex's database is SQLite.``)."""
    return Claim(
        subject=subject,
        predicate="project_attribute",
        key=key,
        value=value,
        statement=f"{subject}'s {key} is {value}.",
        **when,  # type: ignore[arg-type]
    )


def record_one(
    brain: Brain,
    claim: Claim,
    day: dt.date,
    provenance: Provenance = "session",
    private: str | None = None,
) -> None:
    """Record ``claim`` as seen and recorded at noon UTC of ``day``."""
    record_claims(
        brain,
        [claim],
        provenance=provenance,
        evidence=Evidence("user", day),
        now=dt.datetime.combine(day, dt.time(12), dt.UTC),
        private=private,
    )
