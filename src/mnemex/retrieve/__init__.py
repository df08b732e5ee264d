"""Recall: hybrid search, the link graph, token budgets."""

from mnemex.retrieve.graph import backlinks, connected, overview
from mnemex.retrieve.search import Hit, SearchResult, Weights, query_terms, search
from mnemex.text.tokens import estimate_tokens, trim_to_tokens

__all__ = [
    "Hit",
    "SearchResult",
    "Weights",
    "backlinks",
    "connected",
    "estimate_tokens",
    "overview",
    "query_terms",
    "search",
    "trim_to_tokens",
]
