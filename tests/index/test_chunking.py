from __future__ import annotations

from mnemex.index.chunking import MAX_CHARS, chunk_body


def test_every_list_item_is_its_own_chunk_with_its_heading_path() -> None:
    body = "# Top\n\n## Sub\n\n- first idea\n- second idea\n  continued here\n\nA paragraph.\n"
    chunks = chunk_body(body)
    assert [(c.heading, c.text) for c in chunks] == [
        ("Top > Sub", "first idea"),
        ("Top > Sub", "second idea continued here"),
        ("Top > Sub", "A paragraph."),
    ]


def test_a_heading_of_the_same_level_replaces_the_previous_one() -> None:
    chunks = chunk_body("# A\n## B\ntext b\n## C\ntext c\n# D\ntext d\n")
    assert [c.heading for c in chunks] == ["A > B", "A > C", "D"]


def test_long_paragraphs_are_split_at_sentences_under_the_cap() -> None:
    sentence = "This sentence is about retrieval and memory for agents. "
    chunks = chunk_body(sentence * 100)
    assert len(chunks) > 1
    assert all(len(c.text) <= MAX_CHARS for c in chunks)
    assert "".join(c.text for c in chunks).replace(" ", "") == (sentence * 100).replace(" ", "")


def test_a_giant_word_without_spaces_is_still_cut() -> None:
    chunks = chunk_body("x" * (MAX_CHARS * 3))
    assert all(len(c.text) <= MAX_CHARS for c in chunks)
    assert sum(len(c.text) for c in chunks) == MAX_CHARS * 3


def test_code_blocks_are_kept_whole_and_headings_inside_them_are_not_headings() -> None:
    chunks = chunk_body("# Real\n```python\n# not a heading\nx = 1\n```\nafter\n")
    assert chunks[0].text.startswith("```python") and "# not a heading" in chunks[0].text
    assert all(c.heading == "Real" for c in chunks)


def test_chunks_know_the_line_they_start_on() -> None:
    chunks = chunk_body("intro\n\n- item\n", first_line=5)
    assert [c.line for c in chunks] == [5, 7]


def test_numbered_and_task_items_are_list_items() -> None:
    chunks = chunk_body("1. one\n2) two\n- [ ] task\n- [x] done\n")
    assert [c.text for c in chunks] == ["one", "two", "task", "done"]
