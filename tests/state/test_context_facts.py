"""get_context's facts part: the project's facts as of today, framed as evidence."""

from __future__ import annotations

import datetime as dt
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from state_support import git_vault

from fact_support import project_claim, record_one
from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.facts.serve import FRAMING
from mnemex.retrieve.budget import json_tokens
from mnemex.state import get_context, save_handoff

TODAY = dt.date(2026, 6, 1)


@pytest.fixture
def brain(tmp_path: Path) -> Iterator[Brain]:
    vault = git_vault(tmp_path / "vault")
    for key, value in (("user.name", "Ada"), ("user.email", "ada@example.org")):
        subprocess.run(["git", "config", key, value], cwd=vault.root, check=True)
    with Brain(vault, embedder=HashingEmbedder()) as b:
        save_handoff(b.vault, "mnemex", "Index is green", create=True)
        yield b


def _facts(brain: Brain) -> None:
    # current, from a session a month ago
    record_one(brain, project_claim("database", "SQLite"), dt.date(2026, 5, 1))
    # moved from Heroku to Fly.io: Heroku is superseded
    record_one(
        brain,
        project_claim("hosting", "Heroku", valid_from=dt.date(2026, 1, 5)),
        dt.date(2026, 1, 5),
    )
    record_one(
        brain,
        project_claim("hosting", "Fly.io", valid_from=dt.date(2026, 4, 1)),
        dt.date(2026, 4, 2),
    )
    # two documents disagree about the licence from the same day
    start, until = dt.date(2026, 3, 1), dt.date(2026, 12, 1)
    record_one(brain, project_claim("license", "MIT", valid_from=start), start, "source")
    bounded = project_claim("license", "Apache-2.0", valid_from=start, valid_until=until)
    record_one(brain, bounded, dt.date(2026, 3, 2), "source")
    # nobody said anything about the CI for a year
    record_one(brain, project_claim("ci", "Travis"), dt.date(2025, 6, 1), "source")
    # an agent's guess
    record_one(brain, project_claim("language", "Rust"), dt.date(2026, 5, 20), "agent")
    # another subject's facts are not the project's
    record_one(brain, project_claim("database", "Postgres", subject="Other"), dt.date(2026, 5, 1))


def _context(brain: Brain, **kw: Any) -> dict[str, Any]:
    return get_context(brain, "mnemex", today=TODAY, **kw)


def test_current_facts_are_listed_with_since_source_and_record_date(brain: Brain) -> None:
    _facts(brain)
    facts = _context(brain)["facts"]
    assert facts["framing"] == FRAMING
    by_what = {item["what"]: item for item in facts["current"]}
    assert set(by_what) == {"project_attribute (database)", "project_attribute (hosting)"}
    database = by_what["project_attribute (database)"]
    assert database["value"] == "SQLite"
    assert database["since"] == "2026-05-01"
    assert database["source"] == "session"
    assert database["recorded"] == "2026-05-01"
    assert len(database["id"]) == 10
    hosting = by_what["project_attribute (hosting)"]
    assert (hosting["value"], hosting["since"], hosting["recorded"]) == (
        "Fly.io",
        "2026-04-01",
        "2026-04-02",
    )


def test_superseded_and_agents_facts_are_not_listed_as_current(brain: Brain) -> None:
    _facts(brain)
    facts = _context(brain)["facts"]
    values = [item["value"] for item in facts["current"]]
    assert "Heroku" not in values  # superseded by Fly.io
    assert "Rust" not in values  # an agent's guess
    assert "Postgres" not in values  # another subject
    listed = str(facts)
    assert "Rust" not in listed and "Heroku" not in listed


def test_a_dispute_is_listed_with_every_value(brain: Brain) -> None:
    _facts(brain)
    [dispute] = _context(brain)["facts"]["disputed"]
    assert dispute["what"] == "project_attribute (license)"
    values = {v["value"]: v for v in dispute["values"]}
    assert set(values) == {"MIT", "Apache-2.0"}
    assert values["Apache-2.0"]["until"] == "2026-12-01"
    assert {v["source"] for v in dispute["values"]} == {"source"}
    assert all(v["since"] == "2026-03-01" for v in dispute["values"])


def test_a_stale_fact_is_asked_not_asserted(brain: Brain) -> None:
    _facts(brain)
    facts = _context(brain)["facts"]
    assert facts["questions"] == [
        "recorded 2025-06-01 from a document: mnemex's ci is Travis. Still true?"
    ]
    assert "Travis" not in [item["value"] for item in facts["current"]]


def test_facts_come_after_the_handoffs_and_are_untrusted(brain: Brain) -> None:
    _facts(brain)
    context = _context(brain)
    keys = list(context)
    assert keys.index("handoffs") < keys.index("facts") < keys.index("foundations")
    assert "facts.current[].value" in context["untrusted_fields"]
    assert context["omitted"] == []


def test_a_project_without_facts_has_no_facts_part(brain: Brain) -> None:
    record_one(brain, project_claim("database", "Postgres", subject="Other"), dt.date(2026, 5, 1))
    context = _context(brain)
    assert context["facts"] is None
    assert "facts.questions[]" not in context["untrusted_fields"]


def test_a_hidden_private_names_facts_are_not_served(brain: Brain) -> None:
    record_one(brain, project_claim("budget", "small"), dt.date(2026, 5, 1), private="private")
    assert (brain.vault.root / "facts/private/mnemex.md").is_file()
    shown = _context(brain)["facts"]["current"]
    assert [item["value"] for item in shown] == ["small"]
    assert _context(brain, hidden=("private",))["facts"] is None


def test_facts_fit_the_token_budget_and_say_what_was_left_out(brain: Brain) -> None:
    _facts(brain)
    assert _context(brain)["omitted"] == []
    for budget in (300, 450, 600, 800, 1000):
        context = _context(brain, max_tokens=budget)
        assert json_tokens(context) <= budget
        facts = context["facts"] or {}
        listed = sum(len(facts.get(k, [])) for k in ("current", "disputed", "questions"))
        if listed < 4:  # two current, one dispute, one question
            notes = " ".join(context["omitted"])  # a tiny budget has one short note instead
            assert "get_facts(subject='mnemex')" in notes or "parts left out" in notes, budget
        assert ("framing" in facts) == (listed > 0)
