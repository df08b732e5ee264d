"""Hybrid search: keyword (BM25) + vector + graph proximity, fused by weighted RRF.

Each signal ranks chunks; ranks are collapsed to notes (a note ranks by its best
chunk), then fused by weighted reciprocal rank:
``score = sum(w_s / (k + rank_s))``. Recency and importance are optional
additive signals. Weights come from measurement on LoCoMo, not from guesses:
see ``docs/benchmarks.md`` and ``mnemex eval``.

An answer is one hit per note with its best chunks as snippets, bounded by
``k`` and by a token budget.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from mnemex.brain import Brain
from mnemex.index.backend import ChunkHit, IndexBackend, NoteRow, Scope
from mnemex.retrieve.graph import proximity
from mnemex.retrieve.stopwords import STOPWORDS
from mnemex.text.tokens import estimate_tokens
from mnemex.vault.privacy import private_names

_TERM_RE = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class Weights:
    """How much each signal counts in the fusion (see docs/benchmarks.md for how chosen).

    Measured on LoCoMo (tuned on conversations 1-5, checked on 6-10, see
    ``bench/locomo_eval.py``): with MiniLM vectors, keyword ranks are worth about
    twice vector ranks, and a small ``rrf_k`` (the top of each list counts most) beats
    the textbook 60. Equal weights at k = 60 fused *below* keyword alone (recall@10
    0.551 vs 0.611); these defaults give 0.63, NDCG@10 0.48.
    """

    keyword: float = 1.0
    vector: float = 0.5
    graph: float = 0.25
    recency: float = 0.0
    importance: float = 0.0
    rrf_k: float = 2.0
    #: how many chunks each signal ranks before fusion
    pool: int = 200
    #: recency half-life in days
    half_life_days: float = 30.0

    @classmethod
    def from_settings(cls, settings: dict[str, Any]) -> Weights:
        known = set(cls.__dataclass_fields__)
        return cls(**{k: type(getattr(cls(), k))(v) for k, v in settings.items() if k in known})


@dataclass
class Snippet:
    heading: str
    text: str
    line: int


@dataclass
class Hit:
    """One note that answers a query."""

    path: str
    title: str
    score: float
    kind: str
    heading: str
    snippet: str
    why: dict[str, int]  # signal -> rank of this note in that signal (1 = first)
    age_days: float | None
    status: str | None
    date: str | None
    domain: str | None = None
    project: str | None = None
    snippets: list[Snippet] = field(default_factory=list)
    tokens: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class SearchResult:
    query: str
    hits: list[Hit]
    total_tokens: int
    truncated: bool  # some hits were left out to fit the token budget
    timings: dict[str, float]
    ranking: list[str] = field(default_factory=list)  # every ranked path, for evaluation

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "hits": [h.to_dict() for h in self.hits],
            "total_tokens": self.total_tokens,
            "truncated": self.truncated,
            "timings": self.timings,
        }


def query_terms(query: str) -> list[str]:
    """Lower-cased words of a query with stopwords dropped (kept if nothing else is left)."""
    words = [w.lower() for w in _TERM_RE.findall(query)]
    kept = [w for w in words if w not in STOPWORDS]
    seen: dict[str, None] = {}
    for w in kept or words:
        seen.setdefault(w, None)
    return list(seen)


def _age_days(date: str | None, now: dt.datetime) -> float | None:
    if not date:
        return None
    try:
        when = dt.datetime.fromisoformat(date)
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return max(0.0, (now - when).total_seconds() / 86400)


def _snippet(text: str, terms: list[str], width: int = 280) -> str:
    flat = " ".join(text.split())
    if len(flat) <= width:
        return flat
    lower = flat.lower()
    first = min((i for t in terms if (i := lower.find(t)) >= 0), default=0)
    start = max(0, first - width // 4)
    end = min(len(flat), start + width)
    return ("…" if start else "") + flat[start:end].strip() + ("…" if end < len(flat) else "")


def search(
    brain: Brain,
    query: str,
    scope: Scope | None = None,
    k: int = 10,
    max_tokens: int | None = None,
    weights: Weights | None = None,
    signals: tuple[str, ...] = ("keyword", "vector", "graph"),
    now: dt.datetime | None = None,
    full_ranking: bool = False,
) -> SearchResult:
    """Find the notes that best answer ``query``.

    Args:
        brain: the opened brain (its index should be synced).
        query: natural-language question or keywords.
        scope: filters on kind, domain, project, folder, tags, dates.
        k: at most this many hits.
        max_tokens: at most this many tokens of hits in total (estimated offline).
        weights: fusion weights; default from the vault's ``[search]`` settings.
        signals: which signals to use (``keyword``, ``vector``, ``graph``).
        now: the time ages are measured from.
        full_ranking: also return every ranked note's path (for evaluation).
    """
    timings: dict[str, float] = {}
    started = time.perf_counter()
    scope = _unless_named_private(brain, scope or Scope())
    weights = weights or Weights.from_settings(brain.vault.settings.search)
    backend = brain.backend
    terms = query_terms(query)
    allowed = backend.notes_in_scope(scope)  # None: every note
    ranks = _Ranks()
    if "keyword" in signals and weights.keyword > 0:
        t = time.perf_counter()
        ranks.add("keyword", backend.keyword_search(terms, scope, weights.pool))
        timings["keyword_ms"] = (time.perf_counter() - t) * 1000
    if "vector" in signals and weights.vector > 0:
        t = time.perf_counter()
        identity = backend.get_meta("embedder")
        if identity and backend.vector_count(identity):
            qvec = brain.embedder.embed_query(query)
            timings["embed_ms"] = (time.perf_counter() - t) * 1000
            similar = backend.nearest(identity, qvec, weights.pool, among=allowed)
            if similar:
                ranks.add("vector", similar)
        timings["vector_ms"] = (time.perf_counter() - t) * 1000
    fused = ranks.fuse(weights)
    if "graph" in signals and weights.graph > 0 and fused:
        t = time.perf_counter()
        ranks.lift_by_graph(backend, fused, allowed, weights)
        timings["graph_ms"] = (time.perf_counter() - t) * 1000

    now = now or dt.datetime.now(dt.UTC)
    order = sorted(fused.items(), key=lambda kv: -kv[1])
    notes = backend.notes_by_id(nid for nid, _ in order[: max(k * 3, 50)])
    if weights.recency > 0 or weights.importance > 0:
        order = _rescored(order, notes, weights, now)
    hits, total, truncated = _hits(backend, order[:k], notes, ranks, terms, max_tokens, now)
    ranking: list[str] = []
    if full_ranking:
        paths = backend.notes_by_id(nid for nid, _ in order)
        ranking = [paths[nid].path for nid, _ in order if nid in paths]
    timings["total_ms"] = (time.perf_counter() - started) * 1000
    return SearchResult(
        query, hits, total, truncated, {k_: round(v, 2) for k_, v in timings.items()}, ranking
    )


def _unless_named_private(brain: Brain, scope: Scope) -> Scope:
    """``scope``, leaving out the private domains and projects unless it names one of them."""
    private = tuple(sorted(private_names(brain.vault.settings)))
    if scope.exclude_private is None and not (set(scope.domains) | set(scope.projects)) & set(
        private
    ):
        return Scope(**{**asdict(scope), "exclude_private": private})
    return scope


@dataclass
class _Ranks:
    """Each signal's ranking of notes, and the chunks each note could show as snippets."""

    #: signal -> note id -> rank (1 = first)
    by_signal: dict[str, dict[int, int]] = field(default_factory=dict)
    #: note id -> (position in a signal's chunk ranking, chunk id): lower is shown first
    chunks: dict[int, list[tuple[float, int]]] = field(default_factory=dict)

    def add(self, signal: str, hits: list[ChunkHit]) -> None:
        """Rank notes by their best chunk in ``hits`` (best first)."""
        # snippets prefer what the vector signal ranked first, then keyword
        bias = 0.0 if signal == "vector" else 0.5
        note_rank: dict[int, int] = {}
        for position, hit in enumerate(hits):
            if hit.note_id not in note_rank:
                note_rank[hit.note_id] = len(note_rank) + 1
            self.chunks.setdefault(hit.note_id, []).append((position + bias, hit.chunk_id))
        self.by_signal[signal] = note_rank

    def fuse(self, weights: Weights) -> dict[int, float]:
        """Weighted reciprocal rank fusion: note id -> sum of ``w_s / (k + rank_s)``."""
        fused: dict[int, float] = {}
        for signal, note_rank in self.by_signal.items():
            w = getattr(weights, signal)
            for note_id, rank in note_rank.items():
                fused[note_id] = fused.get(note_id, 0.0) + w / (weights.rrf_k + rank)
        return fused

    def lift_by_graph(
        self,
        backend: IndexBackend,
        fused: dict[int, float],
        allowed: set[int] | None,
        weights: Weights,
    ) -> None:
        """Add the graph signal to ``fused``: notes near the five best, nearest first."""
        seeds = [nid for nid, _ in sorted(fused.items(), key=lambda kv: -kv[1])[:5]]
        near = proximity(backend, seeds, allowed=allowed)
        if near:
            graph_rank = {nid: i + 1 for i, nid in enumerate(near)}
            self.by_signal["graph"] = graph_rank
            for note_id, rank in graph_rank.items():
                fused[note_id] = fused.get(note_id, 0.0) + weights.graph / (weights.rrf_k + rank)


def _rescored(
    order: list[tuple[int, float]], notes: dict[int, NoteRow], weights: Weights, now: dt.datetime
) -> list[tuple[int, float]]:
    """``order`` with recency and importance added to the scores, sorted again."""
    rescored = []
    for nid, score in order:
        note = notes.get(nid)
        if note is not None:
            age = _age_days(note.date, now)
            if weights.recency > 0 and age is not None:
                score += weights.recency / weights.rrf_k * 0.5 ** (age / weights.half_life_days)
            if weights.importance > 0 and note.importance is not None:
                score += weights.importance / weights.rrf_k * float(note.importance)
        rescored.append((nid, score))
    return sorted(rescored, key=lambda kv: -kv[1])


def _hits(
    backend: IndexBackend,
    order: list[tuple[int, float]],
    notes: dict[int, NoteRow],
    ranks: _Ranks,
    terms: list[str],
    max_tokens: int | None,
    now: dt.datetime,
) -> tuple[list[Hit], int, bool]:
    """The hits of ``order``, best first, until ``max_tokens``: (hits, their tokens, truncated)."""
    chunk_ids = [cid for nid, _ in order for cid in _best_chunk_ids(ranks.chunks.get(nid, []))]
    chunks = backend.chunks_by_id(chunk_ids)
    hits: list[Hit] = []
    total = 0
    for nid, score in order:
        note = notes.get(nid) or backend.notes_by_id([nid])[nid]
        best = _best_chunk_ids(ranks.chunks.get(nid, []))
        picked = [chunks[cid] for cid in best if cid in chunks]
        snippets = [Snippet(c.heading, _snippet(c.text, terms), c.line) for c in picked]
        first = snippets[0] if snippets else Snippet("", "", 0)
        hit = Hit(
            path=note.path,
            title=note.title,
            score=round(score, 6),
            kind=note.kind,
            heading=first.heading,
            snippet=first.text,
            why={signal: r[nid] for signal, r in ranks.by_signal.items() if nid in r},
            age_days=None if (a := _age_days(note.date, now)) is None else round(a, 1),
            status=note.status,
            date=note.date,
            domain=note.domain,
            project=note.project,
            snippets=snippets,
        )
        hit.tokens = (
            estimate_tokens(" ".join([hit.title, hit.path, *(s.text for s in snippets)])) + 8
        )
        if max_tokens is not None and total + hit.tokens > max_tokens:
            return hits, total, True
        total += hit.tokens
        hits.append(hit)
    return hits, total, False


def _best_chunk_ids(candidates: list[tuple[float, int]], n: int = 2) -> list[int]:
    picked: list[int] = []
    for _, cid in sorted(candidates):
        if cid not in picked:
            picked.append(cid)
            if len(picked) == n:
                break
    return picked


__all__ = ["Hit", "SearchResult", "Snippet", "Weights", "query_terms", "search"]
