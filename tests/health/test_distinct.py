"""Near-duplicates by meaning, judged by what tells two pages apart (issue 7).

Built with the real MiniLM embedder: the false positives it fixes come from
real vectors of pages that quote the same sentences.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from health_support import page
from helpers import write
from mnemex.brain import Brain
from mnemex.embed.minilm import MiniLMEmbedder
from mnemex.health import scan
from mnemex.health.distinct import names_both, sentence_key
from mnemex.health.names import opposed, plural_key
from mnemex.vault import Vault

SOURCE = "wiki/general/summaries/kestrel-design-notes.md"
PLANNER = "wiki/general/concepts/query-planner.md"
ENGINE = "wiki/general/concepts/storage-engine.md"
HIGH = "wiki/general/concepts/high-severity-issues.md"
LOW = "wiki/general/concepts/low-severity-issues.md"
ADA = "wiki/general/concepts/analytical-engine.md"
KING = "wiki/general/concepts/babbage-analytical-engine.md"

#: What ingestion writes for two things one source names in the same sentences.
QUOTED = (
    "The query planner hands every scan to the storage engine, which reads segments from disk.",
    "In version 2 the query planner and the storage engine were both rewritten in Rust.",
)
SEVERITY = "We found two high-severity issues and several low-severity issues in the audit."


def _quoting(title: str, sentences: tuple[str, ...], other: str) -> str:
    """A page as ingestion writes it: the source's sentences, cited and dated, and the other
    page the source names under ``## Related``."""
    cite = "([[summaries/kestrel-design-notes]], 2026-10-01)"
    points = "".join(f"- {s} {cite}\n" for s in sentences)
    return page(
        "concept",
        title,
        f"{sentences[0]}\n\n## Key points\n{points}\n"
        f"## Related\n- [[concepts/{other}]]: co-occurs with {cite}\n\n"
        "## Sources\n- [[summaries/kestrel-design-notes]]\n",
        extra=f"sources:\n- path: {SOURCE}\n",
    ).replace("sources: []\n", "")


@pytest.fixture
def vault(vault_dir: Path) -> Path:
    return make_pairs(vault_dir)


def make_pairs(vault_dir: Path) -> Path:
    """Two pairs of pages quoting one source about different things, one machine twice."""
    write(vault_dir, SOURCE, page("summary", "Kestrel design notes", "## Summary\nNotes.\n"))
    write(vault_dir, PLANNER, _quoting("query planner", QUOTED, "storage-engine"))
    write(vault_dir, ENGINE, _quoting("storage engine", QUOTED, "query-planner"))
    write(vault_dir, HIGH, _quoting("high-severity issues", (SEVERITY,), "low-severity-issues"))
    write(vault_dir, LOW, _quoting("low-severity issues", (SEVERITY,), "high-severity-issues"))
    # one machine under two names, each page written in its own words
    write(
        vault_dir,
        ADA,
        page(
            "concept",
            "Analytical Engine",
            "The Analytical Engine was a mechanical general-purpose computer designed by Charles "
            "Babbage.\n\n## Key points\n- The Analytical Engine read its programs and data from "
            "punched cards.\n- The Analytical Engine was never completed in Babbage's lifetime.\n",
        ),
    )
    write(
        vault_dir,
        KING,
        page(
            "concept",
            "Babbage Analytical Engine",
            "The Babbage Analytical Engine was a general-purpose mechanical computer, designed by "
            "Charles Babbage.\n\n## Key points\n- The Babbage Analytical Engine read both its "
            "programs and its data from punched cards.\n- The Babbage Analytical Engine was "
            "never finished in Babbage's lifetime.\n",
        ),
    )
    return vault_dir


def test_pages_quoting_one_source_are_related_not_duplicates_but_paraphrases_are(
    vault: Path, minilm: MiniLMEmbedder
) -> None:
    with Brain(Vault(vault), embedder=minilm) as brain:
        brain.sync()
        found = scan(brain.vault, brain.backend).issues["duplicates"]
    pairs = {tuple(i.files): i for i in found}
    assert (PLANNER, ENGINE) not in pairs and (ENGINE, PLANNER) not in pairs
    assert (HIGH, LOW) not in pairs
    assert list(pairs) == [(ADA, KING)], [(i.files, i.detail) for i in found]
    issue = pairs[(ADA, KING)]
    assert issue.data["found_by"] == ["vectors"]
    assert "say nearly the same" in issue.detail


def test_a_copy_without_a_common_source_is_still_a_duplicate(
    vault: Path, minilm: MiniLMEmbedder
) -> None:
    """Sentences both pages have word for word, naming only one of them and citing no common
    source, are a copy, not a quote: the pair stays a duplicate."""
    body = (
        "Nebula Tower measured the light pattern of the harbour with a glass mirror.\n\n"
        "## Key points\n- Nebula Tower studied the energy balance of the river valley.\n"
    )
    write(vault, "wiki/general/concepts/nebula-tower.md", page("concept", "Nebula Tower", body))
    write(
        vault,
        "wiki/general/concepts/nebula-tower-project.md",
        page("concept", "Nebula Tower Project", body),
    )
    with Brain(Vault(vault), embedder=minilm) as brain:
        brain.sync()
        found = scan(brain.vault, brain.backend).issues["duplicates"]
    assert [
        "wiki/general/concepts/nebula-tower-project.md",
        "wiki/general/concepts/nebula-tower.md",
    ] in [i.files for i in found]


@pytest.mark.parametrize(
    ("a", "b", "words"),
    [
        ("high-severity issues", "low-severity issues", ("high", "low")),
        ("pre-commit hook", "post-commit hook", ("pre", "post")),
        ("HTTP client", "HTTP server", ("client", "server")),
        ("read path", "write path", ("read", "write")),
        ("minimum retention", "maximum retention", ("minimum", "maximum")),
        ("Kestrel 1.0", "Kestrel 2.0", ("1", "2")),
        ("supervised learning", "unsupervised learning", ("supervised", "unsupervised")),
    ],
)
def test_names_with_opposite_qualifiers_are_opposed(a: str, b: str, words: tuple[str, str]) -> None:
    assert opposed(a, b) == words


@pytest.mark.parametrize(
    ("a", "b"),
    [("Kalo River", "Kalo River Project"), ("Perch", "command-line client"), ("Ada", "Ada")],
)
def test_names_without_opposites_are_not_opposed(a: str, b: str) -> None:
    assert opposed(a, b) is None


def test_a_sentence_names_both_only_when_neither_name_is_inside_the_other() -> None:
    key = sentence_key(
        "Tidewater is the engine of [[entities/kestreldb|KestrelDB]], an embedded "
        "time-series database. ([[summaries/tidewater]])"
    )
    assert "summaries" not in key and "kestreldb" in key
    shorter, longer = (
        plural_key("embedded time-series"),
        plural_key("embedded time-series database"),
    )
    assert not names_both(key, {shorter}, {longer})
    assert names_both(key, {"tidewater"}, {"kestreldb"})
