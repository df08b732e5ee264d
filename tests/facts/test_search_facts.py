"""Facts in ``search``: labelled with their time, current ones first, scoped by record time,
and never said twice (the fact and the wiki page's dated line)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest

from fact_support import at, entity_page
from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.facts.claims import Claim
from mnemex.facts.model import Evidence
from mnemex.facts.record import record_claims
from mnemex.retrieve.search import search
from mnemex.vault import Vault, init_vault


@pytest.fixture
def brain(tmp_path: Path) -> Iterator[Brain]:
    root = tmp_path / "vault"
    init_vault(root, git=False)
    settings = root / "mnemex.toml"
    settings.write_text(
        settings.read_text(encoding="utf-8").replace('name = "minilm"', 'name = "hashing"'),
        encoding="utf-8",
    )
    entity_page(root, "Priya Raman", "person", ["Priya"])
    entity_page(root, "Ines Duarte", "person", ["Ines"])
    with Brain(Vault(root), embedder=HashingEmbedder()) as opened:
        yield opened


def _record(
    brain: Brain, subject: str, value: str, seen: str, statement: str, start: str | None = None
) -> None:
    claim = Claim(
        subject=subject,
        predicate="works_at",
        value=value,
        statement=statement,
        valid_from=dt.date.fromisoformat(start) if start else None,
    )
    record_claims(
        brain,
        [claim],
        provenance="source",
        evidence=Evidence("user", dt.date.fromisoformat(seen)),
        now=at(seen),
    )


def test_a_superseded_fact_is_labelled_and_ranked_below_a_current_one(brain: Brain) -> None:
    _record(brain, "Priya Raman", "Tidewater Labs", "2025-10-06", "Priya works at Tidewater Labs.")
    _record(brain, "Ines Duarte", "Tidewater Labs", "2025-10-20", "Ines works at Tidewater Labs.")
    _record(
        brain,
        "Priya Raman",
        "Kestrel Systems",
        "2026-02-11",
        "Priya works at Kestrel Systems.",
        start="2026-02-09",
    )
    brain.sync()
    hits = search(brain, "works at Tidewater Labs", k=5, as_of=dt.date(2026, 3, 1)).hits
    facts = [h for h in hits if h.kind == "facts"]
    assert [h.path for h in facts] == ["facts/ines-duarte.md", "facts/priya-raman.md"]
    assert facts[0].status == "current"
    assert facts[1].facts is not None and facts[1].facts[0]["label"] == "current"
    assert any(f["label"] == "superseded" for f in facts[1].facts)
    # in 2025 Priya's Tidewater fact was current
    then = search(brain, "Priya works at Tidewater Labs", k=5, as_of=dt.date(2025, 12, 1)).hits
    priya = next(h for h in then if h.path == "facts/priya-raman.md")
    assert priya.status == "current" and "Tidewater" in priya.snippet


def test_record_time_scopes_search_to_what_was_recorded(brain: Brain) -> None:
    _record(brain, "Priya Raman", "Tidewater Labs", "2025-10-06", "Priya works at Tidewater Labs.")
    _record(brain, "Ines Duarte", "Kestrel Systems", "2026-02-11", "Ines works at Kestrel Systems.")
    brain.sync()
    paths = [
        h.path for h in search(brain, "works at", k=5, recorded_as_of=dt.date(2025, 12, 31)).hits
    ]
    assert "facts/priya-raman.md" in paths and "facts/ines-duarte.md" not in paths


def test_a_wiki_line_repeating_a_served_fact_is_not_served_twice(brain: Brain) -> None:
    root = brain.vault.root
    page = root / "wiki/general/entities/priya-raman.md"
    page.write_text(
        page.read_text(encoding="utf-8")
        + "\n## Key points\n- Priya works at Tidewater Labs. ([[summaries/team]], 2025-10-06)\n",
        encoding="utf-8",
    )
    _record(brain, "Priya Raman", "Tidewater Labs", "2025-10-06", "Priya works at Tidewater Labs.")
    brain.sync()
    hits = search(brain, "Priya works at Tidewater Labs", k=5, as_of=dt.date(2025, 12, 1)).hits
    paths = [h.path for h in hits]
    assert "facts/priya-raman.md" in paths
    assert "wiki/general/entities/priya-raman.md" not in paths
