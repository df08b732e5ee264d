from __future__ import annotations

import pytest

from memory_fixtures import seed_memories
from mnemex.brain import Brain
from mnemex.errors import NoteNotFound, PathOutsideVault, VaultError
from mnemex.memories.recall import get_digest, search_memories


@pytest.fixture
def seeded(brain: Brain) -> tuple[Brain, dict[str, str]]:
    toml = brain.vault.root / "mnemex.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8").replace(
            'domains = ["general"]', 'domains = ["general", "work"]'
        ),
        encoding="utf-8",
    )
    paths = seed_memories(brain.vault.root)
    (brain.vault.root / "notes").mkdir(exist_ok=True)
    (brain.vault.root / "notes" / "sqlite.md").write_text(
        "# SQLite\nsqlite tokenizer notes that are not memories\n", encoding="utf-8"
    )
    brain.sync()
    return brain, paths


def _paths(result: dict[str, object]) -> list[str]:
    return [h["path"] for h in result["hits"]]  # type: ignore[attr-defined,index]


def test_search_memories_returns_only_memories_with_session_harness_and_bullet(
    seeded: tuple[Brain, dict[str, str]],
) -> None:
    brain, paths = seeded
    result = search_memories(brain, "sqlite-icu wheel failed")
    assert "notes/sqlite.md" not in _paths(result)
    top = result["hits"][0]
    assert top["path"] == paths["tokenizer"]
    assert top["session"] == "5d1e2f9a-aaaa-bbbb-cccc-0c2b61e8d3f4"
    assert top["harness"] == "claude-code"
    assert top["importance"] == 0.7
    assert top["kind"] == "digest"
    assert top["date"].startswith("2026-12-02")
    assert top["snippet"].endswith("sqlite-icu failed: no wheel for Python 3.13.")
    assert "untrusted" in result


def test_search_memories_scopes_by_project(seeded: tuple[Brain, dict[str, str]]) -> None:
    brain, paths = seeded
    result = search_memories(brain, "sqlite failed", project="webshop")
    assert _paths(result) == [paths["deploy"]]


def test_search_memories_scopes_by_domain_from_the_frontmatter(
    seeded: tuple[Brain, dict[str, str]],
) -> None:
    brain, paths = seeded
    assert _paths(search_memories(brain, "sqlite failed", domain="work")) == [paths["deploy"]]
    assert paths["deploy"] not in _paths(search_memories(brain, "sqlite failed", domain="general"))
    assert search_memories(brain, "sqlite", domain="nowhere")["hits"] == []


def test_search_memories_scopes_by_tags(seeded: tuple[Brain, dict[str, str]]) -> None:
    brain, paths = seeded
    assert set(_paths(search_memories(brain, "sqlite", tags=["search"]))) == {
        paths["tokenizer"],
        paths["cache"],
    }
    assert _paths(search_memories(brain, "sqlite", tags=["search", "sqlite"])) == [
        paths["tokenizer"]
    ]


def test_search_memories_scopes_by_dates(seeded: tuple[Brain, dict[str, str]]) -> None:
    brain, paths = seeded
    assert set(_paths(search_memories(brain, "sqlite failed", since="2026-11-01"))) == {
        paths["tokenizer"],
        paths["deploy"],
    }
    assert _paths(search_memories(brain, "sqlite failed", until="2026-10-31")) == [paths["cache"]]


def test_search_memories_refuses_an_unreadable_date(seeded: tuple[Brain, dict[str, str]]) -> None:
    brain, _ = seeded
    with pytest.raises(VaultError, match="not a date"):
        search_memories(brain, "sqlite", since="last tuesday-ish")


def test_get_digest_by_path_returns_the_whole_note_framed_as_data(
    seeded: tuple[Brain, dict[str, str]],
) -> None:
    brain, paths = seeded
    digest = get_digest(brain, path=paths["deploy"])
    assert digest["path"] == paths["deploy"]
    assert "## Dead ends and failed attempts" in digest["content"]
    assert digest["frontmatter"]["session"] == "77aa11bb-1111-2222-3333-444455556666"
    assert "untrusted" in digest


def test_get_digest_by_session_finds_the_note_through_the_index(
    seeded: tuple[Brain, dict[str, str]],
) -> None:
    brain, paths = seeded
    digest = get_digest(brain, session="99cc88dd-0000-1111-2222-333344445555")
    assert digest["path"] == paths["cache"]


def test_get_digest_is_bounded_by_max_tokens(seeded: tuple[Brain, dict[str, str]]) -> None:
    brain, paths = seeded
    digest = get_digest(brain, path=paths["tokenizer"], max_tokens=60)
    assert digest["truncated"] is True


def test_get_digest_refuses_unknown_sessions_and_paths_outside_memories(
    seeded: tuple[Brain, dict[str, str]],
) -> None:
    brain, _ = seeded
    with pytest.raises(NoteNotFound, match="no memory of session"):
        get_digest(brain, session="nope")
    with pytest.raises(VaultError, match="not a memory"):
        get_digest(brain, path="notes/sqlite.md")
    with pytest.raises(PathOutsideVault):
        get_digest(brain, path="../etc/passwd")
    with pytest.raises(VaultError, match="either path or session"):
        get_digest(brain)


def test_search_memories_dates_a_digest_by_its_session_start_not_its_harvest(
    seeded: tuple[Brain, dict[str, str]],
) -> None:
    brain, _ = seeded
    rel = "memories/mnemex/2026-09/2026-09-20-late-0badcafe.md"
    path = brain.vault.root / rel
    path.parent.mkdir(parents=True)
    path.write_text(
        "---\ntype: memory\ntitle: Harvested late\nproject: mnemex\ndomain: general\n"
        "session: late-1\nharness: codex\nstarted: 2026-09-20T08:00:00+00:00\n"
        "created: 2026-12-02T12:00:00+00:00\nupdated: 2026-12-02T12:00:00+00:00\n---\n"
        "# Harvested late\n## Summary\nTuned the zebra cache.\n",
        encoding="utf-8",
    )
    brain.sync()
    assert rel in _paths(search_memories(brain, "zebra cache", until="2026-09-30"))
    assert rel not in _paths(search_memories(brain, "zebra cache", since="2026-12-01"))
