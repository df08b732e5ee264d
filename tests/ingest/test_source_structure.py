"""Structure around a text or markdown source's prose (frontmatter, HTML comments) is not prose."""

from __future__ import annotations

from hostile_inputs import bounded
from mnemex.ingest.extract import extract_offline
from mnemex.ingest.readers import read_bytes
from mnemex.ingest.records import SourceDoc

BODY = (
    "Kestrel notes\n\n"
    "The Kestrel database stores time series in compressed segments. "
    "Priya Raman designed its storage engine at Northgate University. "
    "Segment compaction merges small segments into larger ones every night.\n"
)


def read(text: str, fmt: str) -> SourceDoc:
    ext = "md" if fmt == "markdown" else "txt"
    return read_bytes(text.encode("utf-8"), path=f"notes.{ext}", format=fmt)


def said(doc: SourceDoc) -> str:
    extraction = extract_offline(doc)
    return " | ".join(
        [*extraction.summary, *extraction.key_points, *(p.name for p in extraction.pages)]
    )


def test_yaml_frontmatter_in_a_text_source_is_its_metadata() -> None:
    doc = read(
        "---\ntitle: Kestrel field notes\nauthor: Lena Vogt\ndate: 2023-02-01\n"
        "url: https://example.org/notes\nowner: Zephyr Quillfeather\nstatus: EMERGING\n"
        "tags: [Starter Kit, Personal]\n---\n" + BODY,
        "text",
    )
    assert doc.title == "Kestrel field notes"
    assert (doc.author, doc.date, doc.url) == (
        "Lena Vogt",
        "2023-02-01",
        "https://example.org/notes",
    )
    assert doc.text.startswith("Kestrel notes")
    for leaked in ("---", "Zephyr", "EMERGING", "Starter Kit", "owner"):
        assert leaked not in doc.text
        assert leaked not in said(doc)


def test_a_text_source_without_frontmatter_keeps_its_first_line_title() -> None:
    doc = read(BODY, "text")
    assert doc.title == "Kestrel notes"
    assert doc.author is None


def test_rules_around_a_line_that_is_no_yaml_mapping_stay_in_a_text_source() -> None:
    doc = read("---\nA ruled-off heading line\n---\n" + BODY, "text")
    assert "A ruled-off heading line" in doc.text
    assert doc.text.startswith("---")


def test_html_comments_at_the_top_of_a_text_source_are_dropped() -> None:
    doc = read(
        "<!-- exported by NotionExporter v2 for Quentin Marsh -->\n"
        "<!--\n  Status: ESTABLISHED\n  Owner: Zephyr Quillfeather\n-->\n" + BODY,
        "text",
    )
    assert doc.title == "Kestrel notes"
    assert "<!--" not in doc.text
    for leaked in ("NotionExporter", "Quentin", "ESTABLISHED", "Zephyr"):
        assert leaked not in doc.text
        assert leaked not in said(doc)


def test_html_comments_in_markdown_are_dropped_but_not_in_code() -> None:
    doc = read(
        "---\ntitle: Kestrel\n---\n<!-- TODO ask Quentin Marsh about this -->\n# Kestrel\n\n"
        "Kestrel keeps data.<!-- inline aside by Zephyr Quillfeather --> It compacts it.\n\n"
        "Write `<!-- keep -->` to hide a line.\n\n"
        "```html\n<!-- a comment shown in code -->\n```\n",
        "markdown",
    )
    assert "Quentin" not in doc.text
    assert "Zephyr" not in doc.text
    assert "Kestrel keeps data. It compacts it." in doc.text
    assert "`<!-- keep -->`" in doc.text
    assert "<!-- a comment shown in code -->" in doc.text
    assert "Quentin" not in said(doc)


def test_an_unclosed_html_comment_keeps_the_text_after_it() -> None:
    doc = read("Kestrel notes\n\n<!-- never closed\n\nThe rest is still read here.\n", "text")
    assert "The rest is still read here." in doc.text


def test_many_unclosed_comment_openers_are_read_in_linear_time() -> None:
    result = bounded(
        "import json\n"
        "from mnemex.ingest.readers import read_bytes\n"
        "raw = ('Kestrel notes.\\n' + '<!-- ' * 200_000 + 'end -->' + ' <!--' * 200_000).encode()\n"
        "doc = read_bytes(raw, path='x.txt', format='text')\n"
        "print(json.dumps(len(doc.text)))\n"
    )
    assert result > 0
