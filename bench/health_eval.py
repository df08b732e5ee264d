"""Precision and recall of ``mnemex health`` per kind on a generated sick vault, and scan time.

    python bench/health_eval.py --pages 10000 [--embedder hashing|minilm] [--repeat 3]

Generates the vault with ``bench/make_sick_vault.py`` in a temporary folder,
syncs the index (the embedder named: ``hashing`` is enough for every kind but
the vector near-duplicates; ``minilm`` for those), plants the index drift, then
scans ``--repeat`` times and reports the median scan time (the index already
synced, as the benchmark defines it) and, against the manifest, precision and
recall per kind, plus how many broken-link suggestions were right (a planted
link with no matching page must get none).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_sick_vault import make, plant_drift
from mnemex.brain import Brain
from mnemex.embed import load_embedder
from mnemex.embed.hashing import HashingEmbedder
from mnemex.health import KINDS, HealthReport, scan
from mnemex.vault import Vault

#: kinds whose issues are told apart by a key (the link's target) besides their files
_KEYED = ("broken_links", "loose_links", "broken_anchors")


def _key(kind: str, files: list[str], key: str = "") -> tuple[str, ...]:
    return (kind, *sorted(files), key if kind in _KEYED else "")


def evaluate(
    report: HealthReport, manifest: dict[str, list[dict[str, Any]]], skip: tuple[str, ...] = ()
) -> dict[str, Any]:
    """Per kind: planted, found, precision, recall (plants found ``how`` in ``skip`` left out)."""
    out: dict[str, Any] = {}
    for kind in KINDS:
        expected = {
            _key(kind, p["files"], p.get("key", "")): p
            for p in manifest.get(kind, [])
            if p.get("how") not in skip
        }
        found = {_key(kind, i.files, i.key): i for i in report.issues.get(kind, [])}
        hits = set(expected) & set(found)
        row: dict[str, Any] = {
            "planted": len(expected),
            "found": len(found),
            "true_positives": len(hits),
            "precision": round(len(hits) / len(found), 3) if found else None,
            "recall": round(len(hits) / len(expected), 3) if expected else None,
            "false_positives": [list(k[1:]) for k in sorted(set(found) - hits)][:10],
            "missed": [list(k[1:]) for k in sorted(set(expected) - hits)][:10],
        }
        if kind in ("broken_links", "loose_links"):
            right = sum(
                1 for k in hits if found[k].data.get("suggested") == expected[k].get("suggested")
            )
            row["suggestions_right"] = f"{right}/{len(hits)}"
        if kind == "duplicates":
            by_how: dict[str, list[int]] = {}
            for k, planted in expected.items():
                by_how.setdefault(planted.get("how", "?"), [0, 0])
                by_how[planted["how"]][1] += 1
                by_how[planted["how"]][0] += int(k in hits)
            row["recall_by_source"] = {h: f"{a}/{n}" for h, (a, n) in by_how.items()}
        out[kind] = row
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=10000)
    parser.add_argument(
        "--embedder",
        default="hashing",
        choices=["hashing", "hashing-384", "minilm"],
        help="hashing-384: hashing vectors as wide as MiniLM's, for timing at MiniLM's cost",
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--workdir", type=Path, default=None)
    args = parser.parse_args(argv)
    work = args.workdir or Path(tempfile.mkdtemp(prefix="sick-"))
    root = work / "vault"
    manifest = make(root, args.pages, args.seed)
    settings = root / "mnemex.toml"
    name = "minilm" if args.embedder == "minilm" else "hashing"
    settings.write_text(settings.read_text().replace('name = "hashing"', f'name = "{name}"'))
    vault = Vault(root)
    embedder = HashingEmbedder(384) if args.embedder == "hashing-384" else load_embedder(name, {})
    with Brain(vault, embedder=embedder) as brain:
        started = time.perf_counter()
        synced = brain.sync()
        sync_seconds = time.perf_counter() - started
        plant_drift(root, manifest, max(5, args.pages // 500))
        times = []
        report = structural = None
        for _ in range(args.repeat):
            report = scan(brain.vault, brain.backend)
            times.append(report.seconds)
        structural_times = []
        for _ in range(args.repeat):
            structural = scan(brain.vault, brain.backend, semantic=False)
            structural_times.append(structural.seconds)
        assert report is not None and structural is not None
        # hashing vectors carry no meaning: judge the name checks alone, near-copies not at all
        hashing = args.embedder.startswith("hashing")
        judged, skip = (structural, ("vectors",)) if hashing else (report, ())
        result = {
            "pages": report.pages,
            "planted": sum(len(v) for v in manifest.values()),
            "embedder": args.embedder,
            "sync_seconds": round(sync_seconds, 1),
            "sync_created": synced.report.created,
            "scan_seconds_median": round(statistics.median(times), 3),
            "scan_seconds_all": [round(t, 3) for t in times],
            "scan_without_vectors_median": round(statistics.median(structural_times), 3),
            "score": report.score,
            "judged": "scan without vectors" if skip else "full scan",
            "kinds": evaluate(judged, manifest, skip),
            "workdir": str(work),
        }
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
