"""Candidate fusions of keyword and vector search, outside ``search`` (issue 16).

    python bench/fusion_explore.py --set paraphrase
    python bench/fusion_explore.py --set locomo --workdir /tmp/locomo-work

Collects, once per question, the keyword hits (BM25 scores) and the vector hits (cosines)
that ``search`` would fuse, then ranks them by each candidate formula of :data:`FUSIONS`
and scores the rankings: on the paraphrase set (``bench/paraphrase_eval.py``: sections,
per half), or on LoCoMo (``bench/locomo_eval.py``'s index, reused from ``--workdir``,
which that script fills; notes, halves A and B). Prints recall@10 / NDCG@10 per formula.
``search`` itself is untouched: this is where a formula is chosen before it goes there.

*relative* is min-max score fusion (each signal's scores spread over 0-1, weighted);
*BM25 x cos* boosts a keyword hit by its share of the best BM25 times its own cosine (the
signals agreeing); *coverage* is the share of the query's IDF (over every chunk of the
index) that a keyword hit's text covers, words cut to the crude stem of
``bench/paraphrase_check.py``: added to the cosine (*cosine + beta x coverage^p*), as the
weight of RRF's keyword term (*RRF, keyword x coverage*), or added and scaled by the best
hit's coverage (*trusted coverage*).
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from locomo_eval import saved_index
from paraphrase_check import QUERIES, stem
from paraphrase_eval import query_row, target_ranking
from peps_eval import peps_brain

#: keyword hits, vector hits (id -> score, best first), query stems -> fused scores
Fusion = Callable[[dict[int, float], dict[int, float], set[str]], dict[int, float]]


def _words(text: str) -> set[str]:
    return {stem(w) for w in re.findall(r"[a-z0-9_]+", text.lower()) if len(w) > 1}


class Coverage:
    """The IDF share of a query a text covers, IDF over the texts given."""

    def __init__(self, texts: dict[int, str]) -> None:
        self.words = {key: _words(text) for key, text in texts.items()}
        self.df = collections.Counter(w for ws in self.words.values() for w in ws)
        self.n = len(self.words)

    def idf(self, word: str) -> float:
        return math.log((self.n + 1) / (self.df.get(word, 0) + 0.5))

    def __call__(self, query: set[str], key: int) -> float:
        total = sum(self.idf(w) for w in query) or 1.0
        return sum(self.idf(w) for w in query if w in self.words.get(key, ())) / total


def fusions(coverage: Coverage, rrf_k: float) -> dict[str, Fusion]:
    def rrf(wk: float, wv: float) -> Fusion:
        def fuse(k: dict[int, float], v: dict[int, float], _q: set[str]) -> dict[int, float]:
            out: dict[int, float] = {}
            for rank, key in enumerate(k, 1):
                out[key] = out.get(key, 0.0) + wk / (rrf_k + rank)
            for rank, key in enumerate(v, 1):
                out[key] = out.get(key, 0.0) + wv / (rrf_k + rank)
            return out

        return fuse

    def boost(beta: float, power: float) -> Fusion:
        def fuse(k: dict[int, float], v: dict[int, float], q: set[str]) -> dict[int, float]:
            out = dict(v)
            floor = min(out.values(), default=0.0)
            for key in k:
                out[key] = out.get(key, floor) + beta * coverage(q, key) ** power
            return out

        return fuse

    def relative(alpha: float) -> Fusion:
        def fuse(k: dict[int, float], v: dict[int, float], _q: set[str]) -> dict[int, float]:
            out: dict[int, float] = {}
            for weight, hits in ((alpha, k), (1 - alpha, v)):
                if hits:
                    low, high = min(hits.values()), max(hits.values())
                    for key, x in hits.items():
                        share = (x - low) / (high - low) if high > low else 1.0
                        out[key] = out.get(key, 0.0) + weight * share
            return out

        return fuse

    def agreement(beta: float) -> Fusion:
        def fuse(k: dict[int, float], v: dict[int, float], _q: set[str]) -> dict[int, float]:
            out = dict(v)
            floor = min(out.values(), default=0.0)
            best = max(k.values(), default=1.0) or 1.0
            for key, x in k.items():
                cosine = out.get(key, floor)
                out[key] = cosine + beta * (x / best) * max(cosine, 0.0)
            return out

        return fuse

    def covered_rrf(wk: float, wv: float, power: float) -> Fusion:
        """RRF whose keyword term counts as far as the hit covers the query."""

        def fuse(k: dict[int, float], v: dict[int, float], q: set[str]) -> dict[int, float]:
            out: dict[int, float] = {}
            for rank, key in enumerate(k, 1):
                out[key] = out.get(key, 0.0) + wk * coverage(q, key) ** power / (rrf_k + rank)
            for rank, key in enumerate(v, 1):
                out[key] = out.get(key, 0.0) + wv / (rrf_k + rank)
            return out

        return fuse

    def trusted_boost(beta: float, power: float) -> Fusion:
        """The coverage boost, scaled by how far the best keyword hit covers the query."""

        def fuse(k: dict[int, float], v: dict[int, float], q: set[str]) -> dict[int, float]:
            out = dict(v)
            floor = min(out.values(), default=0.0)
            shares = {key: coverage(q, key) for key in k}
            trust = max(shares.values(), default=0.0) ** power
            for key, share in shares.items():
                out[key] = out.get(key, floor) + beta * trust * share
            return out

        return fuse

    def gated_boost(beta: float, power: float, gate: float) -> Fusion:
        """The coverage boost, only when the best keyword hit covers ``gate`` of the query."""

        def fuse(k: dict[int, float], v: dict[int, float], q: set[str]) -> dict[int, float]:
            out = dict(v)
            floor = min(out.values(), default=0.0)
            shares = {key: coverage(q, key) for key in k}
            if max(shares.values(), default=0.0) < gate:
                return out
            for key, share in shares.items():
                out[key] = out.get(key, floor) + beta * share**power
            return out

        return fuse

    def doubt_boost(beta: float, power: float) -> Fusion:
        """The coverage boost, weighed by how unsure the vector signal is (1 - best cosine)."""

        def fuse(k: dict[int, float], v: dict[int, float], q: set[str]) -> dict[int, float]:
            out = dict(v)
            floor = min(out.values(), default=0.0)
            doubt = 1.0 - max(out.values(), default=0.0)
            for key in k:
                out[key] = out.get(key, floor) + beta * doubt * coverage(q, key) ** power
            return out

        return fuse

    return {
        "gated coverage (1.5, 1.5, 0.5)": gated_boost(1.5, 1.5, 0.5),
        "gated coverage (1.5, 1.5, 0.7)": gated_boost(1.5, 1.5, 0.7),
        "doubt coverage (3, 1.5)": doubt_boost(3.0, 1.5),
        "doubt coverage (3, 2)": doubt_boost(3.0, 2),
        "today's RRF (1 : 0.5, k 2)": rrf(1.0, 0.5),
        "RRF, keyword x coverage (1)": covered_rrf(1.0, 0.5, 1),
        "RRF, keyword x coverage^2 (2)": covered_rrf(2.0, 0.5, 2),
        "RRF, keyword x coverage^2 (2:1)": covered_rrf(2.0, 1.0, 2),
        "cosine + trusted coverage (1, 2)": trusted_boost(1.0, 2),
        "cosine + trusted coverage (2, 3)": trusted_boost(2.0, 3),
        "cosine + trusted coverage (1, 4)": trusted_boost(1.0, 4),
        "cosine + 1.5 x coverage^1.5": boost(1.5, 1.5),
        "cosine + 3 x coverage^3": boost(3.0, 3),
        "RRF 0.5 : 1": rrf(0.5, 1.0),
        "relative 0.2 : 0.8": relative(0.2),
        "cosine + 0.1 x BM25 x cos": agreement(0.1),
        "keyword only": rrf(1.0, 0.0),
        "vector only": rrf(0.0, 1.0),
        "cosine + 1 x coverage": boost(1.0, 1),
        "cosine + 2 x coverage^2": boost(2.0, 2),
        "cosine + 1 x coverage^3": boost(1.0, 3),
    }


def paraphrase(pool: int) -> None:
    from mnemex.index.backend import Scope
    from mnemex.retrieve.search import Weights, query_terms

    queries = json.loads(QUERIES.read_text(encoding="utf-8"))["queries"]
    weights = Weights()
    with peps_brain("mnemex-fusion-") as brain:
        backend = brain.backend
        table = backend.vectors_of(backend.get_meta("embedder"))
        rows = backend.chunks_by_id(int(c) for c in table.chunk_ids)
        notes = backend.notes_by_id({r.note_id for r in rows.values()})
        coverage = Coverage({cid: f"{r.heading}\n{r.text}" for cid, r in rows.items()})
        runs = []
        for q in queries:
            k = {h.chunk_id: h.score for h in backend.keyword_search(
                query_terms(q["text"]), Scope(), pool)}  # fmt: skip
            scores = table.matrix @ brain.embedder.embed_query(q["text"])
            order = scores.argsort()[::-1][:pool]
            v = {int(table.chunk_ids[i]): float(scores[i]) for i in order}
            runs.append((q, k, v, {stem(t) for t in query_terms(q["text"])}))
    for name, fuse in fusions(coverage, weights.rrf_k).items():
        cells = []
        for half in ("tuning", "report"):
            picked = []
            for q, k, v, terms in runs:
                if q["half"] != half:
                    continue
                fused = fuse(k, v, terms)
                seen: dict[tuple[str, str], None] = {}
                for cid in sorted(fused, key=lambda c: -fused[c]):
                    row = rows[cid]
                    seen.setdefault((Path(notes[row.note_id].path).stem, row.heading), None)
                ranking = target_ranking(list(seen), q["targets"])
                picked.append(query_row(ranking, len(q["targets"])))
            cells.append(_cell(picked))
        print(f"{name:<28} tuning {cells[0]}   report {cells[1]}")


def locomo(workdir: Path, pool: int) -> None:
    from mnemex.brain import Brain
    from mnemex.embed import load_embedder
    from mnemex.evaluate.retrieval import query_metrics
    from mnemex.index.backend import Scope
    from mnemex.retrieve.search import Weights, query_terms
    from mnemex.vault import Vault

    data, slugs, doc_of, half_a = saved_index(workdir)
    weights = Weights()
    with Brain(Vault(workdir / "vault"), embedder=load_embedder("minilm")) as brain:
        backend = brain.backend
        identity = backend.get_meta("embedder")
        rows = backend.chunks_by_id(int(c) for c in backend.vectors_of(identity).chunk_ids)
        coverage = Coverage({r.note_id: r.text for r in rows.values()})
        notes = backend.notes_by_id(coverage.words)
        runs = []
        for q in data.queries:
            scope = Scope(projects=(slugs[q.group],))
            allowed = backend.notes_in_scope(scope)
            k: dict[int, float] = {}
            for h in backend.keyword_search(query_terms(q.text), scope, pool):
                k.setdefault(h.note_id, h.score)
            v: dict[int, float] = {}
            qvec = brain.embedder.embed_query(q.text)
            for h in backend.nearest(identity, qvec, pool, among=allowed):
                v.setdefault(h.note_id, h.score)
            runs.append((q, k, v, {stem(t) for t in query_terms(q.text)}))
    for name, fuse in fusions(coverage, weights.rrf_k).items():
        cells = []
        for half in ("A", "B"):
            picked = []
            for q, k, v, terms in runs:
                if (q.group in half_a) != (half == "A"):
                    continue
                fused = fuse(k, v, terms)
                order = sorted(fused, key=lambda n: -fused[n])
                ranking = [doc_of[notes[n].path] for n in order if notes[n].path in doc_of]
                picked.append(query_metrics(ranking, q.relevant, (10,)))
            cells.append(_cell(picked))
        print(f"{name:<28} A {cells[0]}   B {cells[1]}")


def _cell(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "-"
    recall = sum(r["recall@10"] for r in rows) / len(rows)
    ndcg = sum(r["ndcg@10"] for r in rows) / len(rows)
    return f"{recall:.3f} / {ndcg:.3f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=("paraphrase", "locomo"), required=True)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/locomo-work"))
    parser.add_argument("--pool", type=int, default=200)
    args = parser.parse_args(argv)
    if args.set == "paraphrase":
        paraphrase(args.pool)
    else:
        locomo(args.workdir, args.pool)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
