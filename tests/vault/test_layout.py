from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

import pytest

from mnemex.errors import VaultError
from mnemex.vault import check_name, init_vault, placement, slugify


def _snapshot(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in root.rglob("*")
        if p.is_file() and ".git" not in p.parts
    }


def test_init_creates_the_layout_settings_gitignore_and_a_git_repository(tmp_path: Path) -> None:
    root = tmp_path / "brain"
    report = init_vault(root)
    for folder in (
        "inbox",
        "wiki/general/entities",
        "wiki/general/concepts",
        "wiki/general/summaries",
        "wiki/general/sources",
        "foundations",
        "state",
        "memories",
        "facts",
        "health",
        ".mnemex",
    ):
        assert (root / folder).is_dir(), folder
    assert (root / "mnemex.toml").is_file()
    ignore = (root / ".gitignore").read_text()
    assert ".mnemex/" in ignore and "wiki/private/" in ignore
    assert (root / ".git").is_dir()
    assert report.failed == 0


def test_init_on_an_obsidian_vault_changes_no_existing_file_but_gitignore(tmp_path: Path) -> None:
    root = tmp_path / "obsidian"
    (root / ".obsidian").mkdir(parents=True)
    (root / ".obsidian/app.json").write_text("{}")
    (root / "Daily").mkdir()
    (root / "Daily/2026-01-01.md").write_text("---\ntags: [x]\n---\nnote [[Other]]\n")
    (root / "Other.md").write_text("other")
    (root / ".gitignore").write_text("*.tmp")  # no trailing newline
    before = _snapshot(root)
    report = init_vault(root)
    after = _snapshot(root)
    changed = {p for p in before if before[p] != after.get(p)}
    assert changed == {".gitignore"}
    assert (root / ".gitignore").read_text().startswith("*.tmp\n# mnemex")
    assert any(".gitignore" in w.path for w in report.warnings)


def test_init_twice_changes_nothing_the_second_time(tmp_path: Path) -> None:
    init_vault(tmp_path / "b")
    before = _snapshot(tmp_path / "b")
    report = init_vault(tmp_path / "b")
    assert report.created == report.updated == 0
    assert _snapshot(tmp_path / "b") == before


def test_init_keeps_an_existing_git_repository(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    report = init_vault(root)
    assert ".git" not in [p.path for v in report.problems.values() for p in v]
    assert report.created == 2  # mnemex.toml and .gitignore


def test_slugs_are_ascii_lower_case_and_bounded() -> None:
    assert slugify("Café Notes: v2!") == "cafe-notes-v2"
    assert slugify("///") == "untitled"
    assert len(slugify("x" * 200)) == 80


@pytest.mark.parametrize("bad", ["../x", "a/b", "Has Caps", "", ".."])
def test_names_with_dots_slashes_or_capitals_are_refused(bad: str) -> None:
    with pytest.raises(VaultError):
        check_name(bad)


def test_the_top_folder_decides_the_kind_domain_and_project() -> None:
    assert placement("wiki/work/entities/a.md").kind == "knowledge"
    assert placement("wiki/work/entities/a.md").domain == "work"
    assert placement("memories/alpha/2026-01/x.md").project == "alpha"
    assert placement("state/alpha/brief.md").kind == "state"
    assert placement("wiki.md").kind == "notes"
    assert placement("Daily/x.md").kind == "notes"
