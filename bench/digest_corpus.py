"""Render the hand-written sessions of ``bench/data/digest_sessions/`` as real transcripts.

    python bench/digest_corpus.py --out DIR          # write Claude Code and Codex files
    python bench/digest_corpus.py --check            # every script renders and reads back

Each ``<id>.yaml`` is one session written by hand (issue 17): what the user asked, what the
agent said and thought, every command with its real-looking output, edits, compactions,
interruptions. This module only turns a script into the file layout and records of the
harness it names, as those harnesses write them:

- ``claude-code``: ``<out>/claude/projects/<cwd slug>/<session uuid>.jsonl``: ``user`` /
  ``assistant`` records with ``uuid``/``parentUuid`` chains, one content block per line
  for a multi-block assistant message (shared ``message.id``), ``thinking`` blocks, ``Bash``
  / ``Read`` / ``Edit`` / ``Write`` / ``Grep`` tool uses with ``tool_result`` blocks and
  ``toolUseResult``, ``system`` ``compact_boundary`` records followed by the
  ``isCompactSummary`` user record, interruptions, ``file-history-snapshot`` records and a
  ``summary`` record;
- ``codex``: ``<out>/codex/sessions/YYYY/MM/DD/rollout-<stamp>-<uuid>.jsonl``:
  ``session_meta``, ``turn_context``, ``response_item`` (``message``, ``reasoning``,
  ``function_call`` shell calls with ``function_call_output``, ``custom_tool_call``
  ``apply_patch``), ``event_msg`` mirrors (``user_message``, ``agent_message``,
  ``exec_command_end``, ``token_count``) and ``compacted`` records.

The questions a later session would ask, and the exact string each answer needs, are in the
same script (``questions``); ``bench/digest_retention.py`` asks them of the digests.

Script events, in order (one key each):

    user: text                      the person's message
    say: text                       the agent's visible message
    think: text                     hidden reasoning (thinking / reasoning)
    run: {cmd, exit, output}        a shell command (exit defaults to 0)
    read: {path, output}            a file read (Read tool / sed -n)
    grep: {pattern, output}         a search (Grep tool / rg)
    edit: {path, old, new}          an edit (Edit tool / apply_patch)
    write: {path, content}          a new file (Write tool / apply_patch Add File)
    compact: text                   the context was compacted; text is the harness summary
    interrupt: true                 the user interrupted the agent
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import sys
import uuid
from pathlib import Path
from typing import Any

import yaml

DATA = Path(__file__).parent / "data" / "digest_sessions"
STEP = dt.timedelta(seconds=17)


def load_scripts(folder: Path = DATA) -> list[dict[str, Any]]:
    scripts = []
    for path in sorted(folder.glob("*.yaml")):
        try:
            script = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            raise SystemExit(f"{path.name}: not valid YAML: {exc}") from None
        script.setdefault("id", path.stem)
        scripts.append(script)
    return scripts


KINDS = ("decision", "abandoned", "failed", "open", "identifier", "outcome")


def norm(text: str) -> str:
    """Lower case, one space between words, no backticks or quotes: how a needed string is
    matched."""
    return " ".join(re.sub(r"[`'\"]", " ", text.lower()).split())


def session_text(session: Any) -> str:
    """Everything a reader kept of a session: messages, commands, tool inputs and outputs."""
    parts = list(session.summaries)
    for turn in session.turns:
        parts.append(turn.text)
        parts += [f"{c.command or ''} {c.input_summary}" for c in turn.tool_calls]
        parts += [r.text for r in turn.tool_results]
    return "\n".join(parts)


def _uuid(seed: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"mnemex-digest-corpus:{seed}"))


def _stamp(when: dt.datetime) -> str:
    return when.astimezone(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _start(script: dict[str, Any]) -> dt.datetime:
    start = script["start"]
    if isinstance(start, dt.datetime):
        return start if start.tzinfo else start.replace(tzinfo=dt.UTC)
    return dt.datetime.fromisoformat(str(start).replace("Z", "+00:00"))


def _abs(cwd: str, path: str) -> str:
    return path if path.startswith("/") else f"{cwd.rstrip('/')}/{path}"


def _numbered(text: str) -> str:
    return "\n".join(f"{n:>6}\t{line}" for n, line in enumerate(text.splitlines(), 1))


class _Writer:
    """What both harnesses' writers hold: the script, its session id, folder and clock."""

    def __init__(self, script: dict[str, Any]) -> None:
        self.s = script
        self.sid = _uuid(script["id"])
        self.cwd = script["cwd"]
        self.when = _start(script)
        self.lines: list[dict[str, Any]] = []

    def play(self) -> None:
        """Each event of the script, by its ``on_<event>`` method."""
        for n, event in enumerate(self.s["events"], 1):
            (key, value), *_ = event.items()
            handler = getattr(self, f"on_{key}", None)
            if handler is None:
                raise SystemExit(f"{self.s['id']}: event {n} is {key!r}, not one of the events")
            handler(value)


class _Claude(_Writer):
    """Claude Code's project-folder JSONL."""

    def __init__(self, script: dict[str, Any]) -> None:
        super().__init__(script)
        self.parent: str | None = None
        self.n = 0
        self.msg = 0
        self.version = script.get("version", "2.0.14")

    def key(self, what: str, n: int) -> str:
        return _uuid(f"{self.s['id']}:{what}").replace("-", "")[:n]

    def tick(self) -> str:
        self.when += STEP
        return _stamp(self.when)

    def base(self, kind: str) -> dict[str, Any]:
        self.n += 1
        uid = _uuid(f"{self.s['id']}:{self.n}")
        rec = {
            "parentUuid": self.parent,
            "isSidechain": False,
            "userType": "external",
            "cwd": self.cwd,
            "sessionId": self.sid,
            "version": self.version,
            "gitBranch": self.s.get("branch", ""),
            "type": kind,
            "uuid": uid,
            "timestamp": self.tick(),
        }
        self.parent = uid
        return rec

    def user(self, content: Any, **extra: Any) -> None:
        rec = self.base("user")
        rec["message"] = {"role": "user", "content": content}
        rec.update(extra)
        self.lines.append(rec)

    def assistant(self, blocks: list[dict[str, Any]]) -> None:
        self.msg += 1
        mid = "msg_01" + self.key(f"m{self.msg}", 22)
        for block in blocks:  # one line per content block, sharing message.id
            rec = self.base("assistant")
            rec["message"] = {
                "id": mid,
                "type": "message",
                "role": "assistant",
                "model": self.s.get("model", "claude-sonnet-4-5-20250929"),
                "content": [block],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {
                    "input_tokens": 4,
                    "output_tokens": 120,
                    "cache_read_input_tokens": 20311,
                },
            }
            rec["requestId"] = f"req_011{mid[-16:]}"
            self.lines.append(rec)

    def tool(self, name: str, inp: dict[str, Any], output: str, error: bool, extra: Any) -> None:
        tid = "toolu_01" + self.key(f"t{self.n}", 22)
        self.assistant([{"type": "tool_use", "id": tid, "name": name, "input": inp}])
        block: dict[str, Any] = {"tool_use_id": tid, "type": "tool_result", "content": output}
        if error:
            block["is_error"] = True
        self.user([block], toolUseResult=extra)

    def render(self) -> list[dict[str, Any]]:
        self.lines.append(
            {
                "type": "file-history-snapshot",
                "messageId": _uuid(f"{self.s['id']}:snap"),
                "snapshot": {"trackedFileBackups": {}, "timestamp": _stamp(self.when)},
                "isSnapshotUpdate": False,
            }
        )
        self.play()
        if self.s.get("title"):
            self.lines.insert(
                0, {"type": "summary", "summary": self.s["title"], "leafUuid": self.parent}
            )
        return self.lines

    def on_user(self, text: str) -> None:
        self.user(text)

    def on_say(self, text: str) -> None:
        self.assistant([{"type": "text", "text": text}])

    def on_think(self, text: str) -> None:
        self.assistant([{"type": "thinking", "thinking": text, "signature": "EqQBCkYIBxgCKkA"}])

    def on_run(self, v: dict[str, Any]) -> None:
        code = int(v.get("exit", 0))
        out = str(v.get("output", "")).rstrip("\n")
        shown = f"Exit code {code}\n{out}" if code else out
        extra = {"stdout": out, "stderr": "", "interrupted": False, "isImage": False}
        inp = {"command": v["cmd"], "description": v.get("why", "Run command")}
        self.tool("Bash", inp, shown, bool(code), f"Error: {shown}" if code else extra)

    def on_read(self, v: dict[str, Any]) -> None:
        path = _abs(self.cwd, v["path"])
        out = str(v.get("output", ""))
        extra = {"type": "text", "file": {"filePath": path, "content": out}}
        self.tool("Read", {"file_path": path}, _numbered(out), False, extra)

    def on_grep(self, v: dict[str, Any]) -> None:
        out = str(v.get("output", ""))
        inp = {"pattern": v["pattern"], "output_mode": "content", "-n": True}
        self.tool("Grep", inp, out, False, {"mode": "content", "numLines": out.count("\n") + 1})

    def on_edit(self, v: dict[str, Any]) -> None:
        path = _abs(self.cwd, v["path"])
        inp = {"file_path": path, "old_string": v.get("old", ""), "new_string": v.get("new", "")}
        msg = f"The file {path} has been updated. Here's the result of running `cat -n` on it"
        self.tool("Edit", inp, msg, False, {"filePath": path, "oldString": inp["old_string"]})

    def on_write(self, v: dict[str, Any]) -> None:
        path = _abs(self.cwd, v["path"])
        inp = {"file_path": path, "content": v.get("content", "")}
        self.tool("Write", inp, f"File created successfully at: {path}", False, {"type": "create"})

    def on_compact(self, text: str) -> None:
        rec = self.base("system")
        rec.update(
            subtype="compact_boundary",
            content="Conversation compacted",
            isMeta=False,
            level="info",
            compactMetadata={"trigger": "auto", "preTokens": 155_000},
        )
        self.lines.append(rec)
        head = (
            "This session is being continued from a previous conversation that ran out of "
            "context. The conversation is summarized below:\n"
        )
        self.user(head + text, isCompactSummary=True, isVisibleInTranscriptOnly=True)

    def on_interrupt(self, _: Any) -> None:
        self.user([{"type": "text", "text": "[Request interrupted by user]"}])


class _Codex(_Writer):
    """Codex CLI's rollout JSONL."""

    def __init__(self, script: dict[str, Any]) -> None:
        super().__init__(script)
        self.calls = 0

    def put(self, kind: str, payload: dict[str, Any]) -> None:
        self.when += STEP
        self.lines.append({"timestamp": _stamp(self.when), "type": kind, "payload": payload})

    def item(self, payload: dict[str, Any]) -> None:
        self.put("response_item", payload)

    def call_id(self) -> str:
        self.calls += 1
        return "call_" + _uuid(f"{self.s['id']}:c{self.calls}").replace("-", "")[:24]

    def render(self) -> list[dict[str, Any]]:
        meta = {
            "id": self.sid,
            "timestamp": _stamp(self.when),
            "cwd": self.cwd,
            "originator": "codex_cli_rs",
            "cli_version": self.s.get("version", "0.46.0"),
            "instructions": None,
            "git": {
                "commit_hash": _uuid(f"{self.s['id']}:head").replace("-", "")[:40],
                "branch": self.s.get("branch", "main"),
                "repository_url": self.s.get("repo", ""),
            },
        }
        self.put("session_meta", meta)
        env = f"<environment_context>\n  <cwd>{self.cwd}</cwd>\n  <approval_policy>on-request"
        env += "</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n"
        env += "  <network_access>restricted</network_access>\n  <shell>bash</shell>\n"
        env += "</environment_context>"
        self.item({"type": "message", "role": "user", "content": [_text("input", env)]})
        self.play()
        return self.lines

    def context(self) -> None:
        self.put(
            "turn_context",
            {
                "cwd": self.cwd,
                "approval_policy": "on-request",
                "sandbox_policy": {"mode": "workspace-write", "network_access": False},
                "model": self.s.get("model", "gpt-5-codex"),
                "effort": "medium",
                "summary": "auto",
            },
        )

    def on_user(self, text: str) -> None:
        self.put("event_msg", {"type": "task_started", "model_context_window": 272_000})
        self.context()
        self.item({"type": "message", "role": "user", "content": [_text("input", text)]})
        self.put("event_msg", {"type": "user_message", "message": text, "images": []})

    def on_say(self, text: str) -> None:
        self.put("event_msg", {"type": "agent_message", "message": text})
        self.item({"type": "message", "role": "assistant", "content": [_text("output", text)]})
        self.put("event_msg", {"type": "token_count", "info": None, "rate_limits": None})

    def on_think(self, text: str) -> None:
        self.put("event_msg", {"type": "agent_reasoning", "text": text})
        summary = [{"type": "summary_text", "text": text}]
        self.item({"type": "reasoning", "summary": summary, "encrypted_content": "gAAAAABo"})

    def shell(self, cmd: str, code: int, output: str) -> None:
        cid = self.call_id()
        args = {"command": ["bash", "-lc", cmd], "workdir": self.cwd, "timeout_ms": 120_000}
        self.item(
            {
                "type": "function_call",
                "name": "shell",
                "arguments": json.dumps(args),
                "call_id": cid,
            }
        )
        self.put(
            "event_msg",
            {
                "type": "exec_command_end",
                "call_id": cid,
                "stdout": output,
                "stderr": "",
                "aggregated_output": output,
                "exit_code": code,
                "duration": {"secs": 2, "nanos": 0},
                "formatted_output": output,
            },
        )
        body = {"output": output, "metadata": {"exit_code": code, "duration_seconds": 2.1}}
        self.item({"type": "function_call_output", "call_id": cid, "output": json.dumps(body)})

    def patch(self, body: str) -> None:
        cid = self.call_id()
        self.item(
            {
                "type": "custom_tool_call",
                "status": "completed",
                "call_id": cid,
                "name": "apply_patch",
                "input": f"*** Begin Patch\n{body}*** End Patch\n",
            }
        )
        first = body.splitlines()[0]
        verb, path = ("A" if "Add File" in first else "M"), first.split(": ", 1)[1]
        out = {
            "output": f"Success. Updated the following files:\n{verb} {path}\n",
            "metadata": {"exit_code": 0, "duration_seconds": 0.0},
        }
        self.item({"type": "custom_tool_call_output", "call_id": cid, "output": json.dumps(out)})

    def on_run(self, v: dict[str, Any]) -> None:
        self.shell(v["cmd"], int(v.get("exit", 0)), str(v.get("output", "")))

    def on_read(self, v: dict[str, Any]) -> None:
        out = str(v.get("output", ""))
        self.shell(f"sed -n '1,{max(1, out.count(chr(10)) + 1)}p' {v['path']}", 0, out)

    def on_grep(self, v: dict[str, Any]) -> None:
        self.shell(f"rg -n {json.dumps(v['pattern'])}", 0, str(v.get("output", "")))

    def on_edit(self, v: dict[str, Any]) -> None:
        old = "".join(f"-{ln}\n" for ln in str(v.get("old", "")).splitlines())
        new = "".join(f"+{ln}\n" for ln in str(v.get("new", "")).splitlines())
        self.patch(f"*** Update File: {v['path']}\n@@\n{old}{new}")

    def on_write(self, v: dict[str, Any]) -> None:
        lines = "".join(f"+{ln}\n" for ln in str(v.get("content", "")).splitlines())
        self.patch(f"*** Add File: {v['path']}\n{lines}")

    def on_compact(self, text: str) -> None:
        self.put("compacted", {"message": text})

    def on_interrupt(self, _: Any) -> None:
        self.put("event_msg", {"type": "turn_aborted", "reason": "interrupted"})


def _text(side: str, text: str) -> dict[str, str]:
    return {"type": f"{side}_text", "text": text}


def render(script: dict[str, Any], out: Path) -> Path:
    """Write ``script`` as its harness writes it under ``out``; return the file."""
    if script["harness"] == "claude-code":
        lines = _Claude(script).render()
        slug = re.sub(r"[^A-Za-z0-9]", "-", script["cwd"])
        path = out / "claude" / "projects" / slug / f"{_uuid(script['id'])}.jsonl"
    elif script["harness"] == "codex":
        lines = _Codex(script).render()
        start = _start(script)
        stamp = start.strftime("%Y-%m-%dT%H-%M-%S")
        day = out / "codex" / "sessions" / start.strftime("%Y/%m/%d")
        path = day / f"rollout-{stamp}-{_uuid(script['id'])}.jsonl"
    else:
        raise ValueError(f"{script['id']}: unknown harness {script['harness']!r}")
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    path.write_text(text, encoding="utf-8")
    return path


def render_all(out: Path, folder: Path = DATA) -> dict[str, Path]:
    return {s["id"]: render(s, out) for s in load_scripts(folder)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="write the transcripts here")
    parser.add_argument("--check", action="store_true", help="render and read each back")
    parser.add_argument("--folder", type=Path, default=DATA)
    args = parser.parse_args()
    if args.out:
        for sid, path in render_all(args.out, args.folder).items():
            print(f"{sid}: {path}")
    if args.check:
        import tempfile

        from mnemex.harvest.readers import load_reader

        with tempfile.TemporaryDirectory() as tmp:
            bad = 0
            for script in load_scripts(args.folder):
                path = render(script, Path(tmp))
                (session,) = load_reader(script["harness"]).read(path)
                problems = [f"skipped {dict(session.skipped)}"] if session.skipped else []
                said = norm(session_text(session))
                questions = script.get("questions") or []
                if len(questions) < 3:
                    problems.append(f"{len(questions)} questions (at least 3)")
                for q in questions:
                    if q.get("kind") not in KINDS:
                        problems.append(f"kind {q.get('kind')!r} not one of {KINDS}")
                    if norm(str(q.get("needs", ""))) not in said:
                        problems.append(f"needs {q.get('needs')!r} is not in the transcript")
                turns = len(session.turns)
                print(f"{script['id']}: {script['harness']}, {turns} turns, {len(questions)} q")
                for problem in problems:
                    print(f"  PROBLEM: {problem}")
                bad += bool(problems)
            print(f"{bad} script(s) with problems")
            return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
