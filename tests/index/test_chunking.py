from __future__ import annotations

import re

from hostile_inputs import bounded
from mnemex.index.chunking import MAX_CHARS, TARGET_CHARS, chunk_body


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text)


def test_short_items_and_paragraphs_of_a_section_are_one_chunk_with_its_heading_path() -> None:
    body = "# Top\n\n## Sub\n\n- first idea\n- second idea\n  continued here\n\nA paragraph.\n"
    chunks = chunk_body(body)
    assert [(c.heading, c.text) for c in chunks] == [
        ("Top > Sub", "first idea\nsecond idea continued here\nA paragraph."),
    ]


def test_short_bullets_are_grouped_up_to_the_target_and_no_further() -> None:
    bullets = [f"- bullet number {i} says something short about the garden" for i in range(60)]
    chunks = chunk_body("# Garden\n\n" + "\n".join(bullets) + "\n")
    assert len(chunks) > 1
    assert all(len(c.text) <= TARGET_CHARS for c in chunks)
    assert all(len(c.text) > TARGET_CHARS // 2 for c in chunks[:-1])
    assert "\n".join(c.text for c in chunks).split("\n") == [b[2:] for b in bullets]


def test_a_lead_in_line_stays_with_the_code_it_introduces() -> None:
    code = "```sh\n" + "\n".join(f"mnemex embed --file take-{i}.mp3" for i in range(20)) + "\n```"
    assert TARGET_CHARS < len(code) + 30 <= MAX_CHARS or len(code) + 30 <= TARGET_CHARS
    chunks = chunk_body(f"# Audio\n\nTo embed an audio file:\n\n{code}\n")
    assert len(chunks) == 1
    assert chunks[0].text == f"To embed an audio file:\n{code}"


def test_a_chunk_never_mixes_two_sections() -> None:
    chunks = chunk_body("# A\n## B\ntext b\n## C\ntext c\n# D\ntext d\n\n- d item\n")
    assert [(c.heading, c.text) for c in chunks] == [
        ("A > B", "text b"),
        ("A > C", "text c"),
        ("D", "text d\nd item"),
    ]


def test_text_before_the_first_heading_is_its_own_section() -> None:
    chunks = chunk_body("intro line\n\n# Next\n\nbody\n")
    assert [(c.heading, c.text) for c in chunks] == [("", "intro line"), ("Next", "body")]


def test_every_chunk_carries_the_full_heading_path_of_its_section() -> None:
    para = "The pump moves water to the upper beds every morning. " * 40
    chunks = chunk_body(f"# Farm\n\n## Water\n\n### Pumps\n\n{para}\n\n## Soil\n\nloam\n")
    assert len(chunks) > 2
    assert [c.heading for c in chunks[:-1]] == ["Farm > Water > Pumps"] * (len(chunks) - 1)
    assert chunks[-1].heading == "Farm > Soil"


def test_long_paragraphs_are_split_at_sentences_near_the_target() -> None:
    sentence = "This sentence is about retrieval and memory for agents. "
    chunks = chunk_body(sentence * 100)
    assert len(chunks) > 1
    assert all(len(c.text) <= TARGET_CHARS for c in chunks[:-1])
    assert all(len(c.text) <= MAX_CHARS for c in chunks)
    assert all(c.text.endswith("agents.") for c in chunks)  # cut between sentences
    assert all(len(c.text) > TARGET_CHARS // 2 for c in chunks)  # no lone fragment
    assert "".join("".join(c.text.split()) for c in chunks) == "".join((sentence * 100).split())


def test_a_short_last_piece_joins_the_chunk_before_it() -> None:
    long = "Word " * (TARGET_CHARS // 5 - 10) + "end."
    chunks = chunk_body(f"# S\n\n{long}\n\ntail.\n")
    assert len(chunks) == 1
    assert chunks[0].text == f"{long.strip()}\ntail."


def test_a_giant_word_without_spaces_is_still_cut() -> None:
    chunks = chunk_body("x" * (MAX_CHARS * 3))
    assert all(len(c.text) <= MAX_CHARS for c in chunks)
    assert sum(len(c.text) for c in chunks) == MAX_CHARS * 3


def test_code_blocks_are_kept_whole_and_headings_inside_them_are_not_headings() -> None:
    chunks = chunk_body("# Real\n```python\n# not a heading\nx = 1\n```\nafter\n")
    assert chunks[0].text.startswith("```python") and "# not a heading" in chunks[0].text
    assert all(c.heading == "Real" for c in chunks)


def test_code_and_tables_past_the_target_are_kept_whole_up_to_the_cap() -> None:
    rows = (MAX_CHARS - 40) // 30
    code = "```\n" + "\n".join(f"value_{i:04d} = compute({i:05d})" for i in range(rows)) + "\n```"
    table = "| a | b |\n|---|---|\n" + "\n".join(
        f"| cell {i:04d} | v {i:07d} |" for i in range(rows)
    )
    assert TARGET_CHARS < len(code) <= MAX_CHARS and TARGET_CHARS < len(table) <= MAX_CHARS
    chunks = chunk_body(f"# Data\n\nSome text before.\n\n{code}\n\n{table}\n\nSome text after.\n")
    texts = [c.text for c in chunks]
    assert any(t.endswith(code) for t in texts)
    assert any(table in t for t in texts)


def test_code_past_the_cap_is_cut_between_lines() -> None:
    lines = [f"line_{i:05d} = {i}" for i in range(400)]
    chunks = chunk_body("```\n" + "\n".join(lines) + "\n```\n")
    assert len(chunks) > 1
    assert all(len(c.text) <= MAX_CHARS for c in chunks)
    pieces = "\n".join(c.text for c in chunks).split("\n")
    assert pieces == ["```", *lines, "```"]


def test_no_text_is_lost() -> None:
    body = (
        "# One\n\nintro para\nwrapped line\n\n- a\n- b\n  - nested\n\n| x | y |\n|---|---|\n"
        "| 1 | 2 |\n\n```\ncode()\n```\n\n## Two\n\n" + "Long sentence here. " * 120 + "\n"
    )
    chunks = chunk_body(body)
    kept = [w for c in chunks for w in _words(c.text)]
    expected = _words(re.sub(r"(?m)^#+ .*$", "", body))
    assert kept == expected


def test_chunks_know_the_line_they_start_on() -> None:
    long = "A sentence of some length for the test. " * 40
    body = f"intro\n\n- item\n\n# H\n\n{long}\n"
    chunks = chunk_body(body, first_line=5)
    assert [c.line for c in chunks[:2]] == [5, 11]
    assert all(c.line == 11 for c in chunks[1:])  # pieces of one paragraph start where it does


def test_numbered_and_task_items_are_list_items_without_their_markers() -> None:
    chunks = chunk_body("1. one\n2) two\n- [ ] task\n- [x] done\n")
    assert [c.text for c in chunks] == ["one\ntwo\ntask\ndone"]


def test_huge_lines_and_many_headings_are_chunked_in_linear_time() -> None:
    # In a subprocess with a timeout: a quadratic chunker would take minutes.
    result = bounded(
        "import json\n"
        "from mnemex.index.chunking import MAX_CHARS, chunk_body\n"
        "cases = {\n"
        "    'huge-line': 'word ' * 400_000,\n"
        "    'huge-sentence-run': 'Short one. ' * 200_000,\n"
        "    'many-headings': '# h\\ntext\\n' * 100_000,\n"
        "    'deep-headings': ''.join(\n"
        "        f'{\"#\" * (i % 6 + 1)} h{i}\\nx\\n' for i in range(100_000)\n"
        "    ),\n"
        "    'many-paragraphs': 'p\\n\\n' * 200_000,\n"
        "    'many-bullets': '- b\\n' * 200_000,\n"
        "    'huge-code': '```\\n' + 'x = 1\\n' * 200_000 + '```\\n',\n"
        "}\n"
        "out = {}\n"
        "for name, body in cases.items():\n"
        "    chunks = chunk_body(body)\n"
        "    out[name] = [len(chunks), max(len(c.text) for c in chunks) <= MAX_CHARS]\n"
        "print(json.dumps(out))\n"
    )
    assert all(within for _, within in result.values())
    assert result["many-headings"][0] == 100_000
    assert result["deep-headings"][0] == 100_000
    assert result["many-paragraphs"][0] < 200_000 // 100


def test_the_embedded_text_names_a_title_once_when_the_heading_path_opens_with_it() -> None:
    from mnemex.index.sync import embed_text

    assert embed_text("Deploys", "Deploys > Rollback", "Takes a minute.") == (
        "Deploys > Rollback\nTakes a minute."
    )
    assert embed_text("deploys", "Deploys", "x") == "Deploys\nx"
    assert embed_text("Runbook", "Deploys > Rollback", "x") == "Runbook > Deploys > Rollback\nx"
    assert embed_text("Runbook", "", "x") == "Runbook\nx"
    assert embed_text(None, "", "x") == "x"


def test_a_heading_inside_a_longer_fence_is_code_not_a_section() -> None:
    body = (
        "# Guide\nHow to write a fence in markdown:\n\n````markdown\n```python\n"
        "# not a heading\nprint(1)\n```\n````\n\nAfter the example.\n"
    )
    chunks = chunk_body(body)
    assert {c.heading for c in chunks} == {"Guide"}
    assert any("# not a heading" in c.text and "````" in c.text for c in chunks)
