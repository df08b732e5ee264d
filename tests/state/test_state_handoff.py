"""Handoffs: one per machine, superseded whole, trimmed with a note, refused when it looks lost."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from state_support import git_vault, substantial

from mnemex.errors import VaultError
from mnemex.state import (
    MAX_ITEMS,
    StateRefused,
    get_handoff,
    handoff_path,
    list_handoffs,
    read_journal,
    save_handoff,
)
from mnemex.vault import Vault
from mnemex.vault.machine import machine_name


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    return git_vault(tmp_path / "vault")


def test_a_handoff_has_its_sections_in_the_spec_order_with_a_provenance_line(vault: Vault) -> None:
    done = save_handoff(
        vault,
        "mnemex",
        "Index rebuild is green",
        foundations_read=[{"slug": "architecture", "sha256": "a" * 64}],
        open_questions=["Which tokenizer?"],
        observations=[
            {
                "statement": "3 tests skip",
                "observed_at": "2026-12-02T11:20:00Z",
                "recheck": "pytest",
            }
        ],
        next_steps=["Try trigram"],
        traps=["sqlite-vss fails on 3.13"],
        decisions=["Never mix embedders"],
        state=["Rebuild agrees with sync"],
        harness="claude-code",
        model="claude-x",
        create=True,
    )
    machine = machine_name(vault)
    assert done.path == handoff_path("mnemex", machine)
    text = (vault.root / done.path).read_text(encoding="utf-8")
    body = text.split("---\n", 2)[2]
    lines = body.splitlines()
    assert lines[0] == "# Index rebuild is green"
    assert lines[1].startswith(f"Provenance: machine {machine} · ")
    assert lines[1].endswith(" · harness claude-code · model claude-x")
    headings = [ln for ln in lines if ln.startswith("## ")]
    assert headings == [
        "## Where things stand",
        "## Firm decisions — do not re-litigate",
        "## Traps and dead ends",
        "## Next steps",
        "## Observations",
        "## Open questions",
        "## Foundations read",
    ]
    assert "- 3 tests skip (observed 2026-12-02T11:20:00+00:00, recheck: `pytest`)" in lines
    assert f"- architecture — {'a' * 64}" in lines
    assert "type: handoff" in text and "project: mnemex" in text and f"machine: {machine}" in text


def test_empty_sections_are_left_out_and_a_headline_alone_is_a_handoff(vault: Vault) -> None:
    done = save_handoff(vault, "mnemex", "Just started", create=True)
    body = (vault.root / done.path).read_text(encoding="utf-8")
    assert "## " not in body
    assert get_handoff(vault, "mnemex")["headline"] == "Just started"


@pytest.mark.parametrize("headline", ["", "   ", "\u200b\n"])
def test_an_empty_headline_is_refused(vault: Vault, headline: str) -> None:
    with pytest.raises(StateRefused, match="headline is empty"):
        save_handoff(vault, "mnemex", headline, create=True)
    assert not (vault.root / "state" / "mnemex").exists()


def test_each_save_replaces_the_last_for_that_machine_and_history_stays_in_git(
    vault: Vault,
) -> None:
    save_handoff(vault, "mnemex", "First", state=["one"], create=True)
    second = save_handoff(vault, "mnemex", "Second", state=["two"])
    assert second.outcome == "updated"
    handoff = get_handoff(vault, "mnemex")
    assert handoff["headline"] == "Second" and handoff["sections"]["state"] == ["two"]
    log = subprocess.run(
        ["git", "log", "--format=%s", "--", second.path],
        cwd=vault.root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert log == ["mnemex save_handoff: mnemex: Second", "mnemex save_handoff: mnemex: First"]


def test_created_is_kept_across_saves(vault: Vault) -> None:
    import datetime as dt

    first = dt.datetime(2026, 11, 20, 17, 2, tzinfo=dt.UTC)
    save_handoff(vault, "mnemex", "First", create=True, now=first)
    save_handoff(vault, "mnemex", "Second", now=first + dt.timedelta(days=3))
    fm = get_handoff(vault, "mnemex")["frontmatter"]
    assert fm["created"] == "2026-11-20T17:02:00+00:00"
    assert fm["updated"] == "2026-11-23T17:02:00+00:00"


def test_two_machines_each_keep_their_own_handoff_newest_first(vault: Vault) -> None:
    save_handoff(vault, "mnemex", "From this machine", create=True)
    other = vault.root / "state/mnemex/handoffs/desktop-0badc0de/current.md"
    other.parent.mkdir(parents=True)
    other.write_text(
        "---\ntype: handoff\ntitle: From the desktop\nmachine: desktop-0badc0de\n"
        "updated: '2099-01-01T00:00:00+00:00'\n---\n# From the desktop\n## Next steps\n- ship\n",
        encoding="utf-8",
    )
    save_handoff(vault, "mnemex", "Again from this machine")
    handoffs = list_handoffs(vault, "mnemex")
    assert [h["headline"] for h in handoffs] == ["From the desktop", "Again from this machine"]
    assert get_handoff(vault, "mnemex", machine="desktop-0badc0de")["sections"] == {
        "next_steps": ["ship"]
    }


def test_a_near_empty_save_over_a_substantial_handoff_is_refused_unless_replace(
    vault: Vault,
) -> None:
    save_handoff(
        vault, "mnemex", "Lots", state=substantial("state"), traps=substantial("trap"), create=True
    )
    before = (vault.root / handoff_path("mnemex", machine_name(vault))).read_bytes()
    with pytest.raises(StateRefused, match="replace=True"):
        save_handoff(vault, "mnemex", "Oops", state=["x"])
    with pytest.raises(StateRefused):
        save_handoff(vault, "mnemex", "Emptied")
    assert (vault.root / handoff_path("mnemex", machine_name(vault))).read_bytes() == before
    assert len(read_journal(vault, "mnemex").entries) == 1
    done = save_handoff(vault, "mnemex", "Fresh start", state=["x"], replace=True)
    assert done.outcome == "updated"


def test_an_over_limit_handoff_is_trimmed_with_a_note_and_the_journal_keeps_the_rest(
    vault: Vault,
) -> None:
    steps = [f"step {i}" for i in range(MAX_ITEMS + 3)]
    long_trap = "x" * 5000
    done = save_handoff(vault, "mnemex", "Busy", next_steps=steps, traps=[long_trap], create=True)
    text = (vault.root / done.path).read_text(encoding="utf-8")
    assert "- _3 more omitted_" in text
    assert f"- step {MAX_ITEMS - 1}\n" in text and f"step {MAX_ITEMS}\n" not in text
    assert "characters omitted_" in text and long_trap not in text
    assert done.trimmed == {"Next steps": steps[MAX_ITEMS:], "Traps and dead ends": [long_trap]}
    line = read_journal(vault, "mnemex").entries[-1]
    assert line["trimmed"]["Next steps"] == steps[MAX_ITEMS:]
    assert line["trimmed"]["Traps and dead ends"] == [long_trap]
    report = done.to_dict()
    assert report["created"] == 1 and report["trimmed"] == {
        "Next steps": 3,
        "Traps and dead ends": 1,
    }
    assert get_handoff(vault, "mnemex")["sections"]["next_steps"] == steps[:MAX_ITEMS]


def test_saving_for_an_unknown_project_is_refused_listing_the_known_ones(vault: Vault) -> None:
    save_handoff(vault, "alpha", "a", create=True)
    (vault.root / "memories" / "beta").mkdir(parents=True)
    with pytest.raises(StateRefused, match=r"known projects: alpha, beta.*create=True"):
        save_handoff(vault, "alpah", "typo")
    assert not (vault.root / "state" / "alpah").exists()


@pytest.mark.parametrize("name", ["../escape", "a/b", "..", "Up-Per", "x\\y"])
def test_project_names_with_dots_or_slashes_are_refused(vault: Vault, name: str) -> None:
    with pytest.raises(VaultError, match="not allowed"):
        save_handoff(vault, name, "headline", create=True)
    assert not list((vault.root / "state").glob("*/"))


def test_a_malformed_observation_time_or_foundation_hash_is_refused(vault: Vault) -> None:
    with pytest.raises(StateRefused, match="ISO 8601"):
        save_handoff(
            vault,
            "p",
            "h",
            observations=[{"statement": "s", "observed_at": "yesterday"}],
            create=True,
        )
    with pytest.raises(StateRefused, match="sha256"):
        save_handoff(vault, "p", "h", foundations_read={"arch": "nothex"}, create=True)


def test_the_journal_gets_one_line_per_save(vault: Vault) -> None:
    save_handoff(vault, "mnemex", "One", create=True, harness="codex")
    save_handoff(vault, "mnemex", "Two", harness="codex", model="gpt")
    rel = f"state/mnemex/journal/{machine_name(vault)}.jsonl"
    lines = (vault.root / rel).read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    entries = [json.loads(ln) for ln in lines]
    assert [e["headline"] for e in entries] == ["One", "Two"]
    for entry in entries:
        assert {"ts", "machine", "event", "headline", "trimmed", "path", "sha256"} <= set(entry)
        assert entry["event"] == "handoff_saved" and entry["trimmed"] == {}
    assert entries[1]["model"] == "gpt"
