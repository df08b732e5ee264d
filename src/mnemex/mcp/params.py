"""Argument types shared by the tools: names, limits and descriptions the model reads."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from mnemex.mcp.state import MAX_TOKENS_CEILING
from mnemex.pages import MAX_PAGE_CHARS

PagePath = Annotated[
    str,
    Field(
        min_length=1,
        max_length=1000,
        description="Vault-relative path of the page; .md is optional "
        "(e.g. wiki/general/entities/ada-lovelace).",
    ),
]
Content = Annotated[
    str,
    Field(
        max_length=MAX_PAGE_CHARS,
        description="Markdown text. May start with YAML frontmatter between --- lines.",
    ),
]
Query = Annotated[
    str,
    Field(
        min_length=1,
        max_length=2000,
        description="A question or keywords in plain language.",
    ),
]
PlanId = Annotated[
    str | None,
    Field(
        max_length=64,
        description="Leave empty to get the plan; pass the plan_id it returned to apply it.",
    ),
]
Name = Annotated[str, Field(min_length=1, max_length=80, pattern=r"^[a-z0-9][a-z0-9-]*$")]
Kind = Literal["knowledge", "notes", "memories", "state", "foundations", "facts", "health"]
Offset = Annotated[int, Field(ge=0, le=1_000_000, description="Skip this many items (paging).")]


MaxTokens = Annotated[
    int,
    Field(
        ge=50,
        le=MAX_TOKENS_CEILING,
        description="Budget for the whole answer, in tokens; what does not fit is left out "
        "and the answer says how to get it.",
    ),
]


__all__ = ["Content", "Kind", "MaxTokens", "Name", "Offset", "PagePath", "PlanId", "Query"]
