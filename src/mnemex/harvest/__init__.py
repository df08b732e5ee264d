"""Harvesting finished agent sessions (issue 5). So far: the transcript readers.

:mod:`mnemex.harvest.readers` reads each harness's transcripts (Claude Code, Codex CLI,
Gemini CLI, Aider) into the normalised :class:`Session` / :class:`Turn` model of
:mod:`mnemex.harvest.transcript`. Digesting, redaction and the ``harvest`` command build on it.
"""

from __future__ import annotations

from mnemex.harvest.readers import (
    READERS,
    TranscriptReader,
    load_reader,
    reader_names,
    register_reader,
)
from mnemex.harvest.transcript import Session, ToolCall, ToolResult, Turn

__all__ = [
    "READERS",
    "Session",
    "ToolCall",
    "ToolResult",
    "TranscriptReader",
    "Turn",
    "load_reader",
    "reader_names",
    "register_reader",
]
