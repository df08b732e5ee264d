"""``mnemex sync`` between two clones of a bare repository on disk (no network)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import write
from mnemex.brain import Brain
from mnemex.cli import cli
from mnemex.config import settings_template
from mnemex.embed.hashing import HashingEmbedder
from mnemex.errors import VaultError
from mnemex.health.doctor import diagnose
from mnemex.vault import Vault, init_vault
from mnemex.vault.gitsync import conflict_copies, sync, sync_checks
from mnemex.vault.machine import machine_name


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True)
    return done.stdout


def identify(root: Path, name: str) -> None:
    git(root, "config", "user.name", name)
    git(root, "config", "user.email", f"{name.lower()}@example.org")


@pytest.fixture
def machines(tmp_path: Path) -> tuple[Vault, Vault, Path]:
    """Two machines' vaults, cloned from one bare remote, with a private project."""
    bare = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    git(bare, "symbolic-ref", "HEAD", "refs/heads/main")
    a = tmp_path / "a"
    a.mkdir()
    (a / "mnemex.toml").write_text(
        settings_template("brain")
        .replace('name = "minilm"', 'name = "hashing"')
        .replace('private = ["private"]', 'private = ["private", "secret"]'),
        encoding="utf-8",
    )
    init_vault(a, git=True)
    identify(a, "Ada")
    git(a, "checkout", "-q", "-b", "main")
    write(a, "wiki/general/concepts/bm25.md", "# BM25\nRanks by term frequency.\n")
    write(a, "state/proj/brief.md", "# Brief\nShip it.\n")
    git(a, "remote", "add", "origin", str(bare))
    first = sync(Vault(a))
    assert first["pushed"], first
    b = tmp_path / "b"
    subprocess.run(["git", "clone", "-q", str(bare), str(b)], check=True)
    identify(b, "Bob")
    return Vault(a), Vault(b), bare


def test_two_machines_saving_handoffs_for_one_project_never_conflict(
    machines: tuple[Vault, Vault, Path],
) -> None:
    a, b, _ = machines
    for vault, text in ((a, "A was here"), (b, "B was here")):
        write(vault.root, f"state/proj/handoffs/{machine_name(vault)}/current.md", f"# {text}\n")
        write(vault.root, f"state/proj/journal/{machine_name(vault)}.jsonl", f'{{"h": "{text}"}}\n')
    assert machine_name(a) != machine_name(b)
    done_a = sync(a)
    done_b = sync(b)
    assert done_a["pushed"] and done_b["pushed"]
    assert done_b["conflicts"] == [] and done_b["report"]["failed"] == 0
    assert sync(a)["conflicts"] == []
    for vault in (a, b):
        handoffs = sorted((vault.root / "state/proj/handoffs").iterdir())
        assert [h.name for h in handoffs] == sorted([machine_name(a), machine_name(b)])


def test_machines_that_sync_in_turn_end_at_one_commit(
    machines: tuple[Vault, Vault, Path],
) -> None:
    """A machine with nothing of its own fast-forwards: a merge commit each time would
    leave every machine one commit ahead of the others, for ever."""
    a, b, bare = machines
    write(a.root, "notes/a.md", "# A\n")
    write(b.root, "notes/b.md", "# B\n")
    for vault in (a, b, a, b):
        assert sync(vault)["pushed"]
    heads = {git(v.root, "rev-parse", "HEAD").strip() for v in (a, b)}
    assert heads == {git(bare, "rev-parse", "main").strip()}
    before = git(a.root, "rev-list", "--count", "HEAD")
    sync(a)
    sync(b)
    assert git(b.root, "rev-list", "--count", "HEAD") == before


def test_a_conflicting_wiki_page_keeps_both_versions_and_is_reported(
    machines: tuple[Vault, Vault, Path],
) -> None:
    a, b, _ = machines
    page = "wiki/general/concepts/bm25.md"
    write(a.root, page, "# BM25\nA's edit.\n")
    assert sync(a)["pushed"]
    write(b.root, page, "# BM25\nB's edit.\n")
    done = sync(b)
    assert done["pushed"]
    (conflict,) = done["conflicts"]
    assert conflict["path"] == page and conflict["kept"] == "ours"
    assert (b.root / page).read_text() == "# BM25\nB's edit.\n"
    copy = conflict["theirs"]
    assert copy.startswith("wiki/general/concepts/bm25.conflict-") and copy.endswith(".md")
    assert machine_name(a) in copy
    assert (b.root / copy).read_text() == "# BM25\nA's edit.\n"
    assert any(w["path"] == page for w in done["report"]["warnings"])
    assert done["conflict_copies"] == [copy]
    # the other machine gets both versions too, and doctor reports the copy on both
    assert sync(a)["conflict_copies"] == [copy]
    assert (a.root / page).read_text() == "# BM25\nB's edit.\n"
    for vault in (a, b):
        (check,) = [c for c in sync_checks(vault) if c["name"] == "sync conflicts"]
        assert check["status"] == "warn" and copy in check["detail"]
    assert "<<<<<<<" not in (a.root / page).read_text()


def test_doctor_reports_a_conflict_copy(machines: tuple[Vault, Vault, Path]) -> None:
    a, _, _ = machines
    write(a.root, "wiki/general/concepts/bm25.conflict-laptop-1a2b3c4d-20261202T101500Z.md", "x")
    assert conflict_copies(a) == [
        "wiki/general/concepts/bm25.conflict-laptop-1a2b3c4d-20261202T101500Z.md"
    ]
    with Brain(a, embedder=HashingEmbedder()) as brain:
        checks = diagnose(brain, load_embedder=False, probe_clients=False)["checks"]
    assert any(c["name"] == "sync conflicts" and c["status"] == "warn" for c in checks)


def test_private_folders_and_machine_local_files_are_never_pushed(
    machines: tuple[Vault, Vault, Path],
) -> None:
    a, _, bare = machines
    write(a.root, "wiki/private/entities/diary.md", "# Diary\n")
    write(a.root, "state/secret/brief.md", "# Secret brief\n")
    write(a.root, "memories/secret/2026-12/x.md", "# Secret\n")
    write(a.root, "notes/public.md", "# Public\n")
    assert sync(a)["pushed"]
    pushed = git(bare, "ls-tree", "-r", "--name-only", "main").splitlines()
    assert "notes/public.md" in pushed
    assert not [p for p in pushed if "private" in p or "secret" in p or p.startswith(".mnemex")]


def test_sync_refuses_to_push_when_a_private_path_is_tracked(
    machines: tuple[Vault, Vault, Path],
) -> None:
    a, _, bare = machines
    write(a.root, "wiki/private/entities/diary.md", "# Diary\n")
    git(a.root, "add", "-f", "wiki/private/entities/diary.md")
    git(a.root, "commit", "-qm", "oops")
    before = git(bare, "rev-parse", "main")
    done = sync(a)
    assert not done["pushed"] and done["report"]["refused"] >= 1
    assert "wiki/private/entities/diary.md" in done["tracked_private"]
    assert git(bare, "rev-parse", "main") == before
    assert any(c["name"] == "private files" and c["status"] == "fail" for c in sync_checks(a))


def test_sync_commits_even_when_the_gitignore_lost_its_private_lines(
    machines: tuple[Vault, Vault, Path],
) -> None:
    a, _, bare = machines
    (a.root / ".gitignore").write_text("", encoding="utf-8")
    write(a.root, "state/secret/brief.md", "# Secret brief\n")
    write(a.root, "notes/n.md", "# N\n")
    done = sync(a)
    assert done["pushed"]
    assert any(w["path"] == ".gitignore" for w in done["report"]["warnings"])
    pushed = git(bare, "ls-tree", "-r", "--name-only", "main").splitlines()
    assert "notes/n.md" in pushed and "state/secret/brief.md" not in pushed


def test_sync_without_a_remote_is_refused_with_a_hint(tmp_path: Path) -> None:
    root = tmp_path / "v"
    init_vault(root, git=True)
    with pytest.raises(VaultError, match="git remote add"):
        sync(Vault(root))


def test_the_sync_command_prints_counts_and_json(machines: tuple[Vault, Vault, Path]) -> None:
    a, b, _ = machines
    write(a.root, "notes/x.md", "# X\n")
    out = CliRunner().invoke(cli, ["--vault", str(a.root), "sync"], catch_exceptions=False)
    assert out.exit_code == 0, out.output
    assert "1 created" in out.output and "pushed to origin" in out.output
    out = CliRunner().invoke(cli, ["--vault", str(b.root), "sync", "--json"])
    assert out.exit_code == 0, out.output
    assert '"pushed": true' in out.output
    assert (b.root / "notes/x.md").exists()


def test_a_vault_initialised_separately_joins_the_remote_without_losing_anything(
    machines: tuple[Vault, Vault, Path], tmp_path: Path
) -> None:
    a, _, bare = machines
    c = tmp_path / "c"
    init_vault(c, git=True)
    identify(c, "Cy")
    git(c, "checkout", "-q", "-b", "main")
    write(c, "notes/from-c.md", "# From C\n")
    git(c, "remote", "add", "origin", str(bare))
    done = sync(Vault(c))
    assert done["pushed"], done
    assert (c / "wiki/general/concepts/bm25.md").exists()
    assert (c / "notes/from-c.md").exists()
    for conflict in done["conflicts"]:  # both vaults wrote mnemex.toml and .gitignore
        assert conflict["kept"] == "ours" and (c / conflict["theirs"]).exists()
    sync(a)
    assert (a.root / "notes/from-c.md").exists()
