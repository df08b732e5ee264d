"""Health of the facts: unconfirmed facts asked about, disputes surfaced with both values."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from fact_support import project_claim, record_one
from mnemex.brain import Brain
from mnemex.cli import cli
from mnemex.embed.hashing import HashingEmbedder
from mnemex.errors import VaultError
from mnemex.health import KINDS, fix_issue, scan
from mnemex.health.scan import WEIGHTS, checkers
from mnemex.vault import Vault, init_vault

NOW = dt.datetime(2026, 6, 1, 12, tzinfo=dt.UTC)
FACTS = "facts/mnemex.md"


def _vault(root: Path, health: str = "") -> Path:
    init_vault(root, git=True)
    for key, value in (("user.name", "Ada"), ("user.email", "ada@example.org")):
        subprocess.run(["git", "config", key, value], cwd=root, check=True)
    settings = root / "mnemex.toml"
    text = settings.read_text(encoding="utf-8").replace('name = "minilm"', 'name = "hashing"')
    settings.write_text(text + health, encoding="utf-8")
    return root


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return _vault(tmp_path / "vault")


@pytest.fixture
def brain(root: Path) -> Iterator[Brain]:
    with Brain(Vault(root), embedder=HashingEmbedder()) as b:
        yield b


def _dispute(brain: Brain) -> None:
    """Two documents disagree about the licence from the same day; the second is bounded."""
    start = dt.date(2025, 3, 1)
    record_one(brain, project_claim("license", "MIT", valid_from=start), start, "source")
    until = dt.date(2026, 12, 1)
    second = project_claim("license", "Apache-2.0", valid_from=start, valid_until=until)
    record_one(brain, second, dt.date(2025, 3, 2), "source")


def _found(brain: Brain, now: dt.datetime = NOW) -> dict[str, list[dict[str, object]]]:
    data = scan(brain.vault, brain.backend, kinds=("stale_facts", "disputed_facts"), now=now)
    out = data.to_dict()
    return {"stale_facts": out["stale_facts"], "disputed_facts": out["disputed_facts"]}


def test_both_kinds_are_declared_registered_and_weighed() -> None:
    assert {"stale_facts", "disputed_facts"} <= set(KINDS)
    assert checkers()["stale_facts"] == ["unconfirmed"]
    assert checkers()["disputed_facts"] == ["unsettled"]
    assert WEIGHTS["stale_facts"] < WEIGHTS["disputed_facts"]


def test_a_stale_fact_is_asked_about_and_a_fresh_one_is_not(brain: Brain) -> None:
    record_one(brain, project_claim("database", "SQLite"), dt.date(2025, 9, 1))
    record_one(brain, project_claim("hosting", "Fly.io"), dt.date(2026, 5, 1))
    [issue] = _found(brain)["stale_facts"]
    assert issue["detail"] == (
        "recorded 2025-09-01 from a session: mnemex's database is SQLite. Still true?"
    )
    assert issue["files"] == [FACTS]
    data = issue["data"]
    assert isinstance(data, dict)
    assert data["subject"] == "mnemex" and data["path"] == FACTS
    assert data["severity"] == "low" and data["days"] == 273
    fact_id = data["fact"]
    assert f"mnemex fact confirm {fact_id}" in str(issue["suggestion"])
    assert f"mnemex fact retract {fact_id}" in str(issue["suggestion"])
    # the same fact keeps its issue id across scans on other days
    later = _found(brain, NOW + dt.timedelta(days=150))["stale_facts"]
    assert issue["id"] in [i["id"] for i in later]
    assert len(later) == 2  # by then the hosting fact is unconfirmed for 181 days too


def test_the_limit_is_health_stale_fact_days(tmp_path: Path) -> None:
    root = _vault(tmp_path / "vault", "\n[health]\nstale_fact_days = 20\n")
    with Brain(Vault(root), embedder=HashingEmbedder()) as brain:
        record_one(brain, project_claim("hosting", "Fly.io"), dt.date(2026, 5, 1))
        [issue] = _found(brain)["stale_facts"]
        assert issue["data"]["stale_after"] == 20  # type: ignore[index]


def test_agents_ended_and_private_facts_are_not_asked_about(brain: Brain) -> None:
    old = dt.date(2024, 1, 10)
    record_one(brain, project_claim("language", "Rust"), old, "agent")
    record_one(brain, project_claim("ci", "Travis", valid_until=dt.date(2026, 1, 1)), old)
    record_one(brain, project_claim("database", "SQLite"), old, "person", private="private")
    assert (brain.vault.root / "facts/private/mnemex.md").is_file()
    assert _found(brain)["stale_facts"] == []


def test_a_superseded_fact_is_not_asked_about_its_successor_is(brain: Brain) -> None:
    record_one(
        brain,
        project_claim("hosting", "Heroku", valid_from=dt.date(2024, 1, 1)),
        dt.date(2024, 1, 1),
    )
    moved = project_claim("hosting", "Fly.io", valid_from=dt.date(2024, 6, 1))
    record_one(brain, moved, dt.date(2024, 6, 1))
    [issue] = _found(brain)["stale_facts"]
    assert "Fly.io" in str(issue["detail"])


def test_a_dispute_is_reported_once_with_both_values(brain: Brain) -> None:
    _dispute(brain)
    found = _found(brain)
    [issue] = found["disputed_facts"]
    assert found["stale_facts"] == []  # disputed facts are settled, not confirmed
    detail = str(issue["detail"])
    assert "'MIT' from 2025-03-01" in detail
    assert "'Apache-2.0' from 2025-03-01 until 2026-12-01" in detail
    assert detail.count("(source, id ") == 2 and FACTS in detail
    data = issue["data"]
    assert isinstance(data, dict)
    assert data["severity"] == "medium" and data["path"] == FACTS
    assert [f["value"] for f in data["facts"]] == ["MIT", "Apache-2.0"]
    assert [f["provenance"] for f in data["facts"]] == ["source", "source"]
    ids = [f["id"] for f in data["facts"]]
    assert all(i in str(issue["suggestion"]) for i in ids)
    assert "mnemex fact correct" in str(issue["suggestion"])
    with pytest.raises(VaultError, match="no automatic fix"):
        fix_issue(brain, str(issue["id"]))


def test_a_settled_dispute_is_no_longer_reported(brain: Brain) -> None:
    from mnemex.facts.record import retract_fact

    _dispute(brain)
    [issue] = _found(brain)["disputed_facts"]
    wrong = issue["data"]["facts"][1]["id"]  # type: ignore[index]
    retract_fact(brain, wrong, now=NOW)
    assert _found(brain)["disputed_facts"] == []


def test_mnemex_health_json_has_both_kinds(root: Path) -> None:
    with Brain(Vault(root), embedder=HashingEmbedder()) as brain:
        # the CLI scans on the wall clock: the stale fact is years old on any day it runs
        record_one(brain, project_claim("database", "SQLite"), dt.date(2020, 1, 15))
        _dispute(brain)
    result = CliRunner().invoke(
        cli, ["--vault", str(root), "health", "--json", "--no-semantic"], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [i["detail"] for i in data["stale_facts"]] == [
        "recorded 2020-01-15 from a session: mnemex's database is SQLite. Still true?"
    ]
    assert len(data["disputed_facts"]) == 1
    assert data["counts"]["stale_facts"] == 1 and data["counts"]["disputed_facts"] == 1
