"""Counting tokens offline, for token budgets.

No tokenizer that downloads its data: an estimate from word and punctuation
counts that errs on the high side of BPE tokenizers (cl100k, o200k, Claude's)
on English prose and code, so a budget is rarely overrun. Long words count as
several tokens, as BPE splits them.
"""

from __future__ import annotations

import re

_PIECE_RE = re.compile(r"\w+|[^\w\s]", re.UNICODE)


def estimate_tokens(text: str) -> int:
    """About how many tokens ``text`` costs a model (an over-estimate by design)."""
    total = 0
    for piece in _PIECE_RE.findall(text):
        n = len(piece)
        total += 1 if n <= 6 else 1 + (n - 1) // 5
    return total


def trim_to_tokens(text: str, max_tokens: int) -> tuple[str, bool]:
    """Cut ``text`` at a word boundary so it fits ``max_tokens``; returns (text, was_cut)."""
    if estimate_tokens(text) <= max_tokens:
        return text, False
    total = 0
    end = 0
    for m in _PIECE_RE.finditer(text):
        n = len(m.group(0))
        total += 1 if n <= 6 else 1 + (n - 1) // 5
        if total > max_tokens:
            break
        end = m.end()
    return text[:end].rstrip() + " …", True


__all__ = ["estimate_tokens", "trim_to_tokens"]
