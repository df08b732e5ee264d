"""The index backends the tests run against: SQLite, an in-memory reference backend, and
PostgreSQL (a real server, see postgres_support.py) when it can run here.

:class:`MemoryIndex` implements the whole :class:`~mnemex.index.backend.IndexBackend`
with dicts and numpy, as plainly as possible, so that a test parametrised over
:data:`BACKEND_NAMES` checks the contract and not SQLite's way of keeping it. It is
registered through the real seam (:func:`mnemex.index.open.register_backend`) and
chosen by the vault's ``[index] backend`` setting, as a PostgreSQL backend would be.

What it does differently, on purpose:

- keyword search is no BM25: a chunk scores the number of times the query's words
  occur among its words (lower-cased ``\\w+`` runs; the title's count twice), a chunk
  with none of them is no hit, and ties go to the lower chunk id. No stemming (in
  ``term_stats`` either: a term is held by the chunks holding that very word), so a
  test that needs FTS5's ranking or its stemmer stays SQLite-only;
- ids only grow (SQLite may hand a deleted row's id out again);
- nothing is cached: every vector search builds its matrix again.

Everything else follows the contract as SQLite keeps it: a note's frontmatter is
what JSON carries (dates as strings), its date falls back to the file's mtime,
writes bump the generation, link targets are set by sync, never by the backend.

``postgres`` is in :data:`BACKEND_NAMES` when its server can be imported (or
``MNEMEX_REQUIRE_POSTGRES=1`` demands it): each vault a test opens gets a schema of its
own on the session's one server. A PostgreSQL index may live beyond this machine, so it
holds no private note (``holds_private = False``); a test about private notes being
searchable when named skips there (:func:`skip_if_shared`).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from mnemex.brain import Brain
from mnemex.embed import Embedder
from mnemex.embed.hashing import HashingEmbedder
from mnemex.index.backend import (
    SCHEMA_VERSION,
    Backlink,
    ChunkHit,
    ChunkRecord,
    ChunkRow,
    IndexBackend,
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
from mnemex.index.open import BACKENDS, BackendFactory, register_backend
from mnemex.vault import Vault
from mnemex.vault.privacy import private_names
from postgres_support import dsn, fresh_schema, importable, required

#: What a parametrised test runs against.
BACKEND_NAMES = ["sqlite", "memory"]
if importable() or required():
    BACKEND_NAMES.append("postgres")

#: Vault root -> its PostgreSQL schema, for the vaults tests opened on PostgreSQL.
_POSTGRES_SCHEMAS: dict[Path, str] = {}
#: The real ``postgres`` factory (a DSN from the settings), for every other vault.
_BUILTIN_POSTGRES: BackendFactory = BACKENDS["postgres"]

_WORD_RE = re.compile(r"\w+")


def _json(value: Any) -> Any:
    """``value`` as it comes back from JSON (the index stores frontmatter as JSON)."""
    return json.loads(json.dumps(value, ensure_ascii=False, default=str))


@dataclass
class _Note:
    id: int
    record: NoteRecord
    chunks: list[int] = field(default_factory=list)
    links: list[int] = field(default_factory=list)

    def date(self) -> str:
        """Its own date, else its file's mtime (UTC, to the second), as SQLite gives it."""
        if self.record.date is not None:
            return self.record.date
        when = dt.datetime.fromtimestamp(self.record.mtime_ns / 1e9, dt.UTC)
        return when.strftime("%Y-%m-%dT%H:%M:%S+00:00")

    def row(self) -> NoteRow:
        r = self.record
        return NoteRow(
            self.id, r.path, r.title, r.kind, r.domain, r.project, r.type, r.status,
            r.importance, r.hash, r.mtime_ns, r.size, self.date(),
        )  # fmt: skip

    def detail(self) -> NoteDetail:
        r = self.record
        return NoteDetail(
            **vars(self.row()),
            aliases=list(r.aliases),
            frontmatter=_json(r.frontmatter),
            warnings=list(r.warnings),
            tags=list(r.tags),
        )


@dataclass
class _Chunk:
    id: int
    note_id: int
    record: ChunkRecord

    def row(self) -> ChunkRow:
        r = self.record
        return ChunkRow(self.id, self.note_id, r.ord, r.heading, r.text, r.line, r.hash)


@dataclass
class _Link:
    id: int
    note_id: int
    record: LinkRecord


class MemoryIndex:
    """The reference :class:`~mnemex.index.backend.IndexBackend`: dicts, lists and numpy."""

    def __init__(self) -> None:
        self._meta: dict[str, str] = {"generation": "-1"}
        self.reset()

    def reset(self) -> None:
        gen = str(int(self._meta["generation"]) + 1)  # never back: caches key on it
        self._meta = {"schema": str(SCHEMA_VERSION), "generation": gen}
        self._notes: dict[int, _Note] = {}
        self._by_path: dict[str, int] = {}
        self._chunks: dict[int, _Chunk] = {}
        self._links: dict[int, _Link] = {}
        self._vectors: dict[tuple[str, str], bytes] = {}  # (text hash, embedder) -> float32s
        self._problems: list[tuple[str, str]] = []
        self._next_id = 0

    def writer(self, wait: float) -> AbstractContextManager[bool]:
        return nullcontext(True)

    def close(self) -> None:
        pass

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def _bump(self) -> None:
        self._meta["generation"] = str(self.generation() + 1)

    # -- meta ----------------------------------------------------------------

    def generation(self) -> int:
        return int(self._meta["generation"])

    def get_meta(self, key: str) -> str | None:
        return self._meta.get(key)

    def set_meta(self, key: str, value: str) -> None:
        self._meta[key] = value

    # -- what sync writes ----------------------------------------------------

    def note_states(self) -> dict[str, NoteState]:
        return {
            n.record.path: NoteState(n.id, n.record.mtime_ns, n.record.size, n.record.hash)
            for n in self._notes.values()
        }

    def note_paths(self) -> list[str]:
        return sorted(self._by_path)

    def upsert_note(
        self, note: NoteRecord, chunks: Sequence[ChunkRecord], links: Sequence[LinkRecord]
    ) -> int:
        note_id = self._by_path.get(note.path)
        if note_id is None:
            note_id = self._new_id()
            self._by_path[note.path] = note_id
        else:
            self._drop_children(note_id)
        stored = _Note(note_id, _copy_note(note))
        self._notes[note_id] = stored
        for chunk in chunks:
            cid = self._new_id()
            self._chunks[cid] = _Chunk(cid, note_id, ChunkRecord(**vars(chunk)))
            stored.chunks.append(cid)
        for link in links:
            lid = self._new_id()
            self._links[lid] = _Link(lid, note_id, LinkRecord(**vars(link)))
            stored.links.append(lid)
        self._bump()
        return note_id

    def _drop_children(self, note_id: int) -> None:
        note = self._notes[note_id]
        for cid in note.chunks:
            del self._chunks[cid]
        for lid in note.links:
            del self._links[lid]

    def touch_note(self, path: str, mtime_ns: int, size: int) -> None:
        note_id = self._by_path.get(path)
        if note_id is not None:
            self._notes[note_id].record.mtime_ns = mtime_ns
            self._notes[note_id].record.size = size

    def delete_notes(self, paths: Iterable[str]) -> None:
        for path in paths:
            note_id = self._by_path.pop(path, None)
            if note_id is not None:
                self._drop_children(note_id)
                del self._notes[note_id]
        self._bump()

    def all_links(self) -> list[tuple[int, str, str | None]]:
        return [
            (lk.id, lk.record.target, self._notes[lk.note_id].record.path)
            for lk in self._links.values()
        ]

    def set_link_targets(self, updates: Iterable[tuple[int, str | None]]) -> None:
        changed = False
        for link_id, dst in updates:
            if link_id in self._links and self._links[link_id].record.resolved != dst:
                self._links[link_id].record.resolved = dst
                changed = True
        if changed:
            self._bump()

    def chunk_hashes(self, paths: Iterable[str]) -> set[str]:
        return {
            self._chunks[cid].record.hash
            for path in paths
            if path in self._by_path
            for cid in self._notes[self._by_path[path]].chunks
        }

    def set_problems(self, path: str, reasons: Sequence[str]) -> None:
        self._problems = [p for p in self._problems if p[0] != path]
        self._problems += [(path, reason) for reason in reasons]

    def clear_problems(self, paths: Iterable[str]) -> None:
        gone = set(paths)
        self._problems = [p for p in self._problems if p[0] not in gone]

    def problems(self) -> list[tuple[str, str]]:
        return sorted(self._problems, key=lambda p: p[0])  # stable: a path's in their order

    # -- vectors -------------------------------------------------------------

    def chunks_missing_vectors(
        self, embedder: str, among: Iterable[str] | None = None
    ) -> list[tuple[str, str | None, str, str]]:
        first: dict[str, tuple[str, str | None, str, str]] = {}
        for chunk in sorted(self._chunks.values(), key=lambda c: c.id):
            r = chunk.record
            if (r.hash, embedder) not in self._vectors and r.hash not in first:
                title = self._notes[chunk.note_id].record.embed_title
                first[r.hash] = (r.hash, title, r.heading, r.text)
        wanted = set(first) if among is None else set(among) & set(first)
        return [first[h] for h in sorted(wanted)]

    def store_vectors(self, embedder: str, items: Sequence[tuple[str, bytes]]) -> None:
        for digest, vector in items:
            self._vectors[(digest, embedder)] = vector
        self._bump()

    def drop_vectors_except(self, embedder: str) -> int:
        gone = [key for key in self._vectors if key[1] != embedder]
        for key in gone:
            del self._vectors[key]
        return len(gone)

    def prune_vectors(self, candidates: Iterable[str] | None = None) -> int:
        used = {c.record.hash for c in self._chunks.values()}
        wanted = None if candidates is None else set(candidates)
        gone = [
            key
            for key in self._vectors
            if key[0] not in used and (wanted is None or key[0] in wanted)
        ]
        for key in gone:
            del self._vectors[key]
        return len(gone)

    def vectors_of(
        self,
        embedder: str,
        notes: Collection[int] | None = None,
        chunks: Collection[int] | None = None,
    ) -> VectorTable:
        rows = [
            (c.id, c.note_id, self._vectors[(c.record.hash, embedder)])
            for c in sorted(self._chunks.values(), key=lambda c: c.id)
            if (c.record.hash, embedder) in self._vectors
            and (notes is None or c.note_id in notes)
            and (chunks is None or c.id in chunks)
        ]
        if not rows:
            return VectorTable(
                np.zeros(0, dtype=np.int64),
                np.zeros(0, dtype=np.int64),
                np.zeros((0, 1), dtype=np.float32),
                self.generation(),
            )
        return VectorTable(
            np.array([r[0] for r in rows], dtype=np.int64),
            np.array([r[1] for r in rows], dtype=np.int64),
            np.stack([np.frombuffer(r[2], dtype=np.float32) for r in rows]),
            self.generation(),
        )

    def vector_count(self, embedder: str) -> int:
        return len(self.vectors_of(embedder).chunk_ids)

    def nearest(
        self,
        embedder: str,
        query: npt.NDArray[np.float32],
        k: int,
        among: Collection[int] | None = None,
    ) -> list[ChunkHit]:
        table = self.vectors_of(embedder, among)
        if not len(table.chunk_ids):
            return []
        scores = table.matrix @ query
        best = sorted(range(len(scores)), key=lambda i: (-scores[i], table.chunk_ids[i]))[:k]
        return [
            ChunkHit(int(table.chunk_ids[i]), int(table.note_ids[i]), float(scores[i]))
            for i in best
        ]

    # -- reads ---------------------------------------------------------------

    def _allows(self, scope: Scope, note: _Note) -> bool:
        r = note.record
        tags = [t.lower() for t in r.tags]
        date = note.date()
        checks = [
            not scope.kinds or r.kind in scope.kinds,
            not scope.domains or r.domain in scope.domains,
            not scope.projects or r.project in scope.projects,
            not scope.folders
            or any(
                r.path == f.strip("/") or r.path.startswith(f.strip("/") + "/")
                for f in scope.folders
            ),
            all(
                any(t == w or t.startswith(w + "/") for t in tags)
                for w in (tag.lstrip("#").lower() for tag in scope.tags)
            ),
            not scope.since or date >= scope.since,
            not scope.until or date[: len(scope.until)] <= scope.until,
            not scope.exclude_private
            or (
                (r.domain or "") not in scope.exclude_private
                and (r.project or "") not in scope.exclude_private
            ),
        ]
        return all(checks)

    def notes_in_scope(self, scope: Scope) -> set[int] | None:
        if scope.is_empty:
            return None
        return {n.id for n in self._notes.values() if self._allows(scope, n)}

    def keyword_search(self, terms: Sequence[str], scope: Scope, limit: int) -> list[ChunkHit]:
        wanted = {t.lower() for t in terms}
        scored = []
        for chunk in self._chunks.values():
            note = self._notes[chunk.note_id]
            if not wanted or not self._allows(scope, note):
                continue
            words = _WORD_RE.findall(f"{note.record.title} {note.record.title}".lower())
            words += _WORD_RE.findall(f"{chunk.record.heading} {chunk.record.text}".lower())
            score = sum(1 for w in words if w in wanted)
            if score:
                scored.append(ChunkHit(chunk.id, chunk.note_id, float(score)))
        return sorted(scored, key=lambda h: (-h.score, h.chunk_id))[:limit]

    def term_stats(self, terms: Sequence[str], chunk_ids: Collection[int]) -> TermStats:
        wanted = {t.lower() for t in terms}
        asked = set(chunk_ids)
        df = dict.fromkeys(terms, 0)
        held: dict[int, frozenset[str]] = {}
        for chunk in self._chunks.values():
            note = self._notes[chunk.note_id]
            text = f"{note.record.title} {chunk.record.heading} {chunk.record.text}"
            words = set(_WORD_RE.findall(text.lower())) & wanted
            for term in terms:
                df[term] += term.lower() in words
            found = frozenset(t for t in terms if t.lower() in words)
            if chunk.id in asked and found:
                held[chunk.id] = found
        return TermStats(len(self._chunks), df, held)

    def notes_by_id(self, ids: Iterable[int]) -> dict[int, NoteRow]:
        return {i: self._notes[i].row() for i in set(ids) if i in self._notes}

    def chunks_by_id(self, ids: Iterable[int]) -> dict[int, ChunkRow]:
        return {i: self._chunks[i].row() for i in set(ids) if i in self._chunks}

    def note_by_path(self, path: str) -> NoteDetail | None:
        note_id = self._by_path.get(path)
        return None if note_id is None else self._notes[note_id].detail()

    def paths_with_field(self, key: str, value: str, kind: str | None = None) -> list[str]:
        if not key.replace("_", "").isalnum():
            raise ValueError(f"frontmatter key {key!r} is not a plain name")
        return sorted(
            n.record.path
            for n in self._notes.values()
            if _json(n.record.frontmatter).get(key) == value
            and (kind is None or n.record.kind == kind)
        )

    def _link_row(self, link: _Link) -> LinkRow:
        r = link.record
        src = self._notes[link.note_id].record.path
        return LinkRow(src, r.target, r.heading, r.alias, r.embed, r.line, r.resolved)

    def links_from(self, note_id: int) -> list[LinkRow]:
        note = self._notes.get(note_id)
        links = [] if note is None else [self._links[lid] for lid in note.links]
        return [self._link_row(lk) for lk in sorted(links, key=lambda lk: (lk.record.line, lk.id))]

    def links_to(self, note_id: int) -> list[Backlink]:
        if note_id not in self._notes:
            return []
        path = self._notes[note_id].record.path
        found = []
        for link in sorted(self._links.values(), key=lambda lk: lk.id):
            r = link.record
            if r.resolved == path:
                src = self._notes[link.note_id].record
                found.append(
                    Backlink(src.path, src.title, r.target, r.heading, r.alias, r.embed, r.line)
                )
        return sorted(found, key=lambda b: (b.src_path, b.line))

    def edges(self) -> list[tuple[int, int]]:
        found = {
            (link.note_id, self._by_path[link.record.resolved])
            for link in self._links.values()
            if link.record.resolved in self._by_path
        }
        return sorted((src, dst) for src, dst in found if src != dst)

    def unresolved_links(self, limit: int = 100) -> list[UnresolvedLink]:
        found = [
            UnresolvedLink(row.src, row.line, row.target, row.embed)
            for row in (self._link_row(lk) for lk in self._links.values())
            if row.dst is None
        ]
        return sorted(found, key=lambda u: (u.path, u.line))[:limit]

    def stats(self) -> IndexStats:
        kinds: dict[str, int] = {}
        for note in self._notes.values():
            kinds[note.record.kind] = kinds.get(note.record.kind, 0) + 1
        vectors: dict[str, int] = {}
        for _, embedder in self._vectors:
            vectors[embedder] = vectors.get(embedder, 0) + 1
        links = [lk.record for lk in self._links.values()]
        return IndexStats(
            notes=len(self._notes),
            chunks=len(self._chunks),
            links=len(links),
            unresolved_links=sum(1 for lk in links if lk.resolved is None),
            tags=len({t.lower() for n in self._notes.values() for t in n.record.tags}),
            vectors=vectors,
            notes_by_kind=dict(sorted(kinds.items())),
            problems=len(self._problems),
            embedder=self.get_meta("embedder"),
            last_sync=self.get_meta("last_sync"),
            path=":memory:",
            bytes=0,
        )

    def tag_counts(self, scope: Scope | None = None) -> list[tuple[str, int]]:
        spellings: dict[str, list[str]] = {}
        notes: dict[str, set[int]] = {}
        for note in self._notes.values():
            if scope is not None and not scope.is_empty and not self._allows(scope, note):
                continue
            for tag in note.record.tags:
                spellings.setdefault(tag.lower(), []).append(tag)
                notes.setdefault(tag.lower(), set()).add(note.id)
        counts = [(min(spellings[key]), len(notes[key]), key) for key in spellings]
        return [(tag, n) for tag, n, _ in sorted(counts, key=lambda c: (-c[1], c[2]))]

    def scan_notes(self) -> Iterator[NoteDetail]:
        for note in list(self._notes.values()):
            yield note.detail()

    def scan_links(self) -> Iterator[LinkRow]:
        for link in list(self._links.values()):
            yield self._link_row(link)

    def scan_chunks(self, text_prefix: str = "") -> Iterator[ChunkRow]:
        for chunk in list(self._chunks.values()):
            if chunk.record.text.lstrip(" ").startswith(text_prefix):
                yield chunk.row()


def _copy_note(note: NoteRecord) -> NoteRecord:
    """The record as stored: later changes to the caller's lists do not reach it."""
    copy = NoteRecord(**vars(note))
    copy.tags, copy.aliases, copy.warnings = (
        list(note.tags),
        list(note.aliases),
        list(note.warnings),
    )
    copy.frontmatter = dict(note.frontmatter)
    return copy


def use_backend(root: Path, name: str) -> None:
    """Make the vault at ``root`` open its index with backend ``name`` from now on.

    For ``memory`` a fresh store is registered, kept per vault for the rest of the
    test: a brain opened again on the same vault finds what the last one wrote, as
    it would in an index file.
    """
    if name == "memory":
        stores: dict[Path, MemoryIndex] = {}

        def factory(vault: Vault) -> IndexBackend:
            return stores.setdefault(vault.root, MemoryIndex())

        register_backend("memory", factory)
    elif name == "postgres":
        _use_postgres(root)
    settings = root / "mnemex.toml"
    settings.write_text(
        settings.read_text(encoding="utf-8") + f'\n[index]\nbackend = "{name}"\n',
        encoding="utf-8",
    )


def _use_postgres(root: Path) -> None:
    """Open the vault at ``root`` on a schema of its own on the session's server; any
    other vault naming ``postgres`` still gets the real factory (a DSN from its settings)."""
    server_dsn = dsn()  # skips (or fails) the test when the server cannot start
    _POSTGRES_SCHEMAS[Vault(root).root] = fresh_schema()

    def factory(vault: Vault) -> IndexBackend:
        schema = _POSTGRES_SCHEMAS.get(vault.root)
        if schema is None:
            return _BUILTIN_POSTGRES(vault)
        from mnemex.index.postgres.store import PostgresIndex

        return PostgresIndex(server_dsn, schema, private=private_names(vault.settings))

    register_backend("postgres", factory)


def skip_if_shared(backend: IndexBackend, why: str) -> None:
    """Skip a test whose subject is private notes held in the index: a backend that may
    live beyond this machine (``holds_private = False``, PostgreSQL's) never holds them."""
    if not getattr(backend, "holds_private", True):
        pytest.skip(f"{type(backend).__name__} holds no private note: {why}")


@contextmanager
def brain_on(name: str, root: Path, embedder: Embedder | None = None) -> Iterator[Brain]:
    """A brain on the vault at ``root`` whose index is backend ``name``."""
    use_backend(root, name)
    with Brain(Vault(root), embedder=embedder or HashingEmbedder()) as brain:
        yield brain


def dump(backend: IndexBackend) -> dict[str, Any]:
    """What the backend holds, as its contract shows it, without ids: two indexes of the
    same files dump equal."""
    notes = {n.id: n for n in backend.scan_notes()}
    path = {i: n.path for i, n in notes.items()}
    embedder = backend.get_meta("embedder")
    vectors: list[tuple[str, int, bytes]] = []
    if embedder:
        table = backend.vectors_of(embedder)
        chunks = backend.chunks_by_id(int(c) for c in table.chunk_ids)
        vectors = sorted(
            (path[int(nid)], chunks[int(cid)].ord, row.tobytes())
            for cid, nid, row in zip(table.chunk_ids, table.note_ids, table.matrix, strict=True)
        )
    stats = backend.stats()
    return {
        "notes": sorted(
            (
                n.path,
                n.title,
                n.kind,
                n.domain,
                n.project,
                n.type,
                n.status,
                n.importance,
                n.hash,
                n.date,
                n.aliases,
                json.dumps(n.frontmatter, sort_keys=True),
                n.warnings,
                n.tags,
            )
            for n in notes.values()
        ),
        "chunks": sorted(
            (path[c.note_id], c.ord, c.heading, c.text, c.line, c.hash)
            for c in backend.scan_chunks()
        ),
        "links": sorted(
            (lk.src, lk.target, lk.heading or "", lk.alias or "", lk.embed, lk.line, lk.dst or "")
            for lk in backend.scan_links()
        ),
        "vectors": vectors,
        "stored_vectors": stats.vectors,
        "problems": sorted(backend.problems()),
        "embedder": embedder,
    }


__all__ = ["BACKEND_NAMES", "MemoryIndex", "brain_on", "dump", "skip_if_shared", "use_backend"]
