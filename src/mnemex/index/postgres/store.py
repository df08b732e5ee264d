"""The PostgreSQL index: one schema of a database, for vaults whose index lives on a server.

:class:`PostgresIndex` implements :class:`~mnemex.index.backend.IndexBackend` with the
semantics of :class:`~mnemex.index.sqlite.store.SQLiteIndex`; its parts live beside it:
the tables and connecting in :mod:`~mnemex.index.postgres.schema`, keyword search
(``tsvector``, ``ts_rank``) and scopes as SQL in :mod:`~mnemex.index.postgres.search`,
vectors and nearest neighbours (pgvector, HNSW) in :mod:`~mnemex.index.postgres.vectors`.

What differs from SQLite, besides ranking (see those modules):

- **Privacy.** A database may live beyond this machine, so the class says
  ``holds_private = False``: sync then keeps every private domain's and project's note out
  (:func:`mnemex.index.sync.kept_out`), and so does the backend itself:
  :meth:`PostgresIndex.upsert_note` writes nothing of a note whose path, domain or project
  is private (it returns 0, an id no note has), and :meth:`~PostgresIndex.set_problems`
  records no private path.
- **Transactions.** One connection, autocommit off; every method is one explicit
  transaction (a read too, so it sees one snapshot and leaves no transaction open on a
  shared server). A lock serialises the threads of one process, as SQLite's store does.
- **Errors.** A lost connection or a statement over ``statement_timeout_ms`` is an
  :class:`~mnemex.errors.IndexUnavailable`; no message carries the DSN's password. The
  next transaction after a lost connection connects again.
- **NUL characters**, which PostgreSQL text cannot hold, are stored as U+FFFD.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt
import psycopg
from pgvector import Vector
from pgvector.psycopg.vector import register_vector_info
from psycopg import sql
from psycopg.types import TypeInfo
from psycopg.types.json import Json

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
from mnemex.index.postgres import vectors
from mnemex.index.postgres.schema import (
    NOTE_DATE,
    connect,
    create_all,
    drop_all,
    ensure_schema,
    ensure_vector_extension,
    one_line,
    safe_dsn,
    scrub,
    sql_name,
)
from mnemex.index.postgres.search import (
    keyword_search,
    scope_sql,
    term_stats,
    ts_config,
    tsvector_sql,
    words,
)
from mnemex.index.postgres.vectors import drop_hnsw_except, nearest, vector_table
from mnemex.index.sync import kept_out

#: The columns of a NoteRow, in its order.
_NOTE_COLUMNS = (
    "id, path, title, kind, domain, project, type, status, importance, hash, mtime_ns, size, "
    + NOTE_DATE.format(a="notes")
)
_DETAIL_COLUMNS = f"{_NOTE_COLUMNS}, aliases, frontmatter, warnings"
#: How often (seconds) a sync waiting for another machine's asks again.
_WRITER_POLL = 0.2
#: Counts kept per generation before the cache starts again (one per term searched).
_MAX_COUNTS = 10_000
#: PostgreSQL's limit on the length of a schema name, in bytes.
_MAX_NAME = 63

Conn = psycopg.Connection[tuple[Any, ...]]


def _text(value: str) -> str:
    """``value`` as PostgreSQL text can hold it (no NUL characters)."""
    return value.replace("\x00", "\ufffd") if "\x00" in value else value


def _opt(value: str | None) -> str | None:
    return None if value is None else _text(value)


def _no_nul(value: Any) -> Any:
    """``value`` with NUL characters in its strings (keys too) made U+FFFD."""
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, dict):
        return {_no_nul(str(k)): _no_nul(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_no_nul(v) for v in value]
    return value


def _json(value: Any) -> Json:
    """``value`` for a ``json`` column, as SQLite's store writes its JSON text."""
    return Json(_no_nul(value), dumps=_dumps)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def _note_row(row: Sequence[Any]) -> NoteRow:
    (nid, path, title, kind, domain, project, type_, status, importance, digest, mtime, size,
     date) = row[:13]  # fmt: skip
    return NoteRow(
        int(nid), path, title, kind, domain, project, type_, status, importance, digest,
        int(mtime), int(size), date,
    )  # fmt: skip


def _note_detail(row: Sequence[Any], tags: list[str]) -> NoteDetail:
    """A note from a row of ``_DETAIL_COLUMNS`` (the json columns already loaded)."""
    base = _note_row(row)
    aliases, frontmatter, warnings = row[13:16]
    return NoteDetail(
        **vars(base), aliases=list(aliases), frontmatter=dict(frontmatter),
        warnings=list(warnings), tags=tags,
    )  # fmt: skip


class PostgresIndex:
    """The PostgreSQL implementation of :class:`~mnemex.index.backend.IndexBackend`, in the
    schema ``schema`` of the database ``dsn`` names (one schema per vault).

    Args:
        dsn: a libpq connection string or URL; its password, if any, is never shown.
        schema: the schema the index lives in, made when missing.
        private: the private domain and project names, whose notes are never written.
        connect_timeout: seconds to wait for the server, unless the DSN's own
            ``connect_timeout`` (or ``PGCONNECT_TIMEOUT``) says otherwise.
        statement_timeout_ms: the longest any one statement may run, unless the DSN's
            ``options`` (or ``PGOPTIONS``) set ``statement_timeout``.

    Raises:
        IndexUnavailable: the server cannot be reached, pgvector is missing, or the schema
            holds an index of a newer mnemex.
        ValueError: ``schema`` is empty or longer than PostgreSQL's 63 bytes.
    """

    #: The index may live beyond this machine: sync keeps private notes out of it.
    holds_private = False

    def __init__(
        self,
        dsn: str,
        schema: str,
        *,
        private: Collection[str] = ("private",),
        connect_timeout: float = 10.0,
        statement_timeout_ms: int = 30_000,
    ) -> None:
        if not schema or len(schema.encode()) > _MAX_NAME:
            raise ValueError(f"schema name {schema!r} must be 1 to {_MAX_NAME} bytes")
        self.schema = schema
        self.private = frozenset(private)
        self._dsn = dsn
        self.path = f"{safe_dsn(dsn)} (schema {schema})"
        self._lock = threading.RLock()
        self._connect_timeout = connect_timeout
        self._statement_timeout_ms = statement_timeout_ms
        self._config = ts_config(sql_name(schema))
        self._tsvector = tsvector_sql(self._config)
        self._scope_cache: dict[tuple[Scope, int], set[int]] = {}
        #: chunk, term and vector counts of one generation (:meth:`_counts_of`)
        self._counts: dict[str | None, int] = {}
        self._counts_gen = -1
        self._iterative_scan = False
        self._statement_timeout = f"{statement_timeout_ms}ms"
        self._versions: tuple[str, str] = ("?", "?")
        self._db: Conn = self._open()

    def _open(self) -> Conn:
        """A connection with the extension, the schema and the vector type ready.

        Raises:
            IndexUnavailable: the server cannot be reached, pgvector is missing, or the
                schema holds an index of a newer mnemex.
        """
        db: Conn = connect(
            self._dsn, self.schema, self._connect_timeout, self._statement_timeout_ms
        )
        try:
            vector_schema = ensure_vector_extension(db)
            ensure_schema(db, self.schema, vector_schema)
            with db.transaction():
                db.execute(
                    sql.SQL("SET search_path TO {}, {}").format(
                        sql.Identifier(self.schema), sql.Identifier(vector_schema)
                    )
                )
                info = TypeInfo.fetch(db, "vector")
                register_vector_info(db, info)
                row = db.execute(
                    "SELECT extversion FROM pg_extension WHERE extname = 'vector'"
                ).fetchone()
                timeout = db.execute("SHOW statement_timeout").fetchone()
                server = db.execute("SHOW server_version").fetchone()
        except IndexUnavailable:
            db.close()
            raise
        except psycopg.Error as exc:
            db.close()
            raise IndexUnavailable(self._message("cannot open", exc)) from None
        extversion = str(row[0] if row else "0")
        version = tuple(int(p) for p in extversion.split(".")[:2] if p.isdigit())
        self._iterative_scan = version >= (0, 8)
        self._statement_timeout = str(timeout[0]) if timeout else self._statement_timeout
        self._versions = (str(server[0]).split(" ")[0] if server else "?", extversion)
        return db

    def _message(self, what: str, exc: BaseException) -> str:
        return f"{what} the PostgreSQL index {self.path}: {one_line(scrub(str(exc), self._dsn))}"

    @contextmanager
    def _tx(self) -> Iterator[Conn]:
        """One transaction on the connection, under the lock; database errors that mean the
        index cannot be used become :class:`IndexUnavailable`.

        A connection the server dropped is opened again by the next transaction (so a
        long-running ``mnemex serve`` outlives a restart of the server); the one that saw
        it drop fails, and a sync stops there.
        """
        with self._lock:
            if self._db.broken:
                self._db.close()
                self._db = self._open()
                self._scope_cache.clear()
            try:
                with self._db.transaction():
                    yield self._db
            except psycopg.errors.QueryCanceled as exc:
                if "statement timeout" not in str(exc):
                    message = self._message("a statement was cancelled on", exc)
                    raise IndexUnavailable(message) from None
                raise IndexUnavailable(
                    f"a statement on the PostgreSQL index {self.path} ran over the statement "
                    f"timeout ({self._statement_timeout}) and was cancelled, so nothing of it "
                    "was written and the vault's files are untouched: is the server overloaded "
                    "or a table locked by another client? To wait longer, set "
                    "options='-c statement_timeout=<ms>' in the DSN"
                ) from None
            except psycopg.OperationalError as exc:
                if not self._db.closed:  # the server refused it; the connection is good
                    raise IndexUnavailable(
                        f"the PostgreSQL server refused a statement on the index {self.path}: "
                        f"{one_line(scrub(str(exc), self._dsn))}; nothing of it was written "
                        "and the vault's files are untouched"
                    ) from None
                raise IndexUnavailable(  # the connection dropped
                    self._message("lost", exc) + "; the vault's files are untouched and what "
                    "was written stays: once the server is back, the next command (or the next "
                    "call to a running `mnemex serve`) connects again, and `mnemex index` "
                    "carries on from where this stopped"
                ) from None

    def _private(self, path: str, note: NoteRecord | None = None) -> bool:
        """Whether ``path`` (a folder when it ends in ``/``, as sync reports a symlinked
        one), or the note's own domain or project, is private."""
        if path.endswith("/") and kept_out(path + "_", self.private):
            return True
        return kept_out(path, self.private, note)

    # -- the index's own state --------------------------------------------------

    def reset(self) -> None:
        """Empty the index (tables dropped and made again); the generation moves on."""
        with self._tx() as db:
            db.execute(
                "SELECT pg_advisory_xact_lock(hashtext(%s))", (f"mnemex index {self.schema}",)
            )
            gen = self._generation(db)
            vector_schema = db.execute(
                "SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'vector'"
            ).fetchone()
            drop_all(db, self.schema)
            create_all(
                db, self.schema, str(vector_schema[0]) if vector_schema else "public", gen + 1
            )
            self._scope_cache.clear()

    def describe(self) -> dict[str, str]:
        """Where the index lives and on what, for ``mnemex doctor`` (no password):
        ``backend``, ``server`` (PostgreSQL's version), ``pgvector`` (its version),
        ``schema``, ``where`` (the DSN without its password) and ``statement_timeout``.

        Raises:
            IndexUnavailable: the server cannot be reached.
        """
        with self._tx():  # connects again if the connection dropped
            pass
        return {
            "backend": "postgres",
            "server": self._versions[0],
            "pgvector": self._versions[1],
            "schema": self.schema,
            "where": safe_dsn(self._dsn),
            "statement_timeout": self._statement_timeout,
        }

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def get_meta(self, key: str) -> str | None:
        with self._tx() as db:
            row = db.execute("SELECT value FROM meta WHERE key = %s", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        """Keep ``value`` under ``key``. Sync setting ``vectors_complete`` (an embedding
        run finished) is when a large embedder's HNSW index is built, in bulk."""
        with self._tx() as db:
            db.execute(
                "INSERT INTO meta(key, value) VALUES (%s, %s)"
                " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                (key, _text(value)),
            )
        if key == "vectors_complete" and value:
            with self._tx() as db:
                vectors.build_hnsw(db, self.schema, value, vectors.HNSW_MIN_VECTORS)

    def generation(self) -> int:
        with self._tx() as db:
            return self._generation(db)

    @staticmethod
    def _generation(db: Conn) -> int:
        row = db.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        return int(row[0]) if row else 0

    @staticmethod
    def _bump(db: Conn) -> None:
        db.execute("UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'generation'")

    # -- notes --------------------------------------------------------------------

    def note_states(self) -> dict[str, NoteState]:
        with self._tx() as db:
            rows = db.execute("SELECT id, path, mtime_ns, size, hash FROM notes").fetchall()
        return {r[1]: NoteState(int(r[0]), int(r[2]), int(r[3]), r[4]) for r in rows}

    def note_paths(self) -> list[str]:
        with self._tx() as db:
            return [r[0] for r in db.execute("SELECT path FROM notes ORDER BY path")]

    def upsert_note(
        self, note: NoteRecord, chunks: Sequence[ChunkRecord], links: Sequence[LinkRecord]
    ) -> int:
        """Write the note with its chunks, links and tags; its id. A private note (by path,
        domain or project) is not written at all, and 0 is returned."""
        if self._private(note.path, note):
            return 0
        with self._tx() as db:
            row = db.execute(
                "INSERT INTO notes(path, title, kind, domain, project, type, status, date,"
                " importance, embed_title, hash, mtime_ns, size, aliases, frontmatter, warnings)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (path) DO UPDATE SET title = EXCLUDED.title, kind = EXCLUDED.kind,"
                " domain = EXCLUDED.domain, project = EXCLUDED.project, type = EXCLUDED.type,"
                " status = EXCLUDED.status, date = EXCLUDED.date,"
                " importance = EXCLUDED.importance, embed_title = EXCLUDED.embed_title,"
                " hash = EXCLUDED.hash, mtime_ns = EXCLUDED.mtime_ns, size = EXCLUDED.size,"
                " aliases = EXCLUDED.aliases, frontmatter = EXCLUDED.frontmatter,"
                " warnings = EXCLUDED.warnings"
                " RETURNING id",
                (
                    _text(note.path),
                    _text(note.title),
                    note.kind,
                    _opt(note.domain),
                    _opt(note.project),
                    _opt(note.type),
                    _opt(note.status),
                    _opt(note.date),
                    note.importance,
                    _opt(note.embed_title),
                    note.hash,
                    note.mtime_ns,
                    note.size,
                    _json(note.aliases),
                    _json(note.frontmatter),
                    _json(note.warnings),
                ),
            ).fetchone()
            assert row is not None
            note_id = int(row[0])
            self._delete_children(db, [note_id])
            title = words(note.title)
            with db.cursor() as cur:
                cur.executemany(
                    "INSERT INTO chunks(note_id, ord, heading, text, line, hash, tsv)"
                    f" VALUES (%s, %s, %s, %s, %s, %s, {self._tsvector})",
                    [
                        (
                            note_id,
                            c.ord,
                            _text(c.heading),
                            _text(c.text),
                            c.line,
                            c.hash,
                            title,
                            words(c.heading),
                            words(c.text),
                        )
                        for c in chunks
                    ],
                )
                cur.executemany(
                    "INSERT INTO links(src_id, target, heading, alias, embed, line, dst_path)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s)",
                    [
                        (
                            note_id,
                            _text(lk.target),
                            _opt(lk.heading),
                            _opt(lk.alias),
                            bool(lk.embed),
                            lk.line,
                            _opt(lk.resolved),
                        )
                        for lk in links
                    ],
                )
                cur.executemany(
                    "INSERT INTO tags(note_id, tag) VALUES (%s, %s)",
                    [(note_id, _text(tag)) for tag in note.tags],
                )
            self._bump(db)
        return note_id

    @staticmethod
    def _delete_children(db: Conn, note_ids: list[int]) -> None:
        for table, column in (("chunks", "note_id"), ("links", "src_id"), ("tags", "note_id")):
            db.execute(
                sql.SQL("DELETE FROM {} WHERE {} = ANY(%s)").format(
                    sql.Identifier(table), sql.Identifier(column)
                ),
                (note_ids,),
            )

    def touch_note(self, path: str, mtime_ns: int, size: int) -> None:
        with self._tx() as db:
            db.execute(
                "UPDATE notes SET mtime_ns = %s, size = %s WHERE path = %s",
                (mtime_ns, size, _text(path)),
            )

    def delete_notes(self, paths: Iterable[str]) -> None:
        wanted = [_text(p) for p in paths]
        with self._tx() as db:
            if wanted:  # chunks, links and tags go with them (ON DELETE CASCADE)
                db.execute("DELETE FROM notes WHERE path = ANY(%s)", (wanted,))
            self._bump(db)

    # -- links --------------------------------------------------------------------

    def all_links(self) -> list[tuple[int, str, str | None]]:
        with self._tx() as db:
            rows = db.execute(
                "SELECT l.id, l.target, n.path FROM links l JOIN notes n ON n.id = l.src_id"
            ).fetchall()
        return [(int(r[0]), r[1], r[2]) for r in rows]

    def set_link_targets(self, updates: Iterable[tuple[int, str | None]]) -> None:
        pairs = list(updates)
        if not pairs:
            return
        with self._tx() as db:
            cur = db.execute(
                "UPDATE links l SET dst_path = u.dst"
                " FROM unnest(%s::bigint[], %s::text[]) AS u(id, dst)"
                " WHERE l.id = u.id AND l.dst_path IS DISTINCT FROM u.dst",
                ([int(i) for i, _ in pairs], [_opt(d) for _, d in pairs]),
            )
            if cur.rowcount > 0:  # the graph's edges moved: caches keyed on the generation go
                self._bump(db)

    def links_from(self, note_id: int) -> list[LinkRow]:
        with self._tx() as db:
            rows = db.execute(
                "SELECT n.path, l.target, l.heading, l.alias, l.embed, l.line, l.dst_path"
                " FROM links l JOIN notes n ON n.id = l.src_id WHERE l.src_id = %s"
                " ORDER BY l.line, l.id",
                (note_id,),
            ).fetchall()
        return [LinkRow(r[0], r[1], r[2], r[3], bool(r[4]), int(r[5]), r[6]) for r in rows]

    def links_to(self, note_id: int) -> list[Backlink]:
        with self._tx() as db:
            rows = db.execute(
                "SELECT n.path, n.title, l.target, l.heading, l.alias, l.embed, l.line"
                " FROM links l JOIN notes n ON n.id = l.src_id"
                " WHERE l.dst_path = (SELECT path FROM notes WHERE id = %s)"
                " ORDER BY n.path, l.line, l.id",
                (note_id,),
            ).fetchall()
        return [Backlink(r[0], r[1], r[2], r[3], r[4], bool(r[5]), int(r[6])) for r in rows]

    def unresolved_links(self, limit: int = 100) -> list[UnresolvedLink]:
        with self._tx() as db:
            rows = db.execute(
                "SELECT n.path, l.line, l.target, l.embed FROM links l JOIN notes n"
                " ON n.id = l.src_id WHERE l.dst_path IS NULL ORDER BY n.path, l.line, l.id"
                " LIMIT %s",
                (limit,),
            ).fetchall()
        return [UnresolvedLink(r[0], int(r[1]), r[2], bool(r[3])) for r in rows]

    def edges(self) -> list[tuple[int, int]]:
        with self._tx() as db:
            rows = db.execute(
                "SELECT DISTINCT l.src_id, d.id FROM links l JOIN notes d ON d.path = l.dst_path"
                " WHERE l.src_id <> d.id"
            ).fetchall()
        return [(int(r[0]), int(r[1])) for r in rows]

    # -- vectors ------------------------------------------------------------------

    def chunks_missing_vectors(
        self, embedder: str, among: Iterable[str] | None = None
    ) -> list[tuple[str, str | None, str, str]]:
        params: list[Any] = [embedder]
        where = ""
        if among is not None:
            wanted = sorted(set(among))
            if not wanted:
                return []
            where = " AND c.hash = ANY(%s)"
            params.append(wanted)
        with self._tx() as db:
            rows = db.execute(
                "SELECT DISTINCT ON (c.hash) c.hash, n.embed_title, c.heading, c.text"
                " FROM chunks c JOIN notes n ON n.id = c.note_id WHERE NOT EXISTS"
                " (SELECT 1 FROM vectors v WHERE v.hash = c.hash AND v.embedder = %s)"
                f"{where} ORDER BY c.hash, c.id",
                params,
            ).fetchall()
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    def store_vectors(self, embedder: str, items: Sequence[tuple[str, bytes]]) -> None:
        rows = [(h, embedder, Vector(np.frombuffer(v, dtype=np.float32))) for h, v in items]
        with self._tx() as db:
            with db.cursor() as cur:
                cur.executemany(
                    "INSERT INTO vectors(hash, embedder, vec) VALUES (%s, %s, %b)"
                    " ON CONFLICT (hash, embedder) DO UPDATE SET vec = EXCLUDED.vec",
                    rows,
                )
            self._bump(db)

    def drop_vectors_except(self, embedder: str) -> int:
        with self._tx() as db:
            cur = db.execute("DELETE FROM vectors WHERE embedder <> %s", (embedder,))
            drop_hnsw_except(db, self.schema, embedder)
            return cur.rowcount

    def prune_vectors(self, candidates: Iterable[str] | None = None) -> int:
        """Drop vectors no chunk uses any more (only among ``candidates`` when given)."""
        sql_text = (
            "DELETE FROM vectors v WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.hash = v.hash)"
        )
        params: list[Any] = []
        if candidates is not None:
            wanted = sorted(set(candidates))
            if not wanted:
                return 0
            sql_text += " AND v.hash = ANY(%s)"
            params.append(wanted)
        with self._tx() as db:
            return db.execute(sql_text, params).rowcount

    def chunk_hashes(self, paths: Iterable[str]) -> set[str]:
        wanted = [_text(p) for p in paths]
        if not wanted:
            return set()
        with self._tx() as db:
            rows = db.execute(
                "SELECT c.hash FROM chunks c JOIN notes n ON n.id = c.note_id"
                " WHERE n.path = ANY(%s)",
                (wanted,),
            ).fetchall()
        return {r[0] for r in rows}

    def vector_count(self, embedder: str) -> int:
        """Chunks with an ``embedder`` vector (counted once per generation: every search
        asks, and at a million chunks counting takes longer than the search)."""
        with self._tx() as db:
            counts = self._counts_of(db)
            key = f"\x00vectors {embedder}"  # no term's words hold a NUL
            if key not in counts:
                row = db.execute(
                    "SELECT count(*) FROM chunks c JOIN vectors v ON v.hash = c.hash"
                    " AND v.embedder = %s",
                    (embedder,),
                ).fetchone()
                counts[key] = int(row[0]) if row else 0
            return counts[key]

    def _counts_of(self, db: Conn) -> dict[str | None, int]:
        """The counts kept for the index as it is now (emptied when its generation moves,
        which any process's write does)."""
        gen = self._generation(db)
        if self._counts_gen != gen or len(self._counts) > _MAX_COUNTS:
            self._counts = {}
            self._counts_gen = gen
        return self._counts

    def nearest(
        self,
        embedder: str,
        query: npt.NDArray[np.float32],
        k: int,
        among: Collection[int] | None = None,
    ) -> list[ChunkHit]:
        with self._tx() as db:
            return nearest(db, embedder, query, k, among, iterative=self._iterative_scan)

    def vectors_of(
        self,
        embedder: str,
        notes: Collection[int] | None = None,
        chunks: Collection[int] | None = None,
    ) -> VectorTable:
        with self._tx() as db:  # one snapshot for the generation and the rows
            return vector_table(db, embedder, self._generation(db), notes, chunks)

    # -- search -------------------------------------------------------------------

    def keyword_search(self, terms: Sequence[str], scope: Scope, limit: int) -> list[ChunkHit]:
        with self._tx() as db:
            return keyword_search(
                db, self._config, terms, self._held(scope), limit, self._counts_of(db)
            )

    def _held(self, scope: Scope) -> Scope:
        """``scope`` without excluding private names this index never holds: search leaves
        them out of every query, and here a filter that keeps every note is a list of every
        note id sent with each vector search (60 ms of 120 at 100,000 chunks)."""
        if scope.exclude_private and set(scope.exclude_private) <= self.private:
            return replace(scope, exclude_private=())
        return scope

    def term_stats(self, terms: Sequence[str], chunk_ids: Collection[int]) -> TermStats:
        with self._tx() as db:
            return term_stats(db, self._config, terms, chunk_ids, self._counts_of(db))

    def notes_in_scope(self, scope: Scope) -> set[int] | None:
        """Ids of the notes a scope allows, or None for "all of them" (cached per
        generation, as SQLite's are)."""
        scope = self._held(scope)
        if scope.is_empty:
            return None
        where, params = scope_sql(scope)
        with self._tx() as db:
            gen = self._generation(db)
            cached = self._scope_cache.get((scope, gen))
            if cached is not None:
                return cached
            ids = {int(r[0]) for r in db.execute(f"SELECT n.id FROM notes n WHERE {where}", params)}
        if len(self._scope_cache) >= 64 or any(g != gen for _, g in self._scope_cache):
            self._scope_cache.clear()
        self._scope_cache[(scope, gen)] = ids
        return ids

    # -- reading notes and chunks ---------------------------------------------------

    def notes_by_id(self, ids: Iterable[int]) -> dict[int, NoteRow]:
        wanted = sorted({int(i) for i in ids})
        if not wanted:
            return {}
        with self._tx() as db:
            rows = db.execute(
                f"SELECT {_NOTE_COLUMNS} FROM notes WHERE id = ANY(%s)", (wanted,)
            ).fetchall()
        return {int(r[0]): _note_row(r) for r in rows}

    def chunks_by_id(self, ids: Iterable[int]) -> dict[int, ChunkRow]:
        wanted = sorted({int(i) for i in ids})
        if not wanted:
            return {}
        with self._tx() as db:
            rows = db.execute(
                "SELECT id, note_id, ord, heading, text, line, hash FROM chunks WHERE id = ANY(%s)",
                (wanted,),
            ).fetchall()
        return {int(r[0]): _chunk_row(r) for r in rows}

    def paths_with_field(self, key: str, value: str, kind: str | None = None) -> list[str]:
        """Paths of the notes whose frontmatter ``key`` is the string ``value``."""
        if not key.replace("_", "").isalnum():
            raise ValueError(f"frontmatter key {key!r} is not a plain name")
        query = (
            "SELECT path FROM notes WHERE json_typeof(frontmatter -> %s) = 'string'"
            " AND frontmatter ->> %s = %s"
        )
        params: list[Any] = [key, key, value]
        if kind is not None:
            query += " AND kind = %s"
            params.append(kind)
        with self._tx() as db:
            return [r[0] for r in db.execute(query + " ORDER BY path", params)]

    def note_by_path(self, path: str) -> NoteDetail | None:
        with self._tx() as db:
            row = db.execute(
                f"SELECT {_DETAIL_COLUMNS} FROM notes WHERE path = %s", (_text(path),)
            ).fetchone()
            if row is None:
                return None
            tags = [
                r[0]
                for r in db.execute(
                    "SELECT tag FROM tags WHERE note_id = %s ORDER BY id", (row[0],)
                )
            ]
        return _note_detail(row, tags)

    # -- problems, stats --------------------------------------------------------------

    def set_problems(self, path: str, reasons: Sequence[str]) -> None:
        """Record why ``path`` is not indexed as it is; nothing for a private path."""
        if self._private(path):
            return
        with self._tx() as db:
            db.execute("DELETE FROM problems WHERE path = %s", (_text(path),))
            with db.cursor() as cur:
                cur.executemany(
                    "INSERT INTO problems(path, reason) VALUES (%s, %s)",
                    [(_text(path), _text(r)) for r in reasons],
                )

    def clear_problems(self, paths: Iterable[str]) -> None:
        wanted = [_text(p) for p in paths]
        if not wanted:
            return
        with self._tx() as db:
            db.execute("DELETE FROM problems WHERE path = ANY(%s)", (wanted,))

    def problems(self) -> list[tuple[str, str]]:
        with self._tx() as db:
            rows = db.execute("SELECT path, reason FROM problems ORDER BY path, id").fetchall()
        return [(r[0], r[1]) for r in rows]

    def stats(self) -> IndexStats:
        with self._tx() as db:

            def count(query: str) -> int:
                row = db.execute(query).fetchone()
                return int(row[0]) if row else 0

            by_kind = {
                r[0]: int(r[1])
                for r in db.execute("SELECT kind, count(*) FROM notes GROUP BY kind ORDER BY kind")
            }
            by_embedder = {
                r[0]: int(r[1])
                for r in db.execute("SELECT embedder, count(*) FROM vectors GROUP BY embedder")
            }
            meta = dict(
                db.execute("SELECT key, value FROM meta WHERE key IN ('embedder', 'last_sync')")
            )
            size = db.execute(
                "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c"
                " WHERE c.relnamespace = %s::regnamespace AND c.relkind IN ('r', 'm')",
                (sql_name(self.schema),),
            ).fetchone()
            return IndexStats(
                notes=count("SELECT count(*) FROM notes"),
                chunks=count("SELECT count(*) FROM chunks"),
                links=count("SELECT count(*) FROM links"),
                unresolved_links=count("SELECT count(*) FROM links WHERE dst_path IS NULL"),
                tags=count("SELECT count(DISTINCT lower(tag)) FROM tags"),
                vectors=by_embedder,
                notes_by_kind=by_kind,
                problems=count("SELECT count(*) FROM problems"),
                embedder=meta.get("embedder"),
                last_sync=meta.get("last_sync"),
                path=self.path,
                bytes=int(size[0]) if size else 0,
            )

    def tag_counts(self, scope: Scope | None = None) -> list[tuple[str, int]]:
        where, params = scope_sql(scope or Scope())
        with self._tx() as db:
            rows = db.execute(
                "SELECT min(t.tag), count(DISTINCT t.note_id) AS c FROM tags t"
                f" JOIN notes n ON n.id = t.note_id WHERE {where}"
                " GROUP BY lower(t.tag) ORDER BY c DESC, lower(t.tag)",
                params,
            ).fetchall()
        return [(r[0], int(r[1])) for r in rows]

    # -- bulk reads (read whole, then handed out) -------------------------------------

    def scan_notes(self) -> Iterator[NoteDetail]:
        with self._tx() as db:
            tags: dict[int, list[str]] = {}
            for note_id, tag in db.execute("SELECT note_id, tag FROM tags ORDER BY id"):
                tags.setdefault(int(note_id), []).append(tag)
            rows = db.execute(f"SELECT {_DETAIL_COLUMNS} FROM notes").fetchall()
        for row in rows:
            yield _note_detail(row, tags.get(int(row[0]), []))

    def scan_links(self) -> Iterator[LinkRow]:
        with self._tx() as db:
            rows = db.execute(
                "SELECT n.path, l.target, l.heading, l.alias, l.embed, l.line, l.dst_path"
                " FROM links l JOIN notes n ON n.id = l.src_id"
            ).fetchall()
        for src, target, heading, alias, embed, line, dst in rows:
            yield LinkRow(src, target, heading, alias, bool(embed), int(line), dst)

    def scan_chunks(self, text_prefix: str = "") -> Iterator[ChunkRow]:
        """The chunks whose text, leading spaces left out, starts with ``text_prefix``."""
        with self._tx() as db:
            rows = db.execute(
                "SELECT id, note_id, ord, heading, text, line, hash FROM chunks"
                " WHERE left(ltrim(text), %s) = %s",
                (len(text_prefix), _text(text_prefix)),
            ).fetchall()
        for row in rows:
            yield _chunk_row(row)

    # -- one writer at a time, across machines ---------------------------------------

    @contextmanager
    def writer(self, wait: float) -> Iterator[bool]:
        """Hold the schema's writer lock for the block, a session advisory lock, so one
        sync runs at a time across every machine writing this index; yields False when
        another held it for all of ``wait`` seconds. The threads of this process wait on
        the process lock meanwhile. A connection that drops lets the server release it.
        """
        key = f"mnemex writer {self.schema}"
        deadline = time.monotonic() + max(0.0, wait)
        with self._lock:
            while True:
                with self._tx() as db:
                    row = db.execute("SELECT pg_try_advisory_lock(hashtext(%s))", (key,)).fetchone()
                if row is not None and row[0]:
                    break
                left = deadline - time.monotonic()
                if left <= 0:
                    yield False
                    return
                time.sleep(min(_WRITER_POLL, left))
            try:
                yield True
            finally:
                try:
                    with self._tx() as db:
                        db.execute("SELECT pg_advisory_unlock(hashtext(%s))", (key,))
                except IndexUnavailable:
                    pass  # the session is gone, and its lock with it


def _chunk_row(r: Sequence[Any]) -> ChunkRow:
    return ChunkRow(int(r[0]), int(r[1]), int(r[2]), r[3], r[4], int(r[5]), r[6])


__all__ = ["PostgresIndex"]
