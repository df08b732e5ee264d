"""Recall over real harvested digests: the fixtures harvested, indexed, and asked about.

The hashing embedder is not semantic, so the questions are answerable by their words; the
golden set with MiniLM lives in ``bench/harvest_recall.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.harvest.run import harvest_sessions
from mnemex.memories.recall import get_digest, search_memories
from mnemex.vault import Vault, parse_note
from mnemex.vault.layout import init_vault

FIXTURES = Path(__file__).parents[1] / "harvest" / "fixtures"
ALL = {
    "claude-code": [FIXTURES / "claude" / "projects"],
    "codex": [FIXTURES / "codex" / "sessions"],
    "gemini-cli": [FIXTURES / "gemini" / "tmp"],
    "aider": [FIXTURES / "aider" / "garden-planner"],
}
CODEX = "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0000"


@pytest.fixture(scope="module")
def brain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Brain]:
    root = tmp_path_factory.mktemp("recall") / "vault"
    init_vault(root, git=False)
    vault = Vault(root)
    report = harvest_sessions(vault, ALL, settle_seconds=0)
    assert report.created >= 8 and report.failed == 0
    with Brain(vault, embedder=HashingEmbedder()) as b:
        b.sync()
        yield b


def _sessions(brain: Brain, query: str, **scope: str) -> list[str]:
    hits = search_memories(brain, query, k=5, **scope)["hits"]
    return [str(h.get("session")) for h in hits]


@pytest.mark.parametrize(
    ("question", "session"),
    [
        ("did we fix the wrong cart total with a coupon?", "sess-a"),
        ("expired coupons handling", "sess-b"),
        ("dry-run flag for the import command", CODEX),
        ("what failed when cargo test import ran?", CODEX),
        ("dark mode toggle", "9e8d7c6b-0000-4000-8000-000000000002"),
        # an Aider session's id hashes its repository's absolute path: found by title
        ("frost date configurable", "aider:make the frost date configurable"),
        ("README section about FROST_DATE", "aider:add a README section about FROST_DATE"),
    ],
)
def test_search_memories_finds_the_session_that_answers(
    brain: Brain, question: str, session: str
) -> None:
    if session.startswith("aider:"):
        session = _aider_session(brain, session.removeprefix("aider:"))
    assert _sessions(brain, question)[0] == session


def _aider_session(brain: Brain, title: str) -> str:
    for path in (brain.vault.root / "memories").rglob("*.md"):
        fm = parse_note(path.read_text(encoding="utf-8"), path.name).frontmatter
        if fm.get("harness") == "aider" and fm.get("title") == title:
            return str(fm["session"])
    raise AssertionError(f"no aider digest titled {title!r}")


def test_a_failure_is_found_by_the_error_it_printed(brain: Brain) -> None:
    hits = search_memories(brain, "cannot find value dry_run", k=3)["hits"]
    assert hits[0]["session"] == CODEX
    section = hits[0]["section"].rsplit(" > ", 1)[-1]
    assert section in ("The problem", "Dead ends and failed attempts")
    assert "cannot find value" in hits[0]["snippet"]


def test_the_project_scope_keeps_other_projects_out(brain: Brain) -> None:
    found = search_memories(brain, "tests failed", k=10, project="weather-app")["hits"]
    assert found and {h["project"] for h in found} == {"weather-app"}


def test_get_digest_returns_the_whole_digest_by_session_and_by_path(brain: Brain) -> None:
    [hit] = search_memories(brain, "dry-run flag import command", k=1)["hits"]
    whole = (brain.vault.root / hit["path"]).read_text(encoding="utf-8")
    body = parse_note(whole, hit["path"]).body
    by_session = get_digest(brain, session=CODEX)
    by_path = get_digest(brain, path=hit["path"])
    assert by_session["path"] == by_path["path"] == hit["path"]
    assert not by_session.get("truncated")
    for heading in ("## Summary", "## Dead ends and failed attempts", "## Files touched"):
        assert heading in by_session["content"]
    assert by_session["content"].strip().endswith(body.strip().splitlines()[-1])
    assert by_session["frontmatter"]["session"] == CODEX
