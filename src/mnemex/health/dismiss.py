"""Dismissing an issue: ``health/dismissed/<machine>.jsonl``, so it does not resurface.

A dismissal names the issue by its stable id, with its kind and files (paths
only, never content). Restoring appends a ``restore`` line; the latest action by
time over all machines wins, so a dismissal made on one machine holds on every
machine once synced.
"""

from __future__ import annotations

from typing import Any

from mnemex.errors import NoteNotFound, VaultError
from mnemex.health.ids import kind_of
from mnemex.health.records import DISMISSED_DIR, append_record, clean_reason, dismissed_ids
from mnemex.health.scan import HealthReport
from mnemex.report import Report
from mnemex.vault import Vault


def dismiss_issue(
    vault: Vault, report: HealthReport, issue_id: str, reason: str | None = None
) -> dict[str, Any]:
    """Record that ``issue_id`` (found in ``report``) is not a problem, and commit it.

    Raises:
        VaultError: not an issue id.
        NoteNotFound: no current issue has that id (fixed already, or never found).
    """
    if kind_of(issue_id) is None:
        raise VaultError(f"{issue_id!r} is not a health issue id (like broken_links-0123456789ab)")
    out = Report()
    if issue_id in dismissed_ids(vault):
        out.add("unchanged", issue_id)
        return {"id": issue_id, "action": "dismiss", "report": out.to_dict()}
    issue = report.find(issue_id)
    if issue is None:
        raise NoteNotFound(
            f"no current issue {issue_id}: it may be fixed already; run `mnemex health` for the ids"
        )
    record = {
        "id": issue_id,
        "kind": issue.kind,
        "files": sorted(issue.files),
        "action": "dismiss",
        "reason": clean_reason(reason),
    }
    rel, commit, outcome = append_record(vault, DISMISSED_DIR, record, "health-dismiss", issue_id)
    out.add(outcome, rel)
    return {**record, "path": rel, "report": out.to_dict(), "commit": commit.to_dict()}


def restore_issue(vault: Vault, issue_id: str) -> dict[str, Any]:
    """Undo a dismissal: the issue is reported again by the next scan.

    Raises:
        VaultError: not an issue id, or the issue is not dismissed.
    """
    kind = kind_of(issue_id)
    if kind is None:
        raise VaultError(f"{issue_id!r} is not a health issue id")
    dismissed = dismissed_ids(vault)
    if issue_id not in dismissed:
        raise VaultError(f"{issue_id} is not dismissed")
    record = {
        "id": issue_id,
        "kind": kind,
        "files": dismissed[issue_id].get("files", []),
        "action": "restore",
        "reason": "",
    }
    rel, commit, outcome = append_record(vault, DISMISSED_DIR, record, "health-restore", issue_id)
    out = Report()
    out.add(outcome, rel)
    return {**record, "path": rel, "report": out.to_dict(), "commit": commit.to_dict()}


__all__ = ["dismiss_issue", "restore_issue"]
