"""Health tools: scan the brain for problems, fix one with a previewed plan, dismiss one.

Issues in private domains or projects this server does not serve are left out
of the scan and cannot be fixed or dismissed through it.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from mnemex.health import KINDS, dismiss_issue, fix_issue
from mnemex.health.ids import Kind
from mnemex.health.served import served_issue_report, visible_report
from mnemex.mcp.params import PlanId
from mnemex.mcp.registry import Ctx, state_of, tool

_IssueId = Annotated[
    str,
    Field(
        pattern=r"^[a-z_]+-[0-9a-f]{12}$",
        description="An issue id from scan_health.",
    ),
]


@tool(title="Scan the brain's health")
def scan_health(
    ctx: Ctx,
    kinds: Annotated[list[Kind] | None, Field(description="Only these kinds.")] = None,
    max_per_kind: Annotated[
        int, Field(ge=1, le=500, description="Most issues listed per kind.")
    ] = 50,
) -> dict[str, Any]:
    """Find what went wrong in the brain (broken links, duplicates, orphans...); changes
    nothing. Then fix_health_issue or dismiss_health_issue.

    Example: scan_health(kinds=['broken_links'])
    """
    state = state_of(ctx)
    brain = state.brain
    report = visible_report(brain, state.privacy, kinds or KINDS)
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
        bool, Field(description="Allow deleting half the pages or more.")
    ] = False,
) -> dict[str, Any]:
    """Fix a scan_health issue; show the user its plan before applying it. If it is no
    problem, dismiss_health_issue.

    Example: fix_health_issue(id='broken_links-0123456789ab')
    """
    state = state_of(ctx)
    served_issue_report(state.brain, state.privacy, id)
    result = fix_issue(state.brain, id, plan_id, allow_loss=allow_loss)
    if plan_id is not None:
        state.wrote()
    return result


@tool(title="Dismiss a health issue", writes=True, idempotent=True)
def dismiss_health_issue(
    id: _IssueId,
    ctx: Ctx,
    reason: Annotated[
        str | None, Field(max_length=500, description="Why it is no problem.")
    ] = None,
) -> dict[str, Any]:
    """Mark a scan_health issue as intended, so scans skip it. To repair it,
    fix_health_issue.

    Example: dismiss_health_issue(id='duplicates-5e0c1a9b2d44')
    """
    state = state_of(ctx)
    report = served_issue_report(state.brain, state.privacy, id)
    return dismiss_issue(state.brain.vault, report, id, reason)


__all__ = ["dismiss_health_issue", "fix_health_issue", "scan_health"]
