"""Ingest writes follow the umask for new files and keep an existing page's mode."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from ingest_support import git_vault, interview, open_brain, overview
from mnemex.ingest.apply import apply_plan
from mnemex.ingest.plan import Planner


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("existing", [0o644, 0o640, 0o755])
def test_ingest_creates_files_under_the_umask_and_keeps_an_updated_pages_mode(
    tmp_path: Path, umask: int, existing: int
) -> None:
    root = git_vault(tmp_path / "vault")
    with open_brain(root) as brain:
        brain.sync()
        planner = Planner(brain, "general")
        planner.add(*overview())
        first = planner.finish()
        apply_plan(brain.vault, first)
        created = [c.path for c in first.changes if c.action == "create"]
        assert created and all(_mode(root / p) == 0o666 & ~umask for p in created)
        brain.sync()
        planner = Planner(brain, "general")
        planner.add(*interview())
        second = planner.finish()
        updated = [c.path for c in second.changes if c.action == "update"]
        assert updated
        for rel in updated:
            (root / rel).chmod(existing)
        apply_plan(brain.vault, second)
    assert all(_mode(root / rel) == existing for rel in updated)
