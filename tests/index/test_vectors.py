"""The SQLite backend's vector matrix: loaded, refreshed after edits, and cached beside the
index (the sidecar). SQLite only: how a backend keeps its vectors is its own business; the
contract (``nearest``, ``vectors_of``) is checked on every backend in test_backends.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from helpers import write
from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.index.backend import VectorTable
from mnemex.index.sqlite.store import SQLiteIndex
from mnemex.vault import Vault


def fresh_table(vault_dir: Path, identity: str) -> VectorTable:
    """The table as a brand-new process reads it straight from SQLite."""
    index = SQLiteIndex(vault_dir / ".mnemex" / "index.sqlite")
    try:
        index._vectors.sidecar.folder = vault_dir / "no-sidecar"  # force the SQLite path
        return index.vectors_of(identity)
    finally:
        index.close()


def same(a: VectorTable, b: VectorTable) -> bool:
    return (
        np.array_equal(a.chunk_ids, b.chunk_ids)
        and np.array_equal(a.note_ids, b.note_ids)
        and np.array_equal(np.asarray(a.matrix), np.asarray(b.matrix))
    )


def test_a_refreshed_table_after_edits_equals_a_fresh_load(brain: Brain, vault_dir: Path) -> None:
    for i in range(5):
        write(vault_dir, f"n{i}.md", f"# Fact\n\nfact {i}\n\n# Other\n\nother {i}\n")
    brain.sync()
    identity = HashingEmbedder().identity
    brain.backend.vectors_of(identity)
    write(vault_dir, "n1.md", "# Fact\n\nfact 1 changed\n\n# Other\n\nother 1\n")
    (vault_dir / "n3.md").unlink()
    write(vault_dir, "n9.md", "- brand new")
    brain.sync()
    refreshed = brain.backend.vectors_of(identity)
    assert same(refreshed, fresh_table(vault_dir, identity))
    assert len(refreshed.chunk_ids) == 9


def test_a_new_process_reads_the_sidecar_of_the_current_generation(vault_dir: Path) -> None:
    write(vault_dir, "a.md", "- one\n- two\n")
    with Brain(Vault(vault_dir), embedder=HashingEmbedder()) as first:
        first.sync()
        table = first.backend.vectors_of(HashingEmbedder().identity)
    with Brain(Vault(vault_dir), embedder=HashingEmbedder()) as second:
        sidecar = second.backend._vectors.sidecar  # type: ignore[attr-defined]
        loaded = sidecar.load(HashingEmbedder().identity, second.backend.generation())
        assert loaded is not None and same(loaded, table)


def test_a_sidecar_from_an_older_generation_is_never_used(vault_dir: Path) -> None:
    write(vault_dir, "a.md", "- one\n")
    identity = HashingEmbedder().identity
    with Brain(Vault(vault_dir), embedder=HashingEmbedder()) as b:
        b.sync()
        b.backend.vectors_of(identity)
        write(vault_dir, "b.md", "- two\n")
        b.sync()
        sidecar = b.backend._vectors.sidecar  # type: ignore[attr-defined]
        assert sidecar.load(identity, b.backend.generation()) is None
    with Brain(Vault(vault_dir), embedder=HashingEmbedder()) as again:
        assert len(again.backend.vectors_of(identity).chunk_ids) == 2


def test_a_damaged_sidecar_falls_back_to_sqlite(vault_dir: Path) -> None:
    write(vault_dir, "a.md", "- one\n")
    identity = HashingEmbedder().identity
    with Brain(Vault(vault_dir), embedder=HashingEmbedder()) as b:
        b.sync()
        b.backend.vectors_of(identity)
    for path in (vault_dir / ".mnemex" / "index.vectors").glob("*.npy"):
        path.write_bytes(b"garbage")
    with Brain(Vault(vault_dir), embedder=HashingEmbedder()) as again:
        assert len(again.backend.vectors_of(identity).chunk_ids) == 1


def test_a_rebuilt_index_is_never_served_the_vectors_of_the_one_before(vault_dir: Path) -> None:
    # a rebuild of as many files makes as many writes: had the generation restarted at 0,
    # it would land on the old number and a new process would load the old sidecar
    write(vault_dir, "a.md", "- apples and pears\n")
    identity = HashingEmbedder().identity
    with Brain(Vault(vault_dir), embedder=HashingEmbedder()) as first:
        first.sync()
        first.backend.vectors_of(identity)  # writes the sidecar
    write(vault_dir, "a.md", "- quantum chromodynamics\n")
    with Brain(Vault(vault_dir), embedder=HashingEmbedder()) as second:
        second.rebuild()
    with Brain(Vault(vault_dir), embedder=HashingEmbedder()) as third:
        table = third.backend.vectors_of(identity)
        new, old = HashingEmbedder().embed_batch(["quantum chromodynamics", "apples and pears"])
        assert len(table.matrix) == 1
        assert float(table.matrix[0] @ new) > float(table.matrix[0] @ old)
