"""Page writes keep what they do not own: a note's mode, BOM, line endings, final newline,
its frontmatter's other lines, and the text its links show."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from mnemex.brain import Brain
from mnemex.pages import edit as pages
from mnemex.pages.edit import append_to_page, move_page, write_page

STAMP = "2030-01-02T03:04:05+00:00"


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pages, "utc_iso", lambda: STAMP)


def put(brain: Brain, rel: str, data: bytes, mode: int | None = None) -> Path:
    path = brain.vault.root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    if mode is not None:
        path.chmod(mode)
    brain.sync()
    return path


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# -- modes ----------------------------------------------------------------------------


@pytest.mark.parametrize("existing", [0o644, 0o640, 0o755])
def test_write_and_append_keep_an_existing_notes_mode(
    brain: Brain, umask: int, existing: int
) -> None:
    path = put(brain, "notes/a.md", b"# A\nFirst.\n", existing)
    append_to_page(brain, "notes/a", "Second.")
    assert mode_of(path) == existing
    current = brain.vault.read_note("notes/a.md")
    write_page(brain, "notes/a", "# A\nReplaced.\n", expected_hash=current.hash)
    assert mode_of(path) == existing


def test_a_new_page_follows_the_umask(brain: Brain, umask: int) -> None:
    write_page(brain, "notes/new", "# New\n")
    assert mode_of(brain.vault.root / "notes/new.md") == 0o666 & ~umask


def test_a_moved_page_keeps_its_mode(brain: Brain, umask: int) -> None:
    put(brain, "notes/a.md", b"# A\n", 0o640)
    plan = move_page(brain, "notes/a", "notes/b")
    move_page(brain, "notes/a", "notes/b", plan["plan_id"])
    assert mode_of(brain.vault.root / "notes/b.md") == 0o640


# -- BOM, line endings, final newline ---------------------------------------------------


def test_an_append_to_a_crlf_note_is_crlf_and_changes_only_updated_in_its_frontmatter(
    brain: Brain,
) -> None:
    path = put(
        brain,
        "notes/a.md",
        b"---\r\ntitle: Ada\r\ntags: [x, y]  # mine\r\n---\r\n# Ada\r\nFirst.\r\n",
    )
    append_to_page(brain, "notes/a", "Second.\nThird.")
    assert path.read_bytes() == (
        b"---\r\ntitle: Ada\r\ntags: [x, y]  # mine\r\nupdated: '" + STAMP.encode() + b"'\r\n"
        b"---\r\n# Ada\r\nFirst.\r\nSecond.\r\nThird.\r\n"
    )


def test_an_append_keeps_a_bom_and_the_missing_final_newline(brain: Brain) -> None:
    path = put(brain, "notes/a.md", "\ufeff# Ada\nFirst.".encode())
    append_to_page(brain, "notes/a", "Second.\n")
    assert path.read_bytes() == "\ufeff# Ada\nFirst.\nSecond.".encode()


def test_an_append_to_a_middle_section_leaves_every_other_byte(brain: Brain) -> None:
    before = b"# A\r\n## One\r\n- a\r\n\r\n## Two\r\n- b"
    path = put(brain, "notes/a.md", before)
    append_to_page(brain, "notes/a", "- new", section="One")
    assert path.read_bytes() == b"# A\r\n## One\r\n- a\r\n- new\r\n\r\n## Two\r\n- b"


def test_replacing_a_crlf_page_with_plain_text_keeps_crlf_and_same_text_is_unchanged(
    brain: Brain,
) -> None:
    path = put(brain, "notes/a.md", "\ufeff# A\r\nOld.\r\n".encode())
    current = brain.vault.read_note("notes/a.md")
    same = write_page(brain, "notes/a", "# A\nOld.\n", expected_hash=current.hash)
    assert same.report.unchanged == 1
    write_page(brain, "notes/a", "# A\nNew.\nMore.\n", expected_hash=current.hash)
    assert path.read_bytes() == "\ufeff# A\r\nNew.\r\nMore.\r\n".encode()


def test_replacing_a_pages_body_keeps_its_frontmatter_lines(brain: Brain) -> None:
    path = put(brain, "notes/a.md", b"---\ntags: [x]  # mine\nupdated: 2020-01-01\n---\nOld.\n")
    current = brain.vault.read_note("notes/a.md")
    write_page(brain, "notes/a", "New.\n", expected_hash=current.hash)
    assert path.read_bytes() == (
        b"---\ntags: [x]  # mine\nupdated: '" + STAMP.encode() + b"'\n---\nNew.\n"
    )


def test_a_move_repoints_links_in_a_crlf_bom_note_without_touching_other_bytes(
    brain: Brain,
) -> None:
    put(brain, "notes/formulas.md", b"# Formulas\n")
    host = put(
        brain,
        "notes/host.md",
        "\ufeff# Host\r\nSee [[formulas]] and [the list](notes/formulas.md).\r\nEnd.".encode(),
    )
    plan = move_page(brain, "notes/formulas", "maths/Equations")
    move_page(brain, "notes/formulas", "maths/Equations", plan["plan_id"])
    assert (
        host.read_bytes()
        == (
            "\ufeff# Host\r\nSee [[Equations|formulas]] and [the list](maths/Equations.md).\r\nEnd."
        ).encode()
    )


def test_an_append_leaves_broken_frontmatter_as_it_is(brain: Brain) -> None:
    # broken YAML is reported by health, never repaired, and never dropped by a write
    path = put(brain, "notes/a.md", b"---\ntitle: [unclosed\n---\nFirst.\n")
    append_to_page(brain, "notes/a", "Second.")
    assert path.read_bytes() == b"---\ntitle: [unclosed\n---\nFirst.\nSecond.\n"
