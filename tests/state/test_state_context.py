"""get_context: the whole state of a project in one read, within its token budget."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from state_support import git_vault

from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.memories.remember import remember
from mnemex.retrieve.budget import json_tokens
from mnemex.state import get_context, save_brief, save_handoff


@pytest.fixture
def brain(tmp_path: Path) -> Brain:
    vault = git_vault(tmp_path / "vault")
    return Brain(vault, embedder=HashingEmbedder())


def _files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and ".git" not in p.parts and ".mnemex" not in p.parts
    }


def _foundation(root: Path, project: str, slug: str, text: str, order: int) -> str:
    folder = root / "foundations" / project
    folder.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    (folder / f"{slug}.md").write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    manifest = folder / "manifest.json"
    docs = json.loads(manifest.read_text())["documents"] if manifest.exists() else []
    docs.append(
        {
            "slug": slug,
            "file": f"{slug}.md",
            "sha256": digest,
            "bytes": len(data),
            "order": order,
            "source": None,
            "added": "2026-12-01T00:00:00+00:00",
        }
    )
    manifest.write_text(json.dumps({"format": 1, "documents": docs}))
    return digest


def test_context_holds_brief_handoffs_journal_and_memories_framed_as_data(brain: Brain) -> None:
    save_brief(
        brain.vault, "mnemex", standing="A second brain.", decisions=["No ORMs"], create=True
    )
    save_handoff(brain.vault, "mnemex", "Index is green", traps=["sqlite-vss fails"])
    remember(brain, "The user likes small commits.", project="mnemex")
    context = get_context(brain, "mnemex", max_tokens=4000)
    assert context["known"] is True
    assert "No ORMs" in context["brief"]["text"] and context["brief"]["author"] == "user"
    assert "brief by user" in context["framing"]
    assert [h["headline"] for h in context["handoffs"]] == ["Index is green"]
    assert [e["event"] for e in context["journal"]] == ["handoff_saved", "brief_saved"]
    assert "small commits" in context["memories"][0]["snippet"]
    assert context["omitted"] == []
    assert context["tokens"] <= 4000


def test_context_stays_within_a_small_budget_and_names_what_it_left_out(brain: Brain) -> None:
    save_brief(
        brain.vault, "mnemex", standing="word " * 3000, decisions=["No ORMs"] * 5, create=True
    )
    for i in range(3):
        save_handoff(brain.vault, "mnemex", f"Handoff {i}", state=[f"state {i} " * 50])
    for i in range(5):
        remember(brain, f"Memory number {i} about the deploy pipeline", project="mnemex")
    for budget in (250, 800, 2000):
        context = get_context(brain, "mnemex", max_tokens=budget)
        assert json_tokens(context) <= budget
        assert context["omitted"], budget
    context = get_context(brain, "mnemex", max_tokens=800)
    assert any("get_brief" in note for note in context["omitted"])


def test_reading_the_context_writes_nothing(brain: Brain) -> None:
    save_handoff(brain.vault, "mnemex", "x", create=True)
    before = _files(brain.vault.root)
    get_context(brain, "mnemex", max_tokens=2000)
    get_context(brain, "ghost", max_tokens=2000)
    assert _files(brain.vault.root) == before


def test_an_unknown_project_gets_the_known_ones_instead_of_an_error(brain: Brain) -> None:
    save_handoff(brain.vault, "alpha", "x", create=True)
    context = get_context(brain, "alpah")
    assert context["known"] is False and context["projects"] == ["alpha"]


def test_foundation_bodies_are_sent_only_when_changed_since_the_caller_read_them(
    brain: Brain,
) -> None:
    pytest.importorskip("mnemex.foundations.store")
    save_handoff(brain.vault, "mnemex", "x", create=True)
    arch = _foundation(brain.vault.root, "mnemex", "architecture", "# Architecture\nLayers.\n", 1)
    _foundation(brain.vault.root, "mnemex", "roadmap", "# Roadmap\nShip it.\n", 2)
    context = get_context(brain, "mnemex", seen={"architecture": arch})
    by_slug = {f["slug"]: f for f in context["foundations"]}
    assert list(by_slug) == ["architecture", "roadmap"]
    assert by_slug["architecture"]["changed"] is False and "content" not in by_slug["architecture"]
    assert by_slug["roadmap"]["changed"] is True
    assert by_slug["roadmap"]["content"] == "# Roadmap\nShip it.\n"
    assert "foundations[].content" in context["untrusted_fields"]


def test_foundations_of_a_project_without_state_or_memories_are_still_served(
    brain: Brain,
) -> None:
    _foundation(brain.vault.root, "docs-only", "architecture", "# Architecture\n", 1)
    context = get_context(brain, "docs-only")
    assert context["known"] is True
    assert [f["slug"] for f in context["foundations"]] == ["architecture"]


def test_a_project_without_foundations_has_an_empty_foundations_index(brain: Brain) -> None:
    save_handoff(brain.vault, "mnemex", "x", create=True)
    assert get_context(brain, "mnemex")["foundations"] == []


def test_context_rejects_project_names_with_dots_or_slashes(brain: Brain) -> None:
    from mnemex.errors import VaultError

    with pytest.raises(VaultError):
        get_context(brain, "../x")


def test_newest_handoff_comes_first_across_machines(brain: Brain) -> None:
    save_handoff(brain.vault, "mnemex", "Older, this machine", create=True)
    other = brain.vault.root / "state/mnemex/handoffs/desk-0badc0de/current.md"
    other.parent.mkdir(parents=True)
    other.write_text(
        "---\ntype: handoff\ntitle: Newest\nupdated: '2099-01-01T00:00:00+00:00'\n---\n# Newest\n",
        encoding="utf-8",
    )
    context = get_context(brain, "mnemex")
    assert [h["headline"] for h in context["handoffs"]] == ["Newest", "Older, this machine"]
