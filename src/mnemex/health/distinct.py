"""Whether two pages whose vectors are alike are one thing, judged by what tells them apart.

Page vectors are means over a page's sentences, so they measure what a page
*quotes*, not what it is about. Ingestion writes one page per thing a source
names, each quoting the source's sentences about it: "We found two high-severity
issues, three medium-severity issues and several low-severity issues" is the
whole of both ``high-severity issues`` and ``low-severity issues``, whose
vectors are then all but equal although the things differ. So a candidate pair
is judged again:

- names that differ by opposite qualifiers (high/low, pre/post, client/server,
  two version numbers, ...; :func:`~mnemex.health.names.opposed`) are two
  things, however alike their text;
- a sentence both pages quote word for word, when it names both things or both
  pages cite a common source, is evidence that the things are *related*, not that
  they are one: it is left out of both sides and only what each page says on its own
  is compared. A page with nothing of its own left is no duplicate by vectors.

Real near-duplicates (one thing under two names, its sentences written about
each name) share no sentence word for word and keep their similarity.
"""

from __future__ import annotations

import re

import numpy as np
import numpy.typing as npt

from mnemex.health.names import opposed, plural_key
from mnemex.health.view import CITATION_RE, CheckedNote, ContentRows
from mnemex.index.backend import IndexBackend

#: A wikilink, its label kept: ``[[entities/perch|Perch]]`` -> ``Perch``.
_LINK_RE = re.compile(r"\[\[(?:[^\]|]*\|)?([^\]]*)\]\]")

Vector = npt.NDArray[np.float32]


def sentence_key(text: str) -> str:
    """A chunk's text with citations (and their dates) and link markup dropped, case,
    hyphens and plurals ignored: the same quote cited from two pages has one key."""
    return plural_key(_LINK_RE.sub(r"\1", CITATION_RE.sub(" ", text)))


class PageTexts:
    """The content chunks of some notes: ``note id -> [(sentence key, vector)]``."""

    def __init__(self, backend: IndexBackend, rows: ContentRows, notes: set[int]) -> None:
        self.chunks: dict[int, list[tuple[str, Vector]]] = {n: [] for n in notes}
        if not notes:
            return
        wanted = np.isin(rows.note_ids, np.fromiter(notes, dtype=np.int64, count=len(notes)))
        index = np.nonzero(wanted)[0]
        texts = backend.chunks_by_id(int(rows.chunk_ids[r]) for r in index)
        for r in index.tolist():
            chunk = texts.get(int(rows.chunk_ids[r]))
            if chunk is not None:
                key = sentence_key(chunk.text)
                self.chunks[int(rows.note_ids[r])].append((key, rows.matrix[r]))


def _names(note: CheckedNote) -> set[str]:
    found = {plural_key(n) for n in (note.title, note.stem.replace("-", " "), *note.aliases)}
    return {n for n in found if n}


def _sources(note: CheckedNote) -> set[str]:
    """The paths the page's frontmatter ``sources`` names."""
    out = set()
    for item in note.frontmatter.get("sources") or []:
        path = item.get("path") if isinstance(item, dict) else item
        if isinstance(path, str) and path:
            out.add(path)
    return out


def names_both(key: str, a: set[str], b: set[str]) -> bool:
    """Whether the sentence names a thing of ``a`` and a thing of ``b`` apart: a name inside
    the other's longer name ("embedded time-series" in "embedded time-series database")
    does not count."""
    text = f" {key} "
    for na in a:
        for nb in b:
            if na == nb:
                continue
            longer, shorter = (na, nb) if len(na) >= len(nb) else (nb, na)
            if f" {longer} " in text and f" {shorter} " in text.replace(f" {longer} ", " | "):
                return True
    return False


def _unit_mean(vectors: list[Vector]) -> Vector:
    total: Vector = np.stack(vectors).sum(axis=0, dtype=np.float32)
    norm = float(np.linalg.norm(total))
    return (total / norm).astype(np.float32) if norm else total


def judge_pair(
    a: CheckedNote, b: CheckedNote, score: float, threshold: float, texts: PageTexts
) -> tuple[float, str] | None:
    """``(similarity, detail)`` when ``a`` and ``b`` stay near-duplicates once what tells
    them apart is weighed (module docstring); None when they are two things."""
    if opposed(a.title, b.title):
        return None
    chunks_a, chunks_b = texts.chunks.get(a.id, []), texts.chunks.get(b.id, [])
    common = {k for k, _ in chunks_a} & {k for k, _ in chunks_b}
    if common and not _sources(a) & _sources(b):
        names_a, names_b = _names(a), _names(b)
        common = {k for k in common if names_both(k, names_a, names_b)}
    said = f"{a.title!r} and {b.title!r} say nearly the same"
    if not common:
        return score, f"{said} (similarity {score:.2f})"
    own_a = [v for k, v in chunks_a if k not in common]
    own_b = [v for k, v in chunks_b if k not in common]
    if not own_a or not own_b:
        return None
    similarity = float(_unit_mean(own_a) @ _unit_mean(own_b))
    if similarity < threshold:
        return None
    quoted = f"{len(common)} sentence{'s' if len(common) > 1 else ''} both quote"
    return similarity, f"{said} (similarity {similarity:.2f}, leaving out {quoted})"


__all__ = ["PageTexts", "judge_pair", "names_both", "sentence_key"]
