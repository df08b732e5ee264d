"""Bad input is never fatal: skipped, counted with a reason, the rest read."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from mnemex.harvest import load_reader, reader_names
from mnemex.harvest.readers.aider import AiderReader
from mnemex.harvest.readers.claude_code import ClaudeCodeReader
from mnemex.harvest.readers.codex import CodexReader
from mnemex.harvest.readers.gemini import GeminiReader
from mnemex.harvest.transcript import MAX_OUTPUT_CHARS, bound_output

FIXTURES = Path(__file__).parent / "fixtures"
SESS_A = FIXTURES / "claude" / "projects" / "-home-someone-elsewhere" / "sess-a.jsonl"
ROLLOUT = next((FIXTURES / "codex" / "sessions").rglob("rollout-*.jsonl"))
CHAT = next((FIXTURES / "gemini" / "tmp").rglob("chats/*.json"))


def claude_line(uuid: str, content: object, role: str = "user", **extra: object) -> str:
    record = {
        "type": role,
        "uuid": uuid,
        "sessionId": "bad",
        "timestamp": "2026-11-30T09:00:00Z",
        "cwd": "/nonexistent/bad-project",
        "message": {"role": role, "content": content, **({"id": uuid} if role != "user" else {})},
        **extra,
    }
    return json.dumps(record, ensure_ascii=False)


def test_a_claude_file_cut_mid_record_still_yields_its_complete_records(tmp_path: Path) -> None:
    data = SESS_A.read_bytes().rstrip(b"\n")
    cut = data[: data.rindex(b"\n") + 40]  # the last record is cut after 40 bytes
    path = tmp_path / "p" / "cut.jsonl"
    path.parent.mkdir()
    path.write_bytes(cut)
    whole = ClaudeCodeReader().read(SESS_A)[0]
    session = ClaudeCodeReader().read(path)[0]
    assert session.skipped["truncated last line"] == 1
    assert [t.text for t in session.turns] == [t.text for t in whole.turns]
    assert session.summaries == []  # the summary record was the one cut


def test_invalid_lines_non_objects_and_wrong_shapes_are_counted_not_fatal(tmp_path: Path) -> None:
    lines = [
        claude_line("u1", "first request"),
        "{not json at all",
        "[1, 2, 3]",
        json.dumps({"type": "user", "uuid": "u2", "message": "a string, not an object"}),
        json.dumps({"type": "assistant", "uuid": "a1", "message": {"content": 42}}),
        json.dumps({"uuid": "n1"}),
        claude_line("u3", [{"type": "hologram"}, "not a block", {"type": "text", "text": "ok"}]),
        claude_line("u1", "first request"),
    ]
    path = tmp_path / "p" / "bad.jsonl"
    path.parent.mkdir()
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    session = ClaudeCodeReader().read(path)[0]
    assert [t.text for t in session.turns if t.role == "user"] == ["first request", "ok"]
    assert dict(session.skipped) == {
        "invalid JSON line": 1,
        "record is not a JSON object": 1,
        "user record without a message": 1,
        "assistant message without content": 1,
        "record without a type": 1,
        "unknown content block 'hologram'": 1,
        "content block is not an object": 1,
        "duplicate record": 1,
    }


def test_non_utf8_bytes_are_replaced_and_counted(tmp_path: Path) -> None:
    line = claude_line("u1", "caf\u00e9 menu").encode().replace("\u00e9".encode(), b"\xe9")
    path = tmp_path / "p" / "latin1.jsonl"
    path.parent.mkdir()
    path.write_bytes(line + b"\n")
    session = ClaudeCodeReader().read(path)[0]
    assert session.turns[0].text == "caf\ufffd menu"
    assert session.skipped["non-UTF-8 bytes replaced"] == 1


def test_a_huge_tool_output_is_truncated_with_a_note(tmp_path: Path) -> None:
    huge = "line of build output\n" * 50_000
    lines = [
        claude_line(
            "a1",
            [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "make"}}],
            role="assistant",
        ),
        claude_line("u1", [{"type": "tool_result", "tool_use_id": "t1", "content": huge}]),
    ]
    path = tmp_path / "p" / "huge.jsonl"
    path.parent.mkdir()
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = ClaudeCodeReader().read(path)[0].turns[1].tool_results[0]
    assert result.truncated
    assert len(result.text) < MAX_OUTPUT_CHARS + 100
    assert "characters of output truncated" in result.text
    assert result.text.startswith("line of build output")


def test_binary_blobs_in_tool_results_become_a_marker(tmp_path: Path) -> None:
    blob = "".join(chr(random.Random(1).randrange(0, 32)) for _ in range(3000)) + "\x00"
    image = {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": "A" * 50_000},
    }
    lines = [
        claude_line("u1", [{"type": "tool_result", "tool_use_id": "t1", "content": blob}]),
        claude_line("u2", [{"type": "tool_result", "tool_use_id": "t2", "content": [image]}]),
        claude_line(
            "u3", [{"type": "tool_result", "tool_use_id": "t3", "content": "b64: " + "QUJD" * 1000}]
        ),
    ]
    path = tmp_path / "p" / "blob.jsonl"
    path.parent.mkdir()
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    texts = [r.text for t in ClaudeCodeReader().read(path)[0].turns for r in t.tool_results]
    assert texts[0].startswith("[binary content omitted")
    assert texts[1] == "[binary content omitted: image/png]"
    assert texts[2].startswith("b64: [binary blob omitted")
    assert all(len(t) < 200 for t in texts)


def test_bound_output_leaves_small_text_alone() -> None:
    assert bound_output("ok\n") == ("ok\n", False)


def test_a_codex_rollout_cut_mid_record_keeps_what_came_before(tmp_path: Path) -> None:
    data = ROLLOUT.read_bytes()
    marker = data.index(b'"type":"custom_tool_call"')
    path = tmp_path / "rollout-cut.jsonl"
    path.write_bytes(data[: marker + 30])
    session = CodexReader().read(path)[0]
    assert session.skipped["truncated last line"] == 1
    assert [c.command for c in session.tool_calls] == ["cargo test import"]
    assert session.id == "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0000"


def test_a_gemini_chat_cut_mid_way_keeps_its_complete_messages(tmp_path: Path) -> None:
    text = CHAT.read_text(encoding="utf-8")
    folder = tmp_path / "hash" / "chats"
    folder.mkdir(parents=True)
    path = folder / "session-cut.json"
    path.write_text(text[: text.index('"id": "m4"')], encoding="utf-8")
    session = GeminiReader().read(path)[0]
    assert session.skipped["file cut mid-record"] == 1
    assert session.id == "1a2b3c4d-0000-4000-8000-000000000001"
    assert [t.role for t in session.turns] == ["user", "assistant", "tool"]


def test_a_gemini_file_of_an_unknown_shape_is_counted(tmp_path: Path) -> None:
    path = tmp_path / "odd.json"
    path.write_text('{"version": 99, "something": "else"}', encoding="utf-8")
    session = GeminiReader().read(path)[0]
    assert session.turns == []
    assert dict(session.skipped) == {"unrecognised Gemini CLI file": 1}


def test_aider_text_before_the_first_header_and_bad_bytes_are_counted(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES / "aider" / "garden-planner", repo)
    history = repo / ".aider.chat.history.md"
    history.write_bytes(b"stray text\n" + history.read_bytes() + b"#### caf\xe9\n")
    sessions = AiderReader().read(history)
    assert sessions[0].skipped == {"text before the first session header": 1}
    assert sessions[-1].skipped == {"non-UTF-8 bytes replaced": 1}
    assert sessions[-1].turns[-1].text == "caf\ufffd"


@pytest.mark.parametrize("harness", ["aider", "claude-code", "codex", "gemini-cli"])
def test_no_reader_raises_on_garbage_or_empty_files(harness: str, tmp_path: Path) -> None:
    assert harness in reader_names()
    reader = load_reader(harness)
    rng = random.Random(harness)
    samples = [
        b"",
        bytes(rng.randrange(256) for _ in range(4000)),
        b'{"type": "session_meta", "payload": 5}\n{"type": "response_item", "payload": {}}\n',
        b'{"messages": [1, {"type": "gemini", "toolCalls": [3, {"name": "x"}]}]}',
        b'[{"role": "model", "parts": [1, {"functionCall": 2}]}, {"role": 3}]',
        b"# aider chat started at 2026-99-99 99:99:99\n#### hi\n",
        SESS_A.read_bytes()[:777],
    ]
    for n, sample in enumerate(samples):
        path = tmp_path / f"sample-{n}.jsonl"
        path.write_bytes(sample)
        sessions = reader.read(path)
        assert all(s.harness == harness for s in sessions)
