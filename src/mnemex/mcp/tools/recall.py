"""Read tools: search the brain, then read the few pages that answer."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from mnemex.index.backend import Scope
from mnemex.mcp.params import Kind, MaxTokens, PagePath, Query
from mnemex.mcp.registry import Ctx, state_of, tool
from mnemex.mcp.state import DEFAULT_MAX_TOKENS, DEFAULT_PAGE_TOKENS
from mnemex.retrieve.served import served_page, served_search

_Names = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=200)]] | None, Field(max_length=20)
]


@tool(title="Search the brain", idempotent=True, read=True)
def search(
    query: Query,
    ctx: Ctx,
    kind: Annotated[
        list[Kind] | None,
        Field(description="Only these kinds (knowledge: wiki pages; notes: the user's)."),
    ] = None,
    domain: Annotated[str | None, Field(max_length=80, description="Only this domain.")] = None,
    project: Annotated[str | None, Field(max_length=80, description="Only this project.")] = None,
    folder: Annotated[
        str | None,
        Field(max_length=500, description="Only notes under this folder."),
    ] = None,
    tags: Annotated[_Names, Field(description="Only notes with all these tags.")] = None,
    since: Annotated[
        str | None, Field(max_length=40, description="Only notes since this date.")
    ] = None,
    until: Annotated[
        str | None, Field(max_length=40, description="Only notes until this date.")
    ] = None,
    k: Annotated[int, Field(ge=1, le=50, description="Most hits.")] = 10,
    max_tokens: MaxTokens = DEFAULT_MAX_TOKENS,
    as_of: Annotated[str | None, Field(max_length=10, description="Facts as of this day.")] = None,
    recorded_as_of: Annotated[
        str | None, Field(max_length=10, description="Facts as recorded by this day.")
    ] = None,
) -> dict[str, Any]:
    """Search the brain, a snippet per note: for any question; then read_page the hits
    that answer. For past sessions, search_memories.

    Example: search(query='why SQLite over Postgres?', k=5)
    """
    state = state_of(ctx)
    scope = Scope(
        kinds=tuple(kind or ()),
        domains=(domain,) if domain else (),
        projects=(project,) if project else (),
        folders=(folder,) if folder else (),
        tags=tuple(tags or ()),
        since=since,
        until=until,
    )
    return served_search(
        state.fresh(), state.privacy, query, scope, k, max_tokens, as_of, recorded_as_of
    )


@tool(title="Read a page", idempotent=True, read=True)
def read_page(
    path: PagePath,
    ctx: Ctx,
    section: Annotated[
        str | None,
        Field(max_length=300, description="Only the part under this heading."),
    ] = None,
    max_tokens: MaxTokens = DEFAULT_PAGE_TOKENS,
) -> dict[str, Any]:
    """A page (or one section) with its hash, after search found it; a long page is
    cut, listing its headings.

    Example: read_page(path='notes/deploy', section='Rollback')
    """
    state = state_of(ctx)
    return served_page(state.fresh(), state.privacy, path, max_tokens, section)


__all__ = ["read_page", "search"]
