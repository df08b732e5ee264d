"""Fact tools: what the brain holds about a subject as of a day, and recording a fact.

An agent's fact is the agent's (provenance ``agent``: a guess that never changes a
person's or a project's value) unless it passes the person's own words with
``said_by_user``. Facts are served as evidence to test, with ``framing`` saying so.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from mnemex.facts.consolidate import apply_plan, plan_consolidation
from mnemex.facts.record import add_fact
from mnemex.facts.serve import facts_about
from mnemex.llm import load_model
from mnemex.mcp.params import PlanId
from mnemex.mcp.registry import Ctx, state_of, tool
from mnemex.text.dates import iso_day

_Day = Annotated[str | None, Field(max_length=10, description="YYYY-MM-DD.")]


@tool(title="Get facts", idempotent=True, read=True)
def get_facts(
    subject: Annotated[str, Field(min_length=1, max_length=200, description="Name or alias.")],
    ctx: Ctx,
    as_of: _Day = None,
    recorded_as_of: _Day = None,
) -> dict[str, Any]:
    """A person's or project's facts on a day (default today), with dates and sources.

    Example: get_facts(subject='Priya', as_of='2026-02-01')
    """
    state = state_of(ctx)
    return facts_about(
        state.fresh(),
        subject,
        as_of=iso_day(as_of, "as_of"),
        recorded_as_of=iso_day(recorded_as_of, "recorded_as_of"),
        include_private=state.privacy.included,
    )


@tool(title="Record a fact", writes=True)
def record_fact(
    text: Annotated[str, Field(min_length=1, max_length=1000, description="One statement.")],
    ctx: Ctx,
    said_by_user: Annotated[bool, Field(description="The user's own words, verbatim.")] = False,
) -> dict[str, Any]:
    """Record a fact (job, home, role, tool, preference, project setting); a guess
    unless said_by_user.

    Example: record_fact(text='Priya is on leave until March.')
    """
    state = state_of(ctx)
    done = add_fact(state.brain, text, provenance="person" if said_by_user else "agent")
    state.wrote()
    return done.to_dict()


@tool(title="Consolidate", writes=True, destructive=True)
def consolidate(ctx: Ctx, plan_id: PlanId = None) -> dict[str, Any]:
    """Learn facts from new notes; the user approves the plan.

    Example: consolidate()
    """
    state = state_of(ctx)
    model = load_model(state.brain.vault)
    if plan_id is None:
        return plan_consolidation(state.brain, model=model).to_dict()
    done = apply_plan(state.brain, plan_id, model=model)
    state.wrote()
    return done.to_dict()


__all__ = ["consolidate", "get_facts", "record_fact"]
