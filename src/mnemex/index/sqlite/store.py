"""The embedded index: one SQLite file under ``.mnemex/`` with FTS5 for keywords.

Vectors are float32 blobs keyed by (text hash, embedder identity), so an
unchanged chunk is never embedded twice and a moved note keeps its vectors.
Vector search is brute force over a matrix held in memory, reloaded only when
the index's generation counter moves: at 100,000 chunks x 384 dimensions that
is one 150 MB matrix product of a few milliseconds, exact, with no ANN to tune.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Collection, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from mnemex.errors import IndexUnavailable
from mnemex.index.backend import (
    SCHEMA_VERSION,
    Backlink,
    ChunkHit,
    ChunkRecord,
    ChunkRow,
    IndexStats,
    LinkRecord,
    LinkRow,
    NoteDetail,
    NoteRecord,
    NoteRow,
    NoteState,
    Scope,
    UnresolvedLink,
    VectorTable,
)
from mnemex.index.sqlite.sidecar import VectorSidecar

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS notes (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    kind TEXT NOT NULL,
    domain TEXT,
    project TEXT,
    type TEXT,
    status TEXT,
    date TEXT,
    importance REAL,
    embed_title TEXT,
    hash TEXT NOT NULL,
    mtime_ns INTEGER NOT NULL,
    size INTEGER NOT NULL,
    aliases TEXT NOT NULL DEFAULT '[]',
    frontmatter TEXT NOT NULL DEFAULT '{}',
    warnings TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX IF NOT EXISTS notes_hash ON notes(hash);
CREATE TABLE IF NOT EXISTS chunks (
    id INTEGER PRIMARY KEY,
    note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
    ord INTEGER NOT NULL,
    heading TEXT NOT NULL,
    text TEXT NOT NULL,
    line INTEGER NOT NULL,
    hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_note ON chunks(note_id);
CREATE INDEX IF NOT EXISTS chunks_hash ON chunks(hash);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(
    title, heading, text, tokenize = 'porter unicode61 remove_diacritics 2'
);
-- a rowid table: blobs live outside the (hash, embedder) index, so probing the
-- index never reads vector pages (3x faster than WITHOUT ROWID at 100k vectors)
CREATE TABLE IF NOT EXISTS vectors (
    id INTEGER PRIMARY KEY,
    hash TEXT NOT NULL,
    embedder TEXT NOT NULL,
    vec BLOB NOT NULL,
    UNIQUE (hash, embedder)
);
CREATE TABLE IF NOT EXISTS links (
    id INTEGER PRIMARY KEY,
    src_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
    target TEXT NOT NULL,
    heading TEXT,
    alias TEXT,
    embed INTEGER NOT NULL,
    line INTEGER NOT NULL,
    dst_path TEXT
);
CREATE INDEX IF NOT EXISTS links_src ON links(src_id);
CREATE INDEX IF NOT EXISTS links_dst ON links(dst_path);
CREATE TABLE IF NOT EXISTS tags (
    note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
    tag TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tags_note ON tags(note_id);
CREATE INDEX IF NOT EXISTS tags_tag ON tags(tag);
CREATE TABLE IF NOT EXISTS problems (path TEXT NOT NULL, reason TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS problems_path ON problems(path);
"""

# A note's date: its own, else its file's mtime (UTC, ISO 8601, seconds).
NOTE_DATE = (
    "coalesce({a}.date, strftime('%Y-%m-%dT%H:%M:%S+00:00', {a}.mtime_ns / 1e9, 'unixepoch'))"
)

# The columns of a NoteRow, in its order.
_NOTE_COLUMNS = (
    "id, path, title, kind, domain, project, type, status, importance, hash, mtime_ns, size, "
    + NOTE_DATE.format(a="notes")
)

# bm25 column weights: title, heading, text (chosen with `mnemex eval`, see docs/benchmarks.md)
BM25_WEIGHTS = (2.0, 1.0, 1.0)


def _note_detail(row: tuple[Any, ...], tags: list[str]) -> NoteDetail:
    """A note from a row of ``_NOTE_COLUMNS`` followed by its three JSON columns."""
    (nid, path, title, kind, domain, project, type_, status, importance, digest, mtime, size, date,
     aliases, frontmatter, warnings) = row  # fmt: skip
    return NoteDetail(
        nid, path, title, kind, domain, project, type_, status, importance, digest, mtime, size,
        date, json.loads(aliases), json.loads(frontmatter), json.loads(warnings), tags,
    )  # fmt: skip


#: The index file's name in the vault's machine-local folder (``.mnemex/``).
INDEX_FILE = "index.sqlite"


class SQLiteIndex:
    """The SQLite implementation of :class:`~mnemex.index.backend.IndexBackend`."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        try:
            self._db = sqlite3.connect(
                self.path, check_same_thread=False, isolation_level=None, timeout=30
            )
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.execute("PRAGMA temp_store=MEMORY")
            self._db.execute("PRAGMA cache_size=-65536")
            self._ensure_schema()
        except sqlite3.DatabaseError as exc:
            raise IndexUnavailable(
                f"index {self.path} is unreadable ({exc}); delete it and run `mnemex index rebuild`"
            ) from exc
        self._vectors: dict[str, VectorTable] = {}
        self._row_hashes: dict[str, list[str]] = {}  # per embedder: the hash of each row
        self._scope_cache: dict[tuple[Scope, int], set[int]] = {}
        self._sidecar = VectorSidecar(self.path.parent / f"{self.path.stem}.vectors")

    def _ensure_schema(self) -> None:
        row = None
        with contextlib.suppress(sqlite3.OperationalError):  # a new file has no meta table
            row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is not None and int(row[0]) != SCHEMA_VERSION:
            self._drop_all()
        self._db.executescript(_SCHEMA)
        self._db.execute(
            "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
        )
        self._db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('generation', '0')")

    def _drop_all(self) -> None:
        for table in (
            "chunks_fts",
            "tags",
            "links",
            "vectors",
            "chunks",
            "notes",
            "problems",
            "meta",
        ):
            self._db.execute(f"DROP TABLE IF EXISTS {table}")

    def reset(self) -> None:
        """Empty the index (schema kept)."""
        with self._lock:
            self._db.execute("BEGIN")
            self._drop_all()
            self._db.execute("COMMIT")
            self._ensure_schema()
            self._vectors.clear()
            self._row_hashes.clear()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- meta ----------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    def generation(self) -> int:
        return int(self.get_meta("generation") or 0)

    def _bump(self) -> None:
        self._db.execute(
            "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key='generation'"
        )

    # -- notes ---------------------------------------------------------------

    def note_states(self) -> dict[str, NoteState]:
        rows = self._db.execute("SELECT id, path, mtime_ns, size, hash FROM notes")
        return {r[1]: NoteState(r[0], r[2], r[3], r[4]) for r in rows}

    def note_paths(self) -> list[str]:
        return [r[0] for r in self._db.execute("SELECT path FROM notes ORDER BY path")]

    def _note_params(self, note: NoteRecord) -> tuple[Any, ...]:
        return (
            note.title,
            note.kind,
            note.domain,
            note.project,
            note.type,
            note.status,
            note.date,
            note.importance,
            note.embed_title,
            note.hash,
            note.mtime_ns,
            note.size,
            json.dumps(note.aliases, ensure_ascii=False),
            json.dumps(note.frontmatter, ensure_ascii=False, default=str),
            json.dumps(note.warnings, ensure_ascii=False),
        )

    def upsert_note(
        self, note: NoteRecord, chunks: Sequence[ChunkRecord], links: Sequence[LinkRecord]
    ) -> int:
        with self._lock:
            db = self._db
            db.execute("BEGIN")
            try:
                row = db.execute("SELECT id FROM notes WHERE path=?", (note.path,)).fetchone()
                if row is None:
                    cur = db.execute(
                        "INSERT INTO notes(title, kind, domain, project, type, status, date,"
                        " importance, embed_title, hash, mtime_ns, size, aliases, frontmatter,"
                        " warnings, path) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                        (*self._note_params(note), note.path),
                    )
                    note_id = int(cur.lastrowid or 0)
                else:
                    note_id = int(row[0])
                    db.execute(
                        "UPDATE notes SET title=?, kind=?, domain=?, project=?, type=?, status=?,"
                        " date=?, importance=?, embed_title=?, hash=?, mtime_ns=?, size=?,"
                        " aliases=?, frontmatter=?, warnings=? WHERE id=?",
                        (*self._note_params(note), note_id),
                    )
                    self._delete_children(note_id)
                for chunk in chunks:
                    cur = db.execute(
                        "INSERT INTO chunks(note_id, ord, heading, text, line, hash)"
                        " VALUES (?,?,?,?,?,?)",
                        (note_id, chunk.ord, chunk.heading, chunk.text, chunk.line, chunk.hash),
                    )
                    db.execute(
                        "INSERT INTO chunks_fts(rowid, title, heading, text) VALUES (?,?,?,?)",
                        (cur.lastrowid, note.title, chunk.heading, chunk.text),
                    )
                db.executemany(
                    "INSERT INTO links(src_id, target, heading, alias, embed, line, dst_path)"
                    " VALUES (?,?,?,?,?,?,?)",
                    [
                        (
                            note_id,
                            lk.target,
                            lk.heading,
                            lk.alias,
                            int(lk.embed),
                            lk.line,
                            lk.resolved,
                        )
                        for lk in links
                    ],
                )
                db.executemany(
                    "INSERT INTO tags(note_id, tag) VALUES (?, ?)",
                    [(note_id, tag) for tag in note.tags],
                )
                self._bump()
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        return note_id

    def _delete_children(self, note_id: int) -> None:
        db = self._db
        db.execute(
            "DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE note_id=?)",
            (note_id,),
        )
        db.execute("DELETE FROM chunks WHERE note_id=?", (note_id,))
        db.execute("DELETE FROM links WHERE src_id=?", (note_id,))
        db.execute("DELETE FROM tags WHERE note_id=?", (note_id,))

    def touch_note(self, path: str, mtime_ns: int, size: int) -> None:
        with self._lock:
            self._db.execute(
                "UPDATE notes SET mtime_ns=?, size=? WHERE path=?", (mtime_ns, size, path)
            )

    def delete_notes(self, paths: Iterable[str]) -> None:
        with self._lock:
            self._db.execute("BEGIN")
            for path in paths:
                row = self._db.execute("SELECT id FROM notes WHERE path=?", (path,)).fetchone()
                if row is None:
                    continue
                self._delete_children(int(row[0]))
                self._db.execute("DELETE FROM notes WHERE id=?", (row[0],))
            self._bump()
            self._db.execute("COMMIT")

    # -- links ---------------------------------------------------------------

    def all_links(self) -> list[tuple[int, str, str | None]]:
        """``(link id, target, source path)`` for every link, for re-resolution."""
        rows = self._db.execute(
            "SELECT l.id, l.target, n.path FROM links l JOIN notes n ON n.id = l.src_id"
        )
        return [(r[0], r[1], r[2]) for r in rows]

    def set_link_targets(self, updates: Iterable[tuple[int, str | None]]) -> None:
        with self._lock:
            self._db.execute("BEGIN")
            self._db.executemany(
                "UPDATE links SET dst_path=? WHERE id=? AND dst_path IS NOT ?",
                [(dst, lid, dst) for lid, dst in updates],
            )
            self._db.execute("COMMIT")

    def links_from(self, note_id: int) -> list[LinkRow]:
        rows = self._db.execute(
            "SELECT n.path, l.target, l.heading, l.alias, l.embed, l.line, l.dst_path"
            " FROM links l JOIN notes n ON n.id = l.src_id WHERE l.src_id=? ORDER BY l.line, l.id",
            (note_id,),
        )
        return [LinkRow(r[0], r[1], r[2], r[3], bool(r[4]), r[5], r[6]) for r in rows]

    def links_to(self, note_id: int) -> list[Backlink]:
        rows = self._db.execute(
            "SELECT n.path, n.title, l.target, l.heading, l.alias, l.embed, l.line"
            " FROM links l JOIN notes n ON n.id = l.src_id"
            " WHERE l.dst_path = (SELECT path FROM notes WHERE id=?) ORDER BY n.path, l.line",
            (note_id,),
        )
        return [Backlink(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6]) for r in rows]

    def unresolved_links(self, limit: int = 100) -> list[UnresolvedLink]:
        """Links that point at no note: source path, line and the target as written."""
        rows = self._db.execute(
            "SELECT n.path, l.line, l.target, l.embed FROM links l JOIN notes n"
            " ON n.id = l.src_id WHERE l.dst_path IS NULL ORDER BY n.path, l.line LIMIT ?",
            (limit,),
        )
        return [UnresolvedLink(r[0], r[1], r[2], bool(r[3])) for r in rows]

    def edges(self) -> list[tuple[int, int]]:
        """Resolved links as (source id, target id), self-links and duplicates dropped."""
        rows = self._db.execute(
            "SELECT DISTINCT l.src_id, d.id FROM links l JOIN notes d ON d.path = l.dst_path"
            " WHERE l.src_id != d.id"
        )
        return [(r[0], r[1]) for r in rows]

    # -- vectors -------------------------------------------------------------

    def chunks_missing_vectors(
        self, embedder: str, among: Iterable[str] | None = None
    ) -> list[tuple[str, str | None, str, str]]:
        """``(hash, embed title, heading, text)`` of chunk texts ``embedder`` has no vector
        for; only ``among`` these hashes when given (the chunks a sync just wrote)."""
        if among is None:
            missing = [
                r[0]
                for r in self._db.execute(
                    "SELECT DISTINCT c.hash FROM chunks c WHERE NOT EXISTS"
                    " (SELECT 1 FROM vectors v WHERE v.hash = c.hash AND v.embedder = ?)",
                    (embedder,),
                )
            ]
        else:
            missing = [
                h
                for h in sorted(set(among))
                if self._db.execute(
                    "SELECT 1 FROM vectors WHERE hash = ? AND embedder = ?", (h, embedder)
                ).fetchone()
                is None
            ]
        out: list[tuple[str, str | None, str, str]] = []
        for start in range(0, len(missing), 500):
            part = missing[start : start + 500]
            rows = self._db.execute(
                "SELECT c.hash, n.embed_title, c.heading, c.text FROM chunks c"
                " JOIN notes n ON n.id = c.note_id"
                f" WHERE c.hash IN ({','.join('?' * len(part))}) GROUP BY c.hash",
                part,
            )
            out += [(r[0], r[1], r[2], r[3]) for r in rows]
        return out

    def store_vectors(self, embedder: str, items: Sequence[tuple[str, bytes]]) -> None:
        with self._lock:
            self._db.execute("BEGIN")
            self._db.executemany(
                "INSERT INTO vectors(hash, embedder, vec) VALUES (?, ?, ?)"
                " ON CONFLICT (hash, embedder) DO UPDATE SET vec = excluded.vec",
                [(h, embedder, v) for h, v in items],
            )
            self._bump()
            self._db.execute("COMMIT")

    def drop_vectors_except(self, embedder: str) -> int:
        with self._lock:
            cur = self._db.execute("DELETE FROM vectors WHERE embedder != ?", (embedder,))
            return cur.rowcount

    def prune_vectors(self, candidates: Iterable[str] | None = None) -> int:
        """Drop vectors no chunk uses any more (only among ``candidates`` when given)."""
        with self._lock:
            if candidates is None:
                cur = self._db.execute(
                    "DELETE FROM vectors WHERE hash NOT IN (SELECT hash FROM chunks)"
                )
                return cur.rowcount
            removed = 0
            self._db.execute("BEGIN")
            for digest in set(candidates):
                cur = self._db.execute(
                    "DELETE FROM vectors WHERE hash = ? AND NOT EXISTS"
                    " (SELECT 1 FROM chunks WHERE hash = ?)",
                    (digest, digest),
                )
                removed += cur.rowcount
            self._db.execute("COMMIT")
            return removed

    def chunk_hashes(self, paths: Iterable[str]) -> set[str]:
        """The chunk hashes of the notes at ``paths`` (before they are replaced or removed)."""
        found: set[str] = set()
        for path in paths:
            found.update(
                r[0]
                for r in self._db.execute(
                    "SELECT c.hash FROM chunks c JOIN notes n ON n.id = c.note_id WHERE n.path = ?",
                    (path,),
                )
            )
        return found

    def _vector_table(self, embedder: str) -> VectorTable:
        """Every vector of ``embedder`` with its chunk and note ids, as one matrix.

        Kept in memory per generation. When the index changed, a process that had a
        table refreshes it (only new vectors are read from SQLite); a fresh process
        first tries the sidecar files the last full load wrote (``np.load`` with
        a plain ``np.load``: ~0.1 s instead of ~1 s for a one-shot CLI search).
        """
        with self._lock:
            self._db.execute("BEGIN")  # one snapshot for the generation and the rows
            try:
                gen = self.generation()
                cached = self._vectors.get(embedder)
                if cached is not None and cached.generation == gen:
                    return cached
                table = None if cached is not None else self._sidecar.load(embedder, gen)
                if table is None:
                    table = self._read_vectors(embedder, gen, previous=cached)
                    if cached is None:
                        self._sidecar.save(embedder, table, self._row_hashes[embedder])
                elif embedder not in self._row_hashes:
                    self._row_hashes[embedder] = self._sidecar.hashes(embedder, gen)
            finally:
                self._db.execute("COMMIT")
            self._vectors = {embedder: table}
            return table

    def vector_count(self, embedder: str) -> int:
        return len(self._vector_table(embedder).chunk_ids)

    def nearest(
        self,
        embedder: str,
        query: npt.NDArray[np.float32],
        k: int,
        among: Collection[int] | None = None,
    ) -> list[ChunkHit]:
        """The ``k`` chunks most similar to ``query`` (cosine), of the notes ``among`` if given.

        Brute force: one matrix product over the whole table, then a partial sort.
        """
        table = self._vector_table(embedder)
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

    def vectors_of(self, embedder: str, notes: Collection[int] | None = None) -> VectorTable:
        table = self._vector_table(embedder)
        if notes is None:
            return table
        keep = np.isin(table.note_ids, np.fromiter(notes, dtype=np.int64, count=len(notes)))
        return VectorTable(
            table.chunk_ids[keep], table.note_ids[keep], table.matrix[keep], table.generation
        )

    def _read_vectors(self, embedder: str, gen: int, previous: VectorTable | None) -> VectorTable:
        rows = self._db.execute("SELECT id, note_id, hash FROM chunks ORDER BY id").fetchall()
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
                for r in self._db.execute(
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

    # -- search ----------------------------------------------------------------

    def _scope_sql(self, scope: Scope, alias: str = "n") -> tuple[str, list[Any]]:
        clauses: list[str] = []
        params: list[Any] = []

        def any_of(column: str, values: Sequence[str]) -> None:
            clauses.append(f"{alias}.{column} IN ({','.join('?' * len(values))})")
            params.extend(values)

        if scope.kinds:
            any_of("kind", scope.kinds)
        if scope.domains:
            any_of("domain", scope.domains)
        if scope.projects:
            any_of("project", scope.projects)
        if scope.folders:
            parts = []
            for folder in scope.folders:
                prefix = folder.strip("/")
                parts.append(f"({alias}.path = ? OR {alias}.path LIKE ? ESCAPE '\\')")
                escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
                params.extend([prefix, escaped + "/%"])
            clauses.append("(" + " OR ".join(parts) + ")")
        for tag in scope.tags:
            clauses.append(
                f"EXISTS (SELECT 1 FROM tags t WHERE t.note_id = {alias}.id"
                " AND (lower(t.tag) = lower(?) OR lower(t.tag) LIKE lower(?) || '/%'))"
            )
            params.extend([tag.lstrip("#"), tag.lstrip("#")])
        date = NOTE_DATE.format(a=alias)
        if scope.since:
            clauses.append(f"{date} >= ?")
            params.append(scope.since)
        if scope.until:
            clauses.append(f"substr({date}, 1, ?) <= ?")
            params.extend([len(scope.until), scope.until])
        if scope.exclude_private:
            marks = ",".join("?" * len(scope.exclude_private))
            clauses.append(
                f"coalesce({alias}.domain, '') NOT IN ({marks})"
                f" AND coalesce({alias}.project, '') NOT IN ({marks})"
            )
            params.extend([*scope.exclude_private, *scope.exclude_private])
        return (" AND ".join(clauses) or "1"), params

    def keyword_search(self, terms: Sequence[str], scope: Scope, limit: int) -> list[ChunkHit]:
        if not terms:
            return []
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        where, params = self._scope_sql(scope)
        weights = ", ".join(str(w) for w in BM25_WEIGHTS)
        # Rank inside FTS5 first and join only the best rows: joining every match
        # before ORDER BY costs more than the ranking. A narrow scope can leave too
        # few of those rows; then the exact query runs.
        ranked = (
            f"SELECT rowid, bm25(chunks_fts, {weights}) AS s FROM chunks_fts"
            " WHERE chunks_fts MATCH ? ORDER BY s LIMIT ?"
        )
        fast = (
            f"SELECT f.rowid, c.note_id, f.s FROM ({ranked}) f JOIN chunks c ON c.id = f.rowid"
            f" JOIN notes n ON n.id = c.note_id WHERE {where} ORDER BY f.s LIMIT ?"
        )
        exact = (
            f"SELECT f.rowid, c.note_id, bm25(chunks_fts, {weights}) AS s FROM chunks_fts f"
            " JOIN chunks c ON c.id = f.rowid JOIN notes n ON n.id = c.note_id"
            f" WHERE chunks_fts MATCH ? AND {where} ORDER BY s LIMIT ?"
        )
        prelimit = limit * 4
        try:
            rows = self._db.execute(fast, (match, prelimit, *params, limit)).fetchall()
            if len(rows) < limit:
                total = self._db.execute(
                    f"SELECT count(*) FROM (SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ?"
                    f" LIMIT {prelimit + 1})",
                    (match,),
                ).fetchone()[0]
                if total > prelimit:
                    rows = self._db.execute(exact, (match, *params, limit)).fetchall()
        except sqlite3.OperationalError as exc:  # pragma: no cover - terms are quoted
            raise IndexUnavailable(f"keyword search failed: {exc}") from exc
        return [ChunkHit(r[0], r[1], -float(r[2])) for r in rows]

    def notes_in_scope(self, scope: Scope) -> set[int] | None:
        """Ids of the notes a scope allows, or None for "all of them".

        Cached per generation: a server asks the same scope again and again, and at
        10,000 notes building the set costs several milliseconds of every search.
        """
        if scope.is_empty:
            return None
        gen = self.generation()
        key = (scope, gen)
        cached = self._scope_cache.get(key)
        if cached is not None:
            return cached
        where, params = self._scope_sql(scope)
        ids = {r[0] for r in self._db.execute(f"SELECT n.id FROM notes n WHERE {where}", params)}
        if len(self._scope_cache) >= 64 or any(g != gen for _, g in self._scope_cache):
            self._scope_cache.clear()
        self._scope_cache[key] = ids
        return ids

    def notes_by_id(self, ids: Iterable[int]) -> dict[int, NoteRow]:
        wanted = list(set(ids))
        out: dict[int, NoteRow] = {}
        for start in range(0, len(wanted), 500):
            part = wanted[start : start + 500]
            rows = self._db.execute(
                f"SELECT {_NOTE_COLUMNS} FROM notes WHERE id IN ({','.join('?' * len(part))})",
                part,
            )
            out.update({r[0]: NoteRow(*r) for r in rows})
        return out

    def chunks_by_id(self, ids: Iterable[int]) -> dict[int, ChunkRow]:
        wanted = list(set(ids))
        out: dict[int, ChunkRow] = {}
        for start in range(0, len(wanted), 500):
            part = wanted[start : start + 500]
            rows = self._db.execute(
                "SELECT id, note_id, ord, heading, text, line FROM chunks"
                f" WHERE id IN ({','.join('?' * len(part))})",
                part,
            )
            out.update({r[0]: ChunkRow(*r) for r in rows})
        return out

    def paths_with_field(self, key: str, value: str, kind: str | None = None) -> list[str]:
        """Paths of the notes whose frontmatter ``key`` equals ``value`` (of ``kind`` if given)."""
        if not key.replace("_", "").isalnum():
            raise ValueError(f"frontmatter key {key!r} is not a plain name")
        sql = "SELECT path FROM notes WHERE json_extract(frontmatter, ?) = ?"
        params: list[Any] = [f"$.{key}", value]
        if kind is not None:
            sql += " AND kind = ?"
            params.append(kind)
        return [r[0] for r in self._db.execute(sql + " ORDER BY path", params)]

    def note_by_path(self, path: str) -> NoteDetail | None:
        row = self._db.execute(
            f"SELECT {_NOTE_COLUMNS}, aliases, frontmatter, warnings FROM notes WHERE path=?",
            (path,),
        ).fetchone()
        if row is None:
            return None
        tags = [
            r[0]
            for r in self._db.execute(
                "SELECT tag FROM tags WHERE note_id=? ORDER BY rowid", (row[0],)
            )
        ]
        return _note_detail(tuple(row), tags)

    # -- problems, stats -----------------------------------------------------

    def set_problems(self, path: str, reasons: Sequence[str]) -> None:
        with self._lock:
            self._db.execute("DELETE FROM problems WHERE path=?", (path,))
            self._db.executemany(
                "INSERT INTO problems(path, reason) VALUES (?, ?)", [(path, r) for r in reasons]
            )

    def clear_problems(self, paths: Iterable[str]) -> None:
        with self._lock:
            self._db.executemany("DELETE FROM problems WHERE path=?", [(p,) for p in paths])

    def problems(self) -> list[tuple[str, str]]:
        return [
            (r[0], r[1])
            for r in self._db.execute("SELECT path, reason FROM problems ORDER BY path, rowid")
        ]

    def stats(self) -> IndexStats:
        db = self._db

        def count(sql: str) -> int:
            return int(db.execute(sql).fetchone()[0])

        by_kind = {
            r[0]: r[1]
            for r in db.execute("SELECT kind, count(*) FROM notes GROUP BY kind ORDER BY kind")
        }
        by_embedder = {
            r[0]: r[1]
            for r in db.execute("SELECT embedder, count(*) FROM vectors GROUP BY embedder")
        }
        return IndexStats(
            notes=count("SELECT count(*) FROM notes"),
            chunks=count("SELECT count(*) FROM chunks"),
            links=count("SELECT count(*) FROM links"),
            unresolved_links=count("SELECT count(*) FROM links WHERE dst_path IS NULL"),
            tags=count("SELECT count(DISTINCT lower(tag)) FROM tags"),
            vectors=by_embedder,
            notes_by_kind=by_kind,
            problems=count("SELECT count(*) FROM problems"),
            embedder=self.get_meta("embedder"),
            last_sync=self.get_meta("last_sync"),
            path=str(self.path),
            bytes=self.path.stat().st_size if self.path.exists() else 0,
        )

    # -- bulk reads --------------------------------------------------------------

    def _tuples(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """All rows of ``sql`` as plain tuples: over a whole table, several times faster
        than the connection's ``sqlite3.Row``s."""
        cur = self._db.cursor()
        cur.row_factory = None
        try:
            return cur.execute(sql, params).fetchall()
        finally:
            cur.close()

    def scan_notes(self) -> Iterator[NoteDetail]:
        """Every note with its details, read in two queries (a health scan reads them all)."""
        tags: dict[int, list[str]] = {}
        for note_id, tag in self._tuples("SELECT note_id, tag FROM tags ORDER BY rowid"):
            tags.setdefault(note_id, []).append(tag)
        rows = self._tuples(f"SELECT {_NOTE_COLUMNS}, aliases, frontmatter, warnings FROM notes")
        for row in rows:
            yield _note_detail(row, tags.get(row[0], []))

    def scan_links(self) -> Iterator[LinkRow]:
        rows = self._tuples(
            "SELECT n.path, l.target, l.heading, l.alias, l.embed, l.line, l.dst_path FROM links l"
            " JOIN notes n ON n.id = l.src_id"
        )
        for src, target, heading, alias, embed, line, dst in rows:
            yield LinkRow(src, target, heading, alias, bool(embed), line, dst)

    def scan_chunks(self, text_prefix: str = "") -> Iterator[ChunkRow]:
        """The chunks whose text, leading spaces left out, starts with ``text_prefix``."""
        rows = self._tuples(
            "SELECT id, note_id, ord, heading, text, line FROM chunks"
            " WHERE substr(ltrim(text), 1, ?) = ?",
            (len(text_prefix), text_prefix),
        )
        for row in rows:
            yield ChunkRow(*row)

    def tag_counts(self, scope: Scope | None = None) -> list[tuple[str, int]]:
        where, params = self._scope_sql(scope or Scope())
        rows = self._db.execute(
            "SELECT min(t.tag), count(DISTINCT t.note_id) AS c FROM tags t"
            f" JOIN notes n ON n.id = t.note_id WHERE {where}"
            " GROUP BY lower(t.tag) ORDER BY c DESC, lower(t.tag)",
            params,
        )
        return [(r[0], r[1]) for r in rows]


__all__ = ["BM25_WEIGHTS", "INDEX_FILE", "SQLiteIndex"]
