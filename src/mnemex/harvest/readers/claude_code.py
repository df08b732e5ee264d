"""Claude Code transcripts: ``<projects-dir>/<slug>/<session>.jsonl``.

Anthropic publishes no schema for these files. This reader follows what is publicly known
of them (Claude Code's documentation of ``~/.claude/projects``, resume and compaction, and
the records as described by the tools that read them), written from memory and then
compared with public third-party write-ups found with the search tool (for example
microsoft/amplifier's ``ai_working/claude_code_logging`` notes and
Crazytieguy/alignment-hive's ``docs/sessions/session-8-jsonl-format.md``). Be tolerant,
count what is not understood.

- One JSON record per line with ``type`` (``user``, ``assistant``, ``summary``, ``system``,
  and non-content ones such as ``file-history-snapshot``), ``uuid``, ``parentUuid``,
  ``sessionId``, ``timestamp``, ``cwd``, ``gitBranch``, ``isSidechain``, ``isMeta`` and
  ``message`` (``role``, ``content``: a string or blocks ``text`` / ``tool_use`` /
  ``tool_result`` / ``thinking`` / ``image``; assistant messages carry ``id`` and ``model``).
- One assistant message is often split over several lines that share ``message.id`` (one
  block per line): they are merged into one turn.
- ``system`` records with ``subtype: compact_boundary`` mark a compaction (a
  ``compaction`` turn); the user record that follows with ``isCompactSummary`` holds the
  summary (a ``summary`` turn, not a user request). Slash-command echoes, local command
  output and "request interrupted" notes are ``meta`` turns. ``summary`` records (``summary``,
  ``leafUuid``) go to ``Session.summaries`` only when their ``leafUuid`` is a record of the
  same file: Claude Code is known to write other sessions' summaries into a file too.
- Records with ``isSidechain`` in a main file (older versions kept subagents there) are not
  the main conversation: skipped and counted.
- Subagents write their own files (``<slug>/<session>/subagents/agent-*.jsonl``, or
  ``<slug>/agent-*.jsonl`` in older versions): a session ``<parent>:<file stem>`` whose
  ``parent_session`` is the main session.
- A continued or forked session copies its parent's records, uuids and all, into a new
  file. Records whose uuid is already in a sibling file of the same project folder that
  ended earlier are the copied prefix: skipped (``copied from an earlier session``) and the
  sibling's session becomes ``parent_session``.

Known non-content records and blocks (``file-history-snapshot``, ``queue-operation``,
``isMeta`` user records, other ``system`` subtypes, ``thinking``) are dropped without being
counted; unknown record types and unknown blocks are skipped and counted.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mnemex.harvest.readers import TranscriptReader, iter_jsonl, sha256_bytes
from mnemex.harvest.transcript import (
    Session,
    ToolCall,
    ToolResult,
    Turn,
    bound_output,
    parse_timestamp,
    summarise_input,
)

EDIT_TOOLS = {"Edit": "file_path", "MultiEdit": "file_path", "Write": "file_path"}
NOTEBOOK_TOOLS = {"NotebookEdit": "notebook_path"}
SHELL_TOOLS = {"Bash"}
QUIET_TYPES = {"file-history-snapshot", "queue-operation"}
_UUID = re.compile(rb'(?<![\\\w])"uuid"\s*:\s*"([^"\\]{1,200})"')
_STAMP = re.compile(rb'(?<![\\\w])"timestamp"\s*:\s*"([0-9T:.+\-Z ]{10,40})"')
_SESSION = re.compile(rb'(?<![\\\w])"sessionId"\s*:\s*"([^"\\]{1,200})"')
_META_PREFIXES = (
    "<command-name>",
    "<command-message>",
    "<command-args>",
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<bash-input>",
    "<bash-stdout>",
    "<bash-stderr>",
    "[Request interrupted by user",
    "Caveat: The messages below were generated",
)
_EXIT = re.compile(r"^\s*(?:Error:\s*)?Exit code:?\s*(-?\d+)", re.IGNORECASE)


@dataclass
class _FileIndex:
    signature: tuple[int, int]
    ended: str
    session_id: str
    uuids: frozenset[str]


def _is_subagent(path: Path) -> bool:
    return path.parent.name == "subagents" or path.stem.startswith("agent-")


def _result_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, dict):
                if block.get("type") == "text":
                    parts.append(str(block.get("text", "")))
                elif block.get("type") == "image":
                    media = (block.get("source") or {}).get("media_type", "image")
                    parts.append(f"[binary content omitted: {media}]")
                else:
                    parts.append(summarise_input(block))
            elif isinstance(block, str):
                parts.append(block)
        return "\n".join(parts)
    return "" if content is None else summarise_input(content)


class ClaudeCodeReader(TranscriptReader):
    harness = "claude-code"
    default_roots = ("~/.claude/projects", "~/.config/claude/projects")

    def __init__(self) -> None:
        self._index: dict[Path, _FileIndex] = {}

    def default_paths(self) -> list[Path]:
        override = os.environ.get("CLAUDE_CONFIG_DIR")
        first = [Path(override).expanduser() / "projects"] if override else []
        return [*first, *super().default_paths()]

    def discover(self, root: Path) -> Iterator[Path]:
        if root.is_file():
            yield root
            return
        if not root.is_dir():
            return
        folders = [root, *sorted(p for p in root.iterdir() if p.is_dir())]
        for folder in folders:
            yield from sorted(folder.glob("*.jsonl"))
            yield from sorted(folder.glob("*/subagents/*.jsonl"))

    # -- fork/continue dedupe ------------------------------------------------

    def _scan(self, path: Path) -> _FileIndex | None:
        try:
            stat = path.stat()
        except OSError:
            return None
        signature = (stat.st_size, stat.st_mtime_ns)
        cached = self._index.get(path)
        if cached is not None and cached.signature == signature:
            return cached
        try:
            data = path.read_bytes()
        except OSError:
            return None
        # a light scan (no JSON parse): the top-level keys of each line
        uuids = {m.decode("utf-8", "replace") for m in _UUID.findall(data)}
        last = max(_STAMP.findall(data), default=b"")  # ISO 8601 sorts as text
        stamp = parse_timestamp(last.decode("ascii", "replace"))
        ended = stamp.isoformat() if stamp is not None else ""
        found = _SESSION.search(data)
        session_id = found.group(1).decode("utf-8", "replace") if found else path.stem
        entry = _FileIndex(signature, ended, session_id, frozenset(uuids))
        self._index[path] = entry
        return entry

    def _earlier_uuids(self, path: Path) -> dict[str, str]:
        """uuid -> session id, for the sibling files that ended before ``path``."""
        own = self._scan(path)
        if own is None:
            return {}
        own_key = (own.ended, path.name)
        prior: dict[str, str] = {}
        for sibling in sorted(path.parent.glob("*.jsonl")):
            if sibling == path or _is_subagent(sibling):
                continue
            entry = self._scan(sibling)
            if entry is None or (entry.ended, sibling.name) >= own_key:
                continue
            for uuid in entry.uuids & own.uuids:
                prior.setdefault(uuid, entry.session_id)
        return prior

    # -- reading -------------------------------------------------------------

    def read(self, path: Path) -> list[Session]:
        data = path.read_bytes()
        session = Session(
            id=path.stem, harness=self.harness, source=path, content_sha256=sha256_bytes(data)
        )
        subagent = _is_subagent(path)
        prior = {} if subagent else self._earlier_uuids(path)
        seen: set[str] = set()
        by_message: dict[str, tuple[Turn, set[tuple[str, str]]]] = {}
        calls: dict[str, ToolCall] = {}
        session_id: str | None = None
        compact_pending = False
        summaries: list[tuple[str, str]] = []

        for _, record in iter_jsonl(data, session):
            rtype = record.get("type")
            uuid = record.get("uuid") if isinstance(record.get("uuid"), str) else None
            if uuid is not None:
                if uuid in seen:
                    session.skip("duplicate record")
                    continue
                seen.add(uuid)
                if uuid in prior:
                    session.skip("copied from an earlier session")
                    session.parent_session = session.parent_session or prior[uuid]
                    continue
            if session_id is None and isinstance(record.get("sessionId"), str):
                session_id = record["sessionId"]
            if isinstance(record.get("cwd"), str) and record["cwd"] and session.cwd is None:
                session.cwd = record["cwd"]
            if isinstance(record.get("gitBranch"), str) and record["gitBranch"]:
                session.git_branch = record["gitBranch"]
            stamp = parse_timestamp(record.get("timestamp"))

            if not subagent and record.get("isSidechain") is True:
                session.skip("subagent record in the main file")
                continue
            if rtype == "summary":
                if isinstance(record.get("summary"), str) and record["summary"].strip():
                    summaries.append((str(record.get("leafUuid")), record["summary"].strip()))
            elif rtype == "system":
                if record.get("subtype") == "compact_boundary":
                    session.turns.append(
                        Turn(role="assistant", kind="compaction", timestamp=stamp, uid=uuid)
                    )
                    compact_pending = True
            elif rtype == "user":
                if record.get("isMeta"):
                    continue
                summary = bool(record.get("isCompactSummary")) or (
                    compact_pending and self._plain_text(record) is not None
                )
                compact_pending = False
                self._user(session, record, stamp, uuid, calls, summary)
            elif rtype == "assistant":
                self._assistant(session, record, stamp, uuid, by_message, calls)
            elif rtype in QUIET_TYPES:
                continue
            elif rtype is None:
                session.skip("record without a type")
            else:
                session.skip(f"unknown record type {str(rtype)[:40]!r}")

        session.summaries = [text for leaf, text in summaries if leaf in seen]
        if session_id:
            if subagent:
                session.parent_session = session_id
                session.id = f"{session_id}:{path.stem}"
            else:
                session.id = session_id
        return [session.finish()]

    @staticmethod
    def _plain_text(record: dict[str, Any]) -> str | None:
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        return content if isinstance(content, str) else None

    def _user(
        self,
        session: Session,
        record: dict[str, Any],
        stamp: Any,
        uuid: str | None,
        calls: dict[str, ToolCall],
        summary: bool,
    ) -> None:
        message = record.get("message")
        if not isinstance(message, dict):
            session.skip("user record without a message")
            return
        content = message.get("content")
        texts: list[str] = []
        results: list[ToolResult] = []
        if isinstance(content, str):
            texts.append(content)
        elif isinstance(content, list):
            for block in content:
                if not isinstance(block, dict):
                    session.skip("content block is not an object")
                    continue
                btype = block.get("type")
                if btype == "text":
                    texts.append(str(block.get("text", "")))
                elif btype == "image":
                    texts.append("[binary content omitted: image]")
                elif btype == "tool_result":
                    results.append(self._tool_result(block, record, calls))
                else:
                    session.skip(f"unknown content block {str(btype)[:40]!r}")
        else:
            session.skip("user message without content")
            return
        if results:
            session.turns.append(
                Turn(
                    role="tool",
                    tool_results=results,
                    timestamp=stamp,
                    is_error=any(r.is_error for r in results),
                    uid=uuid,
                )
            )
        text = "\n".join(t for t in texts if t.strip())
        if text.strip():
            session.turns.append(
                Turn(
                    role="user",
                    text=text,
                    timestamp=stamp,
                    kind="summary"
                    if summary
                    else "meta"
                    if text.lstrip().startswith(_META_PREFIXES)
                    else "message",
                    uid=uuid,
                )
            )

    @staticmethod
    def _tool_result(
        block: dict[str, Any], record: dict[str, Any], calls: dict[str, ToolCall]
    ) -> ToolResult:
        call_id = block.get("tool_use_id") if isinstance(block.get("tool_use_id"), str) else None
        raw = _result_text(block.get("content"))
        text, truncated = bound_output(raw)
        is_error = bool(block.get("is_error"))
        exit_code: int | None = None
        match = _EXIT.match(raw)
        if match:
            exit_code = int(match.group(1))
        extra = record.get("toolUseResult")
        if isinstance(extra, dict):
            for key in ("exitCode", "exit_code", "returnCode"):
                if isinstance(extra.get(key), int) and not isinstance(extra.get(key), bool):
                    exit_code = extra[key]
            if extra.get("interrupted") is True:
                is_error = True
        call = calls.get(call_id) if call_id else None
        if call is not None:
            if call.command is not None and exit_code is None and not is_error:
                exit_code = 0
            call.exit_code = exit_code if call.command is not None else call.exit_code
            call.failed = is_error or bool(exit_code)
        return ToolResult(
            text=text,
            call_id=call_id,
            is_error=is_error or bool(exit_code),
            exit_code=exit_code,
            truncated=truncated,
        )

    def _assistant(
        self,
        session: Session,
        record: dict[str, Any],
        stamp: Any,
        uuid: str | None,
        by_message: dict[str, tuple[Turn, set[tuple[str, str]]]],
        calls: dict[str, ToolCall],
    ) -> None:
        message = record.get("message")
        if not isinstance(message, dict):
            session.skip("assistant record without a message")
            return
        if isinstance(message.get("model"), str) and message["model"] != "<synthetic>":
            session.model = message["model"]
        message_id = message.get("id") if isinstance(message.get("id"), str) else None
        if message_id is not None and message_id in by_message:
            turn, keys = by_message[message_id]
        else:
            turn, keys = Turn(role="assistant", timestamp=stamp, uid=uuid), set[tuple[str, str]]()
            session.turns.append(turn)
            if message_id is not None:
                by_message[message_id] = (turn, keys)
        if record.get("isApiErrorMessage") or record.get("error"):
            turn.is_error = True
        content = message.get("content")
        blocks: Any = [{"type": "text", "text": content}] if isinstance(content, str) else content
        if not isinstance(blocks, list):
            session.skip("assistant message without content")
            return
        for block in blocks:
            if not isinstance(block, dict):
                session.skip("content block is not an object")
                continue
            btype = block.get("type")
            if btype == "text":
                text = str(block.get("text", ""))
                if not text.strip() or ("text", text) in keys:
                    continue
                keys.add(("text", text))
                turn.text = f"{turn.text}\n{text}" if turn.text else text
            elif btype == "tool_use":
                call_key = str(block.get("id") or summarise_input(block))
                if ("tool", call_key) in keys:
                    continue
                keys.add(("tool", call_key))
                call = self._tool_call(block)
                turn.tool_calls.append(call)
                if call.call_id:
                    calls[call.call_id] = call
            elif btype in ("thinking", "redacted_thinking"):
                continue
            else:
                session.skip(f"unknown content block {str(btype)[:40]!r}")

    @staticmethod
    def _tool_call(block: dict[str, Any]) -> ToolCall:
        name = str(block.get("name") or "unknown")
        raw = block.get("input")
        args: dict[str, Any] = raw if isinstance(raw, dict) else {}
        call = ToolCall(
            name=name,
            input_summary=summarise_input(block.get("input", {})),
            call_id=block.get("id") if isinstance(block.get("id"), str) else None,
        )
        if name in SHELL_TOOLS and isinstance(args.get("command"), str):
            call.command = args["command"]
        key = EDIT_TOOLS.get(name) or NOTEBOOK_TOOLS.get(name)
        if key and isinstance(args.get(key), str) and args[key]:
            call.files_edited.append(args[key])
        return call
