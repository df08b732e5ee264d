"""Health: find what quietly went wrong in the brain, and fix it only with consent.

- :func:`scan` runs every registered checker (deterministic, no model) and
  returns a :class:`HealthReport` grouped by kind, each issue with a stable id.
- :func:`fix_issue` previews a fix as a plan and applies it with the plan's id
  as one git commit; :func:`dismiss_issue` keeps an issue from resurfacing.
- :func:`record_scan` appends the score to the vault's health history;
  :func:`read_history` gives the trend.

Checkers register with :func:`register_checker`; importing this package
registers the built-in ones.
"""

from mnemex.health import anchors, duplicates, facts, links, pages, stale  # noqa: F401  (registers checkers)
from mnemex.health.dismiss import dismiss_issue, restore_issue
from mnemex.health.fix import fix_issue
from mnemex.health.ids import KINDS, Issue, issue_id
from mnemex.health.scan import HealthReport, HealthSettings, register_checker, scan
from mnemex.health.score import read_history, record_scan

__all__ = [
    "KINDS",
    "HealthReport",
    "HealthSettings",
    "Issue",
    "dismiss_issue",
    "fix_issue",
    "issue_id",
    "read_history",
    "record_scan",
    "register_checker",
    "restore_issue",
    "scan",
]
