"""Speed and memory benchmarks of mnemex against its targets.

    python bench/bench_speed.py                      # everything, 10,000 notes (~43k chunks)
    python bench/bench_speed.py --notes 23000        # ~100k chunks, the size of the search target
    python bench/bench_speed.py --only search,noop   # some of: embed search noop edit memory cli
    python bench/bench_speed.py --profile            # also write cProfile reports to bench/out/

Measurements (see bench/README.md for what each means and why it is set up so):

a. ``search``  hybrid search p50/p95, warm, in process, query embedding included
b. ``noop``    a second sync of the 10k-note vault with nothing changed
c. ``edit``    one note edited, then sync (real MiniLM embeds the changed chunk)
d. ``embed``   MiniLM throughput, chunks/s at ~64 and ~256 word pieces
e. ``memory``  peak RSS of a fresh process that opens the brain and searches
f. ``cli``     ``mnemex --vault V search "q" --json`` wall time, demo vault and 10k vault

The 100k-chunk index is built once with *stored vectors*: the vault is synced
with a fast :class:`~mnemex.embed.hashing.HashingEmbedder` (384 dimensions)
that carries the MiniLM embedder's identity string, so the index believes its
vectors are MiniLM's; searches then embed the query with the real MiniLM. The
vault and index are kept in ``--workdir`` and reused by later runs.

Results: a markdown table on stdout and ``bench/out/speed.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import json
import os
import platform
import pstats
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import make_vault  # noqa: E402

OUT = HERE / "out"
VENV_BIN = Path(sys.executable).parent
ALL = ("embed", "search", "noop", "edit", "memory", "cli")


# -- helpers ------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """Linear-interpolated percentile, q in [0, 100]."""
    s = sorted(values)
    if not s:
        return float("nan")
    pos = (len(s) - 1) * q / 100
    lo = int(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


@contextlib.contextmanager
def maybe_profile(enabled: bool, name: str) -> Iterator[None]:
    """cProfile the block into bench/out/profile-<name>.txt when enabled."""
    if not enabled:
        yield
        return
    prof = cProfile.Profile()
    prof.enable()
    try:
        yield
    finally:
        prof.disable()
        buf = io.StringIO()
        stats = pstats.Stats(prof, stream=buf).strip_dirs()
        stats.sort_stats("cumulative").print_stats(35)
        stats.sort_stats("tottime").print_stats(25)
        OUT.mkdir(parents=True, exist_ok=True)
        (OUT / f"profile-{name}.txt").write_text(buf.getvalue(), encoding="utf-8")
        log(f"  profile written to {OUT / f'profile-{name}.txt'}")


class Results:
    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []
        self.extra: dict[str, Any] = {}

    def add(
        self,
        key: str,
        label: str,
        runs: list[float],
        unit: str,
        target: float | None,
        higher_is_better: bool = False,
        value: float | None = None,
        **details: Any,
    ) -> dict[str, Any]:
        median = statistics.median(runs) if value is None else value
        passed = None
        if target is not None:
            passed = median >= target if higher_is_better else median <= target
        row = {
            "key": key,
            "label": label,
            "median": median,
            "unit": unit,
            "target": target,
            "target_op": ">=" if higher_is_better else "<=",
            "pass": passed,
            "runs": runs,
            **details,
        }
        self.rows.append(row)
        verdict = "" if passed is None else (" PASS" if passed else " FAIL")
        log(f"  {label}: {fmt(median, unit)}{verdict}  runs={[round(r, 3) for r in runs]}")
        return row

    def table(self) -> str:
        lines = [
            "| measurement | median | target | pass/fail |",
            "|---|---:|---:|:---:|",
        ]
        for r in self.rows:
            target = (
                "—" if r["target"] is None else f"{r['target_op']} {fmt(r['target'], r['unit'])}"
            )
            verdict = "info" if r["pass"] is None else ("pass" if r["pass"] else "**FAIL**")
            lines.append(f"| {r['label']} | {fmt(r['median'], r['unit'])} | {target} | {verdict} |")
        return "\n".join(lines)


def fmt(value: float, unit: str) -> str:
    if unit == "ms":
        return f"{value:.1f} ms"
    if unit == "s":
        return f"{value:.2f} s"
    if unit == "MB":
        return f"{value:.0f} MB"
    if unit == "chunks/s":
        return f"{value:.0f} chunks/s"
    return f"{value:.3g} {unit}"


# -- the vault and its 100k-chunk index ---------------------------------------------------


def disguised_hashing_embedder() -> Any:
    """A HashingEmbedder(384) that says it is MiniLM, so its vectors stand in for MiniLM's."""
    from mnemex.embed.hashing import HashingEmbedder
    from mnemex.embed.minilm import MiniLMEmbedder

    fake = HashingEmbedder(dim=MiniLMEmbedder.dim)
    fake.identity = MiniLMEmbedder.identity
    return fake


def prepare_vault(workdir: Path, notes: int, seed: int) -> tuple[Path, dict[str, Any]]:
    """The benchmark vault with its index, generated and indexed once, then reused."""
    from mnemex.brain import Brain
    from mnemex.vault import Vault

    root = workdir / f"vault-{notes}-s{seed}"
    marker = workdir / f"vault-{notes}-s{seed}.ready.json"
    from mnemex.index.backend import SCHEMA_VERSION

    if marker.exists() and (root / ".mnemex" / "index.sqlite").exists():
        info: dict[str, Any] = json.loads(marker.read_text())
        if info.get("schema") == SCHEMA_VERSION:
            log(f"reusing {root} ({info['chunks']} chunks)")
            return root, info
        log("index schema changed since the last run: rebuilding")
    if root.exists():
        shutil.rmtree(root)
    log(f"generating {notes} notes into {root} ...")
    t = time.perf_counter()
    make_vault.generate(root, notes, seed)
    gen_s = time.perf_counter() - t
    log(f"  generated in {gen_s:.1f} s; indexing with stored (hashing) vectors ...")
    t = time.perf_counter()
    with Brain(Vault(root), embedder=disguised_hashing_embedder()) as brain:
        result = brain.sync()
        stats = brain.backend.stats()
    index_s = time.perf_counter() - t
    info = {
        "schema": SCHEMA_VERSION,
        "notes": stats.notes,
        "chunks": stats.chunks,
        "links": stats.links,
        "unresolved_links": stats.unresolved_links,
        "vectors": stats.vectors,
        "index_bytes": stats.bytes,
        "generate_seconds": round(gen_s, 1),
        "index_seconds_hashing": round(index_s, 1),
        "sync": result.to_dict() | {"report": None},
    }
    log(f"  indexed in {index_s:.1f} s: {info['chunks']} chunks, {info['links']} links")
    marker.write_text(json.dumps(info, indent=2, default=str))
    return root, info


# -- d. embedder throughput ---------------------------------------------------------------


def texts_of_tokens(embedder: Any, target: int, n: int, seed: int = 3) -> list[str]:
    """``n`` distinct texts of about ``target`` word pieces (counted with [CLS]/[SEP])."""
    gen = make_vault.Generator(200, seed)
    note = gen.notes[0]
    out: list[str] = []
    while len(out) < n:
        # count_tokens truncates at the model's 256-piece window, so: grow until the
        # text reaches the target, then drop words while it still does
        words: list[str] = []
        while embedder.count_tokens(" ".join(words)) < target:
            words += gen.sentence(note, links=0.0, tags=0.0).split()
        while len(words) > 1 and embedder.count_tokens(" ".join(words[:-1])) >= target:
            words.pop()
        out.append(" ".join(words))
    return out


def bench_embed(res: Results, runs: int, profile: bool, sweep: bool) -> None:
    from mnemex.embed.minilm import MiniLMEmbedder

    log("d. embedder throughput (MiniLM, embed_documents)")
    emb = MiniLMEmbedder()
    for target, goal, nruns in ((64, 150.0, max(runs, 5)), (256, 30.0, max(runs, 3))):
        texts = texts_of_tokens(emb, target, 256)
        tokens = [emb.count_tokens(t) for t in texts]
        emb.embed_documents(texts[:32])  # warm-up
        rates = []
        for _ in range(nruns):
            t = time.perf_counter()
            emb.embed_documents(texts)
            rates.append(len(texts) / (time.perf_counter() - t))
        with maybe_profile(profile, f"embed-{target}"):
            if profile:
                emb.embed_documents(texts)
        res.add(
            f"embed_{target}",
            f"d. MiniLM throughput, ~{target} tokens",
            rates,
            "chunks/s",
            goal,
            higher_is_better=True,
            texts=len(texts),
            tokens_mean=round(statistics.mean(tokens), 1),
            chars_mean=round(statistics.mean(len(t) for t in texts), 1),
            batch_size=emb.batch_size,
            batch_tokens=getattr(emb, "batch_tokens", None),
        )
        if sweep:
            sweep_batches(res, emb, texts, target)


def sweep_batches(res: Results, emb: Any, texts: list[str], target: int, rounds: int = 3) -> None:
    """Throughput for other batch sizes (no word-piece cap), round-robin so noise hits all alike."""
    saved = (emb.batch_size, emb.batch_tokens)
    configs = [(size, 1 << 30) for size in (1, 2, 4, 8, 16, 32)] + [saved]
    rates: dict[tuple[int, int], list[float]] = {c: [] for c in configs}
    try:
        for _ in range(rounds):
            for config in configs:
                emb.batch_size, emb.batch_tokens = config
                t = time.perf_counter()
                emb.embed_documents(texts)
                rates[config].append(len(texts) / (time.perf_counter() - t))
    finally:
        emb.batch_size, emb.batch_tokens = saved
    table = []
    for (size, pieces), r in rates.items():
        label = "current" if (size, pieces) == saved else "no word-piece cap"
        median = statistics.median(r)
        table.append({"batch_size": size, "batch_tokens": pieces, "chunks_per_s": round(median, 1)})
        log(f"    sweep ~{target} tok: batch_size={size:3d} ({label}) -> {median:.0f} chunks/s")
    res.extra[f"embed_sweep_{target}"] = table


# -- a. search ----------------------------------------------------------------------------


def bench_search(res: Results, root: Path, queries: list[str], runs: int, profile: bool) -> None:
    from mnemex.brain import Brain
    from mnemex.retrieve import search

    log(f"a. hybrid search, warm, in process ({len(queries)} queries x {runs} rounds)")
    with Brain.open(root) as brain:
        t = time.perf_counter()
        for q in queries[:5]:  # warm-up: model, vector matrix, graph adjacency
            search(brain, q, k=10)
        warm_s = time.perf_counter() - t
        p50s, p95s, all_ms = [], [], []
        parts: dict[str, list[float]] = {}
        hits = []
        for _ in range(runs):
            lat = []
            for q in queries:
                t = time.perf_counter()
                result = search(brain, q, k=10)
                lat.append((time.perf_counter() - t) * 1000)
                hits.append(len(result.hits))
                for name, ms in result.timings.items():
                    parts.setdefault(name, []).append(ms)
            p50s.append(percentile(lat, 50))
            p95s.append(percentile(lat, 95))
            all_ms += lat
        with maybe_profile(profile, "search"):
            if profile:
                for q in queries:
                    search(brain, q, k=10)
        # the query embedding alone, for the breakdown
        emb = brain.embedder
        embed_ms = []
        for q in queries:
            t = time.perf_counter()
            emb.embed_query(q)
            embed_ms.append((time.perf_counter() - t) * 1000)
    breakdown = {name: round(statistics.median(v), 2) for name, v in parts.items()}
    breakdown["embed_query_alone_ms"] = round(statistics.median(embed_ms), 2)
    res.add(
        "search_p50",
        "a. hybrid search p50 (100k chunks, warm, incl. query embedding)",
        p50s,
        "ms",
        50.0,
        breakdown_median_ms=breakdown,
        warmup_seconds=round(warm_s, 2),
        mean_hits=round(statistics.mean(hits), 2),
        max_ms=round(max(all_ms), 1),
    )
    res.add("search_p95", "a. hybrid search p95", p95s, "ms", None)
    log(f"  breakdown (median ms): {breakdown}")


# -- b. no-op resync ---------------------------------------------------------------------


def bench_noop(res: Results, root: Path, runs: int, profile: bool) -> None:
    from mnemex.brain import Brain

    log("b. no-op resync")
    with Brain.open(root) as brain:
        brain.sync()  # make sure it is up to date
        secs = []
        for _ in range(runs):
            t = time.perf_counter()
            result = brain.sync()
            secs.append(time.perf_counter() - t)
            counts = result.report.to_dict()
            assert result.embedded == 0, result.to_dict()
        with maybe_profile(profile, "noop"):
            if profile:
                brain.sync()
        loaded = brain.embedder_loaded
    res.add(
        "noop_sync",
        "b. no-op resync, 10k notes",
        secs,
        "s",
        2.0,
        counts=counts,
        embedder_loaded=loaded,
    )


# -- c. one changed note ---------------------------------------------------------------------


def pick_note(root: Path) -> Path:
    """A mid-sized wiki note with a 'Facts' list (an entity page)."""
    for path in sorted((root / "wiki" / "general" / "entities").glob("*.md")):
        if "## Facts" in path.read_text(encoding="utf-8"):
            return path
    raise SystemExit("no entity note to edit")


def bench_edit(res: Results, root: Path, runs: int, profile: bool) -> None:
    from mnemex.brain import Brain
    from mnemex.retrieve import search

    log("c. one note changed, sync with real MiniLM")
    target = pick_note(root)
    original = target.read_text(encoding="utf-8")
    secs, embedded, embed_s, search_after = [], [], [], []
    with Brain.open(root) as brain:
        brain.sync()
        emb = brain.embedder  # loaded before timing, as in a long-running server
        real = emb.embed_documents
        spent = [0.0]

        def timed_embed(texts: Any, progress: Any = None) -> Any:
            t = time.perf_counter()
            try:
                return real(texts, progress=progress)
            finally:
                spent[0] += time.perf_counter() - t

        emb.embed_documents = timed_embed  # type: ignore[method-assign]
        search(brain, "warm up the search", k=10)
        try:
            for i in range(runs + (1 if profile else 0)):
                nonce = f"{time.time_ns()}-{i}"
                text = original.replace(
                    "## Facts\n",
                    f"## Facts\n\n- Edited on run {i} ({nonce}): the quarterly review moved"
                    " to Thursday and the budget owner changed.\n",
                    1,
                )
                target.write_text(text, encoding="utf-8")
                spent[0] = 0.0
                with maybe_profile(profile and i == runs, "edit"):
                    t = time.perf_counter()
                    result = brain.sync()
                    elapsed = time.perf_counter() - t
                if i == runs:
                    break  # the profiled run is not counted
                secs.append(elapsed)
                embedded.append(result.embedded)
                embed_s.append(spent[0])
                t = time.perf_counter()
                search(brain, "quarterly review budget owner", k=10)
                search_after.append(time.perf_counter() - t)
        finally:
            target.write_text(original, encoding="utf-8")
            brain.sync()
    res.add(
        "edit_sync",
        "c. one changed note re-indexed (MiniLM)",
        secs,
        "s",
        0.300,
        note=str(target.relative_to(root)),
        chunks_embedded=embedded,
        embed_seconds=[round(s, 4) for s in embed_s],
    )
    res.add(
        "search_after_edit",
        "c'. first search after an edit (vector matrix reload)",
        [s * 1000 for s in search_after],
        "ms",
        None,
    )


# -- e. peak memory -------------------------------------------------------------------------------

MEMORY_CHILD = """
import json, resource, sys, time
from mnemex.brain import Brain
from mnemex.retrieve import search
queries = json.loads(sys.argv[2])
with Brain.open(sys.argv[1]) as brain:
    t = time.perf_counter()
    identity = brain.backend.get_meta("embedder")
    table = brain.backend.vectors_of(identity)
    load_s = time.perf_counter() - t
    for q in queries:
        search(brain, q, k=10)
    rows = int(table.matrix.shape[0])
print(json.dumps({"maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  "vectors": rows, "vector_load_s": load_s}))
"""


def bench_memory(res: Results, root: Path, queries: list[str], runs: int) -> None:
    log("e. peak memory of a fresh process (open, load vectors, search)")
    mbs, loads = [], []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", MEMORY_CHILD, str(root), json.dumps(queries[:20])],
            capture_output=True,
            text=True,
            check=True,
        )
        data = json.loads(out.stdout.strip().splitlines()[-1])
        mbs.append(data["maxrss_kb"] / 1024)
        loads.append(data["vector_load_s"])
    res.add(
        "peak_rss",
        "e. peak RSS, open 100k-chunk brain + searches",
        mbs,
        "MB",
        1536.0,
        vectors=data["vectors"],
        vector_load_seconds=[round(x, 3) for x in loads],
    )


# -- f. one-shot CLI -------------------------------------------------------------------------------


def mnemex_exe() -> list[str]:
    exe = VENV_BIN / "mnemex"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "mnemex.cli"]


def time_cli(vault: Path, query: str, runs: int) -> list[float]:
    cmd = [*mnemex_exe(), "--vault", str(vault), "search", query, "--json"]
    env = {**os.environ, "MNEMEX_CONFIG": str(vault / "no-user-config.toml")}
    env.pop("MNEMEX_VAULT", None)
    secs = []
    for i in range(runs + 1):
        t = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
        elapsed = time.perf_counter() - t
        if out.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed:\n{out.stderr}")
        json.loads(out.stdout)
        if i:  # the first run only warms the page cache
            secs.append(elapsed)
    return secs


def bench_cli(res: Results, root: Path, workdir: Path, runs: int) -> None:
    log("f. one-shot CLI search, including start-up")
    demo = workdir / "demo-vault"
    if not (demo / ".mnemex" / "index.sqlite").exists():
        if demo.exists():
            shutil.rmtree(demo)
        subprocess.run(
            [*mnemex_exe(), "demo", "--path", str(demo), "--json"],
            capture_output=True,
            check=True,
        )
    small = time_cli(demo, "how do we roll back a bad release", runs)
    res.add("cli_demo", "f. CLI search, demo vault (incl. start-up)", small, "s", 1.5)
    big = time_cli(root, "what did we decide about the release rollback", runs)
    res.add("cli_10k", "f. CLI search, 10k-note vault (incl. start-up)", big, "s", 1.5)
    # what start-up alone costs: interpreter + imports, no vault work
    t = time.perf_counter()
    subprocess.run([*mnemex_exe(), "--version"], capture_output=True, check=True)
    version_s = time.perf_counter() - t
    imp = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import mnemex.cli.app, mnemex.retrieve"],
        capture_output=True,
        text=True,
        check=True,
    )
    res.extra["cli_version_seconds"] = round(version_s, 3)
    res.extra["importtime_top_us"] = top_imports(imp.stderr, 12)


def top_imports(stderr: str, n: int) -> list[tuple[str, int]]:
    """The ``n`` imports with the largest cumulative time from ``python -X importtime``."""
    rows = []
    for line in stderr.splitlines():
        if not line.startswith("import time:"):
            continue
        parts = line[len("import time:") :].split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((parts[2].rstrip(), int(parts[1])))
    return sorted(rows, key=lambda r: -r[1])[:n]


# -- main --------------------------------------------------------------------------------


def environment(info: dict[str, Any] | None) -> dict[str, Any]:
    import numpy
    import onnxruntime

    return {
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "python": sys.version.split()[0],
        "numpy": numpy.__version__,
        "onnxruntime": onnxruntime.__version__,
        "sqlite": sqlite3.sqlite_version,
        "vault": info,
        "date": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "loadavg_end": os.getloadavg(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--workdir",
        type=Path,
        default=Path(tempfile.gettempdir()) / "mnemex-bench",
        help="where the generated vaults and indexes live (reused between runs)",
    )
    parser.add_argument("--notes", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--runs", type=int, default=5, help="repetitions of cheap measurements")
    parser.add_argument("--only", default=",".join(ALL), help=f"comma-separated subset of {ALL}")
    parser.add_argument(
        "--profile", action="store_true", help="write cProfile reports to bench/out/"
    )
    parser.add_argument("--sweep", action="store_true", help="also sweep embedder batch sizes")
    parser.add_argument("--fresh", action="store_true", help="regenerate the vault and index")
    parser.add_argument("--out", type=Path, default=OUT / "speed.json")
    args = parser.parse_args(argv)
    wanted = [w.strip() for w in args.only.split(",") if w.strip()]
    unknown = set(wanted) - set(ALL)
    if unknown:
        parser.error(f"unknown measurement(s): {sorted(unknown)}")
    args.workdir.mkdir(parents=True, exist_ok=True)
    if args.fresh:
        for p in args.workdir.glob(f"vault-{args.notes}-s{args.seed}*"):
            shutil.rmtree(p) if p.is_dir() else p.unlink()

    res = Results()
    started = time.perf_counter()
    load_start = os.getloadavg()
    if load_start[0] > 0.5:
        log(f"note: load average {load_start[0]:.2f} before starting; timings will be noisy")
    info = None
    root = None
    if "embed" in wanted:
        bench_embed(res, args.runs, args.profile, args.sweep)
    if set(wanted) - {"embed"}:
        root, info = prepare_vault(args.workdir, args.notes, args.seed)
    queries = make_vault.queries(args.queries, n_notes=args.notes, vault_seed=args.seed)
    steps: dict[str, Callable[[], None]] = {
        "search": lambda: bench_search(res, root, queries, args.runs, args.profile),
        "noop": lambda: bench_noop(res, root, args.runs, args.profile),
        "edit": lambda: bench_edit(res, root, args.runs, args.profile),
        "memory": lambda: bench_memory(res, root, queries, 3),
        "cli": lambda: bench_cli(res, root, args.workdir, args.runs),
    }
    for name in ("search", "noop", "edit", "memory", "cli"):
        if name in wanted:
            steps[name]()

    table = res.table()
    print(table)
    report = {
        "environment": environment(info) | {"loadavg_start": load_start},
        "queries": queries,
        "results": res.rows,
        "extra": res.extra,
        "seconds": round(time.perf_counter() - started, 1),
        "self_maxrss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, default=str), encoding="utf-8")
    (args.out.with_suffix(".md")).write_text(table + "\n", encoding="utf-8")
    log(f"wrote {args.out} in {report['seconds']} s total")
    return 0 if all(r["pass"] is not False for r in res.rows) else 1


if __name__ == "__main__":
    sys.exit(main())
