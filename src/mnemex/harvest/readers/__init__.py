"""Transcript readers: one per agent harness, behind one small interface.

A reader names its ``harness`` (the ``harness`` of a digest, vault format §7), finds its
transcript files under a folder (:meth:`TranscriptReader.discover`) and reads one file
into normalised :class:`~mnemex.harvest.transcript.Session` objects
(:meth:`TranscriptReader.read`). Reading never raises on bad content: unusable records are
skipped and counted on the session with a reason. Only an unreadable file (permissions,
vanished) raises ``OSError``.

Built-in readers register themselves in :data:`READERS` the same way a third-party one
would: ``register_reader("harness", factory)``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from mnemex.harvest.transcript import Session, decode_line
from mnemex.plugins import Registry


class TranscriptReader:
    """Base class: subclasses set ``harness`` and implement :meth:`discover` and :meth:`read`."""

    #: The harness name, as written in a digest's ``harness`` key.
    harness: str = ""
    #: Where the harness usually keeps its transcripts (``~`` expanded by the caller).
    default_roots: tuple[str, ...] = ()

    def default_paths(self) -> list[Path]:
        """:attr:`default_roots` with ``~`` expanded (the harness's env overrides come first)."""
        return [Path(p).expanduser() for p in self.default_roots]

    def discover(self, root: Path) -> Iterator[Path]:
        """The transcript files under ``root``, in a stable order."""
        raise NotImplementedError

    def read(self, path: Path) -> list[Session]:
        """The sessions in one transcript file (usually one)."""
        raise NotImplementedError

    def read_all(self, root: Path) -> Iterator[Session]:
        """Every session under ``root``; a file that cannot be read at all is left out."""
        for path in self.discover(root):
            try:
                yield from self.read(path)
            except OSError:
                continue


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def iter_jsonl(data: bytes, session: Session) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, record)`` for each JSON object line; bad lines are counted on ``session``.

    A last line without its newline that does not parse is a file cut mid-record
    (``truncated last line``); any other line that does not parse is ``invalid JSON line``.
    """
    lines = data.split(b"\n")
    last = len(lines) - 1
    for number, raw in enumerate(lines):
        if not raw.strip():
            continue
        text = decode_line(raw, session)
        try:
            record = json.loads(text)
        except (ValueError, RecursionError):
            session.skip("truncated last line" if number == last else "invalid JSON line")
            continue
        if not isinstance(record, dict):
            session.skip("record is not a JSON object")
            continue
        yield number, record


ReaderFactory = Callable[[], TranscriptReader]


def _builtins(registry: Registry[ReaderFactory]) -> None:
    def claude_code() -> TranscriptReader:
        from mnemex.harvest.readers.claude_code import ClaudeCodeReader

        return ClaudeCodeReader()

    def codex() -> TranscriptReader:
        from mnemex.harvest.readers.codex import CodexReader

        return CodexReader()

    def gemini() -> TranscriptReader:
        from mnemex.harvest.readers.gemini import GeminiReader

        return GeminiReader()

    def aider() -> TranscriptReader:
        from mnemex.harvest.readers.aider import AiderReader

        return AiderReader()

    registry.register("claude-code", claude_code)
    registry.register("codex", codex)
    registry.register("gemini-cli", gemini)
    registry.register("aider", aider)


#: harness -> factory building its reader.
READERS: Registry[ReaderFactory] = Registry("transcript format", _builtins)


def register_reader(harness: str, factory: ReaderFactory) -> None:
    """Make a reader available under ``harness``."""
    READERS.register(harness, factory)


def load_reader(harness: str) -> TranscriptReader:
    """Build the reader registered under ``harness``.

    Raises:
        ConfigError: no reader of that name is registered.
    """
    return READERS.factory(harness)()


def reader_names() -> list[str]:
    return READERS.names()


__all__ = [
    "READERS",
    "ReaderFactory",
    "TranscriptReader",
    "iter_jsonl",
    "load_reader",
    "reader_names",
    "register_reader",
    "sha256_bytes",
]
