"""Offline ingestion of a 100-page PDF (target <= 30 s): read, extract, plan, apply.

    python bench/bench_ingest_pdf.py [--pages 100] [--runs 3] [--keep FILE.pdf]

Generates a text PDF of ``--pages`` pages with tests/ingest/pdfgen.py: paragraphs of
whole sentences drawn (seeded) from the test corpus, so the text reads like the
corpus, names, variants and all, about 3,000 characters a page. Each run then times,
into a fresh git-backed vault with the hashing embedder:

- ``read``: :func:`mnemex.ingest.readers.read_source` (pypdf, text of every page);
- ``extract``: :func:`mnemex.ingest.extract.extract_offline`;
- ``plan`` and ``apply``: the merge planner and the atomic write + git commit, when
  ``mnemex.ingest.plan``/``apply`` are present (they are skipped otherwise);
- ``total``: the four together, which is what ``mnemex ingest FILE.pdf`` does offline
  (its index sync afterwards is not included).

Medians over ``--runs`` are printed as JSON.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "ingest"))

from pdfgen import make_pdf, paginate  # noqa: E402

from mnemex.ingest.extract import extract_offline  # noqa: E402
from mnemex.ingest.extract.sentences import split_sentences  # noqa: E402
from mnemex.ingest.readers import read_source, read_sources  # noqa: E402
from mnemex.ingest.records import SourceDoc  # noqa: E402

CORPUS = ROOT / "tests" / "ingest" / "corpus"


def make_paragraphs(pages: int, seed: int = 11) -> list[list[str]]:
    """Pages of wrapped lines built from the corpus's own sentences, in random order."""
    sentences = []
    for doc in read_sources(CORPUS):
        if isinstance(doc, SourceDoc):
            sentences += [s.text for s in split_sentences(doc.text) if not s.heading]
    rng = random.Random(seed)
    paragraphs: list[str] = []
    while True:
        paragraphs.append(" ".join(rng.choice(sentences) for _ in range(rng.randint(3, 7))))
        if len(paragraphs) % 50 == 0:
            laid_out = paginate(paragraphs)
            if len(laid_out) >= pages:
                return laid_out[:pages]


def plan_and_apply_available() -> bool:
    return all(
        importlib.util.find_spec(name) is not None
        for name in ("mnemex.ingest.plan", "mnemex.ingest.apply")
    )


def one_run(pdf: Path, work: Path) -> dict[str, float | int]:
    times: dict[str, float | int] = {}
    started = time.perf_counter()
    doc = read_source(pdf)
    times["read"] = time.perf_counter() - started
    mark = time.perf_counter()
    extraction = extract_offline(doc)
    times["extract"] = time.perf_counter() - mark
    times["chars"] = len(doc.text)
    times["planned_pages"] = len(extraction.pages)
    if plan_and_apply_available():
        from mnemex.brain import Brain
        from mnemex.embed.hashing import HashingEmbedder
        from mnemex.ingest.apply import apply_plan
        from mnemex.ingest.plan import Planner
        from mnemex.vault import Vault, init_vault

        init_vault(work)
        with Brain(Vault(work), embedder=HashingEmbedder()) as brain:
            mark = time.perf_counter()
            brain.sync()
            planner = Planner(brain, "general")
            planner.add(doc, extraction)
            plan = planner.finish()
            times["plan"] = time.perf_counter() - mark
            mark = time.perf_counter()
            result = apply_plan(brain.vault, plan)
            times["apply"] = time.perf_counter() - mark
            times["files_written"] = int(result["report"]["created"]) + int(
                result["report"]["updated"]
            )
    times["total"] = time.perf_counter() - started
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="also write the generated PDF here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "bench.pdf"
        data = make_pdf(
            make_paragraphs(args.pages),
            title="KestrelDB: collected notes",
            author="Bench Generator",
            creation_date="20260101",
        )
        pdf.write_bytes(data)
        if args.keep:
            args.keep.write_bytes(data)
        runs = [one_run(pdf, Path(tmp) / f"vault-{i}") for i in range(args.runs)]
    keys = runs[0].keys()
    medians = {k: statistics.median(float(r[k]) for r in runs) for k in keys}
    out = {
        "pdf_pages": args.pages,
        "pdf_bytes": len(data),
        "runs": args.runs,
        "plan_and_apply": plan_and_apply_available(),
        **{
            f"{k}_seconds" if k in ("read", "extract", "plan", "apply", "total") else k: (
                round(v, 3) if k in ("read", "extract", "plan", "apply", "total") else int(v)
            )
            for k, v in medians.items()
        },
        "total_max_seconds": round(max(float(r["total"]) for r in runs), 3),
    }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
