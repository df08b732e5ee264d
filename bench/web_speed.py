"""How fast the web page answers on a 10,000-note vault, in headless Chromium.

    python bench/web_speed.py [--notes 10000] [--pages 20] [--queries 30]

Uses the benchmark vault of bench_speed.py (generated and indexed once under bench/out/,
reused after), starts the real ``mnemex ui`` on it, logs Chromium in with the printed link,
then measures:

- **first paint of a page**: a fresh navigation to ``/#/page/<path>``, from navigation start
  to the moment the page's view is drawn (``window.mnemexReadyAt``: the API answered and
  the rendered page is in the DOM), and the browser's own first-contentful-paint; median
  over ``--pages`` pages (targets: at most 300 ms);
- **search round trip**: ``fetch('/api/search?q=...')`` from the page, request to parsed
  JSON, median over ``--queries`` queries (target: at most 150 ms); and the same query typed
  into the page, from the hash change to the hits drawn;
- **the whole-brain graph**: ``/api/graph`` (capped at 3,000 notes) and its layout settling.

The index's vectors are the hashing embedder's disguised as MiniLM's (as in bench_speed.py),
so a query is embedded by the real model and the timings are the real path's. Prints a JSON
summary; the figures in docs/benchmarks.md come from it.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests"), str(HERE.parent / "tests" / "web")]

from browser_support import chromium  # noqa: E402
from web_support import running_ui  # noqa: E402

import bench_speed  # noqa: E402
import make_vault  # noqa: E402


def _wait(driver: Any, script: str, timeout: float = 120) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(0.005)
    raise TimeoutError(script)


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--queries", type=int, default=30)
    args = parser.parse_args(argv)

    workdir = HERE / "out" / "web"
    workdir.mkdir(parents=True, exist_ok=True)
    root, info = bench_speed.prepare_vault(workdir, args.notes, args.seed)
    paths = sorted(str(p.relative_to(root)) for p in root.rglob("*.md") if ".mnemex" not in p.parts)
    rng = random.Random(args.seed)
    sample = rng.sample([p for p in paths if "/private/" not in p], args.pages)
    queries = make_vault.queries(args.queries, n_notes=args.notes, vault_seed=args.seed)
    texts = list(queries)

    out: dict[str, Any] = {"notes": info["notes"], "chunks": info["chunks"]}
    with running_ui(root, "--refresh", "3600") as link, chromium() as driver:
        base = link.split("/login")[0]
        driver.get(link)
        _wait(driver, "return document.body.dataset.ready === 'search'")
        # warm: the first search loads the embedding model in the server
        driver.execute_script(
            "window.__done = null; fetch('/api/search?q=warm').then(r => r.json())"
            ".then(() => window.__done = 1)"
        )
        _wait(driver, "return window.__done")

        ready, fcp = [], []
        for rel in sample:
            driver.get("about:blank")  # else a new hash is the same document, not a load
            driver.get(base + "/#/page/" + rel.replace(" ", "%20"))
            _wait(driver, "return document.body.dataset.ready === 'page'")
            ready.append(driver.execute_script("return window.mnemexReadyAt"))
            paint = driver.execute_script(
                "const p = performance.getEntriesByName('first-contentful-paint')[0];"
                "return p ? p.startTime : null"
            )
            if paint is not None:
                fcp.append(paint)
        out["page_ready_ms"] = {"median": _median(ready), "max": round(max(ready), 1)}
        out["first_contentful_paint_ms"] = {"median": _median(fcp)} if fcp else None

        trips = []
        for text in texts:
            driver.execute_script(
                "window.__trip = null; const t0 = performance.now();"
                "fetch('/api/search?q=' + encodeURIComponent(arguments[0]))"
                ".then(r => r.json()).then(() => window.__trip = performance.now() - t0)",
                text,
            )
            trips.append(_wait(driver, "return window.__trip"))
        out["search_round_trip_ms"] = {
            "median": _median(trips),
            "p90": round(sorted(trips)[int(len(trips) * 0.9) - 1], 1),
        }

        typed = []
        for text in texts[:10]:
            driver.execute_script(
                "window.__t0 = performance.now(); location.hash = '#/search?q=' + "
                "encodeURIComponent(arguments[0])",
                text,
            )
            _wait(
                driver,
                "return document.body.dataset.ready === 'search' && "
                "window.mnemexReadyAt > window.__t0",
            )
            typed.append(driver.execute_script("return window.mnemexReadyAt - window.__t0"))
        out["search_in_page_ms"] = {"median": _median(typed)}

        driver.execute_script("window.__t0 = performance.now(); location.hash = '#/graph'")
        _wait(driver, "return window.mnemexGraphView && window.mnemexGraphView.stats().settled")
        stats = driver.execute_script("return window.mnemexGraphView.stats()")
        drawn = driver.execute_script("return window.mnemexReadyAt - window.__t0")
        out["graph"] = {
            "nodes": stats["nodes"],
            "edges": stats["edges"],
            "api_and_mount_ms": round(drawn, 1),
            "settle_ms": round(stats["settleMs"], 1),
        }
    out["pass"] = (
        out["page_ready_ms"]["median"] <= 300 and out["search_round_trip_ms"]["median"] <= 150
    )
    print(json.dumps(out, indent=2))
    return 0 if out["pass"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
