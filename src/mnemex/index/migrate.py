"""Moving the derived index from one backend to another (``mnemex index migrate``).

The vault is the truth, so the target is built the way a sync builds any index, from the
files: what moves is what is expensive to make again, the vectors. They are copied by text
hash first (with the embedder's identity and settings), so the sync that follows finds every
text embedded and embeds nothing. A private domain's or project's note never reaches a
target that may live beyond this machine (sync keeps it out; its vectors are not copied).

Then the move is checked: notes, chunks and links of the target against the source (less
what privacy kept out), every vector present, and a sample of vectors bit for bit.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from mnemex.embed import Embedder
from mnemex.errors import IndexUnavailable
from mnemex.index.backend import IndexBackend
from mnemex.index.sync import BUSY, WRITER_WAIT, Indexer, kept_out, names_kept_out
from mnemex.vault import Vault

#: Vectors compared bit for bit after a move.
SAMPLE = 64
_BATCH = 2048
_META = ("embedder", "embedder_config")


@dataclass
class Migrated:
    """What a move did and what its check found."""

    notes: int = 0
    chunks: int = 0
    links: int = 0
    vectors_copied: int = 0
    embedded: int = 0  # texts the target had to embed: 0 unless the source lacked vectors
    kept_out: int = 0  # private notes left on this machine
    sampled: int = 0
    mismatches: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "ok": self.ok}


def migrate_index(
    vault: Vault,
    source: IndexBackend,
    target: IndexBackend,
    embedder: Callable[[], Embedder],
    *,
    replace: bool = False,
    seed: int = 0,
) -> Migrated:
    """Build ``target`` from the vault with ``source``'s vectors, then check it, holding
    the target's writer lock throughout.

    Raises:
        IndexUnavailable: the target already holds notes and ``replace`` is false, another
            machine is writing it, or this vault is behind the commit it was written from.
    """
    with target.writer(WRITER_WAIT) as held:
        if not held:
            raise IndexUnavailable(BUSY)
        return _migrate(vault, source, target, embedder, replace, seed)


def _migrate(
    vault: Vault,
    source: IndexBackend,
    target: IndexBackend,
    embedder: Callable[[], Embedder],
    replace: bool,
    seed: int,
) -> Migrated:
    if target.stats().notes and not replace:
        raise IndexUnavailable(
            f"the target index ({target.stats().path}) already holds "
            f"{target.stats().notes} notes; pass --replace to build it again from the vault"
        )
    indexer = Indexer(vault, target, embedder)
    behind = indexer.behind()
    if behind:
        raise IndexUnavailable(behind)
    target.reset()
    done = Migrated()
    identity = source.stats().embedder
    private = names_kept_out(vault, target)
    if identity:
        for key in _META:
            value = source.get_meta(key)
            if value is not None:
                target.set_meta(key, value)
        done.vectors_copied = _copy_vectors(source, target, identity, private)
    result = indexer.sync()
    if result.deferred:
        raise IndexUnavailable(result.deferred)
    done.embedded = result.embedded
    _check(source, target, identity, private, done, seed)
    return done


def _copy_vectors(
    source: IndexBackend, target: IndexBackend, identity: str, private: frozenset[str]
) -> int:
    table = source.vectors_of(identity)
    chunks = source.chunks_by_id(int(c) for c in table.chunk_ids)
    notes = source.notes_by_id({int(n) for n in table.note_ids})
    seen: set[str] = set()
    batch: list[tuple[str, bytes]] = []
    copied = 0
    for row, chunk_id, note_id in zip(table.matrix, table.chunk_ids, table.note_ids, strict=True):
        note = notes.get(int(note_id))
        chunk = chunks.get(int(chunk_id))
        if note is None or chunk is None or chunk.hash in seen:
            continue
        if kept_out(note.path, private) or {note.domain, note.project} & private:
            continue
        seen.add(chunk.hash)
        batch.append((chunk.hash, row.tobytes()))
        if len(batch) >= _BATCH:
            target.store_vectors(identity, batch)
            copied += len(batch)
            batch = []
    if batch:
        target.store_vectors(identity, batch)
        copied += len(batch)
    return copied


def _check(
    source: IndexBackend,
    target: IndexBackend,
    identity: str | None,
    private: frozenset[str],
    done: Migrated,
    seed: int,
) -> None:
    """Counts against the source's (less what stayed on this machine), and vectors."""
    kept = {
        n.path
        for n in source.scan_notes()
        if kept_out(n.path, private) or {n.domain, n.project} & private
    }
    done.kept_out = len(kept)
    src_notes = [n for n in source.scan_notes() if n.path not in kept]
    src_ids = {n.id for n in src_notes}
    want = {
        "notes": len(src_notes),
        "chunks": sum(1 for c in source.scan_chunks() if c.note_id in src_ids),
        "links": sum(1 for link in source.scan_links() if link.src not in kept),
    }
    got = {
        "notes": sum(1 for _ in target.scan_notes()),
        "chunks": sum(1 for _ in target.scan_chunks()),
        "links": sum(1 for _ in target.scan_links()),
    }
    done.notes, done.chunks, done.links = got["notes"], got["chunks"], got["links"]
    for key, value in want.items():
        if got[key] != value:
            done.mismatches.append(f"{key}: {got[key]} in the target, {value} in the source")
    if not identity:
        return
    before = _vectors_by_hash(source, identity, kept)
    after = _vectors_by_hash(target, identity, set())
    missing = set(before) - set(after)
    if missing:
        done.mismatches.append(f"{len(missing)} vectors missing in the target")
    shared = sorted(set(before) & set(after))
    sample = random.Random(seed).sample(shared, min(SAMPLE, len(shared)))
    done.sampled = len(sample)
    differ = [h for h in sample if before[h] != after[h]]
    if differ:
        done.mismatches.append(f"{len(differ)} of {len(sample)} sampled vectors differ")


def _vectors_by_hash(backend: IndexBackend, identity: str, skip: set[str]) -> dict[str, bytes]:
    table = backend.vectors_of(identity)
    chunks = backend.chunks_by_id(int(c) for c in table.chunk_ids)
    notes = backend.notes_by_id({int(n) for n in table.note_ids})
    out: dict[str, bytes] = {}
    for row, chunk_id, note_id in zip(table.matrix, table.chunk_ids, table.note_ids, strict=True):
        chunk, note = chunks.get(int(chunk_id)), notes.get(int(note_id))
        if chunk is None or note is None or note.path in skip:
            continue
        out.setdefault(chunk.hash, row.tobytes())
    return out


__all__ = ["SAMPLE", "Migrated", "migrate_index"]
