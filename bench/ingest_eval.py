"""Ingest quality on the KestrelDB corpus: pages per source, duplicates, broken links, recall@5.

    python bench/ingest_eval.py [--corpus tests/ingest/corpus] [--embedder minilm] [--keep DIR]
                                [--slug-only] [--no-batch]

Ingests each corpus file one at a time (one plan and one commit per source, as a user
running ``mnemex ingest FILE`` twelve times would) with the offline extractor into a
fresh vault, then measures against ``golden.json``. A second run ingests the whole
corpus as one batch (one plan, one commit, as ``mnemex ingest FOLDER`` does) into
another fresh vault and reports the same measures under ``batch``: the two must agree,
so a batch that makes duplicates one-by-one runs do not cannot go unnoticed.
``--no-batch`` skips it. The measures:

- pages per source (entity and concept pages each source created or updated);
- duplicate rate: of the true entities and concepts that got a page, the share that got
  more than one (a page belongs to a true thing when its title is one of its variants);
- wrong merges: pages whose title and aliases name two different true things, and
  ``must_stay_apart`` pairs that ended up on one page;
- broken links: unresolved ``[[links]]`` in the written wiki (kept originals excluded);
- recall@5: a question is a hit when the top 5 of ``search`` (hybrid, the vault's
  embedder) hold one of its answering pages or the summary of one of its sources.

``--slug-only`` replaces resolution by an exact file-name match (what a naive ingester
does), to show what the resolver is worth.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from mnemex.brain import Brain
from mnemex.ingest import plan as plan_module
from mnemex.ingest.apply import apply_plan
from mnemex.ingest.extract import extract_offline
from mnemex.ingest.plan import Planner
from mnemex.ingest.readers import read_source
from mnemex.ingest.records import PlannedPage
from mnemex.ingest.resolve import Match, NameTable, normalise_name
from mnemex.ingest.run import plan_docs
from mnemex.retrieve.search import search
from mnemex.vault import Vault, init_vault, slugify
from mnemex.vault.markdown import parse_note

ROOT = Path(__file__).resolve().parents[1]


def make_vault(folder: Path, embedder: str) -> Brain:
    init_vault(folder)
    settings = folder / "mnemex.toml"
    text = settings.read_text(encoding="utf-8")
    settings.write_text(text.replace('name = "minilm"', f'name = "{embedder}"'), encoding="utf-8")
    return Brain(Vault(folder))


def ingest_one_by_one(brain: Brain, corpus: Path) -> tuple[list[dict[str, Any]], dict[str, str]]:
    rows: list[dict[str, Any]] = []
    summaries: dict[str, str] = {}
    for file in sorted(p for p in corpus.iterdir() if p.suffix in (".md", ".txt", ".html", ".pdf")):
        started = time.perf_counter()
        doc = read_source(file)
        extraction = extract_offline(doc)
        brain.sync()
        planner = Planner(brain, "general")
        source = planner.add(doc, extraction)
        result = apply_plan(brain.vault, planner.finish())
        summaries[file.name] = source.summary
        report = result["report"]
        rows.append(
            {
                "source": file.name,
                "pages": len(source.pages),
                "created": sum(1 for v in source.pages.values() if v == "created"),
                "updated": sum(1 for v in source.pages.values() if v == "updated"),
                "files_created": report["created"],
                "files_updated": report["updated"],
                "duplicates_flagged": len(result["possible_duplicates"]),
                "seconds": round(time.perf_counter() - started, 2),
            }
        )
    brain.sync()
    return rows, summaries


def ingest_as_one_batch(brain: Brain, corpus: Path) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """The whole corpus as one plan and one commit, as ``mnemex ingest FOLDER`` does."""
    files = sorted(p for p in corpus.iterdir() if p.suffix in (".md", ".txt", ".html", ".pdf"))
    started = time.perf_counter()
    plan = plan_docs(brain, [read_source(f) for f in files], "general", extract_offline)
    result = apply_plan(brain.vault, plan)
    seconds = round(time.perf_counter() - started, 2)
    summaries = {Path(s.source).name: s.summary for s in plan.sources}
    rows = [
        {
            "source": Path(s.source).name,
            "pages": len(s.pages),
            "created": sum(1 for v in s.pages.values() if v == "created"),
            "updated": sum(1 for v in s.pages.values() if v == "updated"),
        }
        for s in plan.sources
    ]
    rows[-1]["duplicates_flagged"] = len(result["possible_duplicates"])
    rows[-1]["seconds"] = seconds
    brain.sync()
    return rows, summaries


def wiki_pages(root: Path) -> dict[str, tuple[str, list[str]]]:
    pages: dict[str, tuple[str, list[str]]] = {}
    for folder in ("entities", "concepts"):
        for path in sorted((root / "wiki/general" / folder).glob("*.md")):
            note = parse_note(path.read_text(encoding="utf-8"))
            pages[str(path.relative_to(root))] = (note.title, note.aliases)
    return pages


def truth(golden: dict[str, Any]) -> dict[str, set[str]]:
    things = [*golden["entities"], *golden.get("concepts", [])]
    return {t["name"]: {normalise_name(v) for v in [t["name"], *t["variants"]]} for t in things}


def duplicates(golden: dict[str, Any], pages: dict[str, tuple[str, list[str]]]) -> dict[str, Any]:
    variants = truth(golden)
    owner: dict[str, list[str]] = {name: [] for name in variants}
    wrong: list[dict[str, Any]] = []
    for path, (title, aliases) in pages.items():
        for name, keys in variants.items():
            if normalise_name(title) in keys:
                owner[name].append(path)
        named = {
            n
            for n, keys in variants.items()
            for a in [title, *aliases]
            if normalise_name(a) in keys
        }
        if len(named) > 1:
            wrong.append({"page": path, "names": sorted(named)})
    covered = {n: p for n, p in owner.items() if p}
    dupes = {n: p for n, p in covered.items() if len(p) > 1}
    apart = []
    for a, b in golden.get("must_stay_apart", []):
        shared = set(owner.get(a, [])) & set(owner.get(b, []))
        if shared:
            apart.append({"pair": [a, b], "pages": sorted(shared)})
    return {
        "true_things": len(variants),
        "with_a_page": len(covered),
        "missing": sorted(set(variants) - set(covered)),
        "duplicated": dupes,
        "duplicate_rate": round(len(dupes) / max(1, len(covered)), 3),
        "wrong_merges": wrong,
        "must_stay_apart_merged": apart,
    }


def recall_at_5(
    brain: Brain,
    golden: dict[str, Any],
    summaries: dict[str, str],
    pages: dict[str, tuple[str, list[str]]],
) -> dict[str, Any]:
    variants = truth(golden)
    misses = []
    hits = 0
    for question in golden["questions"]:
        wanted = {summaries[s] for s in question["sources"] if s in summaries}
        keys = set().union(*(variants.get(p, {normalise_name(p)}) for p in question["pages"]))
        wanted |= {path for path, (title, _) in pages.items() if normalise_name(title) in keys}
        top = [hit.path for hit in search(brain, question["question"], k=5).hits]
        if wanted & set(top):
            hits += 1
        else:
            misses.append({"id": question["id"], "question": question["question"], "top": top})
    total = len(golden["questions"])
    return {
        "questions": total,
        "hits": hits,
        "recall_at_5": round(hits / total, 3),
        "misses": misses,
    }


def slug_only(page: PlannedPage, table: NameTable) -> Match:
    """Resolution by file name alone: the baseline the resolver is measured against."""
    folder = "entities" if page.kind == "entity" else "concepts"
    for path, entry in table.entries.items():
        if path.endswith(f"/{folder}/{slugify(page.name)}.md"):
            return Match("merge", entry, 1.0, "same slug")
    return Match("new")


def evaluate(
    folder: Path, args: argparse.Namespace, golden: dict[str, Any], batch: bool
) -> dict[str, Any]:
    """Ingest the corpus into a fresh vault at ``folder`` and measure it against ``golden``."""
    ingest = ingest_as_one_batch if batch else ingest_one_by_one
    with make_vault(folder, args.embedder) as brain:
        started = time.perf_counter()
        rows, summaries = ingest(brain, args.corpus)
        seconds = time.perf_counter() - started
        pages = wiki_pages(folder)
        broken = [
            link
            for link in brain.backend.unresolved_links(limit=10_000)
            if "/sources/" not in link.path
        ]
        return {
            "sources": len(rows),
            "per_source": rows,
            "pages_per_source": round(sum(r["pages"] for r in rows) / max(1, len(rows)), 2),
            "wiki_pages": len(pages),
            "duplicates": duplicates(golden, pages),
            "broken_links": len(broken),
            "broken": [link.to_dict() for link in broken[:20]],
            "recall": recall_at_5(brain, golden, summaries, pages),
            "ingest_seconds": round(seconds, 1),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "tests/ingest/corpus")
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--keep", type=Path, help="Build the vault here and keep it.")
    parser.add_argument("--slug-only", action="store_true", help="Baseline: match by slug only.")
    parser.add_argument(
        "--no-batch", action="store_true", help="Skip the second run (the corpus as one batch)."
    )
    args = parser.parse_args()
    if args.slug_only:
        plan_module.resolve_page = slug_only  # type: ignore[assignment]
    golden = json.loads((args.corpus / "golden.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        out = evaluate(args.keep or Path(tmp) / "vault", args, golden, batch=False)
        if not args.no_batch:
            batch = evaluate(Path(tmp) / "batch-vault", args, golden, batch=True)
            out["batch"] = {k: v for k, v in batch.items() if k != "per_source"}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
