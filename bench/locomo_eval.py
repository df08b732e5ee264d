"""LoCoMo retrieval, end to end: convert, index once, score keyword / vector / hybrid.

Reads ``locomo10.json`` from ``../shared/data/`` next to the repository, or from
``$MNEMEX_LOCOMO``; writes the converted data and the evaluation vault into a
temporary folder (or ``--workdir``, which must be outside the repository), never
into the repository. Conversations 1-5 in file order are the tuning half "A",
6-10 the held-out half "B"; categories 1-4 (the standard set).

    .venv/bin/python bench/locomo_eval.py [--workdir /tmp/locomo-work] [--json out.json]

Prints markdown tables: recall@5, recall@10, NDCG@10 and MRR for each signal set
on A, B and all; then per category for the default hybrid on all.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mnemex.embed import load_embedder
from mnemex.evaluate.locomo import CATEGORY_NAMES, convert_locomo
from mnemex.evaluate.retrieval import load_dataset, run_retrieval_eval

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data" / "locomo10.json"
SIGNALS = {
    "keyword": ("keyword",),
    "vector": ("vector",),
    "hybrid": ("keyword", "vector"),
}
KEYS = ("recall@5", "recall@10", "ndcg@10", "mrr")


def locate_data() -> Path:
    explicit = os.environ.get("MNEMEX_LOCOMO")
    path = Path(explicit) if explicit else DEFAULT_DATA
    if not path.is_file():
        sys.exit(f"LoCoMo not found at {path}: set MNEMEX_LOCOMO to locomo10.json")
    return path


def outside_repo(path: Path) -> Path:
    resolved = path.expanduser().resolve()
    if resolved == REPO or REPO in resolved.parents:
        sys.exit(f"{path} is inside the repository; LoCoMo data must stay outside it")
    return resolved


def saved_index(workdir: Path) -> tuple[Any, dict[str, str], dict[str, str], set[str]]:
    """The dataset and index a ``--workdir`` run left: (dataset, group -> project slug,
    note path -> document id, the tuning half's groups)."""
    from mnemex.evaluate.retrieval import note_paths

    if not (workdir / "vault").is_dir():
        sys.exit(f"no LoCoMo index in {workdir}: run bench/locomo_eval.py --workdir {workdir}")
    data = load_dataset(workdir / "dataset")
    slugs, paths = note_paths(data.documents)
    doc_of = {path: doc for (_group, doc), path in paths.items()}
    return data, slugs, doc_of, set(list(dict.fromkeys(q.group for q in data.queries))[:5])


def run(workdir: Path, json_out: Path | None) -> dict[str, Any]:
    data_dir = workdir / "dataset"
    stats = convert_locomo(locate_data(), data_dir)
    print(
        f"converted: {stats['conversations']} conversations, {stats['turns']} turns, "
        f"{stats['questions']} questions ({stats['dropped']} dropped, "
        f"{stats['malformed_normalised']} malformed evidence ids normalised, "
        f"{stats['unknown_evidence']} unknown ids dropped)",
        file=sys.stderr,
    )
    groups = load_dataset(data_dir).groups
    splits = {"A": groups[:5], "B": groups[5:], "all": None}
    embedder = load_embedder("minilm")
    results: dict[str, dict[str, Any]] = {}
    for split, chosen in splits.items():
        for name, signals in SIGNALS.items():
            started = time.perf_counter()
            result = run_retrieval_eval(
                data_dir,
                signals=signals,
                groups=chosen,
                workdir=workdir / "vault",
                embedder=embedder,
            )
            results[f"{split}/{name}"] = result
            print(
                f"{split:>3} {name:8} {time.perf_counter() - started:6.1f} s "
                f"(index {result['timings']['index_seconds']:.1f} s)",
                file=sys.stderr,
            )
    print("| split | signals | n | " + " | ".join(KEYS) + " |")
    print("|---|---|---:|" + "---:|" * len(KEYS))
    for split in splits:
        for name in SIGNALS:
            overall = results[f"{split}/{name}"]["overall"]
            cells = " | ".join(f"{overall[k]:.3f}" for k in KEYS)
            print(f"| {split} | {name} | {overall['count']} | {cells} |")
    print()
    print("| category (all, hybrid) | n | " + " | ".join(KEYS) + " |")
    print("|---|---:|" + "---:|" * len(KEYS))
    for category, metrics in results["all/hybrid"]["by_category"].items():
        label = f"{category} {CATEGORY_NAMES.get(int(category), '')}".strip()
        cells = " | ".join(f"{metrics[k]:.3f}" for k in KEYS)
        print(f"| {label} | {metrics['count']} | {cells} |")
    timings = results["all/hybrid"]["timings"]
    print()
    print(
        f"hybrid query latency: p50 {timings['query_ms_p50']:.1f} ms, "
        f"p95 {timings['query_ms_p95']:.1f} ms ({timings['queries']} queries, "
        f"{timings['documents']} documents)"
    )
    if json_out is not None:
        json_out.write_text(json.dumps({"convert": stats, **results}, indent=2), encoding="utf-8")
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--workdir",
        type=Path,
        help="keep the converted data and index here (outside the repo) to reuse them",
    )
    parser.add_argument("--json", type=Path, help="also write every result as JSON here")
    args = parser.parse_args()
    json_out = outside_repo(args.json) if args.json else None
    if args.workdir:
        workdir = outside_repo(args.workdir)
        workdir.mkdir(parents=True, exist_ok=True)
        run(workdir, json_out)
    else:
        with tempfile.TemporaryDirectory(prefix="mnemex-locomo-") as tmp:
            run(Path(tmp), json_out)


if __name__ == "__main__":
    main()
