"""Memory tools: search past sessions' digests and remembered notes, read one, forget one.

Private projects and domains are refused unless the server was started serving them.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from mnemex.errors import VaultError
from mnemex.forget import apply_forget, plan_forget
from mnemex.mcp.params import MaxTokens, Name, PlanId, Query
from mnemex.mcp.registry import Ctx, state_of, tool
from mnemex.mcp.state import DEFAULT_MAX_TOKENS, DEFAULT_PAGE_TOKENS
from mnemex.recall_memories import get_digest as digest_of
from mnemex.recall_memories import memory_path, paths_for_session
from mnemex.recall_memories import search_memories as search_memory_notes

_MemoryPath = Annotated[
    str | None,
    Field(
        min_length=1,
        max_length=1000,
        description="Vault path of the memory (memories/<project>/<YYYY-MM>/<file>.md), "
        "as search_memories returns it.",
    ),
]
_Session = Annotated[
    str | None,
    Field(
        min_length=1,
        max_length=200,
        description="The agent session id the memory records (search_memories shows it).",
    ),
]


@tool(title="Search memories", idempotent=True)
def search_memories(
    query: Query,
    ctx: Ctx,
    project: Annotated[Name | None, Field(description="Only this project's memories.")] = None,
    domain: Annotated[Name | None, Field(description="Only memories of this domain.")] = None,
    tags: Annotated[
        list[Annotated[str, Field(min_length=1, max_length=100)]] | None,
        Field(max_length=20, description="Only memories carrying every one of these tags."),
    ] = None,
    since: Annotated[
        str | None,
        Field(max_length=40, description="Only memories dated on or after (2026-11-01)."),
    ] = None,
    until: Annotated[
        str | None, Field(max_length=40, description="Only memories dated on or before.")
    ] = None,
    k: Annotated[int, Field(ge=1, le=50, description="At most this many hits.")] = 10,
    max_tokens: MaxTokens = DEFAULT_MAX_TOKENS,
) -> dict[str, Any]:
    """Search the memories of past agent sessions (session digests: the problem, how it
    was solved, decisions, dead ends, what was left open) and remembered notes. Each hit
    gives the session id, harness, date, importance and the bullet that matched.

    Use it instead of `search` when the question is about earlier work: "did we already
    solve X?", "what failed when we tried Y?", "what was left open in project Z?".
    Narrow with project, then domain, tags and dates; read a whole digest with get_digest.

    Example: search_memories(query="what failed when we tried sqlite-icu?", project="mnemex", k=5)
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


@tool(title="Read a digest", idempotent=True)
def get_digest(
    ctx: Ctx,
    path: _MemoryPath = None,
    session: _Session = None,
    max_tokens: MaxTokens = DEFAULT_PAGE_TOKENS,
) -> dict[str, Any]:
    """Read one whole memory: a session's digest (all its sections) or a remembered note,
    by its path or by the session id. Give exactly one of path and session.

    Use it after search_memories found the session you need; its hits are single bullets.

    Example: get_digest(session="5d1e2f9a-7c41-4b0e-9a55-0c2b61e8d3f4")
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
    """Forget a memory: delete a digest or remembered note (by path), or every memory of a
    session, together with its index entries, chunks, vectors and archived transcript.

    Two steps: call without plan_id to get a plan naming what goes (nothing is deleted),
    then call again with the same path or session and the plan's plan_id. A plan is
    refused if the memory changed in between. Use it when the user asks to forget
    something or a memory is wrong or holds a secret; the file stays in git history.

    Example: forget_memory(session="5d1e2f9a-…"), then
    forget_memory(session="5d1e2f9a-…", plan_id="3f9c…")
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
        project = str((note or {}).get("frontmatter", {}).get("project") or "") or None
        if state.privacy.hides_path(rel, project):
            raise VaultError(f"{rel} is in a private project that this server does not serve")
    if plan_id is None:
        return plan_forget(brain, path, session)
    result = apply_forget(brain, plan_id, path, session)
    state.wrote()
    return result


__all__ = ["forget_memory", "get_digest", "search_memories"]
