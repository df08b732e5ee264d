"""Memory tools: search past sessions' digests and remembered notes, read one, forget one.

Private projects and domains are refused unless the server was started serving them.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from mnemex.errors import VaultError
from mnemex.mcp.params import MaxTokens, Name, PlanId, Query
from mnemex.mcp.registry import Ctx, state_of, tool
from mnemex.mcp.state import DEFAULT_MAX_TOKENS, DEFAULT_PAGE_TOKENS
from mnemex.memories.forget import apply_forget, plan_forget
from mnemex.memories.recall import get_digest as digest_of
from mnemex.memories.recall import memory_path, paths_for_session
from mnemex.memories.recall import search_memories as search_memory_notes

_MemoryPath = Annotated[
    str | None,
    Field(
        min_length=1,
        max_length=1000,
        description="Memory path from search_memories.",
    ),
]
_Session = Annotated[
    str | None,
    Field(
        min_length=1,
        max_length=200,
        description="Session id from search_memories.",
    ),
]


@tool(title="Search memories", idempotent=True, read=True)
def search_memories(
    query: Query,
    ctx: Ctx,
    project: Annotated[Name | None, Field(description="Only this project.")] = None,
    domain: Annotated[Name | None, Field(description="Only this domain.")] = None,
    tags: Annotated[
        list[Annotated[str, Field(min_length=1, max_length=100)]] | None,
        Field(max_length=20, description="Only memories with all these tags."),
    ] = None,
    since: Annotated[
        str | None,
        Field(max_length=40, description="Only memories since this date."),
    ] = None,
    until: Annotated[
        str | None, Field(max_length=40, description="Only memories until this date.")
    ] = None,
    k: Annotated[int, Field(ge=1, le=50, description="Most hits.")] = 10,
    max_tokens: MaxTokens = DEFAULT_MAX_TOKENS,
) -> dict[str, Any]:
    """Search past sessions and remembered notes, for earlier work. For knowledge,
    search; to read a hit whole, get_digest.

    Example: search_memories(query='what failed with sqlite-icu?')
    """
    state = state_of(ctx)
    return search_memory_notes(
        state.fresh(),
        query,
        project=project,
        domain=domain,
        tags=tuple(tags or ()),
        since=since,
        until=until,
        k=k,
        max_tokens=max_tokens,
        privacy=state.privacy,
    )


@tool(title="Read a digest", idempotent=True, read=True)
def get_digest(
    ctx: Ctx,
    path: _MemoryPath = None,
    session: _Session = None,
    max_tokens: MaxTokens = DEFAULT_PAGE_TOKENS,
) -> dict[str, Any]:
    """One whole memory (a session digest or remembered note) search_memories found.

    Example: get_digest(session='5d1e2f9a-7c41')
    """
    state = state_of(ctx)
    return digest_of(state.fresh(), path, session, max_tokens, privacy=state.privacy)


@tool(title="Forget a memory", writes=True, destructive=True)
def forget_memory(
    ctx: Ctx,
    path: _MemoryPath = None,
    session: _Session = None,
    plan_id: PlanId = None,
) -> dict[str, Any]:
    """Delete a memory or a session's memories (wrong, or a secret), previewed first.

    Example: forget_memory(session='5d1e2f9a-7c41')
    """
    state = state_of(ctx)
    brain = state.fresh()
    if (path is None) == (session is None):
        raise VaultError("give either path or session (not both)")
    paths = (
        [memory_path(brain, path)] if path is not None else paths_for_session(brain, session or "")
    )
    for rel in paths:
        note = brain.backend.note_by_path(rel)
        project = str((note.frontmatter.get("project") if note else None) or "") or None
        if state.privacy.hides_path(rel, project):
            raise VaultError(f"{rel} is in a private project that this server does not serve")
    if plan_id is None:
        return plan_forget(brain, path, session)
    result = apply_forget(brain, plan_id, path, session)
    state.wrote()
    return result


__all__ = ["forget_memory", "get_digest", "search_memories"]
