"""The data that flows through ingestion: a read source, and what was extracted from it.

These types are the seam between the readers and extractors on one side and the
planner and merger on the other; the offline extractor and a model produce the
same :class:`Extraction`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

PageKind = Literal["entity", "concept"]

#: Entity types the extractors may give (anything else is ``thing``).
ENTITY_TYPES = ("person", "organization", "tool", "place", "product", "project", "event", "thing")


@dataclass
class SourceDoc:
    """One source document, read and cleaned.

    ``text`` is the main text as markdown-ish plain text (control and invisible
    characters stripped, impersonation markers escaped; URLs kept as they are).
    ``raw`` is the original bytes, kept under ``wiki/<domain>/sources/``.
    """

    path: str  # where it was read from, as the user named it (display only)
    format: str  # "markdown" | "text" | "rst" | "html" | "pdf"
    title: str
    text: str
    sha256: str  # of ``raw``
    raw: bytes
    author: str | None = None
    #: other people its metadata names (a PEP's sponsor or delegate, an editor), as
    #: ``author`` writes them: names separated by commas
    contributors: list[str] = field(default_factory=list)
    date: str | None = None  # ISO date when the document states one
    url: str | None = None
    pages: int | None = None  # PDF page count
    warnings: list[str] = field(default_factory=list)


@dataclass
class Evidence:
    """A sentence of the source that supports a fact (quoted, not paraphrased, offline)."""

    text: str
    position: int = 0  # sentence index in the source, for ordering


@dataclass
class PlannedPage:
    """An entity or concept the source talks about, before it is resolved against the wiki."""

    name: str  # canonical display name, e.g. "Priya Raman"
    kind: PageKind
    type: str = "thing"  # for entities, one of ENTITY_TYPES; concepts: "concept"
    aliases: list[str] = field(default_factory=list)  # other names seen in this source
    description: str = ""  # one sentence: what it is
    facts: list[Evidence] = field(default_factory=list)  # what this source says about it
    related: list[str] = field(default_factory=list)  # names of other planned pages
    mentions: int = 0


@dataclass
class Extraction:
    """Everything one source contributes to the wiki."""

    title: str
    summary: list[str]  # a few sentences, most central first
    key_points: list[str] = field(default_factory=list)
    pages: list[PlannedPage] = field(default_factory=list)
    relations: list[tuple[str, str, str]] = field(default_factory=list)  # (a, relation, b)
    extractor: str = "offline"  # "offline" | "model:<identity>"
    warnings: list[str] = field(default_factory=list)


__all__ = ["ENTITY_TYPES", "Evidence", "Extraction", "PageKind", "PlannedPage", "SourceDoc"]
