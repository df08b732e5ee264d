"""Hybrid search: keyword (BM25) + vector + graph proximity, fused by strength, not rank.

Each signal proposes its ``pool`` best chunks. A candidate chunk then scores what it
holds, whichever signal proposed it::

    score = vector * cosine + coverage * share ** coverage_power     (1 * cos + 3 * share^2)

``cosine`` is its vector's similarity to the query's; ``share`` is the part of the
query's IDF (``ln((N + 1) / (df + 0.5))`` per term, over the index's chunks) that the
chunk's words hold, matched as keyword search matches them (stems). A chunk holding one
common word of a long question gains little; one holding its rare words, or all of them,
gains much. Reciprocal-rank fusion, which this replaced, gave a stray keyword at rank 1
as much as the vector signal's best match (issue 16). A note scores its best chunk; the
graph signal then lifts notes linked to the five best by ``graph / (rrf_k + rank)``.
With one signal the chunks keep that signal's order. Each hit's ``why`` shows the parts.

The weights were fitted on the tuning halves of LoCoMo and of a paraphrase set over the
typing PEPs (``bench/fusion_fit.py``) and checked on the other halves; the figures, and
what was tried and left, are in ``docs/benchmarks.md``. An optional reranker re-orders
the best hits (:mod:`mnemex.retrieve.rerank`). Recency and importance are off by default.

An answer is one hit per note with its best chunks as snippets, bounded by ``k`` and by a
token budget.
"""

from __future__ import annotations

import datetime as dt
import math
import re
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from mnemex.brain import Brain
from mnemex.facts.claims import fold as fold_statement
from mnemex.index.backend import ChunkHit, IndexBackend, NoteRow, Scope
from mnemex.retrieve.factlabels import NOT_CURRENT, repeats, served_facts
from mnemex.retrieve.graph import proximity
from mnemex.retrieve.rerank import Reranker, load_reranker
from mnemex.retrieve.stopwords import STOPWORDS
from mnemex.text.tokens import estimate_tokens
from mnemex.vault.privacy import private_names

_TERM_RE = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class Weights:
    """How much each signal counts in the fusion (the module docstring has the formula).

    Fitted on the tuning halves of LoCoMo (conversations 1-5) and of the PEP paraphrase
    set (``bench/fusion_fit.py``; figures in docs/benchmarks.md): coverage 3, power 2
    gave LoCoMo recall@10 0.66 (0.63 with the reciprocal-rank fusion it replaced) and the
    paraphrases 0.29 (0.25), where vector search alone finds 0.35.
    """

    #: weight of a chunk's cosine with the query
    vector: float = 1.0
    #: weight of the share of the query's IDF a chunk holds, and the power it is raised to
    coverage: float = 3.0
    coverage_power: float = 2.0
    #: weight of the link graph's lift (``graph / (rrf_k + rank)``), and of recency and
    #: importance (off unless shown to win; not yet on either set)
    graph: float = 0.25
    recency: float = 0.0
    importance: float = 0.0
    #: the rank offset of the graph lift (and of keyword-only scores)
    rrf_k: float = 2.0
    #: how many chunks each signal proposes
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
    #: signal -> this note's rank in it (1 = first), and its best chunk's ``cosine``,
    #: ``coverage`` and matched ``terms``: the parts of its score
    why: dict[str, Any]
    age_days: float | None
    status: str | None
    date: str | None
    domain: str | None = None
    project: str | None = None
    snippets: list[Snippet] = field(default_factory=list)
    tokens: int = 0
    #: for a fact file: the facts served, each with its label on ``as_of``
    facts: list[dict[str, Any]] | None = None

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
    rerank: bool = True,
    as_of: dt.date | None = None,
    recorded_as_of: dt.date | None = None,
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
        rerank: re-order the best hits with the reranker ``[search.rerank]`` configures
            (none by default; see :mod:`mnemex.retrieve.rerank`).
        as_of: the day fact hits are labelled for (default today): current, past, ...
        recorded_as_of: serve facts as the brain believed them at the end of this day.

    Raises:
        RerankError: a reranker is configured and ``rerank`` is true, but it failed.
    """
    started = time.perf_counter()
    scope = _unless_named_private(brain, scope or Scope())
    weights = weights or Weights.from_settings(brain.vault.settings.search)
    backend = brain.backend
    allowed = backend.notes_in_scope(scope)  # None: every note
    scored = score_chunks(brain, query, scope, weights, signals, allowed=allowed)
    timings = scored.timings
    fused = scored.by_note()
    if "graph" in signals and weights.graph > 0 and fused:
        t = time.perf_counter()
        scored.lift_by_graph(backend, fused, allowed, weights)
        timings["graph_ms"] = (time.perf_counter() - t) * 1000

    now = now or dt.datetime.now(dt.UTC)
    order = sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))
    notes = backend.notes_by_id(nid for nid, _ in order[: max(k * 3, 50)])
    if weights.recency > 0 or weights.importance > 0:
        order = _rescored(order, notes, weights, now)
    reranker = load_reranker(brain.vault.settings.search) if rerank else None
    if reranker is not None and order:
        t = time.perf_counter()
        order = _reranked(reranker, backend, query, order, notes, scored)
        timings["rerank_ms"] = (time.perf_counter() - t) * 1000
    hits, total, truncated = _hits(backend, order[:k], notes, scored, max_tokens, now)
    if any(h.kind == "facts" for h in hits):
        hits = _label_fact_hits(brain, hits, scored.terms, as_of, recorded_as_of)
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


@dataclass(frozen=True)
class Evidence:
    """What one chunk has going for it: the parts of its score, shown in a hit's ``why``."""

    note_id: int
    keyword_rank: int | None  # its place in the keyword (BM25) ranking, 1 = first
    vector_rank: int | None  # its place in the vector ranking
    cosine: float | None  # similarity of its vector to the query's (None: no vector signal)
    coverage: float  # the share of the query's IDF it holds (0-1)
    terms: frozenset[str]  # the query terms it holds


@dataclass
class ScoredChunks:
    """Every candidate chunk of one query, its fused score and its evidence."""

    score: dict[int, float]
    evidence: dict[int, Evidence]
    #: the query's terms, as keyword search and coverage read them
    terms: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    #: signal -> note id -> rank of the note in that signal (1 = first), for ``why``
    note_ranks: dict[str, dict[int, int]] = field(default_factory=dict)
    #: each query term's IDF over the index (empty without the keyword signal)
    idf: dict[str, float] = field(default_factory=dict)
    #: note id -> the reranker's score, for the notes it re-scored
    reranked: dict[int, float] = field(default_factory=dict)

    #: note id -> its candidate chunks, best first
    note_chunks: dict[int, list[int]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        for cid in sorted(self.score, key=lambda c: (-self.score[c], c)):
            self.note_chunks.setdefault(self.evidence[cid].note_id, []).append(cid)

    def by_note(self) -> dict[int, float]:
        """Note id -> the score of its best chunk."""
        return {nid: self.score[cids[0]] for nid, cids in self.note_chunks.items()}

    def chunks_of(self, note_id: int, n: int = 2) -> list[int]:
        """The note's ``n`` best chunks, best first."""
        return self.note_chunks.get(note_id, [])[:n]

    def lift_by_graph(
        self,
        backend: IndexBackend,
        fused: dict[int, float],
        allowed: set[int] | None,
        weights: Weights,
    ) -> None:
        """Add the graph signal to ``fused``: notes near the five best, nearest first."""
        seeds = [nid for nid, _ in sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))[:5]]
        near = proximity(backend, seeds, allowed=allowed)
        if near:
            graph_rank = {nid: i + 1 for i, nid in enumerate(near)}
            self.note_ranks["graph"] = graph_rank
            for note_id, rank in graph_rank.items():
                fused[note_id] = fused.get(note_id, 0.0) + weights.graph / (weights.rrf_k + rank)


def score_chunks(
    brain: Brain,
    query: str,
    scope: Scope,
    weights: Weights,
    signals: tuple[str, ...] = ("keyword", "vector"),
    allowed: set[int] | None = None,
) -> ScoredChunks:
    """Rank the chunks in ``scope`` for ``query`` by the fusion of :class:`Weights`.

    The candidates are the ``pool`` best chunks of each signal. With both signals a
    chunk scores ``vector x cosine + coverage x share ** coverage_power``, where
    ``share`` is the part of the query's IDF that the chunk's words cover: a chunk that
    holds one common word of a long question gains little, one that holds its rare
    words or all of them gains much, and a chunk the vector signal did not rank keeps
    its own (lower) cosine. With one signal the chunks keep that signal's order.
    """
    timings: dict[str, float] = {}
    backend = brain.backend
    terms = query_terms(query)
    keyword: list[ChunkHit] = []
    similar: list[ChunkHit] = []
    if "keyword" in signals:
        t = time.perf_counter()
        keyword = backend.keyword_search(terms, scope, weights.pool)
        timings["keyword_ms"] = (time.perf_counter() - t) * 1000
    identity = backend.get_meta("embedder") if "vector" in signals else None
    qvec = None
    if identity and backend.vector_count(identity):
        t = time.perf_counter()
        qvec = brain.embedder.embed_query(query)
        timings["embed_ms"] = (time.perf_counter() - t) * 1000
        similar = backend.nearest(identity, qvec, weights.pool, among=allowed)
        timings["vector_ms"] = (time.perf_counter() - t) * 1000
    note_of = {h.chunk_id: h.note_id for h in [*keyword, *similar]}
    keyword_rank = {h.chunk_id: n for n, h in enumerate(keyword, 1)}
    vector_rank = {h.chunk_id: n for n, h in enumerate(similar, 1)}
    cosine = {h.chunk_id: h.score for h in similar}
    if qvec is not None and identity and keyword:
        missing = {h.chunk_id for h in keyword if h.chunk_id not in cosine}
        if missing:
            table = backend.vectors_of(identity, chunks=missing)
            if len(table.chunk_ids):  # an empty table may not have the query's width
                for cid, value in zip(table.chunk_ids, table.matrix @ qvec, strict=True):
                    if int(cid) in keyword_rank:
                        cosine.setdefault(int(cid), float(value))
    t = time.perf_counter()
    idf, share, held = _coverage(backend, terms, note_of) if keyword else ({}, {}, {})
    timings["coverage_ms"] = (time.perf_counter() - t) * 1000
    evidence = {
        cid: Evidence(
            nid,
            keyword_rank.get(cid),
            vector_rank.get(cid),
            None if qvec is None else cosine.get(cid, 0.0),
            share.get(cid, 0.0),
            held.get(cid, frozenset()),
        )
        for cid, nid in note_of.items()
    }
    if qvec is None:  # keyword only: BM25's order
        score = {cid: 1.0 / (weights.rrf_k + rank) for cid, rank in keyword_rank.items()}
    elif not keyword:  # vector only: the cosine's order
        score = dict(cosine)
    else:
        score = {
            cid: weights.vector * cosine.get(cid, 0.0)
            + weights.coverage * share.get(cid, 0.0) ** weights.coverage_power
            for cid in note_of
        }
    result = ScoredChunks(score, evidence, terms, timings, idf=idf)
    for signal, ranked in (("keyword", keyword), ("vector", similar)):
        if ranked:
            note_rank: dict[int, int] = {}
            for hit in ranked:
                note_rank.setdefault(hit.note_id, len(note_rank) + 1)
            result.note_ranks[signal] = note_rank
    return result


def _coverage(
    backend: IndexBackend, terms: list[str], chunks: dict[int, int]
) -> tuple[dict[str, float], dict[int, float], dict[int, frozenset[str]]]:
    """Each term's IDF, each chunk's share of the query's IDF, and the terms it holds."""
    stats = backend.term_stats(terms, chunks)
    idf = {t: math.log((stats.chunks + 1) / (stats.df.get(t, 0) + 0.5)) for t in terms}
    total = sum(idf.values())
    if total <= 0:
        return idf, {}, stats.held
    share = {cid: sum(idf[t] for t in held) / total for cid, held in stats.held.items()}
    return idf, share, stats.held


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


def _reranked(
    reranker: Reranker,
    backend: IndexBackend,
    query: str,
    order: list[tuple[int, float]],
    notes: dict[int, NoteRow],
    scored: ScoredChunks,
) -> list[tuple[int, float]]:
    """``order`` with its ``top`` best notes sorted by the reranker's score of each note's
    title and best chunk (recorded as ``why["rerank"]``); the rest keep their places after."""
    head = order[: reranker.settings.top]
    best = {nid: scored.chunks_of(nid, 1) for nid, _ in head}
    chunks = backend.chunks_by_id(cid for ids in best.values() for cid in ids)
    missing = [nid for nid, _ in head if nid not in notes]
    notes = {**notes, **(backend.notes_by_id(missing) if missing else {})}
    documents = [
        "\n".join([notes[nid].title, *(chunks[c].text for c in best[nid] if c in chunks)]).strip()
        for nid, _ in head
    ]
    relevance = reranker.scores(query, documents)
    scored.reranked = {nid: value for (nid, _), value in zip(head, relevance, strict=True)}
    ranked = sorted(zip(head, relevance, strict=True), key=lambda p: (-p[1], p[0][0]))
    return [pair for pair, _ in ranked] + order[len(head) :]


def _hits(
    backend: IndexBackend,
    order: list[tuple[int, float]],
    notes: dict[int, NoteRow],
    scored: ScoredChunks,
    max_tokens: int | None,
    now: dt.datetime,
) -> tuple[list[Hit], int, bool]:
    """The hits of ``order``, best first, until ``max_tokens``: (hits, their tokens, truncated)."""
    best = {nid: scored.chunks_of(nid) for nid, _ in order}
    chunks = backend.chunks_by_id(cid for ids in best.values() for cid in ids)
    hits: list[Hit] = []
    total = 0
    for nid, score in order:
        note = notes.get(nid) or backend.notes_by_id([nid])[nid]
        picked = [chunks[cid] for cid in best[nid] if cid in chunks]
        snippets = [Snippet(c.heading, _snippet(c.text, scored.terms), c.line) for c in picked]
        first = snippets[0] if snippets else Snippet("", "", 0)
        hit = Hit(
            path=note.path,
            title=note.title,
            score=round(score, 6),
            kind=note.kind,
            heading=first.heading,
            snippet=first.text,
            why=_why(nid, best[nid][0] if best[nid] else None, scored),
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


def _label_fact_hits(
    brain: Brain,
    hits: list[Hit],
    terms: list[str],
    as_of: dt.date | None,
    recorded_as_of: dt.date | None,
) -> list[Hit]:
    """Fact hits re-snippeted with their facts labelled for ``as_of`` (see
    :mod:`mnemex.retrieve.factlabels`), re-ranked, and wiki lines that only repeat them left out."""
    day = as_of or dt.datetime.now(dt.UTC).date()
    out: list[Hit] = []
    statements: list[str] = []
    for hit in hits:
        served = (
            served_facts(brain.vault, hit.path, terms, day, recorded_as_of)
            if hit.kind == "facts"
            else None
        )
        if served is None:
            out.append(hit)
            continue
        if not served:
            continue  # nothing of it was recorded yet
        hit.snippets = [Snippet(f.heading, f.text, 0) for f in served]
        hit.heading, hit.snippet = served[0].heading, served[0].text
        hit.status, hit.facts = served[0].label, [f.fields for f in served]
        if not served[0].current:
            hit.score = round(hit.score * NOT_CURRENT, 6)
        statements.extend(fold_statement(f.fields["statement"]) for f in served)
        out.append(hit)
    if statements:
        out = [
            h
            for h in out
            if h.kind == "facts"
            or not repeats([s.text for s in h.snippets] or [h.snippet], statements)
        ]
    out.sort(key=lambda h: -h.score)
    return out


def _why(note_id: int, chunk_id: int | None, scored: ScoredChunks) -> dict[str, Any]:
    """Why a note ranks where it does: its rank in each signal, and its best chunk's cosine,
    coverage and the query terms that chunk holds (the parts of its score)."""
    why: dict[str, Any] = {
        signal: ranks[note_id] for signal, ranks in scored.note_ranks.items() if note_id in ranks
    }
    if note_id in scored.reranked:
        why["rerank"] = round(scored.reranked[note_id], 4)
    if chunk_id is not None:
        ev = scored.evidence[chunk_id]
        if ev.cosine is not None:
            why["cosine"] = round(ev.cosine, 4)
        if "keyword" in scored.note_ranks:
            why["coverage"] = round(ev.coverage, 4)
            why["terms"] = sorted(ev.terms)
    return why


__all__ = [
    "Evidence",
    "Hit",
    "ScoredChunks",
    "SearchResult",
    "Snippet",
    "Weights",
    "query_terms",
    "score_chunks",
    "search",
]
