"""Fit the fusion's weights on the tuning halves, with the evidence ``search`` computes (issue 16).

    python bench/fusion_fit.py [--workdir /tmp/locomo-work] [--json out.json] [--cache f.pkl]

For every question of both sets it asks :func:`mnemex.retrieve.search.score_chunks` once
for its candidate chunks and their evidence (cosine, coverage, keyword rank), then ranks
them again by every point of a grid of weights:

    score = cosine + beta * coverage ** power + gamma / (2 + keyword rank)

and scores each ranking as the two evaluations do: sections of the typing PEPs for the
paraphrase set (``bench/paraphrase_eval.py``), notes for LoCoMo (``bench/locomo_eval.py``,
whose index this reuses from ``--workdir``). The objective is measured on the tuning
halves only (paraphrases whose target PEP is in the tuning half; LoCoMo conversations
1-5): the mean of their recall@10, with NDCG@10 breaking ties. Prints the best points
with every half, so what was chosen on the tuning halves is seen on the others.
``--cache`` keeps the evidence (about 2.5 minutes to collect on 2 cores) for the next run.
What it found, and the default it chose, are in ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import pickle
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent))

from locomo_eval import saved_index
from paraphrase_eval import QUERIES
from peps_eval import answers, peps_brain

BETAS = (0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0)
POWERS = (1.0, 1.5, 2.0, 3.0, 4.0)
GAMMAS = (0.0, 0.05, 0.1, 0.2, 0.4)


@dataclass
class Question:
    """One question's candidates: their evidence, and which target each one answers."""

    set: str  # paraphrase | locomo
    half: str  # tuning | other
    kind: str  # question type or LoCoMo category
    cosine: npt.NDArray[np.float64]
    coverage: npt.NDArray[np.float64]
    keyword: npt.NDArray[np.float64]  # 1 / (2 + keyword rank), 0 when not ranked
    unit: npt.NDArray[np.int64]  # the section / note each candidate belongs to
    held: npt.NDArray[np.float64]  # candidate x term: 1 where the candidate holds the term
    idf: npt.NDArray[np.float64]  # each query term's IDF
    target: dict[int, int]  # unit -> the target it answers (first one)
    n_targets: int

    def metrics(self, score: npt.NDArray[np.float64]) -> tuple[float, float]:
        """recall@10 and NDCG@10 of the units, each ranked by its best candidate."""
        best: dict[int, float] = {}
        for u, s in zip(self.unit.tolist(), score.tolist(), strict=True):
            if s > best.get(u, -math.inf):
                best[u] = s
        order = sorted(best, key=lambda u: (-best[u], u))[:10]
        found: set[int] = set()
        dcg = 0.0
        for i, u in enumerate(order):
            t = self.target.get(u)
            if t is not None and t not in found:
                found.add(t)
                dcg += 1.0 / math.log2(i + 2)
        ideal = sum(1.0 / math.log2(i + 2) for i in range(min(self.n_targets, 10)))
        return len(found) / self.n_targets, dcg / ideal


def _question(scored: Any, unit_of: dict[int, int], target: dict[int, int], **kw: Any) -> Question:
    cids = list(scored.evidence)
    ev = [scored.evidence[c] for c in cids]
    terms = list(scored.idf)
    held = np.array([[t in e.terms for t in terms] for e in ev], dtype=np.float64)
    return Question(
        held=held.reshape(len(cids), len(terms)),
        idf=np.array([scored.idf[t] for t in terms]),
        cosine=np.array([e.cosine or 0.0 for e in ev]),
        coverage=np.array([e.coverage for e in ev]),
        keyword=np.array([1.0 / (2 + e.keyword_rank) if e.keyword_rank else 0.0 for e in ev]),
        unit=np.array([unit_of[c] for c in cids], dtype=np.int64),
        target=target,
        **kw,
    )


def paraphrase_questions() -> list[Question]:
    from mnemex.index.backend import Scope
    from mnemex.retrieve.search import Weights, score_chunks

    queries = json.loads(QUERIES.read_text(encoding="utf-8"))["queries"]
    out = []
    with peps_brain("mnemex-fit-") as brain:
        backend = brain.backend
        for q in queries:
            scored = score_chunks(brain, q["text"], Scope(), Weights())
            chunks = backend.chunks_by_id(scored.evidence)
            notes = backend.notes_by_id({c.note_id for c in chunks.values()})
            sections: dict[tuple[str, str], int] = {}
            unit_of: dict[int, int] = {}
            target: dict[int, int] = {}
            for cid, chunk in chunks.items():
                key = (Path(notes[chunk.note_id].path).stem, chunk.heading)
                u = unit_of[cid] = sections.setdefault(key, len(sections))
                for n, t in enumerate(q["targets"]):
                    if answers(key[0], key[1], [t]):
                        target.setdefault(u, n)
            half = "tuning" if q["half"] == "tuning" else "other"
            out.append(
                _question(
                    scored,
                    unit_of,
                    target,
                    set="paraphrase",
                    half=half,
                    kind=q["type"],
                    n_targets=len(q["targets"]),
                )
            )
    return out


def locomo_questions(workdir: Path) -> list[Question]:
    from mnemex.brain import Brain
    from mnemex.embed import load_embedder
    from mnemex.index.backend import Scope
    from mnemex.retrieve.search import Weights, score_chunks
    from mnemex.vault import Vault

    data, slugs, doc_of, tuning = saved_index(workdir)
    out = []
    with Brain(Vault(workdir / "vault"), embedder=load_embedder("minilm")) as brain:
        backend = brain.backend
        for q in data.queries:
            scope = Scope(projects=(slugs[q.group],))
            allowed = backend.notes_in_scope(scope)
            scored = score_chunks(brain, q.text, scope, Weights(), allowed=allowed)
            notes = backend.notes_by_id({e.note_id for e in scored.evidence.values()})
            relevant = sorted(set(q.relevant))
            unit_of = {cid: e.note_id for cid, e in scored.evidence.items()}
            target = {}
            for nid, note in notes.items():
                doc = doc_of.get(note.path)
                if doc in relevant:
                    target[nid] = relevant.index(doc)
            out.append(
                _question(
                    scored,
                    unit_of,
                    target,
                    set="locomo",
                    half="tuning" if q.group in tuning else "other",
                    kind=str(q.category),
                    n_targets=len(relevant),
                )
            )
    return out


def evaluate(questions: list[Question], beta: float, power: float, gamma: float) -> dict[str, Any]:
    cells: dict[str, list[tuple[float, float]]] = {}
    for q in questions:
        score = q.cosine + beta * q.coverage**power + gamma * q.keyword
        row = q.metrics(score)
        for key in (f"{q.set} {q.half}", f"{q.set} all", f"{q.set} {q.kind}"):
            cells.setdefault(key, []).append(row)
    return {
        key: (
            round(sum(r for r, _ in rows) / len(rows), 3),
            round(sum(n for _, n in rows) / len(rows), 3),
        )
        for key, rows in sorted(cells.items())
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/locomo-work"))
    parser.add_argument("--json", type=Path, help="write every grid point's figures here")
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument("--cache", type=Path, help="keep the questions' evidence in this file")
    args = parser.parse_args(argv)
    if args.cache and args.cache.exists():
        questions = pickle.loads(args.cache.read_bytes())
    else:
        questions = paraphrase_questions() + locomo_questions(args.workdir)
        if args.cache:
            args.cache.write_bytes(pickle.dumps(questions))
    points = []
    for beta, power, gamma in itertools.product(BETAS, POWERS, GAMMAS):
        if beta == 0 and power != POWERS[0]:
            continue
        figures = evaluate(questions, beta, power, gamma)
        tuned = [figures["paraphrase tuning"], figures["locomo tuning"]]
        objective = (sum(r for r, _ in tuned) / 2, sum(n for _, n in tuned) / 2)
        points.append({"beta": beta, "power": power, "gamma": gamma,
                       "objective": objective, "figures": figures})  # fmt: skip
    points.sort(key=lambda p: p["objective"], reverse=True)
    for p in points[: args.top]:
        f = p["figures"]
        print(
            f"beta {p['beta']:<4} power {p['power']:<3} gamma {p['gamma']:<4}"
            f" objective {p['objective'][0]:.3f}/{p['objective'][1]:.3f} |"
            f" para tuning {f['paraphrase tuning']} other {f['paraphrase other']} |"
            f" locomo A {f['locomo tuning']} B {f['locomo other']} all {f['locomo all']}"
        )
    if args.json:
        args.json.write_text(json.dumps(points, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
