"""Ingest tools: turn a text or a file inside the vault into linked wiki pages, and read back.

Ingesting is previewed first: the call without ``plan_id`` returns the plan
and its ``plan_id``; the same call with it applies exactly that plan as one git
commit. ``ingest_file`` reads only inside the vault (``inbox/``), never a path
outside it. Source texts and summaries are served framed as data. The tools never call
a model: they extract offline, or reuse a model extraction the CLI cached for the same
bytes (:func:`mnemex.ingest.run.cached_extractor`).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from mnemex.ingest.run import get_source as read_source_text
from mnemex.ingest.run import get_summary as read_summary
from mnemex.ingest.run import mcp_ingest_file, mcp_ingest_text, pick_domain
from mnemex.mcp.params import MaxTokens, PlanId
from mnemex.mcp.registry import Ctx, state_of, tool
from mnemex.mcp.state import DEFAULT_PAGE_TOKENS

#: The largest text ``ingest_text`` takes (a long document belongs in inbox/ as a file).
MAX_INGEST_CHARS = 400_000

_Domain = Annotated[
    str | None,
    Field(
        max_length=80,
        description="The knowledge domain to write into (default: the vault's first domain).",
    ),
]
_Source = Annotated[
    str,
    Field(
        min_length=1,
        max_length=1000,
        description="A summary page's path (wiki/<domain>/summaries/<slug>) or the path of the "
        "kept original (wiki/<domain>/sources/<file>).",
    ),
]


@tool(title="Ingest a text", writes=True)
def ingest_text(
    text: Annotated[
        str,
        Field(
            min_length=1,
            max_length=MAX_INGEST_CHARS,
            description="The document's text (markdown or plain).",
        ),
    ],
    title: Annotated[str, Field(min_length=1, max_length=300, description="Its title.")],
    ctx: Ctx,
    domain: _Domain = None,
    plan_id: PlanId = None,
) -> dict[str, Any]:
    """Ingest a document's text into the wiki: a summary page for it, and entity and
    concept pages for the people, tools and ideas in it, merged into the pages that
    already exist (nothing is duplicated or overwritten; every fact cites the source).

    First call without plan_id: nothing is written; you get the plan (pages to
    create, pages to update with diffs, possible duplicates) and a plan_id. Call
    again with the same arguments and that plan_id to apply it. Use ingest_file
    for a file the user dropped into the vault's inbox/.

    Example: ingest_text(text="KestrelDB is ...", title="KestrelDB overview")
    then ingest_text(text="KestrelDB is ...", title="KestrelDB overview", plan_id="3fa2...")
    """
    state = state_of(ctx)
    brain = state.brain
    state.privacy.check_names([pick_domain(brain.vault, domain)], "domain")
    result = mcp_ingest_text(brain, text, title, domain, plan_id)
    if plan_id is not None:
        state.fresh()
    return result


@tool(title="Ingest a file from the vault", writes=True)
def ingest_file(
    path: Annotated[
        str,
        Field(
            min_length=1,
            max_length=1000,
            description="Vault-relative path of a .md, .txt, .html or .pdf file (inbox/x.pdf).",
        ),
    ],
    ctx: Ctx,
    domain: _Domain = None,
    plan_id: PlanId = None,
) -> dict[str, Any]:
    """Ingest a source file that is inside the vault (drop it into inbox/ first) into
    the wiki, like ingest_text. Paths outside the vault (absolute, ~, ..) are refused.

    First call without plan_id returns the plan and its plan_id; call again with it
    to apply. The original is kept under wiki/<domain>/sources/; a file in inbox/ is
    moved there (removed from the inbox in the same commit, listed under "move"),
    also when the same bytes were ingested before.

    Example: ingest_file(path="inbox/kestrel-paper.pdf") then
    ingest_file(path="inbox/kestrel-paper.pdf", plan_id="3fa2...")
    """
    state = state_of(ctx)
    brain = state.brain
    state.privacy.check_names([pick_domain(brain.vault, domain)], "domain")
    result = mcp_ingest_file(brain, path, domain, plan_id)
    if plan_id is not None:
        state.fresh()
    return result


@tool(title="Read an ingested source", idempotent=True)
def get_source(
    source: _Source, ctx: Ctx, max_tokens: MaxTokens = DEFAULT_PAGE_TOKENS
) -> dict[str, Any]:
    """Read the text of an ingested source (the original document, as extracted),
    to check what a wiki fact's citation actually says. Cut to max_tokens.

    Use get_summary for the compiled summary page instead of the full text.

    Example: get_source(source="wiki/general/summaries/kestreldb-overview")
    """
    state = state_of(ctx)
    return read_source_text(state.fresh(), source, max_tokens)


@tool(title="Read a source's summary", idempotent=True)
def get_summary(
    source: _Source, ctx: Ctx, max_tokens: MaxTokens = DEFAULT_PAGE_TOKENS
) -> dict[str, Any]:
    """Read the summary page of an ingested source: its summary, key points and
    links to every entity and concept page it touched.

    Example: get_summary(source="wiki/general/sources/kestrel-paper.pdf")
    """
    state = state_of(ctx)
    return read_summary(state.fresh(), source, max_tokens)


__all__ = ["get_source", "get_summary", "ingest_file", "ingest_text"]
