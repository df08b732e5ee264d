"""What a scan reads from the index, loaded once in bulk.

A scan of a 10,000-page vault must take seconds, so it reads every note and
every link in two queries instead of asking the backend note by note. With the
SQLite backend those queries run on a second, read-only connection to the same
file (the backend's protocol has no bulk read); any other backend is read
through :class:`~mnemex.index.backend.IndexBackend`'s own methods, slower but
the same answer.
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

import numpy as np
import numpy.typing as npt

from mnemex.index.backend import IndexBackend
from mnemex.index.sqlite.store import SQLiteIndex

_LINK_RE = re.compile(r"\[\[[^\]]*\]\]")
#: A citation in brackets after a sentence, with or without a date: ``([[s]], 2023-09-22)``.
CITATION_RE = re.compile(r"\(\s*\[\[[^\]]*\]\][^()]*\)")
_WORD_RE = re.compile(r"\w+")
#: Words a navigation item may carry besides its links ("co-occurs with", "related").
NAV_WORDS = 3


@dataclass
class NoteRow:
    """One indexed note, as the checkers need it."""

    id: int
    path: str
    title: str
    kind: str
    domain: str | None
    type: str | None
    hash: str
    mtime_ns: int
    size: int
    aliases: list[str]
    frontmatter: dict[str, Any]
    warnings: list[str]
    #: for a wiki page, its folder under the domain (``entities``, ``summaries``...)
    folder: str | None = field(init=False)
    top: str = field(init=False)
    stem: str = field(init=False)

    def __post_init__(self) -> None:
        # computed once: the checkers ask for these tens of thousands of times
        parts = self.path.split("/")
        self.top = parts[0]
        self.folder = parts[2] if len(parts) >= 4 and parts[0] == "wiki" else None
        self.stem = PurePosixPath(parts[-1]).stem


@dataclass
class LinkRow:
    src: str
    target: str
    dst: str | None
    line: int
    embed: bool
    #: the ``#heading`` or ``#^block`` part of the link, as written
    heading: str | None = None


@dataclass
class IndexView:
    """Every note and link of the index, keyed for the checkers."""

    notes: dict[str, NoteRow]
    links: list[LinkRow]
    problems: dict[str, list[str]] = field(default_factory=dict)

    def incoming(self) -> dict[str, set[str]]:
        """path -> the other notes that link to it."""
        out: dict[str, set[str]] = {}
        for link in self.links:
            if link.dst is not None and link.dst != link.src:
                out.setdefault(link.dst, set()).add(link.src)
        return out

    def outgoing(self) -> dict[str, set[str]]:
        """path -> the other notes it links to."""
        out: dict[str, set[str]] = {}
        for link in self.links:
            if link.dst is not None and link.dst != link.src:
                out.setdefault(link.src, set()).add(link.dst)
        return out


def _row(values: tuple[Any, ...]) -> NoteRow:
    (nid, path, title, kind, domain, typ, digest, mtime, size, aliases, fm, warnings) = values
    return NoteRow(
        int(nid),
        path,
        title,
        kind,
        domain,
        typ,
        digest,
        int(mtime),
        int(size),
        json.loads(aliases) if isinstance(aliases, str) else list(aliases or []),
        json.loads(fm) if isinstance(fm, str) else dict(fm or {}),
        json.loads(warnings) if isinstance(warnings, str) else list(warnings or []),
    )


def _load_sqlite(index: SQLiteIndex) -> tuple[dict[str, NoteRow], list[LinkRow]]:
    db = sqlite3.connect(f"file:{index.path}?mode=ro", uri=True)
    try:
        rows = db.execute(
            "SELECT id, path, title, kind, domain, type, hash, mtime_ns, size, aliases,"
            " frontmatter, warnings FROM notes"
        ).fetchall()
        notes = {r[1]: _row(r) for r in rows}
        links = [
            LinkRow(r[0], r[1], r[2], int(r[3]), bool(r[4]), r[5])
            for r in db.execute(
                "SELECT n.path, l.target, l.dst_path, l.line, l.embed, l.heading FROM links l"
                " JOIN notes n ON n.id = l.src_id"
            )
        ]
    finally:
        db.close()
    return notes, links


def _load_generic(backend: IndexBackend) -> tuple[dict[str, NoteRow], list[LinkRow]]:
    notes: dict[str, NoteRow] = {}
    links: list[LinkRow] = []
    for path in backend.note_paths():
        note = backend.note_by_path(path)
        if note is None:
            continue
        notes[path] = NoteRow(
            note.id,
            path,
            note.title,
            note.kind,
            note.domain,
            note.type,
            note.hash,
            note.mtime_ns,
            note.size,
            note.aliases,
            note.frontmatter,
            note.warnings,
        )
        for link in backend.links_from(note.id):
            links.append(LinkRow(path, link.target, link.dst, link.line, link.embed, link.heading))
    return notes, links


def load_view(backend: IndexBackend) -> IndexView:
    """Read every note, link and indexing problem of ``backend``."""
    if isinstance(backend, SQLiteIndex):
        notes, links = _load_sqlite(backend)
    else:
        notes, links = _load_generic(backend)
    problems: dict[str, list[str]] = {}
    for path, reason in backend.problems():
        problems.setdefault(path, []).append(reason)
    return IndexView(notes, links, problems)


def is_navigation(text: str) -> bool:
    """A chunk that is links plus at most a few words of label: ``[[x]]: related``,
    ``[[x|X]]: co-occurs with ([[summaries/s]], 2023-09-22)``, a ``## Sources`` item.

    Navigation, not content: two pages about different things list the same
    summaries and name each other under ``## Related``, and two copies of one
    page may list different ones.
    """
    if not text.lstrip().startswith("[["):
        return False
    return len(_WORD_RE.findall(_LINK_RE.sub(" ", CITATION_RE.sub(" ", text)))) <= NAV_WORDS


def link_only_chunks(backend: IndexBackend) -> set[int]:
    """Ids of the chunks that are navigation (:func:`is_navigation`), not content."""
    if isinstance(backend, SQLiteIndex):
        db = sqlite3.connect(f"file:{backend.path}?mode=ro", uri=True)
        try:
            rows = db.execute("SELECT id, text FROM chunks WHERE ltrim(text) LIKE '[[%'")
            return {int(r[0]) for r in rows if is_navigation(r[1])}
        finally:
            db.close()
    table = backend.vectors_of(backend.get_meta("embedder") or "")
    chunks = backend.chunks_by_id(int(c) for c in table.chunk_ids)
    return {cid for cid, c in chunks.items() if is_navigation(c.text)}


@dataclass
class ContentRows:
    """The vector rows of the content chunks (navigation left out) of some notes."""

    chunk_ids: npt.NDArray[np.int64]
    note_ids: npt.NDArray[np.int64]
    matrix: npt.NDArray[np.float32]


def content_rows(backend: IndexBackend, embedder: str, wanted: set[int]) -> ContentRows:
    """The chunk vectors of the notes among ``wanted`` ids, link-only chunks left out unless
    a page has nothing else (a page of links only still has a vector)."""
    table = backend.vectors_of(embedder, wanted)
    if not len(table.note_ids) or table.matrix.shape[1] < 2:
        empty = np.zeros(0, dtype=np.int64)
        return ContentRows(empty, empty, np.zeros((0, 1), dtype=np.float32))
    skip = link_only_chunks(backend)
    if not skip:
        return ContentRows(table.chunk_ids, table.note_ids, table.matrix)
    content = ~np.isin(table.chunk_ids, np.fromiter(skip, dtype=np.int64, count=len(skip)))
    keep = content | ~np.isin(table.note_ids, table.note_ids[content])
    return ContentRows(table.chunk_ids[keep], table.note_ids[keep], table.matrix[keep])


def mean_vectors(rows: ContentRows) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
    """One unit vector per note of ``rows``: the normalised sum of its chunk vectors."""
    if not len(rows.note_ids):
        return np.zeros(0, dtype=np.int64), np.zeros((0, 1), dtype=np.float32)
    unique, inverse = np.unique(rows.note_ids, return_inverse=True)
    sums = np.zeros((len(unique), rows.matrix.shape[1]), dtype=np.float32)
    np.add.at(sums, inverse, rows.matrix)
    norms = np.linalg.norm(sums, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return unique.astype(np.int64), (sums / norms).astype(np.float32)


def note_vectors(
    backend: IndexBackend, embedder: str, wanted: set[int]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
    """One unit vector per note among ``wanted`` ids: the mean of its content chunks' vectors.

    Returns ``(note ids, matrix)``; notes without vectors are left out.
    """
    return mean_vectors(content_rows(backend, embedder, wanted))


__all__ = [
    "CITATION_RE",
    "ContentRows",
    "IndexView",
    "LinkRow",
    "NoteRow",
    "content_rows",
    "is_navigation",
    "link_only_chunks",
    "load_view",
    "mean_vectors",
    "note_vectors",
]
