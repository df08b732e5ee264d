"""Applying an ingest plan: one commit, all files or none, conflicts refused."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ingest_support import commits, git_vault, interview, open_brain, overview
from mnemex.errors import WriteConflict
from mnemex.ingest import apply as apply_module
from mnemex.ingest.apply import IngestFailed, apply_plan
from mnemex.ingest.plan import Planner


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return git_vault(tmp_path / "vault")


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and ".git" not in p.parts and ".mnemex" not in p.parts
    }


def test_a_batch_is_applied_as_one_commit_naming_its_files(root: Path) -> None:
    before = commits(root)
    with open_brain(root) as brain:
        brain.sync()
        planner = Planner(brain, "general")
        planner.add(*overview())
        planner.add(*interview())
        result = apply_plan(brain.vault, planner.finish())
    assert result["commit"]["committed"] is True
    assert commits(root) == before + 1
    assert result["report"]["created"] == len(result["create"])


def test_a_write_failing_midway_leaves_the_vault_as_it_was(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_brain(root) as brain:
        brain.sync()
        planner = Planner(brain, "general")
        planner.add(*overview())
        apply_plan(brain.vault, planner.finish())
        brain.sync()
        planner = Planner(brain, "general")
        planner.add(*interview())
        plan = planner.finish()
    assert any(c.action == "update" for c in plan.changes)
    before, count = snapshot(root), commits(root)
    real = apply_module.replace
    calls: list[int] = []

    def flaky(tmp: str, target: Path) -> None:
        calls.append(1)
        if len(calls) == 4:
            raise OSError(28, "No space left on device")
        real(tmp, target)

    monkeypatch.setattr(apply_module, "replace", flaky)
    with pytest.raises(IngestFailed, match="put back as it was"):
        apply_plan(open_brain(root).vault, plan)
    assert snapshot(root) == before
    assert commits(root) == count
    leftovers = [p for p in root.rglob("*.tmp") if ".git" not in p.parts]
    assert leftovers == []


def test_a_page_changed_after_planning_refuses_the_whole_plan(root: Path) -> None:
    with open_brain(root) as brain:
        brain.sync()
        planner = Planner(brain, "general")
        planner.add(*overview())
        plan = planner.finish()
        (root / "wiki/general/entities/kestreldb.md").write_text("# mine\n", encoding="utf-8")
        before = snapshot(root)
        with pytest.raises(WriteConflict):
            apply_plan(brain.vault, plan)
    assert snapshot(root) == before


def test_a_failed_move_puts_back_the_inbox_files_it_removed(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mnemex.ingest.readers import read_sources
    from mnemex.ingest.run import plan_docs

    for name in ("a.md", "b.md"):
        (root / "inbox" / name).write_text(f"# {name}\n\nPriya Raman wrote {name}.\n", "utf-8")
    with open_brain(root) as brain:
        plan = plan_docs(brain, read_sources(root / "inbox"), "general")
    assert [c.path for c in plan.changes if c.action == "delete"] == ["inbox/a.md", "inbox/b.md"]
    before, count = snapshot(root), commits(root)
    real = apply_module.remove

    def flaky(target: Path) -> None:
        if target.name == "b.md":
            raise OSError(13, "Permission denied")
        real(target)

    monkeypatch.setattr(apply_module, "remove", flaky)
    with pytest.raises(IngestFailed, match="put back as it was"):
        apply_plan(open_brain(root).vault, plan)
    assert snapshot(root) == before
    # only the person's inbox files as they were (a baseline), no ingest commit
    assert commits(root) == count + 1
    last = ["git", "log", "-1", "--format=%s"]
    subject = subprocess.run(last, cwd=root, capture_output=True, text=True, check=True).stdout
    assert subject.startswith("mnemex baseline:")


def test_an_inbox_file_changed_after_planning_refuses_the_plan(root: Path) -> None:
    from mnemex.ingest.readers import read_sources
    from mnemex.ingest.run import plan_docs

    dropped = root / "inbox" / "a.md"
    dropped.write_text("# A\n\nPriya Raman wrote it.\n", encoding="utf-8")
    with open_brain(root) as brain:
        plan = plan_docs(brain, read_sources(dropped), "general")
        dropped.write_text("# A\n\nEdited meanwhile.\n", encoding="utf-8")
        before = snapshot(root)
        with pytest.raises(WriteConflict):
            apply_plan(brain.vault, plan)
    assert snapshot(root) == before


def test_an_inbox_file_keeps_its_mode_when_moved_and_when_put_back(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mnemex.ingest.readers import read_sources
    from mnemex.ingest.run import plan_docs

    for name in ("a.md", "b.md"):
        dropped = root / "inbox" / name
        dropped.write_text(f"# {name}\n\nPriya Raman wrote {name}.\n", "utf-8")
        dropped.chmod(0o640)
    with open_brain(root) as brain:
        plan = plan_docs(brain, read_sources(root / "inbox"), "general")
    real = apply_module.remove

    def flaky(target: Path) -> None:
        if target.name == "b.md":
            raise OSError(13, "Permission denied")
        real(target)

    monkeypatch.setattr(apply_module, "remove", flaky)
    with pytest.raises(IngestFailed):
        apply_plan(open_brain(root).vault, plan)
    assert (root / "inbox" / "a.md").stat().st_mode & 0o777 == 0o640, "put back as it was"
    monkeypatch.setattr(apply_module, "remove", real)
    with open_brain(root) as brain:
        plan = plan_docs(brain, read_sources(root / "inbox"), "general")
        apply_plan(brain.vault, plan)
    kept = [c.moved_to for c in plan.changes if c.action == "delete"]
    assert kept and all((root / k).stat().st_mode & 0o777 == 0o640 for k in kept)
