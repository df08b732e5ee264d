"""The health report as an interface serves it (the MCP tools, the web page): without the
issues of private domains or projects the interface does not serve."""

from __future__ import annotations

from collections.abc import Sequence

from mnemex.brain import Brain
from mnemex.errors import VaultError
from mnemex.health.ids import KINDS, kind_of
from mnemex.health.scan import HealthReport, scan
from mnemex.retrieve.privacy import Privacy


def visible_report(
    brain: Brain,
    privacy: Privacy,
    kinds: Sequence[str] = KINDS,
    *,
    include_dismissed: bool = False,
) -> HealthReport:
    """A scan of ``kinds`` less every issue touching a file ``privacy`` hides."""
    report = scan(
        brain.vault, brain.backend, kinds=tuple(kinds), include_dismissed=include_dismissed
    )
    for kind, issues in report.issues.items():
        report.issues[kind] = [i for i in issues if not any(privacy.hides_path(f) for f in i.files)]
    return report


def served_issue_report(brain: Brain, privacy: Privacy, issue_id: str) -> HealthReport:
    """The visible report of ``issue_id``'s kind, dismissed issues included.

    Raises:
        VaultError: not an issue id, or no such issue served here.
    """
    kind = kind_of(issue_id)
    if kind is None:
        raise VaultError(f"{issue_id!r} is not a health issue id")
    report = visible_report(brain, privacy, (kind,), include_dismissed=True)
    if report.find(issue_id) is None:
        raise VaultError(f"no current issue {issue_id} (fixed already, or not served here)")
    return report


__all__ = ["served_issue_report", "visible_report"]
