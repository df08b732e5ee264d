"""The index backend contract: what sync writes and what the rest of mnemex reads.

The index is derived from the vault and can always be rebuilt, so backends keep
no migrations: a schema change bumps :data:`SCHEMA_VERSION` and the index is
rebuilt. Everything outside :mod:`mnemex.index` reaches an index through
:class:`IndexBackend` alone, opened by :func:`mnemex.index.open.open_backend`
(``[index] backend`` in ``mnemex.toml``, SQLite by default); no other module
imports a backend or opens its files (``tests/test_public_api.py`` checks it).

The contract, besides the method signatures:

- **Writes** come from sync alone, as records (:class:`NoteRecord`,
  :class:`ChunkRecord`, :class:`LinkRecord`). ``upsert_note``, ``delete_notes``,
  ``store_vectors`` and a ``set_link_targets`` that changes a target move
  ``generation()``, and it never goes back (``reset`` moves it
  on too); a cache keyed by it (the graph's adjacency, a backend's vector matrix) is
  fresh while it stands still.
- **Reads** return frozen, typed rows (:class:`NoteRow`, :class:`NoteDetail`,
  :class:`ChunkRow`, :class:`LinkRow`, :class:`Backlink`, :class:`UnresolvedLink`,
  :class:`IndexStats`), never a backend's own row objects. A note's frontmatter is
  what JSON can carry; its ``date`` falls back to the file's mtime. Ids belong to the
  backend: a note keeps its id while its path stays indexed, a chunk until its note
  is written again.
- **Ranking by similarity happens in the backend**: ``nearest`` returns the ``k``
  chunks most similar to a query vector (cosine), best first, optionally only
  among some notes. ``vectors_of`` hands out vectors to the few callers that
  compare them themselves. Keyword ranking is the backend's own (SQLite: FTS5 with
  BM25); search fuses ranks, so the scores of two backends need not agree.
- **A scope** (:class:`Scope`) means the same everywhere: kinds, domains and projects
  match exactly, a folder is a path prefix at a ``/``, a tag matches itself and its
  ``tag/`` children case-insensitively, ``since``/``until`` compare ISO dates
  (``until`` on its own length), ``exclude_private`` drops those domains and projects.
- **Bulk reads** (``scan_notes``, ``scan_links``, ``scan_chunks``) read a whole
  index at once for a health scan, in no promised order.

A new backend is a subpackage of :mod:`mnemex.index` implementing the protocol,
registered in :mod:`mnemex.index.open`, and added to the backends the tests run on
(``tests/index_backends.py``): the sync, incremental-equals-rebuild, retrieval and
contract tests then check it. The in-memory reference backend there is the plainest
reading of this contract.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

SCHEMA_VERSION = 3


@dataclass(frozen=True)
class NoteState:
    """What sync needs to decide whether a file changed."""

    id: int
    mtime_ns: int
    size: int
    hash: str


@dataclass
class NoteRecord:
    """One note as the index stores it."""

    path: str
    title: str
    kind: str
    hash: str
    mtime_ns: int
    size: int
    domain: str | None = None
    project: str | None = None
    type: str | None = None
    status: str | None = None
    date: str | None = None  # ISO 8601; the note's own date, else updated/created, else mtime
    importance: float | None = None
    #: the title as context for embedding; None for notes that say ``title: ""``
    embed_title: str | None = None
    tags: list[str] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)
    frontmatter: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


@dataclass
class ChunkRecord:
    """A chunk of a note, with the text its vector was made from."""

    ord: int
    heading: str
    text: str
    line: int
    hash: str  # sha256 of the embedded text: vectors are keyed by it and the embedder


@dataclass
class LinkRecord:
    target: str
    heading: str | None
    alias: str | None
    embed: bool
    line: int
    resolved: str | None = None


@dataclass(frozen=True)
class Scope:
    """Filters on what a search or listing may return. Empty means everything."""

    kinds: tuple[str, ...] = ()
    domains: tuple[str, ...] = ()
    projects: tuple[str, ...] = ()
    folders: tuple[str, ...] = ()  # vault-relative path prefixes
    tags: tuple[str, ...] = ()  # a note must carry every one
    since: str | None = None  # ISO date or datetime, inclusive
    until: str | None = None
    #: domain/project names never to return; None lets search apply the vault's private
    #: list (private names are searched only when named), () excludes nothing
    exclude_private: tuple[str, ...] | None = None

    @property
    def is_empty(self) -> bool:
        return not any(
            (
                self.kinds,
                self.domains,
                self.projects,
                self.folders,
                self.tags,
                self.since,
                self.until,
                self.exclude_private,
            )
        )


@dataclass(frozen=True)
class ChunkHit:
    """A chunk a keyword or vector search ranked."""

    chunk_id: int
    note_id: int
    score: float  # larger is better


@dataclass(frozen=True)
class TermStats:
    """How common some query terms are in an index, and which chunks hold them.

    What search weighs a keyword hit by: the share of a query's rarity it covers.
    Terms are matched as keyword search matches them (SQLite: FTS5's Porter stems).
    """

    chunks: int  # chunks in the index
    df: dict[str, int]  # term -> chunks holding it, over the whole index
    held: dict[int, frozenset[str]]  # chunk id -> the terms it holds (chunks asked about)


@dataclass(frozen=True)
class NoteRow:
    """A note's indexed fields, as searches and listings read them."""

    id: int
    path: str
    title: str
    kind: str
    domain: str | None
    project: str | None
    type: str | None
    status: str | None
    importance: float | None
    hash: str
    mtime_ns: int
    size: int
    #: ISO 8601: the note's own date, else its file's mtime (UTC, to the second)
    date: str


@dataclass(frozen=True)
class NoteDetail(NoteRow):
    """A note with what its frontmatter says besides the indexed fields."""

    aliases: list[str]
    frontmatter: dict[str, Any]
    warnings: list[str]
    tags: list[str]  # as written, in the order the note gives them


@dataclass(frozen=True)
class ChunkRow:
    id: int
    note_id: int
    ord: int
    heading: str  # the heading path, ``A > B``
    text: str
    line: int  # the line of the file it starts on
    hash: str  # of the text its vector is made from (see ChunkRecord)


@dataclass(frozen=True)
class LinkRow:
    """One link of a note, and the note it resolves to."""

    src: str  # the linking note's path
    target: str  # as written, without ``#heading`` or ``|alias``
    heading: str | None  # the ``#heading`` or ``#^block`` part, as written
    alias: str | None
    embed: bool
    line: int
    dst: str | None  # the path of the note it resolves to; None: it names no note


@dataclass(frozen=True)
class Backlink:
    """A link into a note, with the note it comes from."""

    src_path: str
    src_title: str
    target: str
    heading: str | None
    alias: str | None
    embed: bool
    line: int

    def to_dict(self) -> dict[str, Any]:
        # ``embed`` has always been 0 or 1 in JSON output
        return {**asdict(self), "embed": int(self.embed)}


@dataclass(frozen=True)
class UnresolvedLink:
    """A link that names no note: where it is and what it names."""

    path: str
    line: int
    target: str
    embed: bool

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "embed": int(self.embed)}


@dataclass(frozen=True)
class IndexStats:
    """What the index holds, for ``index status`` and ``doctor``."""

    notes: int
    chunks: int
    links: int
    unresolved_links: int
    tags: int  # distinct, case-insensitively
    vectors: dict[str, int]  # embedder identity -> stored vectors (one per distinct text)
    notes_by_kind: dict[str, int]
    problems: int
    embedder: str | None
    last_sync: str | None
    path: str  # where the index lives (a file, a database URL)
    bytes: int  # its size on disk, 0 when it has no file

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class VectorTable:
    """Chunk vectors of one embedder, a row per chunk, with the chunk and note of each row."""

    chunk_ids: npt.NDArray[np.int64]
    note_ids: npt.NDArray[np.int64]
    matrix: npt.NDArray[np.float32]
    generation: int


class IndexBackend(Protocol):
    """What sync writes to an index, and what retrieval, the graph and health read from it.

    Sync (:mod:`mnemex.index.sync`) is the only writer. ``upsert_note``,
    ``delete_notes`` and ``store_vectors`` move :meth:`generation`; nothing else does.
    """

    # -- the index's own state ---------------------------------------------------
    def generation(self) -> int:
        """A counter that moves with every write of notes or vectors (caches key on it)."""
        ...

    def get_meta(self, key: str) -> str | None: ...
    def set_meta(self, key: str, value: str) -> None: ...
    def reset(self) -> None:
        """Empty the index: notes, vectors, problems and meta (a rebuild follows). The
        generation is not reset: it moves on, so no cache keyed on it outlives the reset."""
        ...

    def close(self) -> None: ...

    def writer(self, wait: float) -> AbstractContextManager[bool]:
        """The right to write the index for the block: it yields True when held, False
        when another process held it for all of ``wait`` seconds (then nothing may be
        written). An index only this machine writes (SQLite, under the vault's own lock)
        always yields True; a shared one lets one sync run at a time across machines."""
        ...

    # -- what sync writes ---------------------------------------------------------
    def note_states(self) -> dict[str, NoteState]: ...
    def note_paths(self) -> list[str]:
        """Every indexed path, sorted."""
        ...

    def upsert_note(
        self, note: NoteRecord, chunks: Sequence[ChunkRecord], links: Sequence[LinkRecord]
    ) -> int:
        """Write a note with its chunks, links and tags, replacing what its path had; its id."""
        ...

    def touch_note(self, path: str, mtime_ns: int, size: int) -> None: ...
    def delete_notes(self, paths: Iterable[str]) -> None: ...
    def all_links(self) -> list[tuple[int, str, str | None]]:
        """``(link id, target, source path)`` of every link, for resolving them again."""
        ...

    def set_link_targets(self, updates: Iterable[tuple[int, str | None]]) -> None:
        """Set each link's resolved path (``None``: it names no note)."""
        ...

    def chunk_hashes(self, paths: Iterable[str]) -> set[str]: ...
    def chunks_missing_vectors(
        self, embedder: str, among: Iterable[str] | None = None
    ) -> list[tuple[str, str | None, str, str]]:
        """``(hash, embed title, heading, text)`` of each distinct chunk text without a
        vector from ``embedder``; only among those hashes when given."""
        ...

    def store_vectors(self, embedder: str, items: Sequence[tuple[str, bytes]]) -> None:
        """Keep ``(text hash, float32 bytes)`` pairs: one vector per text and embedder."""
        ...

    def drop_vectors_except(self, embedder: str) -> int: ...
    def prune_vectors(self, candidates: Iterable[str] | None = None) -> int:
        """Drop the vectors no chunk uses (only among ``candidates`` when given)."""
        ...

    def set_problems(self, path: str, reasons: Sequence[str]) -> None: ...
    def clear_problems(self, paths: Iterable[str]) -> None: ...
    def problems(self) -> list[tuple[str, str]]:
        """``(path, reason)`` of the files sync could not index or read with warnings."""
        ...

    # -- search -------------------------------------------------------------------
    def keyword_search(self, terms: Sequence[str], scope: Scope, limit: int) -> list[ChunkHit]:
        """The ``limit`` chunks in ``scope`` that best match any of ``terms``, best first.

        How they are ranked is the backend's own (search fuses ranks, not scores).
        """
        ...

    def term_stats(self, terms: Sequence[str], chunk_ids: Collection[int]) -> TermStats:
        """How many chunks of the index hold each of ``terms`` (matched as
        :meth:`keyword_search` matches them), and which of them each of ``chunk_ids`` holds
        (a chunk holding none is left out)."""
        ...

    def vector_count(self, embedder: str) -> int:
        """How many chunks have a vector from ``embedder`` (what :meth:`nearest` ranks)."""
        ...

    def nearest(
        self,
        embedder: str,
        query: npt.NDArray[np.float32],
        k: int,
        among: Collection[int] | None = None,
    ) -> list[ChunkHit]:
        """The ``k`` chunks whose ``embedder`` vectors are most similar to ``query``
        (cosine: vectors are unit length), best first; only chunks of the notes ``among``
        when given. The score is the cosine."""
        ...

    def vectors_of(
        self,
        embedder: str,
        notes: Collection[int] | None = None,
        chunks: Collection[int] | None = None,
    ) -> VectorTable:
        """The ``embedder`` vectors of the chunks of ``notes`` (all when None), only those of
        ``chunks`` when given, for the callers that compare vectors themselves (health's
        duplicates, ingest's resolver, search's cosine of a keyword hit)."""
        ...

    def notes_in_scope(self, scope: Scope) -> set[int] | None:
        """Ids of the notes ``scope`` allows; None when it allows every note."""
        ...

    # -- reading notes, chunks and links --------------------------------------------
    def notes_by_id(self, ids: Iterable[int]) -> dict[int, NoteRow]: ...
    def chunks_by_id(self, ids: Iterable[int]) -> dict[int, ChunkRow]: ...
    def note_by_path(self, path: str) -> NoteDetail | None: ...
    def paths_with_field(self, key: str, value: str, kind: str | None = None) -> list[str]:
        """Sorted paths of the notes whose frontmatter ``key`` is the string ``value``.

        Raises:
            ValueError: ``key`` is not a plain name (letters, digits, ``_``).
        """
        ...

    def links_from(self, note_id: int) -> list[LinkRow]:
        """The note's links in the order of their lines."""
        ...

    def links_to(self, note_id: int) -> list[Backlink]:
        """The links that resolve to the note, by source path and line."""
        ...

    def edges(self) -> list[tuple[int, int]]:
        """Resolved links as ``(source id, target id)``, no self-links, no duplicates."""
        ...

    def unresolved_links(self, limit: int = 100) -> list[UnresolvedLink]:
        """The first ``limit`` links that name no note, by source path and line."""
        ...

    def tag_counts(self, scope: Scope | None = None) -> list[tuple[str, int]]:
        """Tags (compared case-insensitively, each shown in the spelling that sorts first)
        with how many notes in ``scope`` carry it, most used first, then by name."""
        ...

    def stats(self) -> IndexStats: ...

    # -- bulk reads (a health scan reads everything once) ----------------------------
    def scan_notes(self) -> Iterator[NoteDetail]:
        """Every note, in no promised order."""
        ...

    def scan_links(self) -> Iterator[LinkRow]:
        """Every link, in no promised order."""
        ...

    def scan_chunks(self, text_prefix: str = "") -> Iterator[ChunkRow]:
        """Every chunk whose text, leading spaces left out, starts with ``text_prefix``."""
        ...


__all__ = [
    "SCHEMA_VERSION",
    "Backlink",
    "ChunkHit",
    "ChunkRecord",
    "ChunkRow",
    "IndexBackend",
    "IndexStats",
    "LinkRecord",
    "LinkRow",
    "NoteDetail",
    "NoteRecord",
    "NoteRow",
    "NoteState",
    "Scope",
    "TermStats",
    "UnresolvedLink",
    "VectorTable",
]
