"""Planning speed: merge one source into a 10,000-page wiki (target <= 2 s).

    python bench/bench_ingest_plan.py [--pages 10000] [--runs 5] [--workdir DIR]

Generates a domain of ``--pages`` mnemex entity and concept pages (person, tool and
organisation names built from syllables, aliases, a few cited facts each), indexes
it once with the hashing embedder (planning uses no vectors), then times planning
corpus source 01 (the KestrelDB overview, its offline extraction done beforehand)
into it: the index sync, the name table, resolving every planned page and
rendering every file. "cold" is the first plan (the machine-local name-table cache
is built from the pages' frontmatter); "warm" are the runs after it (the median is
reported). Nothing is applied.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.ingest.extract import extract_offline
from mnemex.ingest.plan import Planner
from mnemex.ingest.readers import read_source
from mnemex.vault import Vault, init_vault, slugify

ROOT = Path(__file__).resolve().parents[1]
SYLLABLES = [
    "ka",
    "lo",
    "mi",
    "ra",
    "ven",
    "tor",
    "sil",
    "an",
    "bre",
    "du",
    "fen",
    "gal",
    "hor",
    "is",
    "jun",
    "kel",
    "mar",
    "nor",
    "ost",
    "pel",
    "qui",
]
TYPES = ("person", "tool", "organization", "product", "place")


def name(rng: random.Random) -> str:
    def word() -> str:
        return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()

    return f"{word()} {word()}" if rng.random() < 0.7 else word()


def make_wiki(root: Path, pages: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    init_vault(root, git=False)
    seen: set[str] = set()
    for i in range(pages):
        title = name(rng)
        while slugify(title) in seen:
            title = name(rng)
        seen.add(slugify(title))
        concept = i % 5 == 0
        folder = "concepts" if concept else "entities"
        etype = "" if concept else f"entity_type: {rng.choice(TYPES)}\n"
        alias = name(rng)
        facts = "".join(
            f"- {title} worked with {name(rng)} in {rng.randint(1990, 2026)}. "
            f"([[summaries/source-{rng.randint(0, 999)}]])\n"
            for _ in range(rng.randint(2, 6))
        )
        text = (
            f"---\ntype: {'concept' if concept else 'entity'}\ntitle: {title}\n{etype}"
            f"aliases:\n- {alias}\ntags: []\ncreated: '2026-01-01T00:00:00+00:00'\n"
            f"updated: '2026-01-01T00:00:00+00:00'\nsources: []\n---\n# {title}\n"
            f"{title} is a {rng.choice(TYPES)} in the synthetic wiki.\n\n## Key points\n{facts}"
        )
        path = root / "wiki/general" / folder / f"{slugify(title)}.md"
        path.write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args()
    doc = read_source(ROOT / "tests/ingest/corpus/01-kestrel-overview.md")
    extraction = extract_offline(doc)
    with tempfile.TemporaryDirectory() as tmp:
        root = (args.workdir or Path(tmp)) / "vault"
        started = time.perf_counter()
        make_wiki(root, args.pages)
        generated = time.perf_counter() - started
        with Brain(Vault(root), embedder=HashingEmbedder()) as brain:
            started = time.perf_counter()
            brain.sync()
            indexed = time.perf_counter() - started
            times = []
            for _ in range(args.runs + 1):
                started = time.perf_counter()
                brain.sync()
                planner = Planner(brain, "general")
                planner.add(doc, extraction)
                plan = planner.finish()
                times.append(time.perf_counter() - started)
        print(
            json.dumps(
                {
                    "pages": args.pages,
                    "planned_pages": len(extraction.pages),
                    "files_in_plan": len(plan.changes),
                    "generate_seconds": round(generated, 1),
                    "index_seconds": round(indexed, 1),
                    "plan_cold_seconds": round(times[0], 3),
                    "plan_warm_median_seconds": round(statistics.median(times[1:]), 3),
                    "plan_warm_max_seconds": round(max(times[1:]), 3),
                },
                indent=2,
            )
        )


if __name__ == "__main__":
    main()
