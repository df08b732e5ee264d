"""Dismissals keep an issue from resurfacing; history keeps the score; undo reverts safely."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from health_support import BABBAGE, ENGINE, git
from helpers import write
from mnemex.brain import Brain
from mnemex.errors import NoteNotFound, PlanRefused, VaultError
from mnemex.health import dismiss_issue, fix_issue, read_history, record_scan, restore_issue, scan
from mnemex.vault.undo import undo


def test_a_dismissed_issue_does_not_resurface_until_restored(sick_brain: Brain) -> None:
    vault = sick_brain.vault
    report = scan(vault, sick_brain.backend)
    stale = report.issues["stale"][0]
    done = dismiss_issue(vault, report, stale.id, "kept for history")
    assert done["path"].startswith("health/dismissed/") and done["commit"]["committed"]
    line = json.loads((vault.root / done["path"]).read_text().splitlines()[-1])
    assert line["action"] == "dismiss" and line["files"] == [ENGINE]
    after = scan(vault, sick_brain.backend)
    assert after.find(stale.id) is None and after.dismissed == 1
    again = dismiss_issue(vault, after, stale.id)
    assert again["report"]["unchanged"] == 1
    restore_issue(vault, stale.id)
    assert scan(vault, sick_brain.backend).find(stale.id) is not None


def test_dismissing_an_unknown_id_is_refused(sick_brain: Brain) -> None:
    report = scan(sick_brain.vault, sick_brain.backend)
    with pytest.raises(NoteNotFound):
        dismiss_issue(sick_brain.vault, report, "stale-000000000000")
    with pytest.raises(VaultError):
        dismiss_issue(sick_brain.vault, report, "not an id")


def test_recorded_scans_make_a_trend(sick_brain: Brain) -> None:
    vault = sick_brain.vault
    first = record_scan(vault, scan(vault, sick_brain.backend))
    issue = next(
        i for i in scan(vault, sick_brain.backend).issues["broken_links"] if i.data.get("suggested")
    )
    fix_issue(sick_brain, issue.id, fix_issue(sick_brain, issue.id)["plan_id"])
    record_scan(vault, scan(vault, sick_brain.backend))
    history = read_history(vault)
    assert history["total"] == 2 and history["trend"] == "healthier"
    assert history["scans"][0]["counts"]["broken_links"] == 3
    assert first["path"].startswith("health/history/")


def test_undo_reverts_the_last_mnemex_commit_as_a_new_commit(sick_brain: Brain) -> None:
    root = sick_brain.vault.root
    before = (root / BABBAGE).read_text()
    issue = next(
        i
        for i in scan(sick_brain.vault, sick_brain.backend).issues["broken_links"]
        if i.data.get("suggested")
    )
    fix_issue(sick_brain, issue.id, fix_issue(sick_brain, issue.id)["plan_id"])
    assert (root / BABBAGE).read_text() != before
    plan = undo(sick_brain.vault)
    assert plan["files"] == [{"path": BABBAGE, "effect": "changed back"}]
    assert (root / BABBAGE).read_text() != before  # the plan changes nothing
    done = undo(sick_brain.vault, plan_id=plan["plan_id"])
    assert (root / BABBAGE).read_text() == before
    log = git(root, "log", "--format=%s").splitlines()
    assert log[0].startswith("mnemex undo: revert") and len(log) == 3  # history kept
    assert "Mnemex-Operation: undo" in git(root, "log", "-1", "--format=%B")
    assert done["updated"] == 1


def test_undo_refuses_a_commit_mnemex_did_not_make_unless_forced(sick: Path) -> None:
    from mnemex.vault import Vault

    vault = Vault(sick)
    write(sick, "notes/mine.md", "# Mine\n")
    git(sick, "add", "-A")
    git(sick, "commit", "-qm", "a person's commit")
    sha = git(sick, "rev-parse", "HEAD").strip()
    with pytest.raises(VaultError, match="not made by mnemex"):
        undo(vault, sha)
    plan = undo(vault, sha, force=True)
    undo(vault, sha, plan["plan_id"], force=True)
    assert not (sick / "notes/mine.md").exists()


def test_undo_refuses_over_uncommitted_changes_and_a_stale_plan(sick_brain: Brain) -> None:
    root = sick_brain.vault.root
    issue = next(
        i
        for i in scan(sick_brain.vault, sick_brain.backend).issues["broken_links"]
        if i.data.get("suggested")
    )
    fix_issue(sick_brain, issue.id, fix_issue(sick_brain, issue.id)["plan_id"])
    plan = undo(sick_brain.vault)
    (root / BABBAGE).write_text("a person's edit\n")
    with pytest.raises(VaultError, match="uncommitted changes"):
        undo(sick_brain.vault)
    with pytest.raises(VaultError):
        undo(sick_brain.vault, plan_id=plan["plan_id"])
    assert (root / BABBAGE).read_text() == "a person's edit\n"


def test_undo_with_no_mnemex_commit_says_so(sick: Path) -> None:
    from mnemex.vault import Vault

    with pytest.raises(VaultError, match="no mnemex commit"):
        undo(Vault(sick))
    with pytest.raises((VaultError, PlanRefused)):
        undo(Vault(sick), "zz-not-hex")
