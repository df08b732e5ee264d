"""Moving the index between backends: vectors copied, nothing embedded again, private notes
left on this machine, and the move checked (counts, vectors bit for bit)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import write
from index_backends import MemoryIndex
from mnemex.brain import Brain
from mnemex.embed import Embedder
from mnemex.embed.hashing import HashingEmbedder
from mnemex.errors import IndexUnavailable
from mnemex.index.migrate import migrate_index
from mnemex.vault import Vault

MARKER = "zanzibarquartz"


def _vault(root: Path) -> Path:
    write(root, "notes/deploy.md", "# Deploy\nShip on Tuesdays. See [[runbook]].\n")
    write(root, "notes/runbook.md", "# Runbook\n- step one\n- step two\n\nRoll back fast.\n")
    write(root, "wiki/general/entities/orbit.md", "# Orbit\nThe billing service, [[deploy]].\n")
    write(root, "wiki/private/lawyer.md", f"# Lawyer\nThe {MARKER} number.\n")
    write(root, "notes/diary.md", f"---\nproject: private\n---\n# Diary\n{MARKER}.\n")
    return root


def _no_embedding() -> Embedder:
    raise AssertionError("a migration embedded a text the source had a vector for")


@pytest.mark.parametrize("shared", [False, True], ids=["local-target", "shared-target"])
def test_a_move_copies_vectors_embeds_nothing_and_checks_itself(
    vault_dir: Path, shared: bool
) -> None:
    _vault(vault_dir)
    vault = Vault(vault_dir)
    with Brain(vault, embedder=HashingEmbedder()) as brain:
        brain.sync()
        target = MemoryIndex()
        if shared:
            target.holds_private = False  # type: ignore[attr-defined]
        done = migrate_index(vault, brain.backend, target, _no_embedding)
        assert done.ok, done.mismatches
        assert done.embedded == 0 and done.vectors_copied > 0 and done.sampled > 0
        source_notes = sum(1 for _ in brain.backend.scan_notes())
    held = repr(list(target.scan_notes())) + repr(list(target.scan_chunks()))
    if shared:
        assert done.kept_out == 2 and done.notes == source_notes - 2
        assert MARKER not in held and "wiki/private/lawyer.md" not in held
    else:
        assert done.kept_out == 0 and done.notes == source_notes
        assert MARKER in held


def test_a_target_that_holds_notes_is_replaced_only_when_asked(vault_dir: Path) -> None:
    _vault(vault_dir)
    vault = Vault(vault_dir)
    with Brain(vault, embedder=HashingEmbedder()) as brain:
        brain.sync()
        target = MemoryIndex()
        migrate_index(vault, brain.backend, target, _no_embedding)
        with pytest.raises(IndexUnavailable, match="already holds"):
            migrate_index(vault, brain.backend, target, _no_embedding)
        again = migrate_index(vault, brain.backend, target, _no_embedding, replace=True)
    assert again.ok and again.embedded == 0


def test_a_target_that_loses_vectors_fails_the_check(vault_dir: Path) -> None:
    _vault(vault_dir)
    vault = Vault(vault_dir)
    with Brain(vault, embedder=HashingEmbedder()) as brain:
        brain.sync()
        target = MemoryIndex()
        store = target.store_vectors

        def lossy(embedder: str, items: list[tuple[str, bytes]]) -> None:
            store(embedder, items[1:])  # every write loses one

        target.store_vectors = lossy  # type: ignore[method-assign,assignment]
        done = migrate_index(vault, brain.backend, target, HashingEmbedder)
    assert not done.ok
    assert done.mismatches == ["1 vectors missing in the target"]
