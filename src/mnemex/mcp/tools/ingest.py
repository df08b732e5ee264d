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
        description="Domain to write into (default: the first).",
    ),
]
_Source = Annotated[
    str,
    Field(
        min_length=1,
        max_length=1000,
        description="Path of its summary page or kept original.",
    ),
]


@tool(title="Ingest a text", writes=True)
def ingest_text(
    text: Annotated[
        str,
        Field(
            min_length=1,
            max_length=MAX_INGEST_CHARS,
            description="The document (markdown or plain text).",
        ),
    ],
    title: Annotated[str, Field(min_length=1, max_length=300, description="Its title.")],
    ctx: Ctx,
    domain: _Domain = None,
    plan_id: PlanId = None,
) -> dict[str, Any]:
    """Turn a text into wiki pages (a summary, entity and concept pages), previewed
    first. For a file in the vault, ingest_file.

    Example: ingest_text(text='KestrelDB is...', title='KestrelDB overview')
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
            description="A .md, .txt, .rst, .html or .pdf file in the vault.",
        ),
    ],
    ctx: Ctx,
    domain: _Domain = None,
    plan_id: PlanId = None,
) -> dict[str, Any]:
    """Ingest a file in the vault (inbox/) like ingest_text; the original moves to
    wiki/<domain>/sources/.

    Example: ingest_file(path='inbox/kestrel.pdf')
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
    """An ingested source's text, to check a citation. For its summary, get_summary.

    Example: get_source(source='wiki/general/summaries/kestreldb')
    """
    state = state_of(ctx)
    return read_source_text(state.fresh(), source, max_tokens)


@tool(title="Read a source's summary", idempotent=True)
def get_summary(
    source: _Source, ctx: Ctx, max_tokens: MaxTokens = DEFAULT_PAGE_TOKENS
) -> dict[str, Any]:
    """An ingested source's summary page, linking the pages it touched. For its text,
    get_source.

    Example: get_summary(source='wiki/general/sources/kestrel.pdf')
    """
    state = state_of(ctx)
    return read_summary(state.fresh(), source, max_tokens)


__all__ = ["get_source", "get_summary", "ingest_file", "ingest_text"]
