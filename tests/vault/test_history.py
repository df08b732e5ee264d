from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from helpers import write
from mnemex.vault import Vault, init_vault
from mnemex.vault.history import commit_change


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, capture_output=True, text=True, check=True
    ).stdout


def repo(tmp_path: Path) -> Vault:
    root = tmp_path / "vault"
    init_vault(root, git=True)
    return Vault(root)


def test_a_commit_names_the_operation_and_the_machine_and_only_its_paths(tmp_path: Path) -> None:
    vault = repo(tmp_path)
    write(vault.root, "notes/a.md", "a")
    write(vault.root, "notes/unrelated.md", "someone else's work in progress")
    done = commit_change(vault, ["notes/a.md"], "write_page", "created notes/a.md")
    assert done.sha is not None
    message = git(vault.root, "log", "-1", "--format=%B")
    assert message.startswith("mnemex write_page: created notes/a.md")
    assert "Mnemex-Operation: write_page" in message
    assert "Mnemex-Machine: " in message
    assert git(vault.root, "show", "--name-only", "--format=", "HEAD").split() == ["notes/a.md"]


def test_a_deletion_is_committed_too(tmp_path: Path) -> None:
    vault = repo(tmp_path)
    write(vault.root, "notes/a.md", "a")
    commit_change(vault, ["notes/a.md"], "write_page", "a")
    (vault.root / "notes/a.md").unlink()
    assert commit_change(vault, ["notes/a.md"], "delete_page", "a").sha is not None
    assert git(vault.root, "ls-files", "notes").strip() == ""


def test_private_and_machine_local_paths_are_never_committed(tmp_path: Path) -> None:
    vault = repo(tmp_path)
    write(vault.root, "memories/private/2026-12/x.md", "secret")
    write(vault.root, "wiki/private/entities/y.md", "secret")
    write(vault.root, ".mnemex/plans/p.json", "{}")
    done = commit_change(
        vault,
        ["memories/private/2026-12/x.md", "wiki/private/entities/y.md", ".mnemex/plans/p.json"],
        "remember",
        "x",
    )
    assert done.sha is None
    assert "private" in (done.reason or "")


def test_a_vault_without_git_is_written_but_not_committed(vault_dir: Path) -> None:
    write(vault_dir, "notes/a.md", "a")
    done = commit_change(Vault(vault_dir), ["notes/a.md"], "write_page", "a")
    assert done.sha is None
    assert "not a git repository" in (done.reason or "")


def test_commits_from_several_processes_at_once_all_land(tmp_path: Path) -> None:
    vault = repo(tmp_path)
    script = textwrap.dedent(
        """
        import sys
        from pathlib import Path
        from mnemex.vault.history import commit_change
        from mnemex.vault import Vault
        vault = Vault(sys.argv[1])
        worker = sys.argv[2]
        for i in range(8):
            rel = f"notes/{worker}-{i}.md"
            (vault.root / rel).parent.mkdir(parents=True, exist_ok=True)
            (vault.root / rel).write_text(f"{worker} {i}", encoding="utf-8")
            assert commit_change(vault, [rel], "write_page", rel).sha
        """
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", script, str(vault.root), f"w{n}"]) for n in range(4)
    ]
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0, 0]
    committed = set(git(vault.root, "ls-files", "notes").split())
    assert committed == {f"notes/w{n}-{i}.md" for n in range(4) for i in range(8)}
    assert len(git(vault.root, "log", "--format=%H").split()) == 32
