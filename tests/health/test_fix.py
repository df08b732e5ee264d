"""Fixes: a plan first, applied with its id as one commit; stale plans and races refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from health_support import ADA, ADAS, BABBAGE, EMPTY, ENGINE, LONELY, NOTES, git, open_brain
from helpers import write
from mnemex.brain import Brain
from mnemex.errors import NoteNotFound, PlanRefused, VaultError
from mnemex.health import Issue, fix_issue, scan


def _issue(brain: Brain, kind: str, **match: object) -> Issue:
    for issue in scan(brain.vault, brain.backend).issues[kind]:
        if all(issue.data.get(k) == v or getattr(issue, k, None) == v for k, v in match.items()):
            return issue
    raise AssertionError(f"no {kind} issue matching {match}")


def _head(root: Path) -> str:
    return git(root, "log", "-1", "--format=%s").strip()


def test_a_broken_link_fix_shows_a_plan_then_repoints_the_link_in_one_commit(
    sick_brain: Brain,
) -> None:
    root = sick_brain.vault.root
    issue = _issue(sick_brain, "broken_links", target="Lady Lovelace")
    before = (root / BABBAGE).read_text()
    plan = fix_issue(sick_brain, issue.id)
    assert plan["files_changed"] == [BABBAGE] and plan["deletes"] == []
    assert "+Inventor. Worked with [[ada-lovelace|Lady Lovelace]]" in plan["diff"]
    assert (root / BABBAGE).read_text() == before  # a plan changes nothing
    done = fix_issue(sick_brain, issue.id, plan["plan_id"])
    assert done["updated"] == 1 and done["commit"]["committed"]
    assert "[[ada-lovelace|Lady Lovelace]]" in (root / BABBAGE).read_text()
    assert _head(root).startswith("mnemex health-fix: re-point [[Lady Lovelace]]")
    assert scan(sick_brain.vault, sick_brain.backend).find(issue.id) is None


def test_a_fix_against_a_stale_plan_is_refused_and_changes_nothing(sick_brain: Brain) -> None:
    root = sick_brain.vault.root
    issue = _issue(sick_brain, "broken_links", target="Lady Lovelace")
    plan = fix_issue(sick_brain, issue.id)
    edited = (root / BABBAGE).read_text() + "\nA person's edit.\n"
    (root / BABBAGE).write_text(edited)
    head = _head(root)
    with pytest.raises(PlanRefused, match="changed since plan"):
        fix_issue(sick_brain, issue.id, plan["plan_id"])
    assert (root / BABBAGE).read_text() == edited and _head(root) == head


def test_two_fixes_racing_on_one_page_the_second_is_refused(sick_brain: Brain) -> None:
    root = sick_brain.vault.root
    first = _issue(sick_brain, "broken_links", target="Lady Lovelace")
    second = _issue(sick_brain, "broken_links", target="analytical-engines")
    plan_a = fix_issue(sick_brain, first.id)
    plan_b = fix_issue(sick_brain, second.id)
    fix_issue(sick_brain, first.id, plan_a["plan_id"])
    after_first = (root / BABBAGE).read_text()
    with pytest.raises(PlanRefused):
        fix_issue(sick_brain, second.id, plan_b["plan_id"])
    assert (root / BABBAGE).read_text() == after_first


def test_a_plan_is_used_once(sick_brain: Brain) -> None:
    issue = _issue(sick_brain, "broken_links", target="Lady Lovelace")
    plan = fix_issue(sick_brain, issue.id)
    fix_issue(sick_brain, issue.id, plan["plan_id"])
    with pytest.raises((PlanRefused, NoteNotFound)):
        fix_issue(sick_brain, issue.id, plan["plan_id"])


def test_merging_duplicates_moves_every_link_and_keeps_the_removed_pages_content(
    sick_brain: Brain,
) -> None:
    root = sick_brain.vault.root
    issue = _issue(sick_brain, "duplicates")
    plan = fix_issue(sick_brain, issue.id)
    assert plan["deletes"] == [ADAS], "the plan names the deletion"
    assert BABBAGE in plan["files_changed"]
    done = fix_issue(sick_brain, issue.id, plan["plan_id"])
    assert done["deleted_paths"] == [ADAS] and not (root / ADAS).exists()
    assert done["deleted"] == 1
    kept = (root / ADA).read_text()
    assert "Ada Lovelaces" in kept  # the removed page's name is an alias
    assert "- Wrote Note G." in kept and "Countess and writer on the engine." in kept
    assert "[[ada-lovelace|ada-lovelaces]]" in (root / BABBAGE).read_text()  # shows the same
    assert "[[ada-lovelaces]]" not in (root / BABBAGE).read_text()
    assert git(root, "status", "--porcelain", "--", "wiki").strip() == ""
    assert len(git(root, "log", "--format=%H").split()) == 2  # start + one fix commit


def test_a_merge_that_would_remove_most_pages_is_refused_without_the_flag(
    tmp_path: Path,
) -> None:
    root = tmp_path / "v"
    from health_support import make_sick_vault

    make_sick_vault(root)
    for rel in (BABBAGE, ENGINE, EMPTY, LONELY, NOTES, "notes/broken.md"):
        (root / rel).unlink()
    with open_brain(root) as brain:
        brain.sync()
        issue = _issue(brain, "duplicates")
        with pytest.raises(VaultError, match="looks like loss"):
            fix_issue(brain, issue.id)
        assert (root / ADAS).exists()
        plan = fix_issue(brain, issue.id, allow_loss=True)
        fix_issue(brain, issue.id, plan["plan_id"], allow_loss=True)
        assert not (root / ADAS).exists()


def test_a_missing_backlink_is_added_under_sources(sick_brain: Brain) -> None:
    root = sick_brain.vault.root
    issue = _issue(sick_brain, "missing_backlinks", page=ENGINE)
    plan = fix_issue(sick_brain, issue.id)
    fix_issue(sick_brain, issue.id, plan["plan_id"])
    text = (root / ENGINE).read_text()
    assert text.endswith("## Sources\n- [[notes-on-the-engine]]\n")
    assert scan(sick_brain.vault, sick_brain.backend).find(issue.id) is None


def test_an_empty_page_fix_deletes_it_and_the_plan_says_so(sick_brain: Brain) -> None:
    issue = _issue(sick_brain, "empty_pages")
    plan = fix_issue(sick_brain, issue.id)
    assert plan["deletes"] == [EMPTY]
    assert {"path": NOTES, "breaks": EMPTY} in plan["links"]
    fix_issue(sick_brain, issue.id, plan["plan_id"])
    assert not (sick_brain.vault.root / EMPTY).exists()


def test_an_orphan_citing_a_summary_is_linked_from_it(sick_brain: Brain) -> None:
    root = sick_brain.vault.root
    text = (
        (root / LONELY)
        .read_text()
        .replace("sources: []", f"sources:\n- {{path: {NOTES}, sha256: abc}}")
    )
    (root / LONELY).write_text(text)
    sick_brain.sync()
    issue = _issue(sick_brain, "orphans")
    fix_issue(sick_brain, issue.id, fix_issue(sick_brain, issue.id)["plan_id"])
    assert "- [[punched-cards|Punched Cards]]" in (root / NOTES).read_text()


def test_kinds_without_an_automatic_fix_say_why(sick_brain: Brain) -> None:
    issue = _issue(sick_brain, "stale")
    with pytest.raises(VaultError, match="no automatic fix"):
        fix_issue(sick_brain, issue.id)
    with pytest.raises(NoteNotFound):
        fix_issue(sick_brain, "broken_links-000000000000")
    with pytest.raises(VaultError, match="not a health issue id"):
        fix_issue(sick_brain, "nonsense")


def test_index_drift_is_fixed_by_a_sync(sick_brain: Brain) -> None:
    write(sick_brain.vault.root, "notes/fresh.md", "# Fresh\n[[charles-babbage]]\n")
    issue = _issue(sick_brain, "index_drift")
    plan = fix_issue(sick_brain, issue.id)
    assert plan["action"] == "sync_index"
    done = fix_issue(sick_brain, issue.id, plan["plan_id"])
    assert done["created"] == 1
    assert scan(sick_brain.vault, sick_brain.backend).issues["index_drift"] == []


def test_a_fix_on_a_reopened_brain_works_the_same(sick: Path) -> None:
    with open_brain(sick) as brain:
        brain.sync()
        issue = _issue(brain, "broken_links", target="analytical-engines")
        plan = fix_issue(brain, issue.id)
    with open_brain(sick) as again:
        fix_issue(again, issue.id, plan["plan_id"])
    assert "[[analytical-engine|analytical-engines]]" in (sick / BABBAGE).read_text()
