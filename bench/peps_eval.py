"""Retrieval on the typing PEPs: do chunks find the section that answers a question?

LoCoMo has one short note per conversation turn, so it cannot see chunk size. The
typing PEPs (``../shared/data/peps-typing/*.rst``, 27 long multi-section documents,
read at run time and never copied into the repository) can: each question in
``bench/data/peps_queries.json`` names the PEP(s) and the section(s) that answer it.

The vault reads markdown only, so each PEP is converted into a temporary vault:

* a section title is a line at column 0 that follows a blank line (or the start of
  the file) and is underlined by a line of one repeated punctuation character at
  least as long as the title, optionally overlined by the same line; each distinct
  adornment (character, with or without an overline) gets the next heading level in
  order of first appearance, as docutils does, and the title becomes an ATX heading
  ``#``... of that level (its text verbatim, ``code`` markup and all);
* the PEP's ``Title:`` header becomes the note's frontmatter ``title`` (what a person's
  note would have); everything else, header block included, is copied verbatim.

The vault is indexed with the default MiniLM embedder and every question is searched
(keyword + vector, the default weights, no graph: the PEPs have no links). Printed:

* note level: recall@5, recall@10 and MRR of ``search``'s ranking of notes;
* section level: every chunk ranked by the same fusion as ``search`` (weighted RRF of
  its keyword and vector ranks) but without collapsing to notes, then collapsed to
  sections (note + heading path, each counted once at its best chunk); a section
  answers when one of the question's section titles is on its heading path. hit@5,
  hit@10 and MRR over that section ranking;
* snippet level: hit@5, whether a snippet ``search`` shows in its first five hits is
  from an answering section (what a person or agent reads);
* the chunks: count, median, p10, p90 and max characters, and the share of word pieces
  past MiniLM's 256-piece window in what the index embeds (``embed_text``).

``--target N`` sets ``mnemex.index.chunking.TARGET_CHARS`` for the run (to compare
target lengths without editing the chunker). ``--chunk-stats DIR`` only reports the
chunk distribution of an existing vault (e.g. one from ``bench/make_vault.py``), or of
the converted PEPs with ``--chunk-stats peps``.

    .venv/bin/python bench/peps_eval.py [--target 800] [--json out.json]
    .venv/bin/python bench/peps_eval.py --chunk-stats /tmp/vault-1000 [--target 800]
    .venv/bin/python bench/peps_eval.py --chunk-stats peps [--target 800]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
PEPS = REPO.parent / "shared" / "data" / "peps-typing"
QUERIES = REPO / "bench" / "data" / "peps_queries.json"
WINDOW = 256  # MiniLM's word pieces, [CLS]/[SEP] included

_ADORNMENT = re.compile(r"([!-/:-@\[-`{-~])\1{2,}")


def rst_to_markdown(text: str) -> tuple[str, str]:
    """The PEP as markdown (section titles as ATX headings) and its title."""
    lines = text.split("\n")
    styles: list[tuple[str, bool]] = []
    out: list[str] = []
    title = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        if not title and line.startswith("Title:"):
            title = line[len("Title:") :].strip()
        over = bool(_ADORNMENT.fullmatch(line.rstrip()))
        at = i + 1 if over else i
        if at + 1 < len(lines) and (i == 0 or not lines[i - 1].strip()):
            head, under = lines[at], lines[at + 1].rstrip()
            is_title = (
                head.strip()
                and not head[0].isspace()
                and not _ADORNMENT.fullmatch(head.rstrip())
                and _ADORNMENT.fullmatch(under)
                and len(under) >= len(head.rstrip())
                and (not over or line.rstrip() == under)
            )
            if is_title:
                style = (under[0], over)
                if style not in styles:
                    styles.append(style)
                out.append("#" * min(6, styles.index(style) + 1) + " " + head.strip())
                i = at + 2
                continue
        out.append(line)
        i += 1
    return "\n".join(out), title


def write_vault(root: Path) -> list[str]:
    """A vault of the converted PEPs; returns the note stems."""
    from mnemex.vault.layout import init_vault

    init_vault(root, name="peps", git=False)
    stems = []
    for path in sorted(PEPS.glob("*.rst")):
        body, title = rst_to_markdown(path.read_text(encoding="utf-8"))
        note = root / "notes" / f"{path.stem}.md"
        note.parent.mkdir(parents=True, exist_ok=True)
        note.write_text(f"---\ntitle: {json.dumps(title)}\n---\n\n{body}", encoding="utf-8")
        stems.append(path.stem)
    return stems


@contextmanager
def peps_brain(prefix: str) -> Iterator[Any]:
    """A brain on the PEPs in a throw-away vault, synced with MiniLM (yields the Brain)."""
    from mnemex.brain import Brain
    from mnemex.embed import load_embedder
    from mnemex.vault import Vault

    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        root = Path(tmp) / "vault"
        write_vault(root)
        with Brain(Vault(root), embedder=load_embedder("minilm")) as brain:
            brain.sync()
            yield brain


def _norm(title: str) -> str:
    return " ".join(title.replace("`", "").split()).lower()


def chunk_stats(root: Path) -> dict[str, Any]:
    """Chunk count and sizes as the index cuts them, and the share past MiniLM's window."""
    from tokenizers import Tokenizer

    from mnemex.embed.minilm import tokenizer_file
    from mnemex.index.chunking import chunk_body
    from mnemex.index.sync import embed_text
    from mnemex.vault import parse_note

    tokenizer = Tokenizer.from_file(str(tokenizer_file()))
    tokenizer.no_truncation()  # the file truncates (at 128): count what a window would lose
    sizes: list[int] = []
    pieces = past = over = 0
    texts: list[str] = []
    for path in sorted(root.rglob("*.md")):
        if ".mnemex" in path.parts:
            continue
        parsed = parse_note(path.read_text(encoding="utf-8"), str(path.relative_to(root)))
        title = parsed.title if parsed.titled else None
        for chunk in chunk_body(parsed.body, parsed.body_line):
            sizes.append(len(chunk.text))
            texts.append(embed_text(title, chunk.heading, chunk.text))
    for start in range(0, len(texts), 256):
        for enc in tokenizer.encode_batch(texts[start : start + 256]):
            n = len(enc.ids)
            pieces += n
            past += max(0, n - WINDOW)
            over += n > WINDOW
    sizes.sort()
    n = len(sizes)
    return {
        "chunks": n,
        "median": statistics.median(sizes) if sizes else 0,
        "p10": sizes[n // 10] if sizes else 0,
        "p90": sizes[n * 9 // 10] if sizes else 0,
        "max": sizes[-1] if sizes else 0,
        "chunks_past_window": over,
        "share_past_window": round(past / pieces, 5) if pieces else 0.0,
    }


def section_ranking(
    brain: Any, query: str, weights: Any, signals: tuple[str, ...] = ("keyword", "vector")
) -> list[tuple[str, str]]:
    """(note stem, heading path) in order of each section's best chunk, ranked as search
    ranks chunks (``score_chunks``) from the ``signals`` given (keyword, vector or both)."""
    from mnemex.index.backend import Scope
    from mnemex.retrieve.search import score_chunks

    scored = score_chunks(brain, query, Scope(), weights, signals)
    return sections_in_order(brain, scored.score)


def sections_in_order(brain: Any, score: dict[int, float]) -> list[tuple[str, str]]:
    """(note stem, heading path) of the chunks of ``score``, best first, each section once."""
    order = sorted(score, key=lambda cid: (-score[cid], cid))
    chunks = brain.backend.chunks_by_id(order)
    notes = brain.backend.notes_by_id({chunks[cid].note_id for cid in order})
    seen: dict[tuple[str, str], None] = {}
    for cid in order:
        chunk = chunks[cid]
        seen.setdefault((Path(notes[chunk.note_id].path).stem, chunk.heading), None)
    return list(seen)


def answers(stem: str, heading: str, targets: list[dict[str, str]]) -> bool:
    """Whether a chunk of note ``stem`` under ``heading`` is in one of the target sections."""
    path = {_norm(part) for part in heading.split(" > ")}
    return any(t["doc"] == stem and _norm(t["section"]) in path for t in targets)


def evaluate(root: Path) -> dict[str, Any]:
    from mnemex.brain import Brain
    from mnemex.embed import load_embedder
    from mnemex.evaluate.retrieval import aggregate, query_metrics
    from mnemex.retrieve.search import Weights, search
    from mnemex.vault import Vault

    queries = json.loads(QUERIES.read_text(encoding="utf-8"))["queries"]
    write_vault(root)
    weights = Weights()
    note_rows, section_rows = [], []
    with Brain(Vault(root), embedder=load_embedder("minilm")) as brain:
        started = time.perf_counter()
        brain.sync()
        index_seconds = time.perf_counter() - started
        for q in queries:
            result = search(
                brain, q["text"], k=10, weights=weights, signals=("keyword", "vector"),
                full_ranking=True,
            )  # fmt: skip
            ranking = [Path(p).stem for p in result.ranking]
            note_rows.append(query_metrics(ranking, q["relevant"], (5, 10)))
            sections = section_ranking(brain, q["text"], weights)
            first = next(
                (i for i, (s, h) in enumerate(sections, 1) if answers(s, h, q["sections"])), 0
            )
            shown = any(
                answers(Path(hit.path).stem, snip.heading, q["sections"])
                for hit in result.hits[:5]
                for snip in hit.snippets
            )
            section_rows.append(
                {
                    "hit@5": float(0 < first <= 5),
                    "hit@10": float(0 < first <= 10),
                    "mrr": 1 / first if first else 0.0,
                    "snippet_hit@5": float(shown),
                }
            )
    notes = aggregate(note_rows)
    sections = aggregate(section_rows)
    return {
        "queries": len(queries),
        "note": {k: round(notes[k], 3) for k in ("recall@5", "recall@10", "mrr")},
        "section": {k: round(sections[k], 3) for k in ("hit@5", "hit@10", "mrr", "snippet_hit@5")},
        "chunks": chunk_stats(root),
        "index_seconds": round(index_seconds, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", type=int, help="chunking.TARGET_CHARS for this run")
    parser.add_argument("--chunk-stats", type=Path, metavar="VAULT", help="only chunk sizes")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    if args.target is not None:
        import mnemex.index.chunking as chunking

        if not hasattr(chunking, "TARGET_CHARS"):
            sys.exit("this chunker has no TARGET_CHARS")
        chunking.TARGET_CHARS = args.target
    if args.chunk_stats == Path("peps"):
        with tempfile.TemporaryDirectory(prefix="mnemex-peps-") as tmp:
            write_vault(Path(tmp) / "vault")
            figures: dict[str, Any] = chunk_stats(Path(tmp) / "vault")
    elif args.chunk_stats:
        figures = chunk_stats(args.chunk_stats)
    else:
        if not PEPS.is_dir():
            sys.exit(f"the typing PEPs are not at {PEPS}")
        with tempfile.TemporaryDirectory(prefix="mnemex-peps-") as tmp:
            figures = evaluate(Path(tmp) / "vault")
    figures["target"] = args.target
    print(json.dumps(figures, indent=1))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
