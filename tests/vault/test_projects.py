"""Which projects exist: a folder under state/ or memories/ (vault format §2)."""

from __future__ import annotations

from pathlib import Path

from mnemex.vault import Vault, init_vault
from mnemex.vault.projects import known_projects, project_exists


def test_a_project_exists_once_it_has_a_folder_under_state_or_memories(tmp_path: Path) -> None:
    init_vault(tmp_path, git=False)
    for folder in ("state/beta", "memories/alpha", "memories/beta", "state/.hidden"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "state" / "notes.md").write_text("a file is no project\n", encoding="utf-8")
    vault = Vault(tmp_path)
    assert known_projects(vault) == ["alpha", "beta"]
    assert project_exists(vault, "alpha") and not project_exists(vault, "gamma")


def test_a_folder_only_under_foundations_is_not_a_project(tmp_path: Path) -> None:
    init_vault(tmp_path, git=False)
    (tmp_path / "foundations" / "docs-only").mkdir(parents=True)
    vault = Vault(tmp_path)
    assert known_projects(vault) == []
    assert not project_exists(vault, "docs-only")
