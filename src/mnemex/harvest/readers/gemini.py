"""Gemini CLI sessions: JSON files under ``~/.gemini/tmp/<project-hash>/``.

Follows what the google-gemini/gemini-cli repository publicly describes (its docs on
checkpointing and ``/chat save``, and ``ChatRecordingService``), written from memory and then
compared with the ``ConversationRecord`` / ``MessageRecord`` / ``ToolCallRecord`` types of
``chatRecordingService`` as found with the search tool (a published gemini-cli-core build).
A message's ``content`` is a string in older versions and a list of parts in newer ones.
The format has changed between versions, so the reader takes what it recognises:

- ``chats/session-*.json``: ``{sessionId, projectHash, startTime, lastUpdated, messages}``,
  each message ``{id, timestamp, type: user|gemini|info|error, content, toolCalls, model}``
  and tool calls ``{id, name, args, result, status}``.
- ``logs.json``: a list of ``{sessionId, messageId, type, message, timestamp}`` (user
  prompts); one file may hold several sessions, one :class:`Session` each.
- ``checkpoint-<tag>.json`` (``/chat save``) and checkpoints: the model's history, a list
  of ``{role: user|model, parts: [{text} | {functionCall} | {functionResponse}]}``
  without timestamps.

The project folder is not in these files, only its sha256 (the folder name or
``projectHash``). The working folder is taken from a ``.project_root`` file beside them when
there is one, else from the ``project_roots`` the reader was given whose sha256 matches;
otherwise it is unknown. A file cut mid-way keeps its complete messages.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from mnemex.harvest.readers import TranscriptReader, sha256_bytes
from mnemex.harvest.transcript import (
    Session,
    ToolCall,
    ToolResult,
    Turn,
    bound_output,
    parse_timestamp,
    summarise_input,
)

SHELL_TOOLS = {"run_shell_command", "shell"}
EDIT_TOOLS = {"write_file", "replace", "edit", "edit_file"}
_EXIT = re.compile(r"Exit Code:\s*(-?\d+)", re.IGNORECASE)
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


def _parts_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        if value.get("thought") is True:
            return ""
        if isinstance(value.get("text"), str):
            return str(value["text"])
        for key in ("output", "error", "llmContent", "content", "response"):
            if key in value:
                return _parts_text(value[key])
        if "functionResponse" in value:
            return _parts_text(value["functionResponse"])
        if "inlineData" in value:
            return "[binary content omitted]"
        return ""
    if isinstance(value, list):
        return "\n".join(t for t in (_parts_text(v) for v in value) if t)
    return ""


def _iter_array(text: str, start: int) -> Iterator[Any]:
    """The complete items of the JSON array starting at ``text[start] == '['``."""
    decoder = json.JSONDecoder()
    pos = start + 1
    while True:
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text) or text[pos] == "]":
            return
        try:
            item, pos = decoder.raw_decode(text, pos)
        except ValueError:
            return
        yield item


class GeminiReader(TranscriptReader):
    harness = "gemini-cli"
    default_roots = ("~/.gemini/tmp",)

    def __init__(self, project_roots: Iterable[Path] = ()) -> None:
        self._roots = {hashlib.sha256(str(p).encode()).hexdigest(): str(p) for p in project_roots}

    def discover(self, root: Path) -> Iterator[Path]:
        if root.is_file():
            yield root
            return
        if not root.is_dir():
            return
        for folder in [root, *sorted(p for p in root.iterdir() if p.is_dir())]:
            yield from sorted(folder.glob("chats/*.json"))
            if (folder / "logs.json").is_file():
                yield folder / "logs.json"
            yield from sorted(folder.glob("checkpoint*.json"))

    def _cwd(self, path: Path, project_hash: str | None) -> str | None:
        folder = path.parent.parent if path.parent.name == "chats" else path.parent
        marker = folder / ".project_root"
        try:
            if marker.is_file():
                text = marker.read_text(encoding="utf-8", errors="replace").strip()
                if text:
                    return text
        except OSError:
            pass
        for key in (project_hash, folder.name):
            if key and key in self._roots:
                return self._roots[key]
        return None

    def read(self, path: Path) -> list[Session]:
        data = path.read_bytes()
        blank = Session(
            id=path.stem, harness=self.harness, source=path, content_sha256=sha256_bytes(data)
        )
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            blank.skip("non-UTF-8 bytes replaced")
            text = data.decode("utf-8", errors="replace")
        doc: Any
        try:
            doc = json.loads(text)
        except (ValueError, RecursionError):
            doc = self._salvage(text, blank)
        if isinstance(doc, dict) and isinstance(doc.get("messages"), list):
            return [self._chat(doc, blank, path)]
        history = doc.get("history") if isinstance(doc, dict) else doc
        if isinstance(history, list) and history and all(isinstance(i, dict) for i in history):
            if any("parts" in i for i in history):
                return [self._checkpoint(history, blank, path)]
            if any("message" in i for i in history):
                return self._logs(history, blank, path)
        if isinstance(history, list) and not history:
            blank.cwd = self._cwd(path, None)
            return [blank.finish()]
        blank.skip("unrecognised Gemini CLI file")
        return [blank.finish()]

    @staticmethod
    def _salvage(text: str, session: Session) -> Any:
        """What can be kept of a file cut mid-way: the complete items of its list."""
        session.skip("file cut mid-record")
        stripped = text.lstrip()
        if stripped.startswith("["):
            return list(_iter_array(text, text.index("[")))
        match = re.search(r'"messages"\s*:\s*\[', text)
        if match is None:
            return None
        doc: dict[str, Any] = {"messages": list(_iter_array(text, match.end() - 1))}
        for key in ("sessionId", "projectHash", "startTime", "lastUpdated"):
            found = re.search(rf'"{key}"\s*:\s*"([^"]*)"', text[: match.start()])
            if found:
                doc[key] = found.group(1)
        return doc

    def _chat(self, doc: dict[str, Any], session: Session, path: Path) -> Session:
        if isinstance(doc.get("sessionId"), str) and doc["sessionId"]:
            session.id = doc["sessionId"]
        project_hash = doc.get("projectHash") if isinstance(doc.get("projectHash"), str) else None
        session.cwd = self._cwd(path, project_hash)
        session.started = parse_timestamp(doc.get("startTime"))
        session.ended = parse_timestamp(doc.get("lastUpdated"))
        for message in doc["messages"]:
            if not isinstance(message, dict):
                session.skip("message is not an object")
                continue
            mtype = message.get("type")
            stamp = parse_timestamp(message.get("timestamp"))
            text = _parts_text(message.get("content", message.get("message", "")))
            if mtype == "user":
                if text.strip():
                    session.turns.append(Turn(role="user", text=text, timestamp=stamp))
            elif mtype in ("gemini", "model", "assistant"):
                if isinstance(message.get("model"), str):
                    session.model = message["model"]
                turn = Turn(role="assistant", text=text, timestamp=stamp)
                results: list[ToolResult] = []
                for raw in message.get("toolCalls") or []:
                    if not isinstance(raw, dict):
                        session.skip("tool call is not an object")
                        continue
                    call, result = self._tool(raw)
                    turn.tool_calls.append(call)
                    if result is not None:
                        results.append(result)
                session.turns.append(turn)
                if results:
                    session.turns.append(
                        Turn(
                            role="tool",
                            tool_results=results,
                            timestamp=stamp,
                            is_error=any(r.is_error for r in results),
                        )
                    )
            elif mtype == "error":
                session.turns.append(
                    Turn(role="assistant", text=text, timestamp=stamp, is_error=True)
                )
            elif mtype in ("info", "warning"):
                continue
            else:
                session.skip(f"unknown message type {str(mtype)[:40]!r}")
        return session.finish()

    @staticmethod
    def _call(name: str, args: Any, call_id: Any) -> ToolCall:
        call = ToolCall(
            name=name,
            input_summary=summarise_input(args),
            call_id=call_id if isinstance(call_id, str) else None,
        )
        if isinstance(args, dict):
            if name in SHELL_TOOLS and isinstance(args.get("command"), str):
                call.command = args["command"]
            path = args.get("file_path", args.get("path"))
            if name in EDIT_TOOLS and isinstance(path, str) and path:
                call.files_edited.append(path)
        return call

    def _tool(self, raw: dict[str, Any]) -> tuple[ToolCall, ToolResult | None]:
        call = self._call(str(raw.get("name") or "unknown"), raw.get("args"), raw.get("id"))
        if "result" not in raw and "resultDisplay" not in raw and "status" not in raw:
            return call, None
        text = _parts_text(raw.get("result"))
        if not text and isinstance(raw.get("resultDisplay"), str):
            text = raw["resultDisplay"]
        return call, self._result(call, text, raw.get("status") in ("error", "cancelled"))

    @staticmethod
    def _result(call: ToolCall, text: str, is_error: bool) -> ToolResult:
        exit_code: int | None = None
        match = _EXIT.search(text)
        if match:
            exit_code = int(match.group(1))
        elif call.command is not None and not is_error:
            exit_code = 0
        bounded, truncated = bound_output(text)
        failed = is_error or bool(exit_code)
        if call.command is not None:
            call.exit_code = exit_code
        call.failed = failed
        return ToolResult(
            text=bounded,
            call_id=call.call_id,
            is_error=failed,
            exit_code=exit_code,
            truncated=truncated,
        )

    def _checkpoint(self, history: list[dict[str, Any]], session: Session, path: Path) -> Session:
        folder = path.parent.parent if path.parent.name == "chats" else path.parent
        prefix = folder.name[:12] if _HEX64.match(folder.name) else folder.name
        session.id = f"{prefix}:{path.stem}"
        session.cwd = self._cwd(path, None)
        calls: dict[str, ToolCall] = {}
        for content in history:
            role = content.get("role")
            parts = content.get("parts")
            if role not in ("user", "model") or not isinstance(parts, list):
                session.skip("unrecognised checkpoint entry")
                continue
            texts: list[str] = []
            turn_calls: list[ToolCall] = []
            results: list[ToolResult] = []
            for part in parts:
                if not isinstance(part, dict):
                    session.skip("part is not an object")
                    continue
                if isinstance(part.get("functionCall"), dict):
                    fc = part["functionCall"]
                    call = self._call(
                        str(fc.get("name") or "unknown"), fc.get("args"), fc.get("id")
                    )
                    turn_calls.append(call)
                    calls[call.call_id or call.name] = call
                elif isinstance(part.get("functionResponse"), dict):
                    fr = part["functionResponse"]
                    key = fr.get("id") if isinstance(fr.get("id"), str) else fr.get("name")
                    call = calls.get(str(key)) or ToolCall(name=str(fr.get("name") or "unknown"))
                    response = fr.get("response")
                    error = isinstance(response, dict) and "error" in response
                    results.append(self._result(call, _parts_text(response), error))
                elif part.get("thought") is True:
                    continue
                elif isinstance(part.get("text"), str):
                    texts.append(part["text"])
                elif "inlineData" in part:
                    texts.append("[binary content omitted]")
            if results:
                session.turns.append(
                    Turn(
                        role="tool", tool_results=results, is_error=any(r.is_error for r in results)
                    )
                )
            text = "\n".join(t for t in texts if t.strip())
            if text or turn_calls:
                session.turns.append(
                    Turn(
                        role="assistant" if role == "model" else "user",
                        text=text,
                        tool_calls=turn_calls,
                    )
                )
        return session.finish()

    def _logs(self, entries: list[dict[str, Any]], blank: Session, path: Path) -> list[Session]:
        cwd = self._cwd(path, None)
        sessions: dict[str, Session] = {}
        for entry in entries:
            sid = entry.get("sessionId")
            if not isinstance(sid, str) or not sid:
                blank.skip("log entry without a sessionId")
                continue
            session = sessions.get(sid)
            if session is None:
                session = Session(
                    id=sid,
                    harness=self.harness,
                    source=path,
                    content_sha256=blank.content_sha256,
                    cwd=cwd,
                )
                sessions[sid] = session
            text = entry.get("message")
            etype = entry.get("type")
            if not isinstance(text, str) or not text.strip():
                session.skip("log entry without a message")
                continue
            stamp = parse_timestamp(entry.get("timestamp"))
            if etype == "user":
                session.turns.append(Turn(role="user", text=text, timestamp=stamp))
            elif etype in ("gemini", "model"):
                session.turns.append(Turn(role="assistant", text=text, timestamp=stamp))
            else:
                session.skip(f"unknown log entry type {str(etype)[:40]!r}")
        if not sessions:
            blank.cwd = cwd
            return [blank.finish()]
        first = next(iter(sessions.values()))
        first.skipped.update(blank.skipped)
        return [s.finish() for s in sessions.values()]
