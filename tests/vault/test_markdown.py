from __future__ import annotations

from mnemex.vault import parse_note
from mnemex.vault.markdown import Wikilink


def test_frontmatter_title_tags_and_aliases_are_read() -> None:
    note = parse_note(
        "---\ntitle: Alpha\ntags: [one, '#two']\naliases: Project A\ndate: 2026-01-02\n---\nbody\n",
        "x.md",
    )
    assert note.title == "Alpha"
    assert note.tags == ["one", "two"]
    assert note.aliases == ["Project A"]
    assert note.frontmatter["date"] == "2026-01-02"
    assert note.body == "body\n"
    assert note.body_line == 7


def test_malformed_frontmatter_warns_with_the_line_and_keeps_the_body() -> None:
    note = parse_note("---\ntitle: ok\nbroken: [yaml\n---\nThe body survives.\n", "n.md")
    assert note.frontmatter == {}
    assert len(note.warnings) == 1
    assert "line 3" in note.warnings[0]
    assert "The body survives." in note.body


def test_an_unclosed_frontmatter_fence_means_the_whole_file_is_body() -> None:
    note = parse_note("---\ntitle: x\nno closing fence\n", "n.md")
    assert note.frontmatter == {}
    assert "no closing fence" in note.body


def test_title_falls_back_to_the_first_heading_then_the_file_name() -> None:
    assert parse_note("# Heading Title\ntext", "a/file.md").title == "Heading Title"
    assert parse_note("just text", "a/file name.md").title == "file name"


def test_an_empty_title_in_frontmatter_marks_the_note_untitled() -> None:
    note = parse_note('---\ntitle: ""\n---\ntext\n', "rec-17.md")
    assert note.titled is False
    assert note.title == "rec-17"


def test_every_obsidian_wikilink_form_is_parsed() -> None:
    body = (
        "[[Page]] [[Page|alias]] [[Page#Heading]] [[folder/page]] ![[image.png]] "
        "[[Page#Heading|both]] [[#Local heading]]"
    )
    links = parse_note(body, "n.md").links
    assert [(lk.target, lk.heading, lk.alias, lk.embed) for lk in links] == [
        ("Page", None, None, False),
        ("Page", None, "alias", False),
        ("Page", "Heading", None, False),
        ("folder/page", None, None, False),
        ("image.png", None, None, True),
        ("Page", "Heading", "both", False),
        ("", "Local heading", None, False),
    ]


def test_links_and_tags_inside_code_are_ignored() -> None:
    body = "real [[A]] #real\n```\n[[NotALink]] #notatag\n```\nand `[[Inline]] #inline`\n"
    note = parse_note(body, "n.md")
    assert [lk.target for lk in note.links] == ["A"]
    assert note.tags == ["real"]


def test_inline_tags_skip_headings_numbers_and_url_fragments() -> None:
    body = "# Heading\nsee #project/alpha and #2024 and http://x.org/#frag, issue #12, #ok-tag\n"
    assert parse_note(body, "n.md").tags == ["project/alpha", "ok-tag"]


def test_markdown_links_to_local_notes_count_as_links() -> None:
    links = parse_note("[the plan](plans/q3.md#Goals) [web](https://x.org/a.md)", "n.md").links
    assert links == [Wikilink(target="plans/q3.md", heading="Goals", line=1)]


def test_link_lines_are_counted_in_the_file_not_the_body() -> None:
    note = parse_note("---\na: 1\n---\n\n[[B]]\n", "n.md")
    assert note.links[0].line == 5
