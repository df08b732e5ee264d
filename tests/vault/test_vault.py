from __future__ import annotations

import os
import unicodedata
from pathlib import Path

import pytest

from mnemex.errors import PathOutsideVault, ProtectedPath, WriteConflict
from mnemex.vault import Vault


@pytest.fixture
def vault(vault_dir: Path) -> Vault:
    return Vault(vault_dir)


def test_a_new_note_is_created_and_md_is_added_to_its_path(vault: Vault) -> None:
    outcome, digest = vault.write_note("notes/idea", "hello\n")
    assert outcome == "created"
    assert (vault.root / "notes/idea.md").read_text() == "hello\n"
    assert vault.read_note("notes/idea.md").hash == digest


@pytest.mark.parametrize("bad", ["../outside.md", "/etc/passwd", "notes/../../x.md", "C:/x.md"])
def test_write_refuses_a_path_outside_the_vault(vault: Vault, bad: str) -> None:
    with pytest.raises(PathOutsideVault):
        vault.write_note(bad, "x")
    assert not (vault.root.parent / "outside.md").exists()


def test_write_refuses_a_symlink_that_leads_outside(vault: Vault, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    os.symlink(outside, vault.root / "escape")
    with pytest.raises(PathOutsideVault, match="symlink"):
        vault.write_note("escape/x.md", "x")
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize("folder", ["foundations", "state", "memories", "health", ".mnemex"])
def test_generic_writes_refuse_the_folders_of_other_kinds(vault: Vault, folder: str) -> None:
    with pytest.raises(ProtectedPath):
        vault.write_note(f"{folder}/p/x.md", "x")


def test_replacing_a_note_needs_the_hash_that_was_read(vault: Vault) -> None:
    vault.write_note("a.md", "one\n")
    with pytest.raises(WriteConflict, match="already exists"):
        vault.write_note("a.md", "two\n")
    read = vault.read_note("a.md")
    outcome, _ = vault.write_note("a.md", "two\n", expected_hash=read.hash)
    assert outcome == "updated"


def test_a_file_changed_on_disk_since_it_was_read_is_a_conflict_and_is_kept(vault: Vault) -> None:
    vault.write_note("a.md", "one\n")
    read = vault.read_note("a.md")
    (vault.root / "a.md").write_text("edited by hand\n")
    with pytest.raises(WriteConflict, match="changed on disk"):
        vault.write_note("a.md", "mine\n", expected_hash=read.hash)
    assert (vault.root / "a.md").read_text() == "edited by hand\n"


def test_writing_the_same_content_is_unchanged(vault: Vault) -> None:
    _, digest = vault.write_note("a.md", "same\n")
    assert vault.write_note("a.md", "same\n", expected_hash=digest)[0] == "unchanged"


def test_writes_leave_no_temporary_files_behind(vault: Vault) -> None:
    vault.write_note("notes/a.md", "x\n")
    assert sorted(p.name for p in (vault.root / "notes").iterdir()) == ["a.md"]


def test_walking_skips_machine_local_and_git_folders_and_symlink_loops(vault: Vault) -> None:
    (vault.root / "notes").mkdir(exist_ok=True)
    (vault.root / "notes/a.md").write_text("a")
    (vault.root / ".mnemex/x.md").write_text("x")
    (vault.root / ".obsidian").mkdir()
    (vault.root / ".obsidian/y.md").write_text("y")
    os.symlink(vault.root / "notes", vault.root / "notes/loop")
    os.symlink("self.md", vault.root / "self.md")  # a link to itself
    entries = {e.rel: e for e in vault.iter_files()}
    assert set(entries) == {"notes/a.md", "self.md"}
    assert entries["self.md"].size == -1


NFC = unicodedata.normalize("NFC", "Café/Crème brûlée")
NFD = unicodedata.normalize("NFD", NFC)


@pytest.mark.parametrize(
    ("on_disk", "typed"), [(NFC, NFD), (NFD, NFC)], ids=["nfc-disk", "nfd-disk"]
)
def test_a_path_typed_in_another_unicode_normalisation_finds_the_file_on_disk(
    vault: Vault, on_disk: str, typed: str
) -> None:
    assert on_disk != typed
    (vault.root / on_disk).parent.mkdir()
    (vault.root / f"{on_disk}.md").write_text("sweet\n", encoding="utf-8")
    assert vault.rel_path(typed) == f"{on_disk}.md"
    note = vault.read_note(typed)
    assert (note.rel, note.text) == (f"{on_disk}.md", "sweet\n")
    vault.write_note(typed, "sweeter\n", expected_hash=note.hash)
    vault.write_note(f"{typed.split('/')[0]}/new", "in the same folder\n")
    assert sorted(p.name for p in vault.root.iterdir() if "Caf" in p.name) == [
        on_disk.split("/")[0]
    ]  # no twin folder
    assert sorted(p.name for p in (vault.root / on_disk).parent.iterdir()) == sorted(
        [f"{on_disk.split('/')[1]}.md", "new.md"]
    )  # no twin file
    assert (vault.root / f"{on_disk}.md").read_text(encoding="utf-8") == "sweeter\n"
    vault.delete_note(typed, expected_hash=vault.current_hash(on_disk))
    assert not (vault.root / f"{on_disk}.md").exists()


def test_a_folder_and_a_file_whose_names_start_with_spaces_can_be_read(vault: Vault) -> None:
    (vault.root / " Inbox").mkdir()
    (vault.root / " Inbox/ note.md").write_text("spaced\n", encoding="utf-8")
    (vault.root / "notes").mkdir(exist_ok=True)
    (vault.root / "notes/plain.md").write_text("plain\n", encoding="utf-8")
    assert vault.read_note(" Inbox/ note.md").text == "spaced\n"
    assert vault.read_note(" Inbox/ note").rel == " Inbox/ note.md"
    assert vault.read_note("  notes/plain.md \n").rel == "notes/plain.md"  # stray spaces go
