from __future__ import annotations

from hostile_inputs import bounded, hostile_notes
from mnemex.vault import parse_note
from mnemex.vault.markdown import Wikilink, atx_heading, extract_links, mask_code


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


def test_hostile_notes_parse_and_chunk_in_linear_time_with_the_right_result() -> None:
    # In a subprocess with a timeout: a quadratic parser would take minutes, not hang us.
    results = bounded(
        "import json\n"
        "from hostile_inputs import hostile_notes\n"
        "from mnemex.index.chunking import chunk_body\n"
        "from mnemex.vault import parse_note\n"
        "out = {}\n"
        "for name, text in hostile_notes().items():\n"
        "    note = parse_note(text, name + '.md')\n"
        "    chunks = chunk_body(note.body, note.body_line)\n"
        "    out[name] = [len(note.links), len(note.title), len(chunks), note.warnings]\n"
        "print(json.dumps(out))\n"
    )
    assert set(results) == set(hostile_notes())
    links = {name: r[0] for name, r in results.items()}
    assert links["closed-wikilinks"] == 20_000
    assert all(count == 0 for name, count in links.items() if name != "closed-wikilinks")
    assert results["heading-of-spaces"][1] == len("a" + " " * 100_000 + "x")
    assert results["heading-of-hashes"][1] == len("a " + "#" * 100_000 + " x")
    bomb = results["alias-bomb"][3]
    assert len(bomb) == 1 and "too many values (YAML aliases)" in bomb[0]
    headings = ("heading-of-spaces", "heading-of-hashes")  # a heading alone: no chunk
    assert all(r[2] >= 1 for name, r in results.items() if name not in headings)


def test_a_markdown_link_names_a_file_with_its_heading_and_a_url_names_none() -> None:
    links = extract_links("[a](x.md#part) [b](<y z.md>) [c](w.md#h#i) [d](v.txt) [e](http://u.md)")
    assert [(lk.target, lk.heading) for lk in links] == [
        ("x.md", "part"),
        ("y z.md", None),
        ("w.md", "h#i"),
        ("v.txt", None),
    ]
    assert extract_links("[t](" * 5 + "x.md)")[0].target == "x.md"


def test_code_spans_pair_backtick_runs_of_equal_length() -> None:
    assert mask_code("a `x` b") == "a     b"
    assert mask_code("``a`b`` [[c]]") == "        [[c]]"
    assert mask_code("``a` [[c]]") == "``a` [[c]]"  # no closing run of two: plain text


def test_atx_headings_are_read_as_the_old_pattern_read_them() -> None:
    assert atx_heading("## Title ##") == (2, "Title")
    assert atx_heading("# C#") == (1, "C")
    assert atx_heading("####### seven") is None
    assert atx_heading("#no-space") is None
    assert atx_heading("# ") is None and atx_heading("# ", empty=True) == (1, "")
    assert atx_heading("# #", empty=True) == (1, "")


def test_frontmatter_nested_past_the_limit_is_ignored_with_a_warning_not_an_error() -> None:
    depth = 900
    fm = "".join(" " * i + f"k{i}:\n" for i in range(depth)) + " " * depth + "v: 1\n"
    note = parse_note(f"---\n{fm}---\nbody\n", "deep.md")
    assert note.frontmatter == {} and "nests deeper than" in note.warnings[0]
    assert note.body == "body\n"
