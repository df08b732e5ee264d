"""What a write keeps of a file it does not own: permissions, BOM, line endings, final
newline, and the text a re-pointed link shows."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from mnemex.vault import Vault, atomic_write, plain, restyle, retarget, write_temp
from mnemex.vault.markdown import link_spans
from mnemex.vault.preserve import link_display, set_frontmatter_key, table_rows


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# -- permissions ----------------------------------------------------------------------


def test_a_new_file_gets_the_mode_open_would_give_it_under_the_umask(
    tmp_path: Path, umask: int
) -> None:
    target = tmp_path / "new.md"
    atomic_write(target, b"x\n")
    assert mode_of(target) == 0o666 & ~umask


@pytest.mark.parametrize("existing", [0o644, 0o640, 0o755, 0o600, 0o444])
def test_an_existing_file_keeps_its_mode_whatever_the_umask(
    tmp_path: Path, umask: int, existing: int
) -> None:
    target = tmp_path / "note.md"
    target.write_bytes(b"old\n")
    target.chmod(existing)
    atomic_write(target, b"new\n")
    assert target.read_bytes() == b"new\n"
    assert mode_of(target) == existing
    assert stat.S_ISREG(target.lstat().st_mode)


def test_a_secret_is_written_0600_even_over_a_wider_file_and_a_lax_umask(
    tmp_path: Path,
) -> None:
    old = os.umask(0)
    try:
        fresh = tmp_path / "token"
        atomic_write(fresh, b"s3cret\n", mode=0o600)
        wide = tmp_path / "widened"
        wide.write_bytes(b"old\n")
        wide.chmod(0o666)
        atomic_write(wide, b"s3cret\n", mode=0o600)
    finally:
        os.umask(old)
    assert mode_of(fresh) == 0o600 and mode_of(wide) == 0o600


def test_the_temporary_file_already_has_the_final_mode_and_leaves_nothing_behind(
    tmp_path: Path, umask: int
) -> None:
    target = tmp_path / "note.md"
    tmp = Path(write_temp(target, b"x"))
    assert tmp.parent == tmp_path and tmp.name.startswith(".note.md.") and tmp.suffix == ".tmp"
    assert mode_of(tmp) == 0o666 & ~umask
    tmp.unlink()
    atomic_write(target, b"y")
    assert [p.name for p in tmp_path.iterdir()] == ["note.md"]


def test_a_symlinked_note_is_replaced_not_written_through(tmp_path: Path) -> None:
    # the write changes only the path it names: what the hash check read and the commit records
    real = tmp_path / "real.md"
    real.write_bytes(b"real\n")
    real.chmod(0o640)
    link = tmp_path / "link.md"
    link.symlink_to("real.md")
    atomic_write(link, b"new\n")
    assert real.read_bytes() == b"real\n"  # the file the link named keeps its bytes
    assert not link.is_symlink() and link.read_bytes() == b"new\n"
    assert mode_of(link) == 0o640  # the mode the note had as read, through the link


def test_vault_write_note_keeps_a_notes_mode(tmp_path: Path, umask: int) -> None:
    (tmp_path / "notes").mkdir()
    note = tmp_path / "notes" / "a.md"
    note.write_text("# A\n", encoding="utf-8")
    note.chmod(0o644)
    vault = Vault(tmp_path)
    read = vault.read_note("notes/a.md")
    vault.write_note("notes/a.md", "# A\nmore\n", expected_hash=read.hash)
    vault.write_note("notes/b.md", "# B\n")
    assert mode_of(note) == 0o644
    assert mode_of(tmp_path / "notes" / "b.md") == 0o666 & ~umask


# -- BOM, line endings, final newline ---------------------------------------------------


def test_plain_text_has_no_bom_and_lf_endings() -> None:
    assert plain("\ufeffa\r\nb\r\n") == "a\nb\n"
    assert plain("a\nb") == "a\nb"


@pytest.mark.parametrize(
    "original",
    [
        "a\nb\n",
        "a\r\nb\r\n",
        "\ufeffa\r\nb\r\n",
        "\ufeffa\nb",
        "a\r\nb",
        "a\nb\r\nc\n",  # mixed endings
        "a\r\n\r\n",
        "",
        "\ufeff",
        "lone\rcarriage\n",
    ],
)
def test_restyling_the_unedited_plain_text_gives_back_the_same_bytes(original: str) -> None:
    assert restyle(original, plain(original)) == original


def test_a_crlf_file_stays_crlf_on_every_line_including_new_ones() -> None:
    assert restyle("a\r\nb\r\n", "a\nnew\nb\nend\n") == "a\r\nnew\r\nb\r\nend\r\n"


def test_a_bom_is_kept() -> None:
    assert restyle("\ufeffa\n", "a\nb\n") == "\ufeffa\nb\n"


def test_a_file_without_a_final_newline_keeps_that_after_an_edit_in_the_middle() -> None:
    assert restyle("a\nb\nc", "a\nB\nc\n") == "a\nB\nc"


def test_an_append_to_a_file_without_a_final_newline_goes_after_its_last_line() -> None:
    assert restyle("a\r\nb", "a\nb\nc\n") == "a\r\nb\r\nc"


def test_a_file_that_mixes_endings_keeps_each_untouched_lines_own() -> None:
    original = "one\r\ntwo\nthree\r\nfour\r\n"
    assert restyle(original, "one\ntwo\nTHREE\nfour\nfive\n") == (
        "one\r\ntwo\nTHREE\r\nfour\r\nfive\r\n"
    )


def test_frontmatter_updated_is_set_on_its_own_line_only() -> None:
    text = "---\ntags: [a, b]  # mine\nupdated: 2020-01-01\n---\nbody\n"
    assert set_frontmatter_key(text, "updated", "2026-01-01T00:00:00+00:00") == (
        "---\ntags: [a, b]  # mine\nupdated: '2026-01-01T00:00:00+00:00'\n---\nbody\n"
    )
    added = set_frontmatter_key("---\ntitle: X\n---\nbody\n", "updated", "2026")
    assert added == "---\ntitle: X\nupdated: '2026'\n---\nbody\n"


def test_a_list_key_keeps_its_style_and_every_other_line_stays() -> None:
    text = "---\ntitle: X  # kept\ntags: [a, b]\naliases:\n  - One\n---\nbody\n"
    flow = set_frontmatter_key(text, "tags", ["a", "b", "c"])
    assert flow == "---\ntitle: X  # kept\ntags: [a, b, c]\naliases:\n  - One\n---\nbody\n"
    assert flow is not None
    block = set_frontmatter_key(flow, "aliases", ["One", "Two"])
    assert block == (
        "---\ntitle: X  # kept\ntags: [a, b, c]\naliases:\n  - One\n  - Two\n---\nbody\n"
    )
    added = set_frontmatter_key("---\ntitle: X\n---\nbody\n", "aliases", ["Y"])
    assert added == "---\ntitle: X\naliases:\n- Y\n---\nbody\n"


def test_broken_frontmatter_is_left_as_it_is() -> None:
    text = "---\ntags: [a, b\n---\nbody\n"
    assert set_frontmatter_key(text, "updated", "2026") == text


# -- links keep what the reader sees ----------------------------------------------------


def _retargeted(line: str, target: str) -> str:
    lines = line.split("\n")
    rows = table_rows(lines)
    for span in reversed(link_spans(line)):
        lines[span.line] = retarget(lines[span.line], span, target, in_table=span.line in rows)
    return "\n".join(lines)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("[[formulas]]", "[[Formulas|formulas]]"),
        ("[[formulas|the formulas]]", "[[Formulas|the formulas]]"),
        ("[[formulas#Intro]]", "[[Formulas#Intro|formulas > Intro]]"),
        ("[[formulas#Intro|see]]", "[[Formulas#Intro|see]]"),
        ("![[formulas]]", "![[Formulas]]"),
        ("[[Formulas]]", "[[Formulas]]"),
    ],
)
def test_a_retargeted_wikilink_shows_the_same_text(before: str, after: str) -> None:
    assert _retargeted(f"See {before}.", "Formulas") == f"See {after}."


def test_a_retargeted_markdown_link_keeps_its_text() -> None:
    line = "See [the formulas](formulas.md#Intro)."
    (span,) = link_spans(line)
    assert (
        retarget(line, span, "maths/Formulas.md") == "See [the formulas](maths/Formulas.md#Intro)."
    )


def test_an_alias_added_inside_a_table_row_escapes_its_bar() -> None:
    table = "| a | b |\n|---|---|\n| [[formulas]] | x |\n"
    assert (
        _retargeted(table, "Formulas") == "| a | b |\n|---|---|\n| [[Formulas\\|formulas]] | x |\n"
    )
    escaped = "| a |\n|---|\n| [[formulas\\|the formulas]] |\n"
    assert _retargeted(escaped, "Formulas") == "| a |\n|---|\n| [[Formulas\\|the formulas]] |\n"


def test_obsidian_shows_an_unaliased_heading_link_as_page_then_heading() -> None:
    assert link_display("formulas#Intro") == "formulas > Intro"
    assert link_display("formulas#Intro#Sub") == "formulas > Intro > Sub"
    assert link_display("formulas|the formulas") == "the formulas"
