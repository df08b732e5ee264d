"""Read tools: find your way around before searching or reading (cheap, index only)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from mnemex.catalogue import (
    domain_index,
    recent_changes,
    served_backlinks,
    served_connected,
    served_overview,
    tag_list,
)
from mnemex.catalogue import (
    list_domains as catalogue_domains,
)
from mnemex.mcp.params import Kind, MaxTokens, Offset, PagePath
from mnemex.mcp.registry import Ctx, state_of, tool
from mnemex.mcp.state import DEFAULT_MAX_TOKENS


@tool(title="List domains and projects", idempotent=True)
def list_domains(ctx: Ctx) -> dict[str, Any]:
    """List the brain's knowledge domains and projects, with how many notes each holds.

    Start here in a new session: it is the cheapest call and tells you which
    `domain` to pass to get_index or search, and which `project` to remember into.
    Private domains and projects are not listed unless the server serves them.

    Example: list_domains() -> {"domains": [{"name": "general", "pages": 42}], "projects": [...]}
    """
    state = state_of(ctx)
    return catalogue_domains(state.fresh(), state.privacy)


@tool(title="A domain's catalogue", idempotent=True)
def get_index(
    domain: Annotated[
        str, Field(min_length=1, max_length=80, description="A domain from list_domains.")
    ],
    ctx: Ctx,
    offset: Offset = 0,
    max_tokens: MaxTokens = DEFAULT_MAX_TOKENS,
) -> dict[str, Any]:
    """List every page of one knowledge domain (path, title, type), entities first.

    Use it to see what the brain knows about a subject area before reading; use
    search instead when you have a question rather than a place to browse.

    Example: get_index(domain="general") -> {"pages": [{"path":
    "wiki/general/entities/ada-lovelace.md", "title": "Ada Lovelace", "type": "entity"}, ...],
    "total": 42}
    """
    state = state_of(ctx)
    return domain_index(state.fresh(), state.privacy, domain, max_tokens, offset)


@tool(title="Tags", idempotent=True)
def get_tags(
    ctx: Ctx,
    prefix: Annotated[
        str | None,
        Field(max_length=200, description="Only tags starting with this (e.g. 'project/')."),
    ] = None,
    domain: Annotated[
        str | None, Field(max_length=80, description="Only notes of this domain.")
    ] = None,
    offset: Offset = 0,
    max_tokens: MaxTokens = DEFAULT_MAX_TOKENS,
) -> dict[str, Any]:
    """List tags with how many notes carry each, most used first.

    Use it to find the vocabulary to filter search by (search's `tags`).

    Example: get_tags(prefix="ops") -> {"tags": [{"tag": "ops", "notes": 12},
    {"tag": "ops/deploy", "notes": 3}]}
    """
    state = state_of(ctx)
    return tag_list(state.fresh(), state.privacy, max_tokens, prefix, domain, offset)


@tool(title="Recent changes", idempotent=True)
def recent(
    ctx: Ctx,
    limit: Annotated[int, Field(ge=1, le=200, description="At most this many notes.")] = 20,
    since: Annotated[
        str | None,
        Field(max_length=40, description="Only changes on or after this date (2026-12-01)."),
    ] = None,
    kind: Annotated[list[Kind] | None, Field(description="Only these kinds of note.")] = None,
    max_tokens: MaxTokens = DEFAULT_MAX_TOKENS,
) -> dict[str, Any]:
    """List the notes changed most lately, newest first (path, title, kind, when).

    Use it at the start of a session to catch up with what you, other agents or
    the user changed; use search for a subject, not for recency.

    Example: recent(since="2026-12-01", kind=["memories"])
    """
    state = state_of(ctx)
    return recent_changes(state.fresh(), state.privacy, max_tokens, limit, since, tuple(kind or ()))


@tool(title="Backlinks", idempotent=True)
def get_backlinks(
    path: PagePath,
    ctx: Ctx,
    offset: Offset = 0,
    max_tokens: MaxTokens = DEFAULT_MAX_TOKENS,
) -> dict[str, Any]:
    """List every note that links to a page, with the line and the link as written.

    Use it to see how a page is used, or what will break before you delete or
    move it; use get_connected_nodes for the wider neighbourhood.

    Example: get_backlinks(path="wiki/general/entities/ada-lovelace")
    """
    state = state_of(ctx)
    return served_backlinks(state.fresh(), state.privacy, path, max_tokens, offset)


@tool(title="Connected notes", idempotent=True)
def get_connected_nodes(
    path: PagePath,
    ctx: Ctx,
    depth: Annotated[
        int, Field(ge=1, le=3, description="Link hops to follow (either direction).")
    ] = 2,
    limit: Annotated[int, Field(ge=1, le=200, description="At most this many notes.")] = 30,
    max_tokens: MaxTokens = DEFAULT_MAX_TOKENS,
) -> dict[str, Any]:
    """List the notes within `depth` link hops of a page, nearest first, with the direction.

    Use it to explore around a page you found (what it links to, what links to
    it, and one hop further); use get_backlinks for incoming links only.

    Example: get_connected_nodes(path="wiki/general/concepts/sqlite-fts5", depth=1)
    """
    state = state_of(ctx)
    return served_connected(state.fresh(), state.privacy, path, max_tokens, depth, limit)


@tool(title="Graph overview", idempotent=True)
def get_graph_overview(
    ctx: Ctx,
    top: Annotated[int, Field(ge=1, le=100, description="How many hubs and tags to list.")] = 20,
    max_tokens: MaxTokens = DEFAULT_MAX_TOKENS,
) -> dict[str, Any]:
    """Summarise the link graph: note and link counts, pages by type, the most linked hubs,
    orphans (notes nothing links to or from) and the top tags.

    Use it once to get a feel for a brain you do not know; use get_index for a list of pages.

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
