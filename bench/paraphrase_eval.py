"""Retrieval on paraphrased questions over the typing PEPs: keyword, vector, hybrid (issue 16).

    python bench/paraphrase_eval.py [--json out.json] [--queries FILE]

The queries (``bench/data/peps_paraphrase.json``) were written by reading the PEPs, each
sharing at most one stemmed content word with the section that answers it
(``bench/paraphrase_check.py`` checks that), so keyword search alone can reach its target
by one word at most. Each has a type (``paraphrase``, ``identifier``, ``multi-part``,
``name``) and a half (``tuning``: targets in the 1st, 3rd, 5th... PEP in sorted order,
the half fusion may be fitted on; ``report``: the rest, reported only).

The PEPs become a vault as in ``bench/peps_eval.py`` (read at run time, never copied),
indexed once with the default MiniLM embedder. For every query each chunk is ranked by
keyword search only, by vector similarity only, and by the fusion ``search`` uses
(weighted reciprocal rank of both, the vault's default weights), then collapsed to
sections (a note and its heading path, counted once at its best chunk). A section
answers when one of the query's target sections is on its heading path; a multi-part
query has two targets. Per mode, over all queries, per type and per half:

- ``recall@5``, ``recall@10``: the share of a query's targets among the first 5 / 10
  sections;
- ``ndcg@10``: binary gain, targets as the ideal;
- ``mrr``: one over the rank of the first answering section.

Deterministic for a given index; the run takes a minute or two (the embedding).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peps_eval import PEPS, answers, section_ranking, write_vault

REPO = Path(__file__).resolve().parents[1]
QUERIES = REPO / "bench" / "data" / "peps_paraphrase.json"
MODES = {"keyword": ("keyword",), "vector": ("vector",), "hybrid": ("keyword", "vector")}


def target_ranking(sections: list[tuple[str, str]], targets: list[dict[str, str]]) -> list[str]:
    """The section ranking as ids: ``t0``, ``t1``... for a section answering that target
    (first time only), a distinct id for any other section."""
    ranking: list[str] = []
    for n, (stem, heading) in enumerate(sections):
        hit = next((f"t{k}" for k, t in enumerate(targets) if answers(stem, heading, [t])), None)
        ranking.append(hit if hit is not None and hit not in ranking else f"s{n}")
    return ranking


def query_row(ranking: list[str], n_targets: int) -> dict[str, float]:
    from mnemex.evaluate.retrieval import ndcg_at, recall_at

    gold = {f"t{k}" for k in range(n_targets)}
    first = next((i for i, r in enumerate(ranking, 1) if r in gold), 0)
    return {
        "recall@5": recall_at(ranking, gold, 5),
        "recall@10": recall_at(ranking, gold, 10),
        "ndcg@10": ndcg_at(ranking, gold, 10),
        "mrr": 1 / first if first else 0.0,
    }


def _mean(rows: list[dict[str, float]]) -> dict[str, float]:
    keys = ("recall@5", "recall@10", "ndcg@10", "mrr")
    return {k: round(sum(r[k] for r in rows) / len(rows), 3) if rows else 0.0 for k in keys}


def evaluate(root: Path, queries: list[dict[str, Any]]) -> dict[str, Any]:
    from mnemex.brain import Brain
    from mnemex.embed import load_embedder
    from mnemex.retrieve.search import Weights
    from mnemex.vault import Vault

    write_vault(root)
    weights = Weights()
    rows: dict[str, list[tuple[dict[str, Any], dict[str, float]]]] = {m: [] for m in MODES}
    with Brain(Vault(root), embedder=load_embedder("minilm")) as brain:
        brain.sync()
        for q in queries:
            for mode, signals in MODES.items():
                sections = section_ranking(brain, q["text"], weights, signals)
                ranking = target_ranking(sections, q["targets"])
                rows[mode].append((q, query_row(ranking, len(q["targets"]))))
    figures: dict[str, Any] = {"queries": len(queries), "modes": {}}
    for mode, pairs in rows.items():
        groups: dict[str, Any] = {"all": _mean([r for _q, r in pairs])}
        for field in ("type", "half"):
            for value in sorted({q[field] for q, _r in pairs}):
                picked = [r for q, r in pairs if q[field] == value]
                groups[f"{field}={value}"] = {**_mean(picked), "n": len(picked)}
        figures["modes"][mode] = groups
    figures["per_query"] = {
        q["id"]: {mode: rows[mode][n][1]["recall@10"] for mode in MODES}
        for n, q in enumerate(queries)
    }
    return figures


def print_table(figures: dict[str, Any]) -> None:
    groups = list(figures["modes"]["hybrid"])
    print(f"{figures['queries']} queries; recall@10 / ndcg@10 by section")
    print(f"{'group':<22}" + "".join(f"{m:>20}" for m in MODES))
    for g in groups:
        cells = []
        for m in MODES:
            f = figures["modes"][m][g]
            cells.append(f"{f['recall@10']:.3f} / {f['ndcg@10']:.3f}")
        n = figures["modes"]["hybrid"][g].get("n", figures["queries"])
        print(f"{g + f' ({n})':<22}" + "".join(f"{c:>20}" for c in cells))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--queries", type=Path, default=QUERIES)
    args = parser.parse_args(argv)
    if not PEPS.is_dir():
        sys.exit(f"the typing PEPs are not at {PEPS}")
    queries = json.loads(args.queries.read_text(encoding="utf-8"))["queries"]
    with tempfile.TemporaryDirectory(prefix="mnemex-paraphrase-") as tmp:
        figures = evaluate(Path(tmp) / "vault", queries)
    print_table(figures)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
