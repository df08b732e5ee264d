"""Benchmark of the graph view (``src/mnemex/web/static/graph.js``) in headless Chromium.

    .venv/bin/python bench/web_graph.py                          # 3,000 nodes, 15,000 edges, 3 runs
    .venv/bin/python bench/web_graph.py --nodes 10000 --edges 50000 --runs 1
    .venv/bin/python bench/web_graph.py --screenshot bench/out/web_graph.png

A synthetic link graph (preferential attachment, so a few hubs; ~5% orphans) is served with
``bench/web_graph/`` and ``src/mnemex/web/static/`` by a stdlib HTTP server on 127.0.0.1 (an
ephemeral port), under the app's Content-Security-Policy. ``bench-driver.js`` mounts the view,
waits until the layout has settled, clicks the biggest hub (``onOpen`` must get its path), pans
in 120 steps of pointer events (one per animation frame) and leaves its result in
``window.__benchResult``, which Selenium polls. Each run uses a fresh browser.

Prints one JSON line per run, then one with the medians over runs: settle ms, median and p95
draw ms while panning (the view's own ``stats().frames``) and the median frame interval
(requestAnimationFrame to requestAnimationFrame, which includes rasterising). Exit status 1
when a run fails, settle > ``--max-settle-ms`` (10,000) or median frame > ``--max-frame-ms``
(50).

Needs Debian's ``chromium`` and ``chromium-driver`` (``/usr/bin/chromium``,
``/usr/bin/chromedriver``) and ``selenium`` in the venv; Selenium Manager is never used.
"""

from __future__ import annotations

import argparse
import contextlib
import http.server
import json
import os
import random
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PAGE_DIR = ROOT / "bench" / "web_graph"
STATIC_DIR = ROOT / "src" / "mnemex" / "web" / "static"
sys.path.insert(0, str(ROOT / "tests" / "web"))

from browser_support import chromium  # noqa: E402  (the tests' Chromium, flags and all)

from mnemex.web.security import CSP  # noqa: E402  (the page's own policy)

KINDS = ["knowledge", "notes", "memories", "state", "foundations", "facts"]
KIND_WEIGHTS = [40, 30, 12, 5, 5, 8]
DOMAINS = ["general", "work", "health", "finance", "travel", "code", "reading", "family"]
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".txt": "text/plain; charset=utf-8",
    ".css": "text/css; charset=utf-8",
}


def make_graph(nodes: int, edges: int, orphan_share: float = 0.05, seed: int = 7) -> dict[str, Any]:
    """A graph in the shape the app serves: preferential attachment plus isolated notes."""
    rng = random.Random(seed)
    orphans = round(nodes * orphan_share) if nodes > 20 else 0
    linked = nodes - orphans
    order = list(range(nodes))
    rng.shuffle(order)  # orphans and hubs are spread over the index range
    members = order[:linked]
    pairs: set[tuple[int, int]] = set()
    ends: list[int] = []  # every edge end once: choosing from it is choosing by degree
    max_edges = linked * (linked - 1) // 2
    edges = min(edges, max_edges)

    def add(a: int, b: int) -> bool:
        key = (a, b) if a < b else (b, a)
        if a == b or key in pairs:
            return False
        pairs.add(key)
        ends.extend(key)
        return True

    for i in range(1, linked):
        want = (i + 1) * edges // linked - i * edges // linked
        node = members[i]
        for _ in range(min(want, i)):
            for _attempt in range(8):
                if ends and rng.random() < 0.85:
                    other = rng.choice(ends)
                else:
                    other = members[rng.randrange(i)]
                if other != node and add(node, other):
                    break
    attempts = 0
    while len(pairs) < edges and attempts < 50 * edges:  # top up what collisions left out
        attempts += 1
        add(members[rng.randrange(linked)], members[rng.randrange(linked)])
    degree = [0] * nodes
    for a, b in pairs:
        degree[a] += 1
        degree[b] += 1
    out_nodes = []
    for i in range(nodes):
        kind = rng.choices(KINDS, KIND_WEIGHTS)[0]
        out_nodes.append(
            {
                "id": i,
                "path": f"{kind}/note-{i:05d}.md",
                "title": f"Note {i} on {rng.choice(DOMAINS)} things",
                "kind": kind,
                "domain": rng.choice(DOMAINS),
                "degree": degree[i],
            }
        )
    return {
        "nodes": out_nodes,
        "edges": sorted([a, b] for a, b in pairs),
        "truncated": False,
        "total_nodes": nodes,
        "total_edges": len(pairs),
    }


def make_handler(graph_json: bytes) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            body: bytes | None = None
            suffix = ".html"
            if path in ("/", "/page.html"):
                body = (PAGE_DIR / "page.html").read_bytes()
            elif path == "/bench-driver.js":
                body, suffix = (PAGE_DIR / "bench-driver.js").read_bytes(), ".js"
            elif path == "/graph.json":
                body, suffix = graph_json, ".json"
            elif path.startswith("/static/"):
                target = (STATIC_DIR / path[len("/static/") :]).resolve()
                if target.is_file() and target.is_relative_to(STATIC_DIR.resolve()):
                    body, suffix = target.read_bytes(), target.suffix
            if body is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", CONTENT_TYPES.get(suffix, "application/octet-stream"))
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Content-Security-Policy", CSP)
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@contextlib.contextmanager
def serve(graph: dict[str, Any]) -> Iterator[str]:
    payload = json.dumps(graph, separators=(",", ":")).encode()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(payload))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def one_run(base: str, timeout_s: float, screenshot: Path | None) -> dict[str, Any]:
    with chromium() as driver:
        started = time.monotonic()
        driver.get(f"{base}/?pan=120")
        result: dict[str, Any] | None = None
        while time.monotonic() - started < timeout_s:
            result = driver.execute_script("return window.__benchResult || null")
            if result is not None:
                break
            time.sleep(0.25)
        if result is None:
            result = {"ok": False, "error": f"no result after {timeout_s:.0f} s"}
        if not result.get("ok"):
            with contextlib.suppress(Exception):
                result["console"] = [e.get("message") for e in driver.get_log("browser")][-20:]
        elif screenshot is not None:
            screenshot.parent.mkdir(parents=True, exist_ok=True)
            driver.save_screenshot(str(screenshot))
        result["wallS"] = round(time.monotonic() - started, 2)
        return result


def summarise(result: dict[str, Any]) -> dict[str, Any]:
    frames = [float(x) for x in result.get("panFrames") or []]
    intervals = [float(x) for x in result.get("panIntervals") or []]
    return {
        "ok": bool(result.get("ok")),
        "error": result.get("error"),
        "nodes": result.get("nodes"),
        "edges": result.get("edges"),
        "mount_ms": round(float(result.get("mountMs") or 0), 1),
        "settle_ms": round(float(result.get("settleMs") or float("nan")), 1),
        "ticks": result.get("ticks"),
        "median_frame_ms": round(statistics.median(frames), 2) if frames else None,
        "p95_frame_ms": round(percentile(frames, 0.95), 2) if frames else None,
        "median_interval_ms": round(statistics.median(intervals), 2) if intervals else None,
        "p95_interval_ms": round(percentile(intervals, 0.95), 2) if intervals else None,
        "pan_draws": result.get("panDraws"),
        "layout_longest_task_ms": result.get("layoutLongestTaskMs"),
        "layout_longest_gap_ms": round(float(result.get("layoutLongestGapMs") or 0), 1),
        "click_ok": result.get("clickOk"),
        "csp_violations": result.get("violations"),
        "wall_s": result.get("wallS"),
        "console": result.get("console"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=3000)
    parser.add_argument("--edges", type=int, default=15000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--max-settle-ms", type=float, default=10000.0)
    parser.add_argument("--max-frame-ms", type=float, default=50.0)
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds per run")
    parser.add_argument("--screenshot", type=Path, help="save the last run's page as a PNG")
    args = parser.parse_args(argv)

    for exe in ("/usr/bin/chromium", "/usr/bin/chromedriver"):
        if not os.access(exe, os.X_OK):
            print(f"missing {exe} (apt-get install chromium chromium-driver)", file=sys.stderr)
            return 2
    graph = make_graph(args.nodes, args.edges, seed=args.seed)
    runs: list[dict[str, Any]] = []
    with serve(graph) as base:
        for i in range(args.runs):
            shot = args.screenshot if i == args.runs - 1 else None
            run = summarise(one_run(base, args.timeout, shot))
            run["run"] = i + 1
            runs.append(run)
            print(json.dumps(run), flush=True)

    good = [r for r in runs if r["ok"]]
    summary: dict[str, Any] = {
        "summary": True,
        "nodes": args.nodes,
        "edges": len(graph["edges"]),
        "runs": len(runs),
        "failed_runs": len(runs) - len(good),
        "loadavg": [round(x, 2) for x in os.getloadavg()],
    }
    for key in ("settle_ms", "median_frame_ms", "p95_frame_ms", "median_interval_ms"):
        values = [float(r[key]) for r in good if r.get(key) is not None]
        summary[key] = round(statistics.median(values), 2) if values else None
    summary["targets"] = {"settle_ms": args.max_settle_ms, "median_frame_ms": args.max_frame_ms}
    passed = (
        bool(good)
        and len(good) == len(runs)
        and summary["settle_ms"] is not None
        and summary["settle_ms"] <= args.max_settle_ms
        and summary["median_frame_ms"] is not None
        and summary["median_frame_ms"] <= args.max_frame_ms
        and all(not r["csp_violations"] for r in good)
    )
    summary["pass"] = passed
    print(json.dumps(summary), flush=True)
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
