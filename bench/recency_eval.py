"""Should search's recency and importance lifts be on by default? LoCoMo decides.

    .venv/bin/python bench/locomo_eval.py --workdir /tmp/locomo-work   # once: builds the index
    .venv/bin/python bench/recency_eval.py [--workdir /tmp/locomo-work] [--json out.json]

This reuses the LoCoMo evaluation vault and index that ``bench/locomo_eval.py --workdir``
leaves (one note per turn, dated by its session's date and time; the question set is
categories 1-4). Every question goes through :func:`mnemex.retrieve.search.search` with the
keyword and vector signals (the "hybrid" of ``locomo_eval.py``), scoped to its conversation,
once per variant of :class:`~mnemex.retrieve.search.Weights`: the vault's ``[search]``
settings as they are (recency 0, importance 0), recency 0.1, 0.5, 1 and 2 with half-lives
of 7 and 30 days, and importance 0.5. Only those fields are changed.

Ages are measured from the conversation's end, not from the wall clock: ``search`` is
given ``now`` = the date and time of the conversation's last session (UTC, as the notes'
dates are read), so a turn of the last session has age 0 and one of the first session
166 to 293 days, depending on the conversation. Nothing in mnemex is patched: ``now`` is
an argument of ``search``.
LoCoMo's notes carry no ``importance``, so the importance variant must give exactly the
default's rankings; the script counts the questions whose ranking differs from the
default's, which shows it.

Printed as markdown: recall@5, recall@10, NDCG@10 and MRR for the temporal category (2)
and for all of categories 1-4, on the tuning half A (conversations 1-5 in file order) and
the held-out half B (6-10), with the number of questions whose NDCG@10 went up and down
against the default; then recall@10 per category; then where the gold evidence lies in
time (median age of the gold turns, and of all turns, at the conversation's end).
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import json
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from locomo_eval import outside_repo, saved_index
from mnemex.brain import Brain
from mnemex.embed import load_embedder
from mnemex.evaluate.locomo import CATEGORY_NAMES
from mnemex.evaluate.retrieval import aggregate, query_metrics
from mnemex.index.backend import Scope
from mnemex.retrieve.search import Weights, search
from mnemex.text.dates import parse_date
from mnemex.vault import Vault

SIGNALS = ("keyword", "vector")
SEARCH_K = 100
TEMPORAL = 2
KEYS = ("recall@5", "recall@10", "ndcg@10", "mrr")
#: name -> the Weights fields changed from the vault's [search] settings
VARIANTS: dict[str, dict[str, float]] = {
    "default (recency 0)": {},
    **{
        f"recency {r} / {h:g} d": {"recency": r, "half_life_days": h}
        for r in (0.1, 0.5, 1.0, 2.0)
        for h in (7.0, 30.0)
    },
    "importance 0.5": {"importance": 0.5},
}
BASE = "default (recency 0)"


def _when(raw: str | None) -> dt.datetime | None:
    iso = parse_date(raw) if raw else None
    if iso is None:
        return None
    when = dt.datetime.fromisoformat(iso)
    return when.replace(tzinfo=dt.UTC) if when.tzinfo is None else when


def run(workdir: Path) -> dict[str, Any]:
    data, slugs, doc_of, tuning = saved_index(workdir)
    dated = {(d.group, d.id): _when(d.date) for d in data.documents}
    now_of: dict[str, dt.datetime] = {}
    for (group, _doc), when in dated.items():
        if when is not None and (group not in now_of or when > now_of[group]):
            now_of[group] = when
    embedder = load_embedder("minilm")
    # the same query is embedded once for every variant (the embedding is deterministic)
    embedder.embed_query = functools.cache(embedder.embed_query)  # type: ignore[method-assign]
    rankings: dict[str, dict[str, list[str]]] = {name: {} for name in VARIANTS}
    seconds: dict[str, float] = {}
    with Brain(Vault(workdir / "vault"), embedder=embedder) as brain:
        base = Weights.from_settings(brain.vault.settings.search)
        for name, change in VARIANTS.items():
            weights = replace(base, **change)
            started = time.perf_counter()
            for q in data.queries:
                result = search(
                    brain,
                    q.text,
                    scope=Scope(projects=(slugs[q.group],)),
                    k=SEARCH_K,
                    signals=SIGNALS,
                    weights=weights,
                    now=now_of[q.group],
                    full_ranking=True,
                )
                rankings[name][q.id] = [doc_of[p] for p in result.ranking if p in doc_of]
            seconds[name] = time.perf_counter() - started
            print(f"{name:24} {seconds[name]:6.1f} s", file=sys.stderr)

    cells: dict[str, dict[str, Any]] = {}
    for name in VARIANTS:
        rows: dict[str, list[dict[str, float]]] = {}
        moved: dict[str, list[int]] = {}
        for q in data.queries:
            half = "A" if q.group in tuning else "B"
            metrics = query_metrics(rankings[name][q.id], q.relevant)
            base_ndcg = query_metrics(rankings[BASE][q.id], q.relevant)["ndcg@10"]
            delta = metrics["ndcg@10"] - base_ndcg
            changed = rankings[name][q.id] != rankings[BASE][q.id]
            for cell in (f"{half}/all", f"{half}/{q.category}"):
                rows.setdefault(cell, []).append(metrics)
                tally = moved.setdefault(cell, [0, 0, 0])
                tally[0] += delta > 1e-12
                tally[1] += delta < -1e-12
                tally[2] += changed
        cells[name] = {
            cell: {**aggregate(r), **dict(zip(("up", "down", "changed"), moved[cell], strict=True))}
            for cell, r in rows.items()
        }

    age = {key: (now_of[key[0]] - w).days for key, w in dated.items() if w is not None}
    gold_ages: dict[str, list[int]] = {}
    groups_of: dict[str, set[str]] = {}
    for q in data.queries:
        half = "A" if q.group in tuning else "B"
        for cell in (f"{half}/all", f"{half}/{q.category}"):
            gold_ages.setdefault(cell, []).extend(
                age[(q.group, d)] for d in q.relevant if (q.group, d) in age
            )
            groups_of.setdefault(cell, set()).add(q.group)
    ages = {
        cell: (
            statistics.median(gold),
            statistics.median(a for (g, _), a in age.items() if g in groups_of[cell]),
        )
        for cell, gold in gold_ages.items()
    }
    return {
        "cells": cells,
        "seconds": seconds,
        "now": {g: w.isoformat() for g, w in now_of.items()},
        "ages": ages,
    }


def report(out: dict[str, Any]) -> None:
    cells = out["cells"]
    tables = ((f"temporal (category {TEMPORAL})", str(TEMPORAL)), ("categories 1-4", "all"))
    for title, cat in tables:
        print(f"\n### {title}\n")
        head = " | ".join(f"{h} {k}" for h in "AB" for k in KEYS)
        print(f"| variant | {head} | B NDCG@10 up/down | B changed |")
        print("|---|" + "---:|" * (2 * len(KEYS) + 2))
        for name in VARIANTS:
            row = " | ".join(f"{cells[name][f'{h}/{cat}'][k]:.3f}" for h in "AB" for k in KEYS)
            b = cells[name][f"B/{cat}"]
            print(f"| {name} | {row} | {b['up']}/{b['down']} | {b['changed']}/{b['count']} |")
    cats = sorted({c.split("/")[1] for c in cells[BASE] if not c.endswith("/all")}, key=int)
    print("\n### recall@10 per category (A / B)\n")
    labels = " | ".join(f"{c} {CATEGORY_NAMES.get(int(c), '')}" for c in cats)
    print(f"| variant | {labels} |")
    print("|---|" + "---:|" * len(cats))
    for name in VARIANTS:
        row = " | ".join(
            f"{cells[name][f'A/{c}']['recall@10']:.3f} / {cells[name][f'B/{c}']['recall@10']:.3f}"
            for c in cats
        )
        print(f"| {name} | {row} |")
    print("\n### where the evidence lies: median age in days at the conversation's end\n")
    print("| half/category | questions | gold turns | all turns of their conversations |")
    print("|---|---:|---:|---:|")
    for cell in sorted(out["ages"]):
        gold, corpus = out["ages"][cell]
        print(f"| {cell} | {cells[BASE][cell]['count']} | {gold:.0f} | {corpus:.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/locomo-work"))
    parser.add_argument("--json", type=Path, help="also write every figure as JSON here")
    args = parser.parse_args()
    started = time.perf_counter()
    out = run(outside_repo(args.workdir))
    report(out)
    print(f"\nwall time {time.perf_counter() - started:.0f} s")
    if args.json:
        outside_repo(args.json).write_text(json.dumps(out, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
