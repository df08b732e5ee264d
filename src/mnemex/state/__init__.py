"""Working state (vault format §6): the standing brief, per-machine handoffs, the journal.

Brief and handoffs **supersede** (each save replaces the last, history in git);
the journal is **append-only**. Every field is sanitised on the way in and the
whole file again on the way out; :func:`get_context` serves it all, framed as
data, within a token budget.
"""

from mnemex.state.brief import BRIEF_SECTIONS, brief_path, get_brief, save_brief
from mnemex.state.common import MAX_ITEM_CHARS, MAX_ITEMS, StateRefused
from mnemex.state.context import DEFAULT_CONTEXT_TOKENS, get_context
from mnemex.state.handoff import (
    HANDOFF_SECTIONS,
    Saved,
    get_handoff,
    handoff_path,
    list_handoffs,
    save_handoff,
)
from mnemex.state.projects import require_project
from mnemex.vault.journal import append_entry, journal_path, read_journal

__all__ = [
    "BRIEF_SECTIONS",
    "DEFAULT_CONTEXT_TOKENS",
    "HANDOFF_SECTIONS",
    "MAX_ITEMS",
    "MAX_ITEM_CHARS",
    "Saved",
    "StateRefused",
    "append_entry",
    "brief_path",
    "get_brief",
    "get_context",
    "get_handoff",
    "handoff_path",
    "journal_path",
    "list_handoffs",
    "read_journal",
    "require_project",
    "save_brief",
    "save_handoff",
]
