"""The normalised session model every transcript reader produces.

A :class:`Session` is one agent session as read from its harness's files: who (harness,
project, working folder, branch), when (``started``/``ended``), what (``turns``), and
where it came from (``source`` and the sha256 of its bytes, so a grown transcript is
recognised). Bad input is never fatal: what a reader could not use is counted in
``Session.skipped`` with a reason (``{"invalid JSON line": 2, ...}``).

Tool output is bounded here, not by each reader: :func:`bound_output` keeps the head and
tail of a huge output with a note of what was cut, and replaces binary blobs by a marker.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any, Literal

from mnemex.vault.projects import project_for_cwd

Role = Literal["user", "assistant", "tool"]
#: ``message``: said by the user or the agent; ``summary``: a harness-written summary of
#: earlier turns (Claude Code's compact summary, Codex's ``compacted``); ``compaction``: the
#: boundary where a harness compacted its context (no text of its own); ``meta``: text the
#: harness put in the user's place (slash-command echoes, local command output, "request
#: interrupted"), kept but not a request.
Kind = Literal["message", "summary", "compaction", "meta"]

MAX_OUTPUT_CHARS = 4_000
_HEAD = 3_000
MAX_INPUT_SUMMARY = 300
_ODD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffd]")
_BASE64_RUN = re.compile(r"[A-Za-z0-9+/=\r\n]{2000,}")


@dataclass
class ToolCall:
    """A tool the agent called. ``command`` and ``exit_code`` are set for shell commands."""

    name: str
    input_summary: str = ""
    call_id: str | None = None
    command: str | None = None
    exit_code: int | None = None
    #: True/False once the result is known; None when no result was seen.
    failed: bool | None = None
    files_edited: list[str] = field(default_factory=list)


@dataclass
class ToolResult:
    """What a tool returned, bounded (see :func:`bound_output`)."""

    text: str
    call_id: str | None = None
    is_error: bool = False
    exit_code: int | None = None
    truncated: bool = False


@dataclass
class Turn:
    role: Role
    text: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    tool_results: list[ToolResult] = field(default_factory=list)
    timestamp: dt.datetime | None = None
    is_error: bool = False
    kind: Kind = "message"
    #: The harness's own id for the record(s), when it has one (Claude Code's uuid).
    uid: str | None = None


@dataclass
class Session:
    id: str
    harness: str
    source: Path
    content_sha256: str
    project: str | None = None
    cwd: str | None = None
    git_branch: str | None = None
    started: dt.datetime | None = None
    ended: dt.datetime | None = None
    turns: list[Turn] = field(default_factory=list)
    #: The session this one continued or forked from, when the harness says so.
    parent_session: str | None = None
    model: str | None = None
    #: Reason -> number of records (or lines) not used.
    skipped: Counter[str] = field(default_factory=Counter)
    #: Harness-written summaries of the session (Claude Code ``summary`` records).
    summaries: list[str] = field(default_factory=list)

    def skip(self, reason: str, n: int = 1) -> None:
        self.skipped[reason] += n

    @property
    def tool_calls(self) -> list[ToolCall]:
        return [c for t in self.turns for c in t.tool_calls]

    @property
    def files_edited(self) -> list[str]:
        """Every file a tool call edited, in first-edit order, once each."""
        return list(dict.fromkeys(f for c in self.tool_calls for f in c.files_edited))

    @property
    def files_touched(self) -> list[str]:
        """:attr:`files_edited`, relative to ``cwd`` when inside it (as a digest lists them)."""
        if not self.cwd:
            return self.files_edited
        base = PurePath(self.cwd)
        out = []
        for name in self.files_edited:
            path = PurePath(name)
            out.append(path.relative_to(base).as_posix() if path.is_relative_to(base) else name)
        return list(dict.fromkeys(out))

    def finish(self) -> Session:
        """Set ``started``/``ended`` from the turns (when not known otherwise) and the project."""
        stamps = [t.timestamp for t in self.turns if t.timestamp is not None]
        if stamps:
            self.started = self.started or min(stamps)
            self.ended = max([*stamps, *([self.ended] if self.ended else [])])
        if self.project is None and self.cwd:
            self.project = project_for_cwd(self.cwd)
        self.skipped = Counter({k: v for k, v in self.skipped.items() if v})
        return self


def parse_timestamp(value: Any) -> dt.datetime | None:
    """An ISO 8601 string (``Z`` allowed) or epoch seconds/milliseconds, as aware UTC."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        if isinstance(value, int | float):
            seconds = value / 1000 if value > 1e11 else value
            return dt.datetime.fromtimestamp(seconds, tz=dt.UTC)
        if isinstance(value, str) and value.strip():
            parsed = dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
            if parsed.tzinfo is None:
                parsed = parsed.replace(tzinfo=dt.UTC)
            return parsed.astimezone(dt.UTC)
    except (ValueError, OverflowError, OSError):
        return None
    return None


def looks_binary(text: str) -> bool:
    if "\x00" in text:
        return True
    sample = text[:4096]
    if not sample:
        return False
    if _ODD.search(sample) is None:
        return False
    return len(_ODD.findall(sample)) / len(sample) > 0.1


def bound_output(text: str, limit: int = MAX_OUTPUT_CHARS) -> tuple[str, bool]:
    """``(bounded text, truncated?)``: binary blobs become a marker, huge text keeps head + tail."""
    if looks_binary(text):
        return f"[binary content omitted: {len(text)} characters]", True
    if _BASE64_RUN.search(text):
        text = _BASE64_RUN.sub(
            lambda m: f"[binary blob omitted: {len(m.group())} characters]", text
        )
    if len(text) <= limit:
        return text, False
    tail = limit - _HEAD if limit > _HEAD else 0
    head = min(_HEAD, limit)
    cut = len(text) - head - tail
    note = f"\n[… {cut} characters of output truncated …]\n"
    return text[:head] + note + (text[-tail:] if tail else ""), True


def summarise_input(value: Any, limit: int = MAX_INPUT_SUMMARY) -> str:
    """A one-line, bounded rendering of a tool's input."""
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
        except (TypeError, ValueError):
            text = repr(value)
    text = " ".join(text.split())
    if looks_binary(text):
        return "[binary input omitted]"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def decode_line(raw: bytes, session: Session | None = None) -> str:
    """UTF-8 with replacement; a line that needed it is counted on ``session``."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        if session is not None:
            session.skip("non-UTF-8 bytes replaced")
        return raw.decode("utf-8", errors="replace")


__all__ = [
    "MAX_OUTPUT_CHARS",
    "Kind",
    "Role",
    "Session",
    "ToolCall",
    "ToolResult",
    "Turn",
    "bound_output",
    "decode_line",
    "looks_binary",
    "parse_timestamp",
    "summarise_input",
]
