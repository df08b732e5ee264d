"""The summary: the most central sentences of a source, and the key points after them.

Each sentence is scored by its tf-idf cosine with the whole document's centroid (a
cheap stand-in for TextRank's centrality: a sentence like many others is central),
times a prior that favours the opening. The best 3-6 (more for longer sources),
skipping near-repeats, are returned *most central first*, as the
:class:`~mnemex.ingest.records.Extraction` contract says; the key points are the next
best, in source order.
"""

from __future__ import annotations

import math
import re
from collections import Counter

from mnemex.ingest.extract.sentences import Sentence
from mnemex.ingest.extract.words import STOPWORDS, fold


def summarise(ranked: list[Sentence]) -> tuple[list[Sentence], list[Sentence]]:
    """The summary and the key points, from every body sentence ``ranked`` by centrality."""
    n_summary = min(6, max(3, round(2 + math.log2(1 + len(ranked) / 8))))
    summary = _pick_diverse(ranked, n_summary)
    picked = {s.position for s in summary}
    key_points = sorted(
        _pick_diverse([s for s in ranked if s.position not in picked], 5),
        key=lambda s: s.position,
    )
    return summary, key_points


def _terms(sentence: Sentence) -> list[str]:
    return [
        fold(t.lower())
        for t, _a, _b in sentence.tokens
        if len(t) > 2 and t.lower() not in STOPWORDS and not t[:1].isdigit()
    ]


def rank_sentences(body: list[Sentence]) -> list[Sentence]:
    """Sentences by centrality (tf-idf cosine with the centroid) times a position prior."""
    term_lists = [_terms(s) for s in body]
    df: Counter[str] = Counter()
    for terms in term_lists:
        df.update(set(terms))
    n = len(body)
    idf = {t: math.log(1 + n / c) for t, c in df.items()}
    vectors = []
    centroid: Counter[str] = Counter()
    for terms in term_lists:
        vec = {t: c * idf[t] for t, c in Counter(terms).items()}
        vectors.append(vec)
        centroid.update(vec)
    c_norm = math.sqrt(sum(v * v for v in centroid.values())) or 1.0
    scored = []
    for s, vec in zip(body, vectors, strict=True):
        words = len(s.tokens)
        if words < 6 or words > 70 or s.text.endswith("?") or re.match(r"^[QA]:", s.text):
            quality = 0.2
        else:
            quality = 1.0
        norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
        cosine = sum(w * centroid[t] for t, w in vec.items()) / (norm * c_norm)
        prior = 1.0 + 0.5 / (1 + s.position / 3)
        scored.append((cosine * prior * quality, -s.position, s))
    scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
    return [s for _score, _pos, s in scored]


def _pick_diverse(ranked: list[Sentence], k: int) -> list[Sentence]:
    """The first ``k`` of ``ranked`` that do not repeat one already picked (Jaccard > 0.5)."""
    picked: list[Sentence] = []
    seen: list[set[str]] = []
    for s in ranked:
        if len(picked) >= k:
            break
        terms = set(_terms(s))
        if len(s.tokens) < 5 or any(_jaccard(terms, other) > 0.5 for other in seen):
            continue
        picked.append(s)
        seen.append(terms)
    return picked


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


__all__ = ["rank_sentences", "summarise"]
