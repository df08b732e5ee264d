"""Foundation tools: read a project's canonical documents, and propose a change as a draft.

No tool here writes a foundation: ``propose_foundation`` writes a draft under
``foundations/<project>/drafts/``, which only a person approves (``mnemex
foundation approve``). Foundations are served byte for byte, framed as data.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from mnemex.foundations.store import FRAMING, MAX_FOUNDATION_BYTES, read_foundation
from mnemex.foundations.store import list_foundations as list_docs
from mnemex.foundations.store import propose_foundation as propose
from mnemex.mcp.params import MaxTokens, Name
from mnemex.mcp.registry import Ctx, state_of, tool
from mnemex.mcp.state import DEFAULT_PAGE_TOKENS
from mnemex.retrieve.budget import cut_with_note
from mnemex.vault.machine import machine_name

_Project = Annotated[Name, Field(description="Project slug.")]
_Slug = Annotated[Name, Field(description="Foundation slug.")]


@tool(title="List foundations")
def list_foundations(project: _Project, ctx: Ctx) -> dict[str, Any]:
    """A project's foundations (canonical documents: architecture, conventions...).
    Read those your task touches with get_foundation.

    Example: list_foundations(project='mnemex')
    """
    state = state_of(ctx)
    state.privacy.check_names([project], "project")
    docs = list_docs(state.brain.vault, project)
    return {"project": project, "foundations": docs, "total": len(docs), "untrusted": FRAMING}


@tool(title="Read a foundation")
def get_foundation(
    project: _Project,
    slug: _Slug,
    ctx: Ctx,
    max_tokens: MaxTokens = DEFAULT_PAGE_TOKENS,
) -> dict[str, Any]:
    """One foundation document with its sha256 (for your handoff's foundations_read).
    To suggest a change, propose_foundation.

    Example: get_foundation(project='mnemex', slug='architecture')
    """
    state = state_of(ctx)
    state.privacy.check_names([project], "project")
    doc = read_foundation(state.brain.vault, project, slug)
    content, cut = cut_with_note(
        doc["content"], max(50, max_tokens - 150), then=" to read it whole"
    )
    doc.update(cut)
    doc["content"] = content
    return doc


@tool(title="Propose a foundation change", writes=True, idempotent=True)
def propose_foundation(
    project: _Project,
    slug: _Slug,
    content: Annotated[
        str,
        Field(
            min_length=1,
            max_length=MAX_FOUNDATION_BYTES,
            description="The whole proposed document.",
        ),
    ],
    reason: Annotated[
        str,
        Field(
            min_length=1,
            max_length=2000,
            description="Why, for the reviewer.",
        ),
    ],
    ctx: Ctx,
) -> dict[str, Any]:
    """Propose a foundation change: a draft a person approves (`mnemex foundation
    approve`); tell the user.

    Example: propose_foundation(project='mnemex', slug='conventions', content='...', reason='...')
    """
    state = state_of(ctx)
    state.privacy.check_names([project], "project")
    vault = state.brain.vault
    params = ctx.request_context.session.client_params
    harness = params.client_info.name if params is not None and params.client_info else "mcp"
    return propose(vault, project, slug, content, reason, f"{harness}@{machine_name(vault)}")


__all__ = ["get_foundation", "list_foundations", "propose_foundation"]
