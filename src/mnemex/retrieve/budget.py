"""Token budgets for answers: take items in order until the budget is spent, and say so.

Every answer served to an agent is bounded, and an answer that was cut says
what was left out and how to get the rest, so recall never floods a context
window and never silently hides something.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from mnemex.text.tokens import estimate_tokens, trim_to_tokens

T = TypeVar("T")


def json_tokens(value: Any) -> int:
    """Estimated tokens of a value as it is served (compact JSON)."""
    return estimate_tokens(json.dumps(value, ensure_ascii=False, default=str))


@dataclass
class Budgeted:
    """The items that fit, and where the rest starts."""

    items: list[Any]
    total: int
    offset: int
    next_offset: int | None
    tokens: int

    def fields(self, noun: str = "items") -> dict[str, Any]:
        """The paging fields of an answer, with a ``note`` when something was left out."""
        out: dict[str, Any] = {"total": self.total}
        if self.offset:
            out["offset"] = self.offset
        if self.next_offset is not None:
            left = self.total - self.next_offset
            out["next_offset"] = self.next_offset
            out["note"] = (
                f"{left} more {noun} left out to fit max_tokens; call again with "
                f"offset={self.next_offset} for the next ones, or a larger max_tokens"
            )
        return out


def take_within(
    items: Sequence[T],
    max_tokens: int,
    offset: int = 0,
    cost: Callable[[T], int] = json_tokens,
) -> Budgeted:
    """Items from ``offset`` on, in order, while their cost fits ``max_tokens``.

    At least one item is returned when any is left, so paging always advances.
    """
    kept: list[T] = []
    spent = 0
    position = offset
    for position in range(offset, len(items)):
        price = cost(items[position])
        if kept and spent + price > max_tokens:
            return Budgeted(kept, len(items), offset, position, spent)
        kept.append(items[position])
        spent += price
    return Budgeted(kept, len(items), offset, None, spent)


def cut_with_note(
    text: str, max_tokens: int, what: str = "content", then: str = ""
) -> tuple[str, dict[str, Any]]:
    """``text`` cut to ``max_tokens``, and the fields of an answer that say it was cut.

    The fields are ``{}`` when the whole text fits, else ``truncated``, ``total_tokens``
    and a ``note`` naming a ``max_tokens`` that reads it whole (``what`` names the text,
    ``then`` ends the note).
    """
    content, cut = trim_to_tokens(text, max_tokens)
    if not cut:
        return content, {}
    total = estimate_tokens(text)
    note = f"{what} cut to fit max_tokens; call again with max_tokens={total + 300}{then}"
    return content, {"truncated": True, "total_tokens": total, "note": note}


__all__ = ["Budgeted", "cut_with_note", "json_tokens", "take_within"]
