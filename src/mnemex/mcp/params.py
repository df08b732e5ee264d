"""Argument types shared by the tools: names, limits and descriptions the model reads."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from mnemex.mcp.arguments import UNLISTED
from mnemex.mcp.state import MAX_TOKENS_CEILING
from mnemex.pages.edit import MAX_PAGE_CHARS

PagePath = Annotated[
    str,
    Field(
        min_length=1,
        max_length=1000,
        description="Page path (.md optional).",
    ),
]
Content = Annotated[
    str,
    Field(
        max_length=MAX_PAGE_CHARS,
        description="Markdown, optionally with YAML frontmatter.",
    ),
]
Query = Annotated[
    str,
    Field(
        min_length=1,
        max_length=2000,
        description="A question or keywords.",
    ),
]
PlanId = Annotated[
    str | None,
    Field(
        max_length=64,
        description="Omit for a plan; then pass its plan_id.",
    ),
]
Name = Annotated[str, Field(min_length=1, max_length=80, pattern=r"^[a-z0-9][a-z0-9-]*$")]
Kind = Literal["knowledge", "notes", "memories", "state", "foundations", "facts", "health"]
Offset = Annotated[
    int, Field(ge=0, description="Items to skip.", json_schema_extra={UNLISTED: ["minimum"]})
]


MaxTokens = Annotated[
    int,
    Field(
        ge=50,
        le=MAX_TOKENS_CEILING,
        description="Token budget.",
        # A guard, not advice: the range is enforced and explained when crossed.
        json_schema_extra={UNLISTED: ["minimum", "maximum"]},
    ),
]


__all__ = ["Content", "Kind", "MaxTokens", "Name", "Offset", "PagePath", "PlanId", "Query"]
