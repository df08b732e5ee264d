"""An index that may live beyond this machine (``holds_private = False``, as PostgreSQL's
says) never receives a private domain's or project's note, not even its path."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from helpers import write
from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.errors import IndexUnavailable
from mnemex.health.doctor import diagnose
from mnemex.index.sync import PRIVATE_ELSEWHERE
from mnemex.vault import Vault

MARKER = "zanzibarquartz"
PRIVATE = {
    "wiki/private/lawyer.md": f"# Lawyer\nThe {MARKER} number.\n",
    "memories/private/session.md": f"---\nproject: private\n---\n# S\n{MARKER} talk.\n",
    "notes/diary.md": f"---\nproject: private\n---\n# Diary\nA {MARKER} day, see [[deploy]].\n",
}


def _shared(brain: Brain) -> Brain:
    brain.backend.holds_private = False  # type: ignore[attr-defined]
    return brain


def _everything(brain: Brain) -> str:
    backend = brain.backend
    rows = [
        *[repr(n) for n in backend.scan_notes()],
        *[repr(c) for c in backend.scan_chunks()],
        *[repr(link) for link in backend.scan_links()],
        repr(backend.problems()),
        repr(backend.note_paths()),
    ]
    return "\n".join(rows)


def test_private_notes_never_reach_a_shared_index(vault_dir: Path) -> None:
    write(vault_dir, "notes/deploy.md", "# Deploy\nShip on Tuesdays.\n")
    for rel, text in PRIVATE.items():
        write(vault_dir, rel, text)
    with Brain(Vault(vault_dir), embedder=HashingEmbedder()) as brain:
        result = _shared(brain).sync()
        skipped = {p.path for p in result.report.problems.get("skipped", [])}
        held = _everything(brain)
        assert MARKER not in held
        for rel in PRIVATE:
            assert rel not in held
        assert "notes/deploy.md" in held
        again = brain.sync().report
        assert (again.created, again.updated) == (0, 0)  # nothing churns
        doctor = diagnose(brain, load_embedder=False, probe_clients=False)
        index = next(c for c in doctor["checks"] if c["name"] == "index")
        assert index["status"] == "ok", index
    assert skipped == set(PRIVATE)


def test_a_note_indexed_before_the_index_was_shared_leaves_it(vault_dir: Path) -> None:
    for rel, text in PRIVATE.items():
        write(vault_dir, rel, text)
    with Brain(Vault(vault_dir), embedder=HashingEmbedder()) as brain:
        brain.sync()
        assert MARKER in _everything(brain)  # on this machine's own index: kept
        _shared(brain).sync()
        assert MARKER not in _everything(brain)


def test_the_reason_is_said(vault_dir: Path) -> None:
    write(vault_dir, "wiki/private/lawyer.md", "# Lawyer\n")
    with Brain(Vault(vault_dir), embedder=HashingEmbedder()) as brain:
        report = _shared(brain).sync().report.to_dict()
    assert PRIVATE_ELSEWHERE in str(report)


def test_a_machine_with_another_embedder_is_refused_before_it_writes(vault_dir: Path) -> None:
    write(vault_dir, "notes/deploy.md", "# Deploy\nShip on Tuesdays.\n")
    with Brain(Vault(vault_dir), embedder=HashingEmbedder()) as brain:
        _shared(brain).sync()
    settings = vault_dir / "mnemex.toml"
    text = settings.read_text(encoding="utf-8")
    settings.write_text(text.replace('name = "hashing"', 'name = "hashing"\ndim = 64'))
    write(vault_dir, "notes/new.md", "# New\nA second note.\n")
    with Brain(Vault(vault_dir), embedder=HashingEmbedder(dim=64)) as brain:
        with pytest.raises(IndexUnavailable, match="one embedder per shared index"):
            _shared(brain).sync()
        assert brain.backend.note_paths() == ["notes/deploy.md"]  # nothing written


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=A", "-c", "user.email=a@example.org", *args],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def test_a_machine_behind_the_shared_index_does_not_write_until_it_pulls(
    vault_dir: Path,
) -> None:
    _git(vault_dir, "init", "-q")
    write(vault_dir, "notes/deploy.md", "# Deploy\nShip on Tuesdays.\n")
    _git(vault_dir, "add", "-A")
    _git(vault_dir, "commit", "-qm", "one")
    write(vault_dir, "notes/runbook.md", "# Runbook\nRoll back fast.\n")
    _git(vault_dir, "add", "-A")
    _git(vault_dir, "commit", "-qm", "two")
    newest = _git(vault_dir, "rev-parse", "HEAD")
    with Brain(Vault(vault_dir), embedder=HashingEmbedder()) as brain:
        _shared(brain).sync()  # another machine indexed commit two
        _git(vault_dir, "reset", "-q", "--hard", "HEAD~1")  # this one is at commit one
        deferred = brain.sync().deferred
        assert deferred is not None and "pull (`mnemex sync`) first" in deferred
        assert "notes/runbook.md" in brain.backend.note_paths()  # not taken out
        assert brain.rebuild().deferred == deferred  # nothing thrown away either
        assert "notes/runbook.md" in brain.backend.note_paths()
        _git(vault_dir, "reset", "-q", "--hard", newest)  # pulled
        brain.sync()
        assert brain.backend.get_meta("vault_commit") == newest
