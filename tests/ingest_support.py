"""Helpers for the plan/apply/CLI/MCP ingest tests: git vaults and hand-made extractions.

The planner is tested against hand-made :class:`Extraction` objects, so its
tests say exactly what an extractor gave it and do not move when the offline
extractor improves.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.ingest.records import Evidence, Extraction, PlannedPage, SourceDoc
from mnemex.vault import Vault, init_vault, sha256_bytes


def git_vault(root: Path) -> Path:
    """An initialised git vault with the hashing embedder (no model to load)."""
    init_vault(root, git=True)
    settings = root / "mnemex.toml"
    settings.write_text(
        settings.read_text(encoding="utf-8").replace('name = "minilm"', 'name = "hashing"'),
        encoding="utf-8",
    )
    subprocess.run(["git", "add", "-A"], cwd=root, check=True, capture_output=True)
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"],
        cwd=root,
        check=True,
        capture_output=True,
    )
    return root


def open_brain(root: Path) -> Brain:
    return Brain(Vault(root), embedder=HashingEmbedder())


def commits(root: Path) -> int:
    done = subprocess.run(
        ["git", "rev-list", "--count", "HEAD"], cwd=root, capture_output=True, text=True
    )
    return int(done.stdout.strip() or 0)


def doc(title: str, text: str, path: str | None = None, fmt: str = "markdown") -> SourceDoc:
    raw = text.encode("utf-8")
    return SourceDoc(
        path=path or f"{title}.md",
        format=fmt,
        title=title,
        text=text,
        sha256=sha256_bytes(raw),
        raw=raw,
    )


def page(
    name: str,
    kind: str = "entity",
    type_: str = "thing",
    facts: tuple[str, ...] = (),
    aliases: tuple[str, ...] = (),
    related: tuple[str, ...] = (),
    description: str = "",
) -> PlannedPage:
    return PlannedPage(
        name=name,
        kind="entity" if kind == "entity" else "concept",
        type=type_,
        aliases=list(aliases),
        description=description,
        facts=[Evidence(f, i) for i, f in enumerate(facts)],
        related=list(related),
    )


def extraction(
    title: str, *pages: PlannedPage, relations: tuple[tuple[str, str, str], ...] = ()
) -> Extraction:
    return Extraction(
        title=title,
        summary=[f"{title} is a source about KestrelDB."],
        key_points=[f"{title} has a key point."],
        pages=list(pages),
        relations=list(relations),
    )


def overview() -> tuple[SourceDoc, Extraction]:
    """A first source: a person, the database she made, and a concept."""
    return doc("Kestrel overview", "KestrelDB is a database by Priya Raman.\n"), extraction(
        "Kestrel overview",
        page("Priya Raman", type_="person", facts=("Priya Raman created KestrelDB in 2017.",)),
        page(
            "KestrelDB",
            type_="product",
            facts=("KestrelDB is written in Rust.",),
            description="An embedded time-series database.",
        ),
        page("time series", kind="concept", facts=("A time series is data ordered in time.",)),
        relations=(("Priya Raman", "created", "KestrelDB"),),
    )


def interview() -> tuple[SourceDoc, Extraction]:
    """A second source naming the same things differently, and a company named after her."""
    return doc(
        "Raman interview", "Dr. Raman talks about Kestrel DB.\n", "interview.txt", "text"
    ), extraction(
        "Raman interview",
        page("Dr. Raman", type_="person", facts=("Dr. Raman prefers Rust.",)),
        page("Kestrel DB", facts=("KestrelDB 2.0 shipped in 2023.",)),
        page("Time-series", kind="concept"),
        page("Raman Labs", type_="organization", facts=("Raman Labs sponsors the project.",)),
    )


_NAME_RE = re.compile(r"\b[A-Z][a-z]+ [A-Z][a-z]+\b")


def fake_extract(source: SourceDoc) -> Extraction:
    """A stand-in extractor: every capitalised two-word name is a person, its sentence a fact."""
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", source.text) if s.strip()]
    pages: dict[str, PlannedPage] = {}
    for position, sentence in enumerate(sentences):
        for name in _NAME_RE.findall(sentence):
            found = pages.setdefault(name, page(name, type_="person"))
            found.facts.append(Evidence(sentence, position))
    return Extraction(
        title=source.title, summary=sentences[:2], pages=list(pages.values()), extractor="fake"
    )
