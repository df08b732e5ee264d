"""Hostile input: how long each reader and parser takes on what once made it hang.

    python bench/bench_hostile.py [--runs 3] [--skip-big]

Prints the median and worst of ``--runs`` runs for: every note of
``tests/hostile_inputs.py`` parsed and chunked, an index sync of a vault holding all of
them, HTML sources (a 49 MB page, a tag with a million attributes, 160,000 elements, half
a million ``<a`` with no ``>``), and the offline extraction of a hundred pages of text
(which was a wall-clock assertion in tests/ingest/test_extract.py). The tests check the
outcome on the same inputs; the time is measured here. ``--skip-big`` leaves out the
49 MB page (about half a minute a run).
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from hostile_inputs import hostile_notes
from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.index.chunking import chunk_body
from mnemex.ingest.extract import extract_offline
from mnemex.ingest.readers import SourceReadError, read_bytes, read_text_source
from mnemex.vault import Vault, init_vault, parse_note

CORPUS = Path(__file__).resolve().parent.parent / "tests/ingest/corpus"


def timed(run: Callable[[], object], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return times


def report(name: str, size: int, times: list[float]) -> None:
    print(
        f"{name:32s} {size / 1e6:7.2f} MB  median {statistics.median(times):7.3f} s"
        f"  worst {max(times):7.3f} s",
        flush=True,
    )


def parse_and_chunk(text: str) -> None:
    note = parse_note(text, "n.md")
    chunk_body(note.body, note.body_line)


def sync_vault(notes: dict[str, str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "vault"
        init_vault(root, git=False)
        for name, text in notes.items():
            (root / f"{name}.md").write_text(text, encoding="utf-8")
        with Brain(Vault(root), embedder=HashingEmbedder()) as brain:
            brain.sync()


def read_html(html: str) -> None:
    # refused with a reason is an answer too: what the million attributes get
    with contextlib.suppress(SourceReadError):
        read_bytes(html.encode("utf-8"), path="x.html", format="html")


def html_inputs(skip_big: bool) -> dict[str, str]:
    line = "<p>The river barges carried grain and timber past the old mill {i}. </p>\n"
    pages = {
        "html: 1,000,000 attributes": "<html><body><p "
        + " ".join(f"a{i}" for i in range(1_000_000))
        + ">x</p></body></html>",
        "html: 160,000 elements": "<html><body><article>"
        + "".join(f"<p>Line {i} on <a href='/w/{i}'>page {i}</a>.</p>" for i in range(80_000))
        + "</article></body></html>",
        "html: 500,000 '<a' without '>'": "<p>Open tags follow.</p>" + "<a" * 500_000,
        "html: 20,000 elements (extracted)": "<html><body><article>"
        + "".join(line.format(i=i) for i in range(20_000))
        + "</article></body></html>",
    }
    if not skip_big:
        count = int(49e6 / len(line.format(i=100_000)))
        pages["html: 49 MB page"] = (
            "<html><body><article>"
            + "".join(line.format(i=i) for i in range(count))
            + "</article></body></html>"
        )
    return pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip-big", action="store_true", help="leave out the 49 MB page")
    args = parser.parse_args()
    read_text_source("<p>warm up</p>", format="html")  # trafilatura's import, once

    notes = hostile_notes()
    for name, text in notes.items():
        report(f"note: {name}", len(text), timed(lambda t=text: parse_and_chunk(t), args.runs))
    total = sum(len(t) for t in notes.values())
    report("index sync: all hostile notes", total, timed(lambda: sync_vault(notes), args.runs))

    for name, html in html_inputs(args.skip_big).items():
        report(name, len(html), timed(lambda h=html: read_html(h), args.runs))

    base = " ".join(
        read_bytes((CORPUS / n).read_bytes(), path=n, format="markdown").text
        for n in ("01-kestrel-overview.md", "07-hollis-analytics.md")
    )
    text = ((base + "\n\n") * (300_000 // len(base) + 1))[:300_000]
    doc = read_text_source(text, format="text")
    report("extract_offline: 300,000 chars", len(text), timed(lambda: extract_offline(doc), 3))


if __name__ == "__main__":
    main()
