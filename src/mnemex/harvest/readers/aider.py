"""Aider chat history: ``.aider.chat.history.md`` in each repository.

Follows the layout of the file as Aider writes it (aider.chat's documentation of
``--chat-history-file`` and the markdown Aider's ``InputOutput`` appends), written from
memory; not checked against Aider's source.

- ``# aider chat started at YYYY-MM-DD HH:MM:SS`` starts a session (local time of the
  machine that wrote it; read here in this machine's time zone). The file has no session
  ids: a session's id is the first 16 hex of sha256 of the repository folder and that header.
- ``#### `` lines are what the user typed (consecutive ones are one message);
  ``/run <cmd>``, ``/test <cmd>`` and ``!<cmd>`` are shell commands the user ran (no exit
  status is recorded).
- ``> `` lines are Aider's own output (tool output, a tool turn); ``> Applied edit to
  <file>`` names a file edited.
- Anything else is the assistant's reply (fenced code kept as it is).

One file holds many sessions: each session's ``content_sha256`` is the hash of its own part
of the file, so appending a session leaves the earlier ones unchanged. The project is the
repository folder (its git remote's name when it is a git repository, else its name).
Timestamps exist only for a session's start; ``ended`` is unknown (None).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections.abc import Iterator
from pathlib import Path

from mnemex.harvest.readers import TranscriptReader, sha256_bytes
from mnemex.harvest.transcript import (
    Session,
    ToolCall,
    ToolResult,
    Turn,
    bound_output,
    decode_line,
)
from mnemex.vault.projects import project_for_cwd

FILENAME = ".aider.chat.history.md"
_HEADER = re.compile(rb"^# aider chat started at (\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d)")
_APPLIED = re.compile(r"^Applied edit to (.+?)\s*$")
_RUN = re.compile(r"^(?:/run|/test|/lint|!)\s*(.*)$", re.DOTALL)


class AiderReader(TranscriptReader):
    harness = "aider"

    def discover(self, root: Path) -> Iterator[Path]:
        """``root`` is a repository (or a file); one level of sub-folders is looked at too."""
        if root.is_file():
            yield root
            return
        if not root.is_dir():
            return
        if (root / FILENAME).is_file():
            yield root / FILENAME
        for child in sorted(p for p in root.iterdir() if p.is_dir()):
            if (child / FILENAME).is_file():
                yield child / FILENAME

    def read(self, path: Path) -> list[Session]:
        data = path.read_bytes()
        repo = path.parent.resolve()
        project = project_for_cwd(str(repo))
        lines = data.split(b"\n")
        starts = [i for i, line in enumerate(lines) if _HEADER.match(line)]
        sessions: list[Session] = []
        if not starts or starts[0] > 0:
            before = lines[: starts[0]] if starts else lines
            if any(line.strip() for line in before):
                orphan = Session(
                    id=hashlib.sha256(f"{repo}:preamble".encode()).hexdigest()[:16],
                    harness=self.harness,
                    source=path,
                    content_sha256=sha256_bytes(b"\n".join(before)),
                    cwd=str(repo),
                    project=project,
                )
                orphan.skip("text before the first session header", 1)
                if not starts:
                    return [orphan.finish()]
                sessions.append(orphan.finish())
        ids: set[str] = set()
        for n, start in enumerate(starts):
            end = starts[n + 1] if n + 1 < len(starts) else len(lines)
            chunk = lines[start:end]
            header = chunk[0].decode("utf-8", errors="replace").strip()
            sid = hashlib.sha256(f"{repo}:{header}".encode()).hexdigest()[:16]
            while sid in ids:
                sid = hashlib.sha256(f"{sid}:again".encode()).hexdigest()[:16]
            ids.add(sid)
            session = Session(
                id=sid,
                harness=self.harness,
                source=path,
                content_sha256=sha256_bytes(b"\n".join(chunk)),
                cwd=str(repo),
                project=project,
            )
            match = _HEADER.match(chunk[0])
            if match:
                try:
                    naive = dt.datetime.fromisoformat(match.group(1).decode().replace(" ", "T"))
                    session.started = naive.astimezone(dt.UTC)
                except ValueError:
                    session.skip("unreadable session header time")
            self._turns(session, [decode_line(raw, session) for raw in chunk[1:]])
            sessions.append(session.finish())
        return sessions

    @staticmethod
    def _turns(session: Session, lines: list[str]) -> None:
        kind: str | None = None
        buffer: list[str] = []
        fence = False
        pending: ToolCall | None = None

        def flush() -> None:
            nonlocal pending
            text = "\n".join(buffer).strip("\n")
            buffer.clear()
            if kind is None or not text.strip():
                return
            if kind == "user":
                turn = Turn(role="user", text=text)
                run = _RUN.match(text.strip())
                if run and run.group(1).strip():
                    pending = ToolCall(
                        name="run",
                        command=run.group(1).strip(),
                        input_summary=text,
                        call_id=f"run-{len(session.turns)}",
                    )
                    turn.tool_calls.append(pending)
                session.turns.append(turn)
            elif kind == "tool":
                edited = [m.group(1) for m in (_APPLIED.match(ln) for ln in text.splitlines()) if m]
                if edited:
                    owner = next(
                        (t for t in reversed(session.turns) if t.role == "assistant"), None
                    )
                    if owner is None:
                        owner = Turn(role="assistant")
                        session.turns.append(owner)
                    owner.tool_calls.append(
                        ToolCall(
                            name="apply_edit", input_summary=", ".join(edited), files_edited=edited
                        )
                    )
                bounded, truncated = bound_output(text)
                result = ToolResult(text=bounded, truncated=truncated)
                if pending is not None:
                    result.call_id = pending.call_id
                    pending = None
                session.turns.append(Turn(role="tool", tool_results=[result]))
            else:
                session.turns.append(Turn(role="assistant", text=text))
                pending = None

        for line in lines:
            if not fence and line.startswith("####"):
                new = "user"
                content = line[4:].removeprefix(" ")
            elif not fence and (line.startswith("> ") or line == ">"):
                new = "tool"
                content = line[2:]
            else:
                new = "assistant"
                content = line
                if not line.strip() and kind in ("user", "tool"):
                    new = kind  # a blank line does not end a block by itself
                elif line.lstrip().startswith("```"):
                    fence = not fence
            if new != kind:
                flush()
                kind = new
            buffer.append(content)
        flush()
