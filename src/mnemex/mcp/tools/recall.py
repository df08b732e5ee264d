"""Read tools: search the brain, then read the few pages that answer."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from mnemex.index.backend import Scope
from mnemex.mcp.params import Kind, MaxTokens, PagePath, Query
from mnemex.mcp.registry import Ctx, state_of, tool
from mnemex.mcp.state import DEFAULT_MAX_TOKENS, DEFAULT_PAGE_TOKENS
from mnemex.recall import served_page, served_search

_Names = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=200)]] | None, Field(max_length=20)
]


@tool(title="Search the brain", idempotent=True)
def search(
    query: Query,
    ctx: Ctx,
    kind: Annotated[
        list[Kind] | None,
        Field(
            description="Only these kinds: knowledge (wiki pages), notes (the user's own), "
            "memories, state, foundations, facts, health."
        ),
    ] = None,
    domain: Annotated[
        str | None, Field(max_length=80, description="Only this knowledge domain.")
    ] = None,
    project: Annotated[str | None, Field(max_length=80, description="Only this project.")] = None,
    folder: Annotated[
        str | None,
        Field(max_length=500, description="Only notes under this vault-relative folder."),
    ] = None,
    tags: Annotated[
        _Names, Field(description="Only notes carrying every one of these tags.")
    ] = None,
    since: Annotated[
        str | None, Field(max_length=40, description="Only notes dated on or after (2026-01-31).")
    ] = None,
    until: Annotated[
        str | None, Field(max_length=40, description="Only notes dated on or before.")
    ] = None,
    k: Annotated[int, Field(ge=1, le=50, description="At most this many hits.")] = 10,
    max_tokens: MaxTokens = DEFAULT_MAX_TOKENS,
) -> dict[str, Any]:
    """Search the whole brain (keywords + meaning + links) and get compact hits: path,
    title, the best matching snippet and why it matched. One hit per note.

    Use it whenever you have a question; then read_page the one or two hits that
    answer it (hits are snippets, not whole pages). Narrow with kind, domain,
    project, folder, tags or dates when you know where the answer lives.

    Example: search(query="why did we pick SQLite over Postgres?",
    kind=["knowledge", "memories"], k=5)
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
    return served_search(state.fresh(), state.privacy, query, scope, k, max_tokens)


@tool(title="Read a page", idempotent=True)
def read_page(
    path: PagePath,
    ctx: Ctx,
    section: Annotated[
        str | None,
        Field(max_length=300, description="Only the part under this heading (case-insensitive)."),
    ] = None,
    max_tokens: MaxTokens = DEFAULT_PAGE_TOKENS,
) -> dict[str, Any]:
    """Read one page: its text (or one section), frontmatter, tags, links, and its `hash`.

    Use it after search or get_index found the page. Pass the returned `hash` as
    `expected_hash` to write_page when you replace the page, so a concurrent edit
    is caught. A long page is cut to max_tokens; the answer then lists its
    headings so you can read just the section you need.

    Example: read_page(path="wiki/general/entities/ada-lovelace", section="Key points")
    """
    state = state_of(ctx)
    return served_page(state.fresh(), state.privacy, path, max_tokens, section)


__all__ = ["read_page", "search"]
