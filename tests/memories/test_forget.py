from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from memory_fixtures import seed_memories, write_digest
from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.errors import NoteNotFound, PlanRefused, VaultError
from mnemex.memories.forget import apply_forget, plan_forget
from mnemex.vault import Vault, init_vault


@pytest.fixture
def git_brain(tmp_path: Path) -> Brain:
    root = tmp_path / "vault"
    init_vault(root, git=True)
    toml = root / "mnemex.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8").replace('name = "minilm"', 'name = "hashing"'),
        encoding="utf-8",
    )
    seed_memories(root)
    identity = ["-c", "user.name=Ada", "-c", "user.email=ada@example.org"]
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(["git", *identity, "commit", "-qm", "start"], cwd=root, check=True)
    brain = Brain(Vault(root), embedder=HashingEmbedder())
    brain.sync()
    return brain


def _tokenizer(brain: Brain) -> str:
    return "memories/mnemex/2026-12/2026-12-02-5d1e2f-61e8d3f4.md"


def _vectors(brain: Brain) -> int:
    return sum(int(n) for n in brain.backend.stats().vectors.values())


def test_plan_forget_names_the_file_and_what_is_derived_from_it(git_brain: Brain) -> None:
    rel = _tokenizer(git_brain)
    plan = plan_forget(git_brain, path=rel)
    assert plan["operation"] == "forget"
    assert plan["delete"] == [rel]
    assert plan["derived"]["index_entries"] == 1
    assert plan["derived"]["chunks"] > 0
    assert (git_brain.vault.root / rel).exists()  # nothing deleted yet


def test_forget_removes_the_file_its_chunks_and_vectors_and_commits(git_brain: Brain) -> None:
    rel = _tokenizer(git_brain)
    hashes = git_brain.backend.chunk_hashes([rel])
    before = _vectors(git_brain)
    assert before > 0
    plan = plan_forget(git_brain, path=rel)
    done = apply_forget(git_brain, plan["plan_id"])
    assert done["deleted"] == [rel]
    assert not (git_brain.vault.root / rel).exists()
    assert git_brain.backend.note_by_path(rel) is None
    assert git_brain.backend.chunk_hashes([rel]) == set()
    assert _vectors(git_brain) <= before - len(hashes)
    assert done["commit"]["committed"] is True
    log = subprocess.run(
        ["git", "log", "-1", "--format=%s%n%b"],
        cwd=git_brain.vault.root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert log.startswith("mnemex forget: deleted ")
    assert "Mnemex-Operation: forget" in log


def test_forget_by_session_removes_the_archived_transcript_too(git_brain: Brain) -> None:
    session = "77aa11bb-1111-2222-3333-444455556666"
    archive = git_brain.vault.local_dir / "transcripts" / "codex" / f"{session}.jsonl"
    archive.parent.mkdir(parents=True)
    archive.write_text("{}\n", encoding="utf-8")
    plan = plan_forget(git_brain, session=session)
    assert plan["derived"]["transcripts"] == [f".mnemex/transcripts/codex/{session}.jsonl"]
    done = apply_forget(git_brain, plan["plan_id"], session=session)
    assert done["transcripts_deleted"] == [f".mnemex/transcripts/codex/{session}.jsonl"]
    assert not archive.exists()
    assert git_brain.backend.paths_with_field("session", session) == []


def test_a_stale_forget_plan_is_refused(git_brain: Brain) -> None:
    rel = _tokenizer(git_brain)
    plan = plan_forget(git_brain, path=rel)
    path = git_brain.vault.root / rel
    path.write_text(path.read_text(encoding="utf-8") + "- edited by hand\n", encoding="utf-8")
    with pytest.raises(PlanRefused, match="changed since plan"):
        apply_forget(git_brain, plan["plan_id"])
    assert path.exists()


def test_a_forget_plan_is_used_once_and_only_for_its_own_memory(git_brain: Brain) -> None:
    rel = _tokenizer(git_brain)
    other = write_digest(
        git_brain.vault.root,
        project="mnemex",
        session="abcdef12-0000-0000-0000-000000000001",
        title="Other",
        summary="Other.",
    )
    plan = plan_forget(git_brain, path=rel)
    with pytest.raises(PlanRefused, match="not this call"):
        apply_forget(git_brain, plan["plan_id"], path=other)
    apply_forget(git_brain, plan["plan_id"], path=rel)
    with pytest.raises(PlanRefused, match="no plan"):
        apply_forget(git_brain, plan["plan_id"])


def test_forget_refuses_paths_outside_memories_and_unknown_sessions(git_brain: Brain) -> None:
    (git_brain.vault.root / "notes").mkdir(exist_ok=True)
    (git_brain.vault.root / "notes" / "a.md").write_text("# A\n", encoding="utf-8")
    with pytest.raises(VaultError, match="not a memory"):
        plan_forget(git_brain, path="notes/a.md")
    with pytest.raises(NoteNotFound, match="no memory of session"):
        plan_forget(git_brain, session="no-such-session")
