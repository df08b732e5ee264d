"""Synthetic Claude Code transcripts for the harvest tests (written here, never copied)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

CWD = "/nonexistent/work/synth-app"


def _rec(kind: str, uid: str, session: str, ts: str, message: dict[str, Any]) -> str:
    record = {
        "type": kind,
        "uuid": f"{session}-{uid}",
        "parentUuid": None,
        "sessionId": session,
        "timestamp": ts,
        "cwd": CWD,
        "gitBranch": "main",
        "message": message,
    }
    return json.dumps(record)


def claude_session(
    root: Path,
    session: str,
    request: str = "Make the importer skip blank rows.",
    final: str = "Done: blank rows are skipped and the tests pass.",
    extra_requests: tuple[str, ...] = (),
    cwd: str = CWD,
    old: bool = True,
) -> Path:
    """A Claude Code session: a request, a failing command, an edit, a passing run, an answer."""
    lines = [
        _rec("user", "u1", session, "2026-11-20T10:00:00Z", {"role": "user", "content": request}),
        _rec(
            "assistant",
            "a1",
            session,
            "2026-11-20T10:00:05Z",
            {
                "id": "m1",
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Running the tests first."},
                    {
                        "type": "tool_use",
                        "id": "t1",
                        "name": "Bash",
                        "input": {"command": "pytest -q tests/test_import.py"},
                    },
                ],
            },
        ),
        _rec(
            "user",
            "u2",
            session,
            "2026-11-20T10:00:20Z",
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "t1",
                        "is_error": True,
                        "content": "Exit code 2\nE   KeyError: 'amount'",
                    }
                ],
            },
        ),
        _rec(
            "assistant",
            "a2",
            session,
            "2026-11-20T10:01:00Z",
            {
                "id": "m2",
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "We will use csv.DictReader instead of split."},
                    {
                        "type": "tool_use",
                        "id": "t2",
                        "name": "Edit",
                        "input": {
                            "file_path": f"{cwd}/app/importer.py",
                            "old_string": "a",
                            "new_string": "b",
                        },
                    },
                ],
            },
        ),
        _rec(
            "user",
            "u3",
            session,
            "2026-11-20T10:01:05Z",
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t2", "content": "ok"}],
            },
        ),
    ]
    for n, extra in enumerate(extra_requests):
        lines.append(
            _rec(
                "user",
                f"x{n}",
                session,
                f"2026-11-20T10:0{2 + n}:00Z",
                {"role": "user", "content": extra},
            )
        )
    lines.append(
        _rec(
            "assistant",
            "a9",
            session,
            "2026-11-20T10:09:00Z",
            {"id": "m9", "role": "assistant", "content": [{"type": "text", "text": final}]},
        )
    )
    text = "\n".join(line.replace(CWD, cwd) for line in lines) + "\n"
    folder = root / "-nonexistent-work-synth-app"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{session}.jsonl"
    path.write_text(text, encoding="utf-8")
    if old:
        make_old(path)
    return path


def make_old(path: Path, seconds: float = 3600) -> None:
    """Set the file's mtime ``seconds`` in the past (settled)."""
    st = path.stat()
    os.utime(path, (st.st_atime - seconds, st.st_mtime - seconds))
