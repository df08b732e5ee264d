"""Recording facts in a real vault: one commit each, undoable, private facts kept private,
unreadable files refused, and what is dropped logged."""

from __future__ import annotations

import datetime as dt
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from fact_support import at, entity_page
from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.errors import FactError
from mnemex.facts.claims import Claim
from mnemex.facts.model import Evidence
from mnemex.facts.record import learn_note, name_book, record_claims
from mnemex.facts.serve import facts_about
from mnemex.memories.remember import remember
from mnemex.vault import Vault, init_vault
from mnemex.vault.undo import undo


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, capture_output=True, text=True, check=True
    ).stdout


@pytest.fixture
def brain(tmp_path: Path) -> Iterator[Brain]:
    root = tmp_path / "vault"
    init_vault(root)
    settings = root / "mnemex.toml"
    text = settings.read_text(encoding="utf-8").replace('name = "minilm"', 'name = "hashing"')
    settings.write_text(
        text.replace("[vault]\n", '[vault]\nowner = "Maren Okafor"\n', 1), encoding="utf-8"
    )
    entity_page(root, "Tomasz Wierzbicki", "person", ["Tom", "Tomasz"])
    entity_page(root, "Tidewater Labs", "organisation", ["Tidewater"])
    _git(root, "add", "-A")
    _git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "names")
    with Brain(Vault(root), embedder=HashingEmbedder()) as opened:
        yield opened


def _claim(value: str, **extra: object) -> Claim:
    return Claim(
        subject="Tomasz Wierzbicki",
        predicate="works_at",
        value=value,
        statement=f"Tom works at {value}.",
        **extra,
    )  # type: ignore[arg-type]


def test_the_name_book_knows_the_owner_entities_and_aliases(brain: Brain) -> None:
    book = name_book(brain)
    assert book.owner == "Maren Okafor"
    assert book.lookup("tom") is not None and book.lookup("tom").canonical == "Tomasz Wierzbicki"  # type: ignore[union-attr]
    assert book.lookup("TIDEWATER").kind == "organisation"  # type: ignore[union-attr]


def test_where_someone_lived_is_a_place_the_book_knows(brain: Brain) -> None:
    from mnemex.facts.record import add_fact

    add_fact(brain, "Tom lives in Gdańsk since March 2026", now=at("2026-03-20"))
    add_fact(brain, "Tom works at Tidewater", now=at("2026-03-21"))
    book = name_book(brain)
    assert book.lookup("gdansk") is not None and book.lookup("gdansk").kind == "place"  # type: ignore[union-attr]
    assert book.lookup("tidewater").kind == "organisation"  # type: ignore[union-attr]
    recorded = add_fact(brain, "tom -> Gdańsk", now=at("2026-04-02"))
    [change] = recorded.changes
    assert change.fact is not None and change.fact.predicate == "lives_in"
    assert (change.outcome, change.fact.value) == ("confirmed", "Gdańsk")


def test_each_change_is_one_commit_and_undo_takes_it_back(brain: Brain) -> None:
    root = brain.vault.root
    first = record_claims(
        brain,
        [_claim("Tidewater Labs")],
        provenance="source",
        evidence=Evidence("user", dt.date(2025, 9, 22)),
        now=at("2025-09-22"),
    )
    assert first.report.created == 1 and first.commit is not None and first.commit.sha
    rel = "facts/tomasz-wierzbicki.md"
    before = (root / rel).read_bytes()
    second = record_claims(
        brain,
        [_claim("Kestrel Systems", valid_from=dt.date(2026, 2, 9))],
        provenance="person",
        evidence=Evidence("user", dt.date(2026, 2, 11)),
        now=at("2026-02-11"),
    )
    assert second.report.updated == 1 and second.changes[0].applied is not None
    assert second.changes[0].applied.superseded  # Tidewater closed, not deleted
    log = _git(root, "log", "--format=%s", "-3").splitlines()
    assert log[0].startswith("mnemex fact:") and log[1].startswith("mnemex fact:")
    assert "page" not in (root / rel).read_text(encoding="utf-8").split("---")[1] or True
    plan = undo(brain.vault)
    undo(brain.vault, plan_id=plan["plan_id"])
    assert (root / rel).read_bytes() == before


def test_the_file_links_the_subjects_wiki_page(brain: Brain) -> None:
    record_claims(
        brain,
        [_claim("Tidewater Labs")],
        provenance="source",
        evidence=Evidence("user", dt.date(2025, 9, 22)),
        now=at("2025-09-22"),
    )
    text = (brain.vault.root / "facts/tomasz-wierzbicki.md").read_text(encoding="utf-8")
    assert "page: '[[wiki/general/entities/tomasz-wierzbicki]]'" in text


def test_an_unreadable_fact_file_refuses_the_write_and_is_left_byte_for_byte(brain: Brain) -> None:
    record_claims(
        brain,
        [_claim("Tidewater Labs")],
        provenance="source",
        evidence=Evidence("user", dt.date(2025, 9, 22)),
        now=at("2025-09-22"),
    )
    path = brain.vault.root / "facts/tomasz-wierzbicki.md"
    broken = path.read_text(encoding="utf-8").replace(
        "- provenance: source", "- provenance: source\n- mood: sunny"
    )
    path.write_text(broken, encoding="utf-8")
    head = _git(brain.vault.root, "rev-parse", "HEAD")
    with pytest.raises(FactError, match=r"facts/tomasz-wierzbicki.md:\d+: unknown key 'mood'"):
        record_claims(
            brain,
            [_claim("Kestrel Systems")],
            provenance="person",
            evidence=Evidence("user", dt.date(2026, 2, 11)),
            now=at("2026-02-11"),
        )
    assert path.read_text(encoding="utf-8") == broken
    assert _git(brain.vault.root, "rev-parse", "HEAD") == head


def test_facts_from_a_private_memory_stay_private(brain: Brain) -> None:
    root = brain.vault.root
    kept = remember(
        brain,
        "Tom works at Tidewater Labs.",
        project="private",
        now=at("2026-01-05"),
        said_by_user=True,
    )
    assert kept.facts is not None and kept.facts["created"] == 1
    private = root / "facts/private/tomasz-wierzbicki.md"
    assert private.is_file() and not (root / "facts/tomasz-wierzbicki.md").exists()
    assert "facts/private/" not in _git(root, "ls-files")
    assert "facts/private/" in (root / ".gitignore").read_text(encoding="utf-8")
    with pytest.raises(FactError, match="no facts about"):
        facts_about(brain, "Tom")
    served = facts_about(brain, "Tom", include_private=["private"], as_of=dt.date(2026, 2, 1))
    assert served["answers"][0]["values"] == ["Tidewater Labs"]


def test_remember_records_the_persons_word_only_when_said_by_the_user(brain: Brain) -> None:
    remember(
        brain,
        "Tom works at Tidewater Labs.",
        project="team",
        now=at("2025-10-01"),
        said_by_user=True,
    )
    guess = remember(
        brain, "Tom probably works at Kestrel Systems now.", project="team", now=at("2025-11-01")
    )
    assert guess.facts is not None
    served = facts_about(brain, "Tomasz Wierzbicki", as_of=dt.date(2025, 12, 1), include_all=True)
    answer = served["answers"][0]
    assert answer["values"] == ["Tidewater Labs"] and answer["facts"][0]["provenance"] == "person"
    assert [d["provenance"] for d in answer["drafts"]] == ["agent"]


def test_sentences_naming_no_known_subject_are_logged_privately_not_stored(brain: Brain) -> None:
    root = brain.vault.root
    note = root / "notes.md"
    note.write_text(
        "# Notes\n\nZelda works at Hyrule Castle.\nThe weather was fine.\n", encoding="utf-8"
    )
    done = learn_note(brain, "notes.md", now=at("2026-03-01"))
    assert done.changes == []
    assert [d["sentence"] for d in done.dropped] == ["Zelda works at Hyrule Castle."]
    log = (root / "facts/_log.jsonl").read_text(encoding="utf-8")
    assert "Hyrule" in log
    assert "facts/_log.jsonl" not in _git(root, "ls-files")


def test_undo_restores_a_hand_written_fact_file_never_committed_with_its_mode(
    brain: Brain,
) -> None:
    root = brain.vault.root
    entity_page(root, "Zoë O'Brien-Łukasz", "person", ["Zoë"])
    record_claims(
        brain,
        [
            Claim(
                subject="Zoë O'Brien-Łukasz",
                predicate="lives_in",
                value="Kraków",
                statement="Zoë lives in Kraków.",
            )
        ],
        provenance="person",
        evidence=Evidence("user", dt.date(2026, 1, 2)),
        now=at("2026-01-02"),
    )
    rel = "facts/zoë-o-brien-łukasz.md"
    path = root / rel
    assert path.is_file()
    # a person edits the file by hand and never commits it; it is private to them (0600)
    hand = path.read_text(encoding="utf-8").replace(
        "- statement: Zoë lives in Kraków.", "- statement: Zoë lives in Kraków (old town)."
    )
    path.write_text(hand, encoding="utf-8")
    path.chmod(0o600)
    record_claims(
        brain,
        [
            Claim(
                subject="Zoë O'Brien-Łukasz",
                predicate="works_at",
                value="Tidewater Labs",
                statement="Zoë works at Tidewater.",
            )
        ],
        provenance="person",
        evidence=Evidence("user", dt.date(2026, 2, 2)),
        now=at("2026-02-02"),
    )
    assert "Zoë works at Tidewater." in path.read_text(encoding="utf-8")
    assert "(old town)" in path.read_text(encoding="utf-8")  # the hand edit was read, not lost
    plan = undo(brain.vault)
    undo(brain.vault, plan_id=plan["plan_id"])
    assert path.read_text(encoding="utf-8") == hand
    assert path.stat().st_mode & 0o777 == 0o600


def test_a_tables_rows_are_read_as_note_lines_and_its_header_gives_nothing(
    brain: Brain,
) -> None:
    from mnemex.facts.record import claims_from_text

    body = (
        "| Person | Employer |\n|---|---|\n| Tom | Tidewater Labs |\n\n"
        "```\n| Tom | Kestrel |\n```\n"
    )
    claims, _ = claims_from_text(
        body, evidence_date=dt.date(2026, 3, 2), book=name_book(brain), speaker=None
    )
    assert [(c.subject, c.predicate, c.value) for c in claims] == [
        ("Tomasz Wierzbicki", "works_at", "Tidewater Labs")
    ]
