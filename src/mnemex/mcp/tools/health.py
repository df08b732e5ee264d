"""Health tools: scan the brain for problems, fix one with a previewed plan, dismiss one.

Issues in private domains or projects this server does not serve are left out
of the scan and cannot be fixed or dismissed through it.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from mnemex.errors import VaultError
from mnemex.health import KINDS, HealthReport, dismiss_issue, fix_issue, scan
from mnemex.health.ids import Kind, kind_of
from mnemex.mcp.params import PlanId
from mnemex.mcp.registry import Ctx, state_of, tool
from mnemex.mcp.state import ServerState

_IssueId = Annotated[
    str,
    Field(
        pattern=r"^[a-z_]+-[0-9a-f]{12}$",
        description="An issue id from scan_health, e.g. broken_links-0123456789ab.",
    ),
]


def _visible(state: ServerState, report: HealthReport) -> HealthReport:
    hides = state.privacy.hides_path
    for kind, issues in report.issues.items():
        report.issues[kind] = [i for i in issues if not any(hides(f) for f in i.files)]
    return report


def _served_issue_report(state: ServerState, issue_id: str) -> HealthReport:
    kind = kind_of(issue_id)
    if kind is None:
        raise VaultError(f"{issue_id!r} is not a health issue id")
    brain = state.brain
    report = _visible(
        state, scan(brain.vault, brain.backend, kinds=(kind,), include_dismissed=True)
    )
    if report.find(issue_id) is None:
        raise VaultError(
            f"no current issue {issue_id} (fixed already, or not served here); call scan_health"
        )
    return report


@tool(title="Scan the brain's health")
def scan_health(
    ctx: Ctx,
    kinds: Annotated[
        list[Kind] | None, Field(description="Only these kinds; default: all eight.")
    ] = None,
    max_per_kind: Annotated[
        int, Field(ge=1, le=500, description="List at most this many issues per kind.")
    ] = 50,
) -> dict[str, Any]:
    """Find what quietly went wrong in the brain: broken links (with a suggested
    target), orphan pages, duplicate pages, stale pages and handoffs, missing
    backlinks, broken frontmatter, empty pages, and an index out of step with
    the files. Deterministic, no model, changes nothing.

    Each issue has a stable id, its files, what is wrong and often a
    suggestion. To act on one, call fix_health_issue with its id (a plan comes
    first) or dismiss_health_issue if it is not a problem. counts and score
    cover every issue even when the lists are cut to max_per_kind.

    Example: scan_health(kinds=["broken_links", "duplicates"])
    """
    state = state_of(ctx)
    brain = state.brain
    report = _visible(state, scan(brain.vault, brain.backend, kinds=tuple(kinds or KINDS)))
    data = report.to_dict()
    for kind in KINDS:
        if len(data[kind]) > max_per_kind:
            data[kind] = data[kind][:max_per_kind]
            data.setdefault("truncated", {})[kind] = report.counts[kind]
    return data


@tool(title="Fix a health issue", writes=True, destructive=True)
def fix_health_issue(
    id: _IssueId,
    ctx: Ctx,
    plan_id: PlanId = None,
    allow_loss: Annotated[
        bool, Field(description="Allow a fix that deletes half the pages or more.")
    ] = False,
) -> dict[str, Any]:
    """Fix one issue from scan_health. Two steps: call without plan_id to get the
    plan (files that change with a diff, links re-pointed, files deleted;
    nothing is changed), show it to the user, then call again with its plan_id
    to apply it as one git commit. A plan whose files changed since is refused.

    Fixes: a broken link is re-pointed to its suggestion; duplicates are merged
    (links moved to the kept page, the other's names and content kept in it);
    a missing backlink is added; an empty page is deleted; index drift is
    synced. Stale pages and broken frontmatter have no automatic fix.

    Example: fix_health_issue(id="broken_links-0123456789ab"), then
    fix_health_issue(id="broken_links-0123456789ab", plan_id="3f9c…")
    """
    state = state_of(ctx)
    _served_issue_report(state, id)
    result = fix_issue(state.brain, id, plan_id, allow_loss=allow_loss)
    if plan_id is not None:
        state.wrote()
    return result


@tool(title="Dismiss a health issue", writes=True, idempotent=True)
def dismiss_health_issue(
    id: _IssueId,
    ctx: Ctx,
    reason: Annotated[
        str | None, Field(max_length=500, description="Why it is not a problem.")
    ] = None,
) -> dict[str, Any]:
    """Mark an issue from scan_health as not a problem, so later scans do not
    report it (recorded in the vault's health/ folder, synced to every machine).
    Use it when the user says the issue is intended, e.g. two pages that only
    share a name.

    Example: dismiss_health_issue(id="duplicates-5e0c1a9b2d44", reason="different people")
    """
    state = state_of(ctx)
    report = _served_issue_report(state, id)
    return dismiss_issue(state.brain.vault, report, id, reason)


__all__ = ["dismiss_health_issue", "fix_health_issue", "scan_health"]
