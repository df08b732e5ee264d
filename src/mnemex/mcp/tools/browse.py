"""Read tools: find your way around before searching or reading (cheap, index only)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from mnemex.mcp.params import Kind, MaxTokens, Offset, PagePath
from mnemex.mcp.registry import Ctx, state_of, tool
from mnemex.mcp.state import DEFAULT_MAX_TOKENS
from mnemex.retrieve.catalogue import (
    domain_index,
    recent_changes,
    served_backlinks,
    served_connected,
    served_overview,
    tag_list,
)
from mnemex.retrieve.catalogue import (
    list_domains as catalogue_domains,
)


@tool(title="List domains and projects", idempotent=True, read=True)
def list_domains(ctx: Ctx) -> dict[str, Any]:
    """The brain's domains and projects, with note counts: call it first.

    Example: list_domains()
    """
    state = state_of(ctx)
    return catalogue_domains(state.fresh(), state.privacy)


@tool(title="A domain's catalogue", idempotent=True, read=True)
def get_index(
    domain: Annotated[
        str, Field(min_length=1, max_length=80, description="A domain (list_domains).")
    ],
    ctx: Ctx,
    offset: Offset = 0,
    max_tokens: MaxTokens = DEFAULT_MAX_TOKENS,
) -> dict[str, Any]:
    """Every page of one domain (path, title, type), to browse; for a question, search.

    Example: get_index(domain='general')
    """
    state = state_of(ctx)
    return domain_index(state.fresh(), state.privacy, domain, max_tokens, offset)


@tool(title="Tags", idempotent=True)
def get_tags(
    ctx: Ctx,
    prefix: Annotated[
        str | None,
        Field(max_length=200, description="Only tags starting with this."),
    ] = None,
    domain: Annotated[
        str | None, Field(max_length=80, description="Only notes of this domain.")
    ] = None,
    offset: Offset = 0,
    max_tokens: MaxTokens = DEFAULT_MAX_TOKENS,
) -> dict[str, Any]:
    """Tags with note counts, most used first: the values search's tags takes.

    Example: get_tags(prefix='ops')
    """
    state = state_of(ctx)
    return tag_list(state.fresh(), state.privacy, max_tokens, prefix, domain, offset)


@tool(title="Recent changes", idempotent=True, read=True)
def recent(
    ctx: Ctx,
    limit: Annotated[int, Field(ge=1, le=200, description="Most notes to list.")] = 20,
    since: Annotated[
        str | None,
        Field(max_length=40, description="Only changes since this date."),
    ] = None,
    kind: Annotated[list[Kind] | None, Field(description="Only these kinds.")] = None,
    max_tokens: MaxTokens = DEFAULT_MAX_TOKENS,
) -> dict[str, Any]:
    """Notes changed lately, newest first: to catch up. For a subject, search.

    Example: recent(since='2026-12-01', kind=['memories'])
    """
    state = state_of(ctx)
    return recent_changes(state.fresh(), state.privacy, max_tokens, limit, since, tuple(kind or ()))


@tool(title="Backlinks", idempotent=True, read=True)
def get_backlinks(
    path: PagePath,
    ctx: Ctx,
    offset: Offset = 0,
    max_tokens: MaxTokens = DEFAULT_MAX_TOKENS,
) -> dict[str, Any]:
    """Notes linking to a page, with the line. For the neighbourhood, get_connected_nodes.

    Example: get_backlinks(path='notes/deploy')
    """
    state = state_of(ctx)
    return served_backlinks(state.fresh(), state.privacy, path, max_tokens, offset)


@tool(title="Connected notes", idempotent=True)
def get_connected_nodes(
    path: PagePath,
    ctx: Ctx,
    depth: Annotated[int, Field(ge=1, le=3, description="Link hops, either direction.")] = 2,
    limit: Annotated[int, Field(ge=1, le=200, description="Most notes to list.")] = 30,
    max_tokens: MaxTokens = DEFAULT_MAX_TOKENS,
) -> dict[str, Any]:
    """Notes within depth link hops of a page, either way. For incoming links only,
    get_backlinks.

    Example: get_connected_nodes(path='notes/deploy', depth=1)
    """
    state = state_of(ctx)
    return served_connected(state.fresh(), state.privacy, path, max_tokens, depth, limit)


@tool(title="Graph overview", idempotent=True)
def get_graph_overview(
    ctx: Ctx,
    top: Annotated[int, Field(ge=1, le=100, description="Hubs and tags to list.")] = 20,
    max_tokens: MaxTokens = DEFAULT_MAX_TOKENS,
) -> dict[str, Any]:
    """The link graph in numbers (hubs, orphans, top tags): once, for a new brain. For
    its pages, get_index.

    Example: get_graph_overview(top=10)
    """
    state = state_of(ctx)
    return served_overview(state.fresh(), state.privacy, max_tokens, top)


__all__ = [
    "get_backlinks",
    "get_connected_nodes",
    "get_graph_overview",
    "get_index",
    "get_tags",
    "list_domains",
    "recent",
]
