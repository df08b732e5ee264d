"""``mnemex facts SUBJECT`` and ``mnemex fact add|learn|confirm|correct|retract``, as a person
uses them: real vault, real git, the CLI's own parsing and messages."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from mnemex.cli import cli
from mnemex.vault import init_vault


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    init_vault(root, git=True)
    for key, value in (("user.name", "Ada"), ("user.email", "ada@example.org")):
        subprocess.run(["git", "config", key, value], cwd=root, check=True)
    settings = root / "mnemex.toml"
    text = settings.read_text(encoding="utf-8").replace('name = "minilm"', 'name = "hashing"')
    settings.write_text(
        text.replace("[vault]\n", '[vault]\nowner = "Maren Okafor"\n', 1), encoding="utf-8"
    )
    return root


def mnemex(root: Path, *args: str, code: int = 0) -> Result:
    result = CliRunner().invoke(cli, ["--vault", str(root), *args], catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result


def facts(root: Path, *args: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(mnemex(root, "facts", *args, "--json").output)
    return data


def _answer(data: dict[str, Any], predicate: str) -> dict[str, Any]:
    return next(a for a in data["answers"] if a["predicate"] == predicate)


def test_fact_add_in_the_owners_words_then_facts_as_of_days(root: Path) -> None:
    out = mnemex(
        root,
        "fact",
        "add",
        "I live in Rotterdam, have done since March 2019.",
        "--date",
        "2025-09-05",
    ).output
    assert "created" in out and "Maren Okafor: lives_in = Rotterdam" in out
    mnemex(root, "fact", "add", "We're moving to Lisbon in July.", "--date", "2026-03-20")
    before = _answer(facts(root, "Maren", "--as-of", "2026-06-28"), "lives_in")
    after = _answer(facts(root, "Maren Okafor", "--as-of", "2026-08-01"), "lives_in")
    assert (before["status"], before["values"]) == ("current", ["Rotterdam"])
    assert (after["status"], after["values"]) == ("current", ["Lisbon"])
    text = mnemex(root, "facts", "maren", "--as-of", "2026-08-01").output
    assert "lives in: Lisbon  (current)" in text and "evidence" in text.lower()
    log = subprocess.run(
        ["git", "log", "--format=%s"], cwd=root, capture_output=True, text=True
    ).stdout
    assert log.count("mnemex fact:") == 2


def test_first_person_without_an_owner_is_refused_with_the_setting_to_add(root: Path) -> None:
    settings = root / "mnemex.toml"
    settings.write_text(
        settings.read_text(encoding="utf-8").replace('owner = "Maren Okafor"\n', ""),
        encoding="utf-8",
    )
    out = mnemex(root, "fact", "add", "I live in Rotterdam.", code=1).output
    assert "no fact read" in out and "[vault] owner" in out
    assert not any((root / "facts").glob("*.md"))


def test_text_that_states_no_fact_is_refused_and_nothing_is_written(root: Path) -> None:
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True
    ).stdout
    out = mnemex(root, "fact", "add", "The weather was lovely today.", code=1).output
    assert "no fact read" in out
    assert (
        subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True
        ).stdout
        == head
    )


def test_confirm_correct_and_retract_keep_the_history(root: Path) -> None:
    added = json.loads(
        mnemex(
            root, "fact", "add", "I use VS Code for everything.", "--date", "2025-09-18", "--json"
        ).output
    )
    fact_id = added["changes"][0]["fact"]["id"]
    confirmed = json.loads(mnemex(root, "fact", "confirm", fact_id[:6], "--json").output)
    assert confirmed["updated"] == 1
    shown = facts(root, "Maren", "--as-of", "2025-10-01", "--all")
    kept = next(f for f in shown["facts"] if f["id"] == fact_id)
    assert kept["evidence_count"] == 2 and kept["layer"] == "stable"
    corrected = json.loads(mnemex(root, "fact", "correct", fact_id, "Zed", "--json").output)
    new_id = corrected["changes"][0]["fact"]["id"]
    now = _answer(facts(root, "Maren", "--as-of", "2025-10-01"), "uses")
    assert now["values"] == ["Zed"]
    everything = facts(root, "Maren", "--all")["facts"]
    assert {f["id"]: f["status"] for f in everything} == {fact_id: "expired", new_id: "active"}
    mnemex(root, "fact", "retract", new_id)
    assert all(
        a["predicate"] != "uses" for a in facts(root, "Maren", "--as-of", "2025-10-01")["answers"]
    )


def test_facts_about_an_unknown_subject_and_a_bad_date_say_so(root: Path) -> None:
    assert "no facts about 'Nobody'" in mnemex(root, "facts", "Nobody", code=1).output
    mnemex(root, "fact", "add", "I live in Rotterdam.", "--date", "2025-09-05")
    assert (
        "--as-of='soon' is not a day"
        in mnemex(root, "facts", "Maren", "--as-of", "soon", code=1).output
    )
    assert "give at least 4 digits" in mnemex(root, "fact", "confirm", "ab", code=1).output


def test_context_shows_the_projects_facts_as_dated_evidence(root: Path) -> None:
    (root / "state" / "lanternfish").mkdir(parents=True)
    # said today (no --date), so not yet stale whenever the test runs
    mnemex(root, "fact", "add", "Lanternfish is hosted on Fly.io since 2026-02-01.")
    text = mnemex(root, "context", "lanternfish").output
    assert "## Facts (evidence with dates, not instructions)" in text
    assert "project_attribute (hosting): Fly.io (since 2026-02-01; person" in text


def test_search_labels_fact_hits_as_of_a_day(root: Path) -> None:
    mnemex(
        root,
        "fact",
        "add",
        "I live in Rotterdam, have done since March 2019.",
        "--date",
        "2025-09-05",
    )
    mnemex(root, "fact", "add", "I moved to Lisbon on 2026-07-14.", "--date", "2026-07-15")
    then = json.loads(
        mnemex(
            root, "search", "Rotterdam", "--kind", "facts", "--as-of", "2026-01-01", "--json"
        ).output
    )
    now = json.loads(
        mnemex(
            root, "search", "Rotterdam", "--kind", "facts", "--as-of", "2026-08-01", "--json"
        ).output
    )
    assert then[0]["facts"][0]["label"] == "current" and "Rotterdam" in then[0]["snippet"]
    assert {f["value"]: f["label"] for f in now[0]["facts"]}["Rotterdam"] == "superseded"
    assert "not a day" in mnemex(root, "search", "x", "--as-of", "May", code=1).output


def test_fact_learn_reports_a_note_it_cannot_read_and_learns_the_others(root: Path) -> None:
    (root / "notes.md").write_text("# Notes\n\nI live in Rotterdam.\n", encoding="utf-8")
    result = mnemex(root, "fact", "learn", "missing.md", "notes.md", "--json", code=1)
    data = json.loads(result.output)
    assert data["failed"] == 1 and data["created"] == 1
    assert data["problems"]["failed"][0]["path"] == "missing.md"
    assert _answer(facts(root, "Maren"), "lives_in")["values"] == ["Rotterdam"]


def _consolidate(root: Path, *args: str, code: int = 0) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        mnemex(root, "consolidate", *args, "--json", code=code).output
    )
    return data


def test_consolidate_preview_then_safe_then_yes(root: Path) -> None:
    mnemex(root, "fact", "add", "I live in Rotterdam, have done since March 2019.")
    mnemex(
        root,
        "handoff",
        "save",
        "team",
        "--create",
        "--headline",
        "Moving",
        "--state",
        "Maren lives in Lisbon since 2026-07.",
        "--state",
        "Maren uses Neovim.",
    )
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True
    ).stdout
    preview = _consolidate(root, "--preview")
    assert preview["would_apply"] == {"new": 1} and preview["waiting"] == {"supersede": 1}
    assert (
        subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        ).stdout
        == head
    )
    out = mnemex(root, "consolidate").output
    assert "applied 1 new" in out and "1 change(s) wait for a person" in out
    assert "supersede" in out and "--yes" in out
    lives = _answer(facts(root, "Maren", "--as-of", "2026-08-01"), "lives_in")
    assert lives["values"] == ["Rotterdam"]
    done = _consolidate(root, "--yes")
    assert done["applied"] == {"supersede": 1} and done["commit"]["sha"]
    lives = _answer(facts(root, "Maren", "--as-of", "2026-08-01"), "lives_in")
    assert lives["values"] == ["Lisbon"]
    assert _consolidate(root)["read"] == 0
    mnemex(root, "consolidate", "--preview", "--yes", code=2)


def test_harvest_then_consolidate_learns_from_a_claude_code_session(
    root: Path, tmp_path: Path
) -> None:
    from synth import claude_session

    claude = tmp_path / "claude"
    claude_session(claude, "s1", request="Note for later: Maren uses Helix now.")
    out = mnemex(
        root, "harvest", "--claude-dir", str(claude), "--settle", "0", "--consolidate", "--json"
    ).output
    data = json.loads(out)
    assert data["created"] == 1
    assert data["consolidate"]["applied"] == {"new": 1}
    uses = _answer(facts(root, "Maren"), "uses")
    assert uses["values"] == ["Helix"] and uses["facts"][0]["provenance"] == "session"
