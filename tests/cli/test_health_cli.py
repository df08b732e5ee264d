"""`mnemex health` and `undo` as a user runs them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from health_support import BABBAGE, git, open_brain

MNEMEX = [sys.executable, "-m", "mnemex"]


def run(root: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [*MNEMEX, "--vault", str(root), *args], capture_output=True, text=True, check=False
    )
    assert (done.returncode == 0) == ok, done.stderr + done.stdout
    return done


def _sync(root: Path) -> None:
    with open_brain(root) as brain:
        brain.sync()


def test_health_json_is_keyed_by_kind_and_fix_applies_only_with_yes(sick: Path) -> None:
    _sync(sick)
    data = json.loads(run(sick, "health", "--json", "--no-semantic").stdout)
    assert {"broken_links", "orphans", "duplicates", "counts", "score"} <= set(data)
    issue = next(i for i in data["broken_links"] if i["data"].get("suggested"))
    before = (sick / BABBAGE).read_text()
    preview = run(sick, "health", "fix", issue["id"]).stdout
    assert "nothing changed" in preview and (sick / BABBAGE).read_text() == before
    applied = json.loads(run(sick, "health", "fix", issue["id"], "--yes", "--json").stdout)
    assert applied["updated"] == 1 and (sick / BABBAGE).read_text() != before
    run(sick, "undo", "--yes")
    assert (sick / BABBAGE).read_text() == before
    assert git(sick, "log", "-1", "--format=%s").startswith("mnemex undo:")


def test_health_record_dismiss_and_history(sick: Path) -> None:
    _sync(sick)
    data = json.loads(run(sick, "health", "--json", "--record", "--no-semantic").stdout)
    assert data["recorded"]["commit"]["committed"]
    stale = data["stale"][0]["id"]
    run(sick, "health", "dismiss", stale, "--reason", "fine as it is")
    again = json.loads(run(sick, "health", "--json", "--no-semantic").stdout)
    assert stale not in [i["id"] for i in again["stale"]] and again["dismissed"] == 1
    assert (
        "score" in run(sick, "health", "history").stdout
        or "  " in run(sick, "health", "history").stdout
    )


def test_health_and_rebuild_of_a_vanished_vault_fail_loudly(sick: Path) -> None:
    _sync(sick)
    shutil.rmtree(sick)
    for args in (("health",), ("index", "rebuild")):
        done = run(sick, *args, ok=False)
        assert "does not exist" in done.stderr or "is gone" in done.stderr
        assert "0 issue" not in done.stdout
