"""Cold indexing: CPU-seconds split into parse and embed, chunk sizes, peak RSS.

    python bench/bench_index.py                          # make_vault 1,000 notes, seed 7, MiniLM
    python bench/bench_index.py --vs /work/base/src      # A/B: another checkout's src/, same run
    python bench/bench_index.py --vault DIR              # any vault (copied; never written)
    python bench/bench_index.py --embedder hashing       # everything but the model

Each measurement is a fresh child process that imports mnemex from one ``src/``
directory, copies the vault into a scratch folder (so the index starts empty) and
runs one cold ``Brain.sync()``. CPU time is the process's, all threads included
(``time.process_time``), so onnxruntime's worker threads count, spinning or not.

- ``total``: CPU from opening the brain to the end of the sync, model load included;
- ``embed``: CPU inside ``Embedder.embed_documents`` (tokenising, batching, the model,
  pooling); ``load``: building the embedder (reading and checking the model file);
- ``rest`` = total - embed - load: walking, reading, parsing, chunking, SQLite writes,
  link resolution, reading chunk texts back and storing vectors;
- ``raw``: after the sync, the same distinct texts embedded again by the embedder
  alone (no index), model warm: its texts per CPU-second is the embedder's own
  throughput on this text, and ``embed share`` = raw CPU / indexed embed CPU;
- chunk characters (median, p10, p90, max) and count, from the index;
- peak RSS of the child (``ru_maxrss``).

Runs alternate between the checkouts (A B A B ...) so a busy neighbour hurts both
alike; the table gives medians over ``--runs``. Results: markdown on stdout and
``bench/out/index.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
OUT = HERE / "out"


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# -- the child: one cold sync, measured ------------------------------------------------


def child(vault: Path, embedder_name: str) -> dict[str, Any]:
    import resource
    import time

    from mnemex.brain import Brain
    from mnemex.embed import Embedder, load_embedder
    from mnemex.vault import Vault

    seen: list[str] = []
    cpu = {"embed": 0.0}

    def timed(texts: Any, progress: Any = None) -> Any:
        seen.extend(texts)
        t = time.process_time()
        try:
            return original(texts, progress=progress)
        finally:
            cpu["embed"] += time.process_time() - t

    t0 = time.process_time()
    embedder: Embedder = load_embedder(embedder_name)
    if hasattr(embedder, "_session"):
        embedder._session(True)  # the model is read and checked here, not mid-sync
    load = time.process_time() - t0
    original = embedder.embed_documents
    embedder.embed_documents = timed  # type: ignore[method-assign]
    with Brain(Vault(vault), embedder=embedder) as brain:
        result = brain.sync()
        total = time.process_time() - t0
        rows = brain.backend._db.execute("SELECT length(text) FROM chunks").fetchall()  # type: ignore[attr-defined]
        stats = brain.backend.stats()
    sizes = sorted(r[0] for r in rows)
    distinct = list(dict.fromkeys(seen))
    t = time.process_time()
    original(distinct)
    raw = time.process_time() - t
    pieces = None
    if hasattr(embedder, "count_tokens"):
        tok = embedder._tokenizer  # type: ignore[attr-defined]
        tok.no_truncation()
        lengths = [len(e.ids) for e in tok.encode_batch(distinct)]
        pieces = {
            "total": sum(lengths),
            "past_window": sum(max(0, n - 256) for n in lengths),
            "texts_past_window": sum(n > 256 for n in lengths),
        }

    def pct(q: float) -> float:
        return float(sizes[min(len(sizes) - 1, int(q * (len(sizes) - 1) + 0.5))]) if sizes else 0.0

    return {
        # Checkouts before the typed rows (735ac12) return dicts: measure them as well.
        "notes": stats["notes"] if isinstance(stats, dict) else stats.notes,
        "chunks": len(sizes),
        "texts_embedded": len(seen),
        "distinct_texts": len(distinct),
        "chunk_median": statistics.median(sizes) if sizes else 0,
        "chunk_p10": pct(0.10),
        "chunk_p90": pct(0.90),
        "chunk_max": sizes[-1] if sizes else 0,
        "cpu_total": total,
        "cpu_load": load,
        "cpu_embed": cpu["embed"],
        "cpu_rest": total - cpu["embed"] - load,
        "cpu_raw": raw,
        "word_pieces": pieces,
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "counts": result.report.counts(),
    }


def run_child(src: Path, vault: Path, embedder: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-index-") as tmp:
        copy = Path(tmp) / "vault"
        shutil.copytree(vault, copy, ignore=shutil.ignore_patterns(".mnemex", ".git"))
        env = {**os.environ, "PYTHONPATH": str(src), "HOME": tmp}
        proc = subprocess.run(
            [sys.executable, __file__, "--child", str(copy), "--embedder", embedder],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            raise SystemExit(f"child failed ({src}):\n{proc.stderr[-3000:]}")
        data: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
        return data


# -- the parent -------------------------------------------------------------------------


def vault_for(args: argparse.Namespace) -> Path:
    if args.vault:
        return Path(args.vault)
    root = Path(args.workdir) / f"vault-{args.notes}-s{args.seed}"
    if not (root / ".generated").exists():
        sys.path.insert(0, str(HERE))
        import make_vault

        if root.exists():
            shutil.rmtree(root)
        log(f"generating {args.notes} notes (seed {args.seed}) into {root}")
        make_vault.generate(root, args.notes, args.seed)
        (root / ".generated").write_text("")
    return root


def median_of(runs: list[dict[str, Any]], key: str) -> float:
    return statistics.median(float(r[key]) for r in runs)


def table(results: dict[str, list[dict[str, Any]]]) -> str:
    cols = list(results)
    lines = ["| measure | " + " | ".join(cols) + " |", "|---|" + "---:|" * len(cols)]

    def row(label: str, fn: Any) -> None:
        lines.append(f"| {label} | " + " | ".join(fn(results[c]) for c in cols) + " |")

    row("chunks", lambda rs: f"{rs[0]['chunks']:,}")
    row(
        "chunk chars median (p10-p90, max)",
        lambda rs: (
            f"{rs[0]['chunk_median']:g} ({rs[0]['chunk_p10']:g}-{rs[0]['chunk_p90']:g}, "
            f"{rs[0]['chunk_max']:g})"
        ),
    )
    row(
        "texts embedded (distinct)",
        lambda rs: f"{rs[0]['texts_embedded']:,} ({rs[0]['distinct_texts']:,})",
    )
    row(
        "word pieces (past 256)",
        lambda rs: (
            "-"
            if not rs[0]["word_pieces"]
            else f"{rs[0]['word_pieces']['total']:,} ({rs[0]['word_pieces']['past_window']:,})"
        ),
    )
    row("total CPU-s", lambda rs: f"{median_of(rs, 'cpu_total'):.1f}")
    row("  parse/store CPU-s (rest)", lambda rs: f"{median_of(rs, 'cpu_rest'):.1f}")
    row("  model load CPU-s", lambda rs: f"{median_of(rs, 'cpu_load'):.1f}")
    row("  embed CPU-s", lambda rs: f"{median_of(rs, 'cpu_embed'):.1f}")
    row("raw embedder CPU-s, same texts", lambda rs: f"{median_of(rs, 'cpu_raw'):.1f}")
    row(
        "indexed embed vs raw",
        lambda rs: (
            f"{statistics.median(r['cpu_raw'] / r['cpu_embed'] for r in rs if r['cpu_embed']):.0%}"
            if any(r["cpu_embed"] for r in rs)
            else "-"
        ),
    )
    row("peak RSS MB", lambda rs: f"{median_of(rs, 'rss_mb'):.0f}")
    row("runs", lambda rs: str(len(rs)))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--vault", help="index a copy of this vault instead of a generated one")
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workdir", default="/tmp/mnemex-bench")
    parser.add_argument("--embedder", default="minilm", help="minilm (default) or hashing")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--src", default=str(REPO / "src"), help="the checkout to measure")
    parser.add_argument("--vs", help="another checkout's src/ to measure in the same run")
    parser.add_argument("--out", type=Path, default=OUT / "index.json")
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(Path(args.child), args.embedder)))
        return 0
    vault = vault_for(args)
    srcs = {"this": Path(args.src)}
    if args.vs:
        srcs["vs " + Path(args.vs).resolve().parent.name] = Path(args.vs)
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in srcs}
    for i in range(args.runs):
        for name, src in srcs.items():
            log(f"run {i + 1}/{args.runs}: {name} ({src}), {args.embedder}")
            data = run_child(src, vault, args.embedder)
            log(f"  total {data['cpu_total']:.1f} CPU-s, embed {data['cpu_embed']:.1f}")
            results[name].append(data)
    text = table(results)
    print(f"vault: {vault}, embedder: {args.embedder}\n\n{text}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps({"vault": str(vault), "embedder": args.embedder, "runs": results}, indent=2)
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
