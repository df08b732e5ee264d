"""The vectors of the SQLite index as one matrix in memory, and ranking by similarity.

Vectors are float32 blobs keyed by (text hash, embedder identity), so an
unchanged chunk is never embedded twice and a moved note keeps its vectors.
Nearest-neighbour search is brute force over a matrix held in memory, reloaded
only when the index's generation counter moves: at 100,000 chunks x 384
dimensions that is one 150 MB matrix product of a few milliseconds, exact, with
no ANN to tune.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection

import numpy as np
import numpy.typing as npt

from mnemex.index.backend import ChunkHit, VectorTable
from mnemex.index.sqlite.sidecar import VectorSidecar


class VectorCache:
    """The vector matrix of the embedder last asked for, kept for one index generation."""

    def __init__(self, sidecar: VectorSidecar) -> None:
        self.sidecar = sidecar
        self._tables: dict[str, VectorTable] = {}
        self._row_hashes: dict[str, list[str]] = {}  # per embedder: the hash of each row

    def clear(self) -> None:
        self._tables.clear()
        self._row_hashes.clear()

    def table(self, db: sqlite3.Connection, embedder: str, gen: int) -> VectorTable:
        """Every vector of ``embedder`` at generation ``gen``, with its chunk and note ids.

        Call it inside a transaction, so the generation and the rows agree. When the
        index changed, a process that had a table refreshes it (only new vectors are
        read from SQLite); a fresh process first tries the sidecar files the last full
        load wrote (a plain ``np.load``: ~0.1 s instead of ~1 s for a one-shot CLI search).
        """
        cached = self._tables.get(embedder)
        if cached is not None and cached.generation == gen:
            return cached
        table = None if cached is not None else self.sidecar.load(embedder, gen)
        if table is None:
            table = self._read(db, embedder, gen, previous=cached)
            if cached is None:
                self.sidecar.save(embedder, table, self._row_hashes[embedder])
        elif embedder not in self._row_hashes:
            self._row_hashes[embedder] = self.sidecar.hashes(embedder, gen)
        self._tables = {embedder: table}
        return table

    def _read(
        self, db: sqlite3.Connection, embedder: str, gen: int, previous: VectorTable | None
    ) -> VectorTable:
        rows = db.execute("SELECT id, note_id, hash FROM chunks ORDER BY id").fetchall()
        hashes = [r[2] for r in rows]
        old_rows: dict[str, int] = {}
        if previous is not None:
            old_rows = {h: i for i, h in enumerate(self._row_hashes.get(embedder, []))}
        # Only vectors the previous table lacks are read from SQLite; a chunk whose
        # text has no vector yet (embedding still to come) is left out.
        wanted = sorted({h for h in hashes if h not in old_rows})
        fetched: dict[str, bytes] = {}
        for start in range(0, len(wanted), 900):
            part = wanted[start : start + 900]
            fetched.update(
                (r[0], r[1])
                for r in db.execute(
                    "SELECT hash, vec FROM vectors WHERE embedder = ?"
                    f" AND hash IN ({','.join('?' * len(part))})",
                    (embedder, *part),
                )
            )
        keep = [i for i, h in enumerate(hashes) if h in old_rows or h in fetched]
        if len(keep) != len(rows):
            rows = [rows[i] for i in keep]
            hashes = [hashes[i] for i in keep]
        old_at = np.fromiter(
            (old_rows.get(h, -1) for h in hashes), dtype=np.int64, count=len(hashes)
        )
        reused = old_at >= 0
        if not hashes:
            matrix = np.zeros((0, 1), dtype=np.float32)
        elif previous is not None and reused.all():
            matrix = np.asarray(previous.matrix[old_at], dtype=np.float32)
        elif previous is None or not reused.any():
            blob = b"".join(fetched[h] for h in hashes)
            matrix = np.frombuffer(blob, dtype=np.float32).reshape(len(hashes), -1).copy()
        else:
            # one gather (new rows take row 0 for now), then the few new rows: a masked
            # assignment instead would copy the whole matrix twice
            matrix = previous.matrix[np.where(reused, old_at, 0)]
            for i in np.flatnonzero(~reused):
                matrix[i] = np.frombuffer(fetched[hashes[i]], dtype=np.float32)
        self._row_hashes[embedder] = hashes
        return VectorTable(
            np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows)),
            np.fromiter((r[1] for r in rows), dtype=np.int64, count=len(rows)),
            matrix,
            gen,
        )


def nearest(
    table: VectorTable,
    query: npt.NDArray[np.float32],
    k: int,
    among: Collection[int] | None = None,
) -> list[ChunkHit]:
    """The ``k`` rows of ``table`` most similar to ``query`` (cosine), of the notes ``among``.

    Brute force: one matrix product over the whole table, then a partial sort.
    """
    if not len(table.chunk_ids):
        return []
    scores = table.matrix @ query
    if among is not None:
        mask = np.isin(table.note_ids, np.fromiter(among, dtype=np.int64, count=len(among)))
        scores = np.where(mask, scores, -np.inf)
    n = min(k, int(np.isfinite(scores).sum()))
    if n <= 0:
        return []
    top = np.argpartition(-scores, n - 1)[:n]
    top = top[np.argsort(-scores[top], kind="stable")]
    return [
        ChunkHit(int(table.chunk_ids[i]), int(table.note_ids[i]), float(scores[i])) for i in top
    ]


def rows_of(
    table: VectorTable,
    notes: Collection[int] | None,
    chunks: Collection[int] | None = None,
) -> VectorTable:
    """The rows of ``table`` that belong to ``notes`` and are ``chunks`` (either None: any),
    in table order."""
    if notes is None and chunks is None:
        return table
    keep = np.ones(len(table.chunk_ids), dtype=bool)
    for ids, wanted in ((table.note_ids, notes), (table.chunk_ids, chunks)):
        if wanted is not None:
            keep &= np.isin(ids, np.fromiter(wanted, dtype=np.int64, count=len(wanted)))
    return VectorTable(
        table.chunk_ids[keep], table.note_ids[keep], table.matrix[keep], table.generation
    )


__all__ = ["VectorCache", "nearest", "rows_of"]
