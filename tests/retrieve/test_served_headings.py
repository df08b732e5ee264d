"""What counts as a heading when a page or a memory is served: the one ATX rule of
``vault.markdown.atx_heading``, the rule ``read_page(section=...)`` matches by."""

from __future__ import annotations

from mnemex.brain import Brain
from mnemex.memories.recall import _bullet
from mnemex.retrieve.privacy import Privacy
from mnemex.retrieve.served import served_page


def test_a_cut_page_names_its_sections_as_read_page_matches_them(brain: Brain) -> None:
    body = "".join(f"## Part {i} ##\n" + "word " * 200 + "\n" for i in range(20))
    (brain.vault.root / "notes").mkdir(exist_ok=True)
    (brain.vault.root / "notes/long.md").write_text("# Long\n" + body, encoding="utf-8")
    privacy = Privacy.of(brain.vault.settings)
    data = served_page(brain, privacy, "notes/long.md", max_tokens=300)
    assert "Part 3;" in data["note"] and "Part 3 ##" not in data["note"]
    section = served_page(brain, privacy, "notes/long.md", max_tokens=300, section="Part 3")
    assert section["content"].startswith("## Part 3 ##")


def test_a_tag_line_in_a_memory_is_text_and_not_a_heading() -> None:
    body = "## Decisions\n#deploy\nuse blue-green deploys\n## Traps\nthe deploy key expires\n"
    assert _bullet(body, "Decisions", ["deploy"], "none") in {"#deploy", "use blue-green deploys"}
    assert _bullet(body, "Traps", ["deploy"], "none") == "the deploy key expires"
