"""What a scan reads from the index, loaded once in bulk.

A scan of a 10,000-page vault must take seconds, so it reads every note and
every link through the backend's bulk reads (``scan_notes``, ``scan_links``,
``scan_chunks``), never note by note. Links are the backend's
:class:`~mnemex.index.backend.LinkRow`; notes are kept as :class:`CheckedNote`, which
adds the parts of the path the checkers ask for again and again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

import numpy as np
import numpy.typing as npt

from mnemex.index.backend import IndexBackend, LinkRow, NoteDetail

_LINK_RE = re.compile(r"\[\[[^\]]*\]\]")
#: A citation in brackets after a sentence, with or without a date: ``([[s]], 2023-09-22)``.
CITATION_RE = re.compile(r"\(\s*\[\[[^\]]*\]\][^()]*\)")
_WORD_RE = re.compile(r"\w+")
#: Words a navigation item may carry besides its links ("co-occurs with", "related").
NAV_WORDS = 3


@dataclass
class CheckedNote:
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
class IndexView:
    """Every note and link of the index, keyed for the checkers."""

    notes: dict[str, CheckedNote]
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


def _row(note: NoteDetail) -> CheckedNote:
    return CheckedNote(
        note.id,
        note.path,
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


def load_view(backend: IndexBackend) -> IndexView:
    """Read every note, link and indexing problem of ``backend``."""
    notes = {note.path: _row(note) for note in backend.scan_notes()}
    problems: dict[str, list[str]] = {}
    for path, reason in backend.problems():
        problems.setdefault(path, []).append(reason)
    return IndexView(notes, list(backend.scan_links()), problems)


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
    return {
        chunk.id for chunk in backend.scan_chunks(text_prefix="[[") if is_navigation(chunk.text)
    }


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
    "CheckedNote",
    "ContentRows",
    "IndexView",
    "content_rows",
    "is_navigation",
    "link_only_chunks",
    "load_view",
    "mean_vectors",
    "note_vectors",
]
