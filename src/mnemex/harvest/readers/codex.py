"""Codex CLI rollouts: ``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl``.

Follows the rollout format of the openai/codex repository (the ``RolloutLine`` /
``RolloutItem`` / ``ResponseItem`` types of codex-rs), written from memory of it and then
compared with public third-party descriptions found with the search tool (for example
kvsankar/agent-history's ``docs/codex-format.md``; not with codex-rs's own source). They
agree on the envelope and the record types; the git block is spelled ``repository_url`` or
``origin_url`` depending on who describes it, so both are read.

- Each line is ``{timestamp, type, payload}`` with ``type`` one of ``session_meta``
  (``id``, ``cwd``, ``git {branch, repository_url}``, ``forked_from_id``), ``turn_context``
  (``cwd``, ``model``), ``response_item``, ``event_msg`` or ``compacted`` (``message``: the summary
  that replaced the history). Older rollouts without the wrapper (a first line with ``id``
  and ``timestamp``, then bare response items) are read too.
- ``response_item`` payloads: ``message`` (``role``, ``content`` of ``input_text`` /
  ``output_text``), ``function_call`` (``name``, ``arguments`` as a JSON string,
  ``call_id``; shell commands as ``{"command": ["bash", "-lc", "..."]}``, or
  ``exec_command`` with ``cmd``), ``function_call_output`` (``output``: a JSON string with
  ``output`` and ``metadata.exit_code``, or plain text), ``local_shell_call``,
  ``custom_tool_call`` / ``custom_tool_call_output`` (``apply_patch``), ``reasoning``.
- ``event_msg`` mirrors the conversation (``user_message``, ``agent_message``): a mirrored
  text already present as a ``response_item`` message is dropped, so nothing is said twice.
  ``exec_command_end`` supplies an exit code the output lacked.
- Files edited come from ``apply_patch`` patches (``*** Add/Update/Delete File: path``).

Injected context (``<environment_context>``, ``<user_instructions>``, AGENTS.md text,
``developer``/``system`` messages), reasoning and bookkeeping events are dropped quietly;
unknown record, item and event types are skipped and counted.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections import Counter
from collections.abc import Iterator
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
from mnemex.vault.projects import project_for_cwd, project_from_remote_url

SHELL_CALLS = {"shell", "container.exec", "local_shell", "shell_command", "exec_command"}
QUIET_ITEMS = {"reasoning", "web_search_call", "ghost_snapshot"}
QUIET_EVENTS = {
    "token_count",
    "agent_reasoning",
    "agent_reasoning_raw_content",
    "agent_reasoning_section_break",
    "task_started",
    "task_complete",
    "turn_aborted",
    "exec_command_begin",
    "exec_command_output_delta",
    "patch_apply_begin",
    "patch_apply_end",
    "turn_diff",
    "mcp_tool_call_begin",
    "mcp_tool_call_end",
    "web_search_begin",
    "web_search_end",
    "plan_update",
    "entered_review_mode",
    "exited_review_mode",
    "background_event",
    "stream_error",
}
_CONTEXT_PREFIXES = (
    "<environment_context>",
    "<user_instructions>",
    "# AGENTS.md instructions",
    "<permissions instructions>",
    "<INSTRUCTIONS>",
)
_PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+?)\s*$", re.MULTILINE)
_PATCH_MOVE = re.compile(r"^\*\*\* Move to: (.+?)\s*$", re.MULTILINE)
_EXIT = re.compile(r"(?:Exit code|Process exited with code)[: ]\s*(-?\d+)", re.IGNORECASE)


def _patch_files(patch: str) -> list[str]:
    return list(dict.fromkeys([*_PATCH_FILE.findall(patch), *_PATCH_MOVE.findall(patch)]))


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts = []
    for block in content:
        if isinstance(block, dict) and isinstance(block.get("text"), str):
            parts.append(block["text"])
        elif isinstance(block, dict) and block.get("type") in ("input_image", "image"):
            parts.append("[binary content omitted: image]")
    return "\n".join(parts)


def _norm(text: str) -> str:
    return " ".join(text.split())


class CodexReader(TranscriptReader):
    harness = "codex"
    default_roots = ("~/.codex/sessions",)

    def default_paths(self) -> list[Path]:
        home = os.environ.get("CODEX_HOME")
        return [Path(home).expanduser() / "sessions"] if home else super().default_paths()

    def discover(self, root: Path) -> Iterator[Path]:
        if root.is_file():
            yield root
        elif root.is_dir():
            yield from sorted(root.rglob("rollout-*.jsonl"))

    def read(self, path: Path) -> list[Session]:
        data = path.read_bytes()
        session = Session(
            id=path.stem, harness=self.harness, source=path, content_sha256=sha256_bytes(data)
        )
        state = _State(session)
        for _, record in iter_jsonl(data, session):
            state.record(record)
        return [state.finish()]


class _State:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.meta_seen = False
        self.repository_url: str | None = None
        self.calls: dict[str, ToolCall] = {}
        self.results: dict[str, ToolResult] = {}
        #: (turn, came from event_msg?)
        self.turns: list[tuple[Turn, bool]] = []

    def record(self, record: dict[str, Any]) -> None:
        rtype = record.get("type")
        payload = record.get("payload")
        stamp = parse_timestamp(record.get("timestamp"))
        if rtype is None or (not isinstance(payload, dict) and "payload" not in record):
            # older rollouts: bare items, and a first line that is the session's metadata
            if rtype is None and "id" in record:
                self.meta(record)
            elif isinstance(rtype, str):
                self.item(record, stamp)
            else:
                self.session.skip("record without a type")
            return
        if not isinstance(payload, dict):
            self.session.skip(f"{str(rtype)[:40]} record without a payload")
            return
        if rtype == "session_meta":
            self.meta(payload)
            git = payload.get("git")
            if isinstance(git, dict):
                if isinstance(git.get("branch"), str) and git["branch"]:
                    self.session.git_branch = git["branch"]
                for key in ("repository_url", "origin_url"):
                    if isinstance(git.get(key), str) and git[key]:
                        self.repository_url = git[key]
        elif rtype == "turn_context":
            if isinstance(payload.get("model"), str):
                self.session.model = payload["model"]
            if isinstance(payload.get("cwd"), str) and not self.session.cwd:
                self.session.cwd = payload["cwd"]
        elif rtype == "response_item":
            self.item(payload, stamp)
        elif rtype == "event_msg":
            self.event(payload, stamp)
        elif rtype == "compacted":
            self.add(Turn(role="assistant", kind="compaction", timestamp=stamp))
            message = payload.get("message")
            if isinstance(message, str) and message.strip():
                self.add(Turn(role="assistant", kind="summary", text=message, timestamp=stamp))
        else:
            self.session.skip(f"unknown record type {str(rtype)[:40]!r}")

    def meta(self, payload: dict[str, Any]) -> None:
        if self.meta_seen:
            return
        self.meta_seen = True
        if isinstance(payload.get("id"), str) and payload["id"]:
            self.session.id = payload["id"]
        if isinstance(payload.get("cwd"), str) and payload["cwd"]:
            self.session.cwd = payload["cwd"]
        started = parse_timestamp(payload.get("timestamp"))
        if started is not None:
            self.session.started = started
        for key in ("forked_from_id", "parent_id"):
            if isinstance(payload.get(key), str):
                self.session.parent_session = payload[key]

    def add(self, turn: Turn, from_event: bool = False) -> None:
        self.turns.append((turn, from_event))

    def item(self, payload: dict[str, Any], stamp: Any) -> None:
        itype = payload.get("type")
        if itype == "message":
            role = payload.get("role")
            text = _content_text(payload.get("content"))
            if role not in ("user", "assistant") or not text.strip():
                return
            if role == "user" and text.lstrip().startswith(_CONTEXT_PREFIXES):
                return
            self.add(Turn(role=role, text=text, timestamp=stamp))
        elif itype in ("function_call", "custom_tool_call", "local_shell_call"):
            call = self.call(payload)
            self.add(Turn(role="assistant", tool_calls=[call], timestamp=stamp))
        elif itype in ("function_call_output", "custom_tool_call_output"):
            result = self.result(payload)
            self.add(
                Turn(role="tool", tool_results=[result], timestamp=stamp, is_error=result.is_error)
            )
        elif itype in QUIET_ITEMS:
            return
        else:
            self.session.skip(f"unknown response item {str(itype)[:40]!r}")

    def call(self, payload: dict[str, Any]) -> ToolCall:
        name = str(payload.get("name") or payload.get("type") or "unknown")
        call_id = payload.get("call_id") or payload.get("id")
        raw: Any = payload.get("arguments", payload.get("input", payload.get("action")))
        args: Any = raw
        if isinstance(raw, str):
            try:
                args = json.loads(raw)
            except ValueError:
                args = raw
        call = ToolCall(
            name=name,
            input_summary=summarise_input(args),
            call_id=call_id if isinstance(call_id, str) else None,
        )
        command: Any = None
        if isinstance(args, dict):
            command = args.get("command", args.get("cmd"))
        if name == "apply_patch" or (isinstance(command, list) and command[:1] == ["apply_patch"]):
            patch = ""
            if isinstance(command, list) and len(command) > 1:
                patch = str(command[1])
            elif isinstance(args, str):
                patch = args
            elif isinstance(args, dict):
                patch = str(args.get("input", args.get("patch", "")))
            call.files_edited = _patch_files(patch)
        elif name in SHELL_CALLS or payload.get("type") == "local_shell_call":
            if isinstance(command, list) and all(isinstance(c, str) for c in command):
                if len(command) == 3 and command[1] in ("-lc", "-c") and "sh" in command[0]:
                    call.command = command[2]
                else:
                    call.command = shlex.join(command)
            elif isinstance(command, str):
                call.command = command
            if call.command and "apply_patch" in call.command.split("\n", 1)[0]:
                call.files_edited = _patch_files(call.command)
        if call.call_id:
            self.calls[call.call_id] = call
        return call

    def result(self, payload: dict[str, Any]) -> ToolResult:
        call_id = payload.get("call_id") if isinstance(payload.get("call_id"), str) else None
        output: Any = payload.get("output")
        exit_code: int | None = None
        is_error = False
        if isinstance(output, str):
            try:
                parsed = json.loads(output)
            except ValueError:
                parsed = None
            if isinstance(parsed, dict):
                output = parsed
        if isinstance(output, dict):
            metadata = output.get("metadata")
            if isinstance(metadata, dict) and isinstance(metadata.get("exit_code"), int):
                exit_code = metadata["exit_code"]
            if output.get("success") is False:
                is_error = True
            body = output.get("output", output.get("content", ""))
            text = body if isinstance(body, str) else summarise_input(body, 100_000)
        else:
            text = output if isinstance(output, str) else summarise_input(output, 100_000)
        if exit_code is None:
            match = _EXIT.search(text[:500])
            if match:
                exit_code = int(match.group(1))
        bounded, truncated = bound_output(text)
        result = ToolResult(
            text=bounded,
            call_id=call_id,
            is_error=is_error or bool(exit_code),
            exit_code=exit_code,
            truncated=truncated,
        )
        call = self.calls.get(call_id) if call_id else None
        if call is not None:
            if call.command is not None:
                call.exit_code = exit_code
            call.failed = result.is_error
        if call_id:
            self.results[call_id] = result
        return result

    def event(self, payload: dict[str, Any], stamp: Any) -> None:
        etype = payload.get("type")
        message = payload.get("message")
        if etype in ("user_message", "agent_message"):
            if isinstance(message, str) and message.strip():
                user = etype == "user_message"
                if user and message.lstrip().startswith(_CONTEXT_PREFIXES):
                    return
                turn = Turn(role="user" if user else "assistant", text=message, timestamp=stamp)
                self.add(turn, from_event=True)
        elif etype == "exec_command_end":
            call_id = payload.get("call_id")
            code = payload.get("exit_code")
            call = self.calls.get(call_id) if isinstance(call_id, str) else None
            if call is not None and isinstance(code, int) and call.exit_code is None:
                call.exit_code = code
                call.failed = code != 0
                result = self.results.get(str(call_id))
                if result is not None:
                    result.exit_code = code
                    result.is_error = result.is_error or code != 0
        elif etype == "error":
            text = message if isinstance(message, str) else "error"
            self.add(Turn(role="assistant", text=text, is_error=True, timestamp=stamp))
        elif etype in QUIET_EVENTS:
            return
        else:
            self.session.skip(f"unknown event {str(etype)[:40]!r}")

    def finish(self) -> Session:
        said = Counter((t.role, _norm(t.text)) for t, ev in self.turns if not ev and t.text)
        kept: list[Turn] = []
        for turn, from_event in self.turns:
            if from_event:
                key = (turn.role, _norm(turn.text))
                if said[key] > 0:
                    said[key] -= 1
                    continue
            kept.append(turn)
        session = self.session
        session.turns = kept
        if session.cwd and not Path(session.cwd).is_dir() and self.repository_url:
            session.project = project_from_remote_url(self.repository_url)
        elif session.cwd:
            session.project = project_for_cwd(session.cwd)
        elif self.repository_url:
            session.project = project_from_remote_url(self.repository_url)
        return session.finish()
