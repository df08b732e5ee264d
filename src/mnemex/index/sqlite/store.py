"""The embedded index: one SQLite file under ``.mnemex/``, the default backend.

:class:`SQLiteIndex` implements :class:`~mnemex.index.backend.IndexBackend`: the
writes sync makes, the reads retrieval and health make. Its parts live beside it:
the tables in :mod:`~mnemex.index.sqlite.schema`, keyword search (FTS5, BM25) and
scopes as SQL in :mod:`~mnemex.index.sqlite.search`, the vector matrix and
nearest-neighbour ranking in :mod:`~mnemex.index.sqlite.vectors` (with its cache
file, :mod:`~mnemex.index.sqlite.sidecar`). Every write takes one lock and bumps
the index's generation, which the in-memory caches are keyed by.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from mnemex.errors import IndexUnavailable
from mnemex.index.backend import (
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
    TermStats,
    UnresolvedLink,
    VectorTable,
)
from mnemex.index.sqlite.schema import NOTE_DATE, connect, drop_all, ensure_schema
from mnemex.index.sqlite.search import keyword_search, scope_sql, term_stats
from mnemex.index.sqlite.sidecar import VectorSidecar
from mnemex.index.sqlite.vectors import VectorCache, nearest, rows_of

# The columns of a NoteRow, in its order.
_NOTE_COLUMNS = (
    "id, path, title, kind, domain, project, type, status, importance, hash, mtime_ns, size, "
    + NOTE_DATE.format(a="notes")
)


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
            self._db = connect(self.path)
            ensure_schema(self._db)
        except sqlite3.DatabaseError as exc:
            raise IndexUnavailable(
                f"index {self.path} is unreadable ({exc}); delete it and run `mnemex index rebuild`"
            ) from exc
        self._vectors = VectorCache(VectorSidecar(self.path.parent / f"{self.path.stem}.vectors"))
        self._scope_cache: dict[tuple[Scope, int], set[int]] = {}

    def reset(self) -> None:
        """Empty the index (schema kept). The generation goes on from where it was: caches
        here and the sidecar files key on it, and a rebuilt index that reached an old
        number again would be served the old vectors."""
        with self._lock:
            gen = self.generation()
            self._db.execute("BEGIN")
            drop_all(self._db)
            self._db.execute("COMMIT")
            ensure_schema(self._db)
            self.set_meta("generation", str(gen + 1))
            self._vectors.clear()
            self._scope_cache.clear()

    def writer(self, wait: float) -> AbstractContextManager[bool]:
        """Always held: this file is written from one vault, under its ``index`` lock."""
        return nullcontext(True)

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
            changed = self._db.executemany(
                "UPDATE links SET dst_path=? WHERE id=? AND dst_path IS NOT ?",
                [(dst, lid, dst) for lid, dst in updates],
            ).rowcount
            if changed > 0:  # the graph's edges moved: caches keyed on the generation go
                self._bump()
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
        with self._lock:
            self._db.execute("BEGIN")  # one snapshot for the generation and the rows
            try:
                return self._vectors.table(self._db, embedder, self.generation())
            finally:
                self._db.execute("COMMIT")

    def vector_count(self, embedder: str) -> int:
        return len(self._vector_table(embedder).chunk_ids)

    def nearest(
        self,
        embedder: str,
        query: npt.NDArray[np.float32],
        k: int,
        among: Collection[int] | None = None,
    ) -> list[ChunkHit]:
        return nearest(self._vector_table(embedder), query, k, among)

    def vectors_of(
        self,
        embedder: str,
        notes: Collection[int] | None = None,
        chunks: Collection[int] | None = None,
    ) -> VectorTable:
        table = self._vector_table(embedder)
        return rows_of(table, notes, chunks)

    # -- search ----------------------------------------------------------------

    def keyword_search(self, terms: Sequence[str], scope: Scope, limit: int) -> list[ChunkHit]:
        return keyword_search(self._db, terms, scope, limit)

    def term_stats(self, terms: Sequence[str], chunk_ids: Collection[int]) -> TermStats:
        return term_stats(self._db, terms, chunk_ids)

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
        where, params = scope_sql(scope)
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
                "SELECT id, note_id, ord, heading, text, line, hash FROM chunks"
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
            "SELECT id, note_id, ord, heading, text, line, hash FROM chunks"
            " WHERE substr(ltrim(text), 1, ?) = ?",
            (len(text_prefix), text_prefix),
        )
        for row in rows:
            yield ChunkRow(*row)

    def tag_counts(self, scope: Scope | None = None) -> list[tuple[str, int]]:
        where, params = scope_sql(scope or Scope())
        rows = self._db.execute(
            "SELECT min(t.tag), count(DISTINCT t.note_id) AS c FROM tags t"
            f" JOIN notes n ON n.id = t.note_id WHERE {where}"
            " GROUP BY lower(t.tag) ORDER BY c DESC, lower(t.tag)",
            params,
        )
        return [(r[0], r[1]) for r in rows]


__all__ = ["INDEX_FILE", "SQLiteIndex"]
