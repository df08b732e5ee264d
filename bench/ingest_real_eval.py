"""Ingest quality on real documents written by others: noise, splits, coverage, pages per source.

    python bench/ingest_real_eval.py [--set peps|readmes|all] [--mode one|batch|all]
                                     [--half report|tuning] [--rst auto|text]
                                     [--json out.json] [--unlabelled out.json] [--keep DIR]

The KestrelDB corpus (``bench/ingest_eval.py``) was written to exercise the extractor and
stays a regression check; this is the measure (issue 15). Two sets, both read at run
time and never copied into the repository:

- ``peps``: the typing PEPs in ``../shared/data/peps-typing/*.rst`` (27), split by their
  sorted file order: the 1st, 3rd, 5th... file (14) are the **tuning** half, the 2nd, 4th,
  6th... (13) the **reporting** half (``--half``; figures are reported on the reporting
  half). Each is fed as ``.rst`` when :data:`~mnemex.ingest.readers.SUPPORTED_FORMATS`
  reads ``.rst``, else as plain text (a temporary ``.txt``); ``--rst text`` forces text.
- ``readmes``: the long descriptions (README text) in the ``METADATA`` of ten installed
  wheels (:data:`PACKAGES`), read through :mod:`importlib.metadata`; markdown ones are fed
  as ``.md``, reStructuredText ones like the PEPs.

Each set is ingested in two modes with the offline extractor and the hashing embedder,
under a fresh ``HOME``: ``one`` (each document into a fresh vault of its own) and
``batch`` (all the set's documents into one vault, one plan, as ``mnemex ingest FOLDER``).
Every entity and concept page is then looked up, by its title, in the hand labels of
``bench/data/ingest_real_labels.json`` (rubric: ``docs/ingest-rubric.md``): ``real``,
``noise`` or ``split-of:<name>``. Reported per set and mode:

- pages: entity and concept pages in the vault(s); per source, the pages each source
  created or updated (median, min, max);
- noise rate: noise pages / labelled pages;
- split rate: real things with two or more pages in one vault / real things (a ``real``
  page is a thing; a ``split-of:X`` page is another page of thing X);
- coverage: the things of ``bench/data/ingest_real_expected.json`` that got a page
  (matched to a page the document created or updated, by title or alias, ignoring case,
  accents, backticks and a leading ``@``);
- unlabelled: pages with no label, never counted as real (``--unlabelled`` writes them
  out, with their source, for labelling).

The targets of issue 15 are printed beside. Deterministic: same inputs, same figures.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import statistics
import sys
import tempfile
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PEPS = ROOT.parent / "shared" / "data" / "peps-typing"
LABELS = ROOT / "bench" / "data" / "ingest_real_labels.json"
EXPECTED = ROOT / "bench" / "data" / "ingest_real_expected.json"

#: Installed wheels whose README (several KB of prose, markdown or rst) is the second set.
PACKAGES = (
    "annotated-types",
    "charset-normalizer",
    "courlan",
    "htmldate",
    "pathspec",
    "regex",
    "sse-starlette",
    "tqdm",
    "trafilatura",
    "wordllama",
)

TARGETS = {
    "noise_rate": "<= 0.05",
    "split_rate": "<= 0.03",
    "coverage": ">= 0.70",
    "pages_per_source": "5-15",
}


@dataclass(frozen=True)
class Document:
    """One document of a set: its key (labels and expected lists use it), text and format."""

    key: str
    text: str
    rst: bool  # reStructuredText (else markdown)


def norm(name: str) -> str:
    """A name as labels and expected lists match it: no accents, case, backticks or ``@``."""
    text = unicodedata.normalize("NFKD", name.replace("`", ""))
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(text.casefold().split()).lstrip("@")


def pep_documents(half: str) -> list[Document]:
    """The PEPs of one half: tuning = 1st, 3rd, ... in sorted order; report = 2nd, 4th, ..."""
    files = sorted(PEPS.glob("pep-*.rst"))
    chosen = files[1::2] if half == "report" else files[0::2]
    return [Document(f.stem, f.read_text(encoding="utf-8"), rst=True) for f in chosen]


def readme_documents() -> list[Document]:
    """The README of each package of :data:`PACKAGES`, as its installed METADATA holds it."""
    docs = []
    for name in PACKAGES:
        meta = importlib.metadata.metadata(name)
        body = meta.get_payload() or meta.get("Description") or ""  # type: ignore[attr-defined]
        if len(body) < 2000:
            sys.exit(f"{name}: no README of several KB in its METADATA")
        kind = (meta.get("Description-Content-Type") or "").lower()
        docs.append(Document(f"readme-{name}", str(body), rst="rst" in kind))
    return docs


def write_sources(docs: list[Document], folder: Path, rst: str) -> list[Path]:
    """Each document as a file ingestion reads: ``.md``, ``.rst`` when read, else ``.txt``."""
    from mnemex.ingest.readers import SUPPORTED_FORMATS

    as_rst = rst == "auto" and ".rst" in SUPPORTED_FORMATS
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for doc in docs:
        ext = (".rst" if as_rst else ".txt") if doc.rst else ".md"
        path = folder / f"{doc.key}{ext}"
        path.write_text(doc.text, encoding="utf-8")
        paths.append(path)
    return paths


def ingest(vault: Path, files: list[Path]) -> tuple[dict[str, list[str]], dict[str, Any]]:
    """Ingest ``files`` as one batch into a fresh vault at ``vault``.

    Returns, per source file stem, the entity and concept pages it created or updated,
    and every such page of the vault as ``path -> (title, aliases)``.
    """
    from mnemex.brain import Brain
    from mnemex.ingest.apply import apply_plan
    from mnemex.ingest.readers import read_source
    from mnemex.ingest.run import offline_extractor, plan_docs
    from mnemex.vault import Vault, init_vault
    from mnemex.vault.markdown import parse_note

    init_vault(vault, git=False)
    settings = vault / "mnemex.toml"
    text = settings.read_text(encoding="utf-8")
    settings.write_text(text.replace('name = "minilm"', 'name = "hashing"'), encoding="utf-8")
    with Brain(Vault(vault)) as brain:
        plan = plan_docs(brain, [read_source(f) for f in files], "general", offline_extractor)
        if plan.failed:
            sys.exit(f"ingest failed: {plan.failed}")
        apply_plan(brain.vault, plan)
    touched = {
        Path(s.source).stem: sorted(
            p
            for p, how in s.pages.items()
            if how in ("created", "updated") and ("/entities/" in p or "/concepts/" in p)
        )
        for s in plan.sources
    }
    pages = {}
    for folder in ("entities", "concepts"):
        for path in sorted((vault / "wiki" / "general" / folder).glob("*.md")):
            note = parse_note(path.read_text(encoding="utf-8"))
            pages[str(path.relative_to(vault))] = (note.title, list(note.aliases))
    return touched, pages


def score_vault(
    touched: dict[str, list[str]],
    pages: dict[str, Any],
    labels: dict[str, str],
    expected: dict[str, list[list[str]]],
) -> dict[str, Any]:
    """Counts for one vault (summed over vaults by :func:`combine`)."""
    real = noise = splits = 0
    pages_of: dict[str, int] = {}
    unlabelled: list[str] = []
    for title, _ in pages.values():
        label = labels.get(norm(title))
        if label is None:
            unlabelled.append(title)
        elif label == "noise":
            noise += 1
        elif label == "real":
            real += 1
            pages_of[norm(title)] = pages_of.get(norm(title), 0) + 1
        elif label.startswith("split-of:"):
            splits += 1
            thing = norm(label.removeprefix("split-of:"))
            pages_of[thing] = pages_of.get(thing, 0) + 1
        else:
            sys.exit(f"bad label {label!r} for {title!r}")
    covered = missing = 0
    missed: list[str] = []
    for source, paths in touched.items():
        names = {norm(n) for p in paths for n in (pages[p][0], *pages[p][1])}
        for thing in expected.get(source, []):
            if names & {norm(n) for n in thing}:
                covered += 1
            else:
                missing += 1
                missed.append(f"{source}: {thing[0]}")
    return {
        "pages": len(pages),
        "per_source": [len(v) for v in touched.values()],
        "real": real,
        "noise": noise,
        "split_pages": splits,
        "things": len(pages_of),
        "split_things": sum(1 for n in pages_of.values() if n > 1),
        "split": sorted(t for t, n in pages_of.items() if n > 1),
        "covered": covered,
        "expected": covered + missing,
        "missed": missed,
        "unlabelled": unlabelled,
    }


def combine(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of a set and mode from its vaults' counts."""
    keys = ("pages", "real", "noise", "split_pages", "things", "split_things")
    keys += ("covered", "expected")
    total: dict[str, int] = dict.fromkeys(keys, 0)
    per_source: list[int] = []
    missed: list[str] = []
    unlabelled: list[str] = []
    split: list[str] = []
    for part in parts:
        for key in total:
            total[key] += part[key]
        per_source += part["per_source"]
        missed += part["missed"]
        split += part["split"]
        unlabelled += part["unlabelled"]
    labelled = total["real"] + total["noise"] + total["split_pages"]
    things = total["things"]
    return {
        "sources": len(per_source),
        "pages": total["pages"],
        "pages_per_source": {
            "median": float(statistics.median(per_source)) if per_source else 0.0,
            "min": min(per_source, default=0),
            "max": max(per_source, default=0),
        },
        "labelled": labelled,
        "noise": total["noise"],
        "noise_rate": round(total["noise"] / labelled, 3) if labelled else None,
        "real_things": total["things"],
        "split_things": total["split_things"],
        "split_rate": round(total["split_things"] / things, 3) if things else None,
        "split": split,
        "expected": total["expected"],
        "covered": total["covered"],
        "coverage": round(total["covered"] / total["expected"], 3) if total["expected"] else None,
        "unlabelled": len(unlabelled),
        "unlabelled_titles": sorted(set(unlabelled)),
        "missed": missed,
    }


def run_set(
    docs: list[Document], mode: str, tmp: Path, args: argparse.Namespace, data: dict[str, Any]
) -> tuple[dict[str, Any], list[dict[str, str]]]:
    """Ingest one set in one mode; its figures and every page with its source (for labelling)."""
    files = write_sources(docs, tmp / "sources", args.rst)
    groups = [[f] for f in files] if mode == "one" else [files]
    parts = []
    seen: list[dict[str, str]] = []
    for n, group in enumerate(groups):
        base = args.keep / tmp.name if args.keep else tmp
        vault = base / (group[0].stem if mode == "one" else "batch")
        touched, pages = ingest(vault, group)
        parts.append(score_vault(touched, pages, data["labels"], data["expected"]))
        owner = {p: s for s, ps in touched.items() for p in ps}
        seen += [
            {"title": t, "source": owner.get(p, ""), "path": p, "vault": str(n)}
            for p, (t, _) in pages.items()
        ]
    return combine(parts), seen


def load_data() -> dict[str, Any]:
    """The labels (keyed by normalised title) and each document's expected things."""
    raw = json.loads(LABELS.read_text(encoding="utf-8")) if LABELS.exists() else {"labels": {}}
    labels: dict[str, str] = {}
    for title, label in raw["labels"].items():
        key = norm(title)
        if key in labels and labels[key] != label:
            sys.exit(f"two labels for {title!r}: {labels[key]!r} and {label!r}")
        labels[key] = label
    docs = json.loads(EXPECTED.read_text(encoding="utf-8"))["documents"]
    expected = {k: [[t] if isinstance(t, str) else list(t) for t in ts] for k, ts in docs.items()}
    return {"labels": labels, "expected": expected}


def print_table(results: dict[str, dict[str, Any]]) -> None:
    print(
        f"{'set / mode':<18} {'pages':>5} {'per source med (min-max)':>25} "
        f"{'noise':>13} {'split':>11} {'coverage':>14} {'unlabelled':>10}"
    )
    for name, r in results.items():
        pps = r["pages_per_source"]
        print(
            f"{name:<18} {r['pages']:>5} {pps['median']:>14} ({pps['min']}-{pps['max']})"
            f"{'':>4} {_rate(r['noise_rate'], r['noise'], r['labelled']):>13}"
            f" {_rate(r['split_rate'], r['split_things'], r['real_things']):>11}"
            f" {_rate(r['coverage'], r['covered'], r['expected']):>14} {r['unlabelled']:>10}"
        )
    print(
        f"{'target':<18} {'':>5} {TARGETS['pages_per_source']:>25} {TARGETS['noise_rate']:>13}"
        f" {TARGETS['split_rate']:>11} {TARGETS['coverage']:>14}"
    )


def _rate(rate: float | None, part: int, whole: int) -> str:
    return "-" if rate is None else f"{rate:.3f} ({part}/{whole})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=("peps", "readmes", "all"), default="all")
    parser.add_argument("--mode", choices=("one", "batch", "all"), default="all")
    parser.add_argument("--half", choices=("report", "tuning"), default="report")
    parser.add_argument(
        "--rst", choices=("auto", "text"), default="auto", help="feed rst as .rst when read"
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--unlabelled", type=Path, help="write the unlabelled pages here")
    parser.add_argument("--keep", type=Path, help="build the vaults under this folder")
    args = parser.parse_args(argv)
    if args.set != "readmes" and not PEPS.is_dir():
        sys.exit(f"the typing PEPs are not at {PEPS}")
    data = load_data()
    sets = {
        "peps": lambda: pep_documents(args.half),
        "readmes": readme_documents,
    }
    results: dict[str, dict[str, Any]] = {}
    todo: list[dict[str, str]] = []
    with tempfile.TemporaryDirectory(prefix="mnemex-real-") as tmp:
        os.environ["HOME"] = str(Path(tmp) / "home")  # no user settings, caches or models
        (Path(tmp) / "home").mkdir()
        for set_name, load in sets.items():
            if args.set not in (set_name, "all"):
                continue
            docs = load()
            for mode in ("one", "batch"):
                if args.mode not in (mode, "all"):
                    continue
                work = Path(tmp) / f"{set_name}-{mode}"
                figures, seen = run_set(docs, mode, work, args, data)
                results[f"{set_name}/{mode}"] = figures
                todo += [
                    {"set": set_name, "mode": mode, **page}
                    for page in seen
                    if norm(page["title"]) not in data["labels"]
                ]
    from mnemex.ingest.readers import SUPPORTED_FORMATS

    rst_as = ".rst" if args.rst == "auto" and ".rst" in SUPPORTED_FORMATS else ".txt"
    out = {"half": args.half, "rst_fed_as": rst_as, "targets": TARGETS, "results": results}
    if args.json:
        args.json.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.unlabelled:
        args.unlabelled.write_text(
            json.dumps(todo, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    print(f"typing PEPs ({args.half} half) and rst READMEs fed as {rst_as}")
    print_table(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
