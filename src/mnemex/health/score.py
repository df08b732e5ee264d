"""The health score over time: ``health/history/<machine>.jsonl``, one line per recorded scan.

A scan does not write by itself (``scan_health`` is read-only); recording is a
choice (``mnemex health --record``), so a scheduled job keeps the trend and an
agent's look at the brain changes nothing. Each record is one git commit, so
the history syncs with the vault.
"""

from __future__ import annotations

from typing import Any

from mnemex.health.records import HISTORY_DIR, append_record, read_folder
from mnemex.health.scan import HealthReport
from mnemex.report import Report
from mnemex.vault import Vault

HISTORY_FORMAT = 1


def record_scan(vault: Vault, report: HealthReport) -> dict[str, Any]:
    """Append the report's score and counts to this machine's history file and commit it."""
    record = {
        "format": HISTORY_FORMAT,
        "score": report.score,
        "pages": report.pages,
        "counts": report.counts,
        "dismissed": report.dismissed,
    }
    rel, commit, outcome = append_record(
        vault, HISTORY_DIR, record, "health-record", f"score {report.score}, {report.total} issues"
    )
    counts = Report()
    counts.add(outcome, rel)
    return {"path": rel, "record": record, "report": counts.to_dict(), "commit": commit.to_dict()}


def read_history(vault: Vault, limit: int = 50) -> dict[str, Any]:
    """The last ``limit`` recorded scans of every machine, oldest first, with the trend."""
    items = [
        i
        for i in read_folder(vault, HISTORY_DIR)
        if isinstance(i.get("score"), int | float) and isinstance(i.get("ts"), str)
    ]
    items.sort(key=lambda i: str(i["ts"]))
    items = items[-limit:] if limit > 0 else items
    trend = None
    if len(items) >= 2:
        delta = float(items[-1]["score"]) - float(items[0]["score"])
        trend = "healthier" if delta > 0 else "less healthy" if delta < 0 else "unchanged"
    return {"scans": items, "total": len(items), "trend": trend}


__all__ = ["HISTORY_FORMAT", "read_history", "record_scan"]
