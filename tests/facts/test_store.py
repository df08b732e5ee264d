"""``facts/<subject>.md``: rendered and read back exactly; hand edits read; bad files refused."""

from __future__ import annotations

import pytest

from fact_support import at, fact
from mnemex.errors import FactError
from mnemex.facts.model import Fact
from mnemex.facts.rule import apply_fact
from mnemex.facts.store import FactFile, parse_facts, render_facts


def _file() -> FactFile:
    held: list[Fact] = []
    for one in (
        fact("Tomasz Wierzbicki", "works_at", "Tidewater Labs", "2025-09-22", provenance="source"),
        fact(
            "Tomasz Wierzbicki",
            "works_at",
            "Tidewater Labs",
            "2026-01-20",
            provenance="source",
            until="2026-01-31",
            statement='He said "last day: 30 January" — ok?',
        ),
        fact(
            "Tomasz Wierzbicki",
            "works_at",
            "Kestrel Systems",
            "2026-02-11",
            start="2026-02-09",
            time_note="on Monday",
        ),
        fact(
            "Tomasz Wierzbicki",
            "lives_in",
            "Gdańsk",
            "2026-09-28",
            planned=True,
            time_resolved=False,
        ),
        fact(
            "Tomasz Wierzbicki",
            "prefers",
            "tea",
            "2026-05-26",
            kind="drink",
            condition="in the morning",
        ),
        fact(
            "Tomasz Wierzbicki",
            "uses",
            "Zed",
            "2026-02-16",
            start="2026-02",
            kind="editor",
            provenance="agent",
            hedged=True,
        ),
    ):
        apply_fact(held, one, one.recorded_at)
    return FactFile(
        "Tomasz Wierzbicki",
        held,
        page="wiki/general/entities/tomasz-wierzbicki",
        aliases=["Tom"],
        updated=at("2026-09-28"),
    )


def test_a_fact_file_reads_back_to_the_same_facts_and_the_same_bytes() -> None:
    original = _file()
    text = render_facts(original)
    again = parse_facts(text, "facts/tomasz-wierzbicki.md")
    assert (
        again.subject == original.subject
        and again.page == original.page
        and again.aliases == ["Tom"]
    )
    assert [vars(f) for f in again.facts] == [vars(f) for f in original.facts]
    assert render_facts(again) == text
    assert "## works at: Kestrel Systems · active" in text
    assert "- valid_from: 2026-02" in text and "- time_resolved: false" in text
    assert '- revised: 2026-01-20T12:00:00+00:00 valid_until "" → "2026-01-31" by ' in text


def test_a_hand_edited_value_is_read_as_the_truth() -> None:
    text = render_facts(_file()).replace("- valid_from: 2026-02-09", "- valid_from: 2026-02-10")
    edited = parse_facts(text, "facts/t.md")
    kestrel = next(f for f in edited.facts if f.value == "Kestrel Systems")
    assert str(kestrel.valid_from) == "2026-02-10"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("- provenance: person", "- provenance: boss"), "is not one of person"),
        (("- valid_from: 2026-02-09", "- valid_from: soon"), "is not a date"),
        (("- provenance: person", "- provenance: person\n- colour: blue"), "unknown key 'colour'"),
        (
            ("- provenance: person", "- provenance: person\nfree text here"),
            "not a '- key: value' line",
        ),
        (("- provenance: person", "- provenance: person\n- provenance: source"), "given twice"),
        (
            ("- evidence: [[notes/2026-02-11]] (2026-02-11)", "- evidence: somewhere"),
            "evidence must read",
        ),
    ],
)
def test_a_block_that_cannot_be_read_is_refused_with_its_line(
    change: tuple[str, str], message: str
) -> None:
    text = render_facts(_file())
    old, new = change
    assert old in text
    with pytest.raises(FactError, match=message) as caught:
        parse_facts(text.replace(old, new, 1), "facts/t.md")
    assert "facts/t.md:" in str(caught.value)


def test_a_note_that_is_not_a_fact_file_is_refused() -> None:
    with pytest.raises(FactError, match="not a fact file"):
        parse_facts("---\ntype: entity\ntitle: X\n---\n# X\n", "facts/x.md")
