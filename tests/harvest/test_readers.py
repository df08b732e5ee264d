"""The transcript readers over synthetic fixtures (tests/harvest/fixtures/, written by hand)."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from mnemex.errors import ConfigError
from mnemex.harvest import (
    READERS,
    Session,
    TranscriptReader,
    load_reader,
    reader_names,
    register_reader,
)
from mnemex.harvest.readers.aider import AiderReader
from mnemex.harvest.readers.claude_code import ClaudeCodeReader
from mnemex.harvest.readers.codex import CodexReader
from mnemex.harvest.readers.gemini import GeminiReader

FIXTURES = Path(__file__).parent / "fixtures"
CLAUDE = FIXTURES / "claude" / "projects"
CODEX = FIXTURES / "codex" / "sessions"
GEMINI = FIXTURES / "gemini" / "tmp"


def read_all(reader: TranscriptReader, root: Path) -> dict[str, Session]:
    return {s.id: s for s in reader.read_all(root)}


# -- the interface -----------------------------------------------------------


def test_every_builtin_reader_is_registered_under_its_harness_name() -> None:
    assert reader_names() == ["aider", "claude-code", "codex", "gemini-cli"]
    for name in reader_names():
        assert load_reader(name).harness == name


def test_an_unknown_reader_name_is_a_config_error_naming_the_known_ones() -> None:
    with pytest.raises(ConfigError, match="claude-code"):
        load_reader("nope")


def test_a_third_party_reader_registers_like_the_builtins(monkeypatch: pytest.MonkeyPatch) -> None:
    class Mine(TranscriptReader):
        harness = "mine"

        def discover(self, root: Path) -> Iterator[Path]:
            yield root

        def read(self, path: Path) -> list[Session]:
            return [Session(id="1", harness="mine", source=path, content_sha256="0")]

    monkeypatch.setitem(READERS, "mine", Mine)
    register_reader("mine", Mine)
    assert [s.id for s in load_reader("mine").read_all(Path("x"))] == ["1"]


# -- Claude Code -------------------------------------------------------------


def test_claude_code_discovers_main_and_subagent_files() -> None:
    names = [p.name for p in ClaudeCodeReader().discover(CLAUDE)]
    assert names == ["sess-a.jsonl", "sess-b.jsonl", "agent-f00d.jsonl"]


def test_claude_code_takes_the_project_from_cwd_not_from_the_folder_slug() -> None:
    session = ClaudeCodeReader().read(CLAUDE / "-home-someone-elsewhere" / "sess-a.jsonl")[0]
    assert session.id == "sess-a"
    assert session.harness == "claude-code"
    assert session.project == "demo-shop"
    assert session.cwd == "/nonexistent/work/demo-shop"
    assert session.git_branch == "fix-cart"
    assert session.model == "claude-test-1"
    assert session.started is not None
    assert session.started.isoformat() == "2026-11-30T09:00:00+00:00"
    assert session.ended is not None
    assert session.ended.isoformat() == "2026-11-30T09:04:00+00:00"
    assert session.summaries == ["Fix cart coupon total"]
    assert len(session.content_sha256) == 64


def test_claude_code_merges_an_assistant_message_split_over_several_lines() -> None:
    session = ClaudeCodeReader().read(CLAUDE / "-home-someone-elsewhere" / "sess-a.jsonl")[0]
    first = next(t for t in session.turns if t.role == "assistant")
    assert first.text == "I will run the test suite to see the failure."
    assert [c.name for c in first.tool_calls] == ["Bash"]
    assert sum(1 for t in session.turns if t.uid in {"a1", "a2", "a3"}) == 1


def test_claude_code_extracts_shell_commands_with_exit_codes_and_edited_files() -> None:
    session = ClaudeCodeReader().read(CLAUDE / "-home-someone-elsewhere" / "sess-a.jsonl")[0]
    shell = [(c.command, c.exit_code, c.failed) for c in session.tool_calls if c.command]
    assert shell == [("pytest -q tests/test_cart.py", 1, True), ("pytest -q", 0, False)]
    assert session.files_edited == ["/nonexistent/work/demo-shop/shop/cart.py"]
    errors = [r for t in session.turns for r in t.tool_results if r.is_error]
    assert [r.call_id for r in errors] == ["toolu_1"]


def test_claude_code_marks_compaction_and_its_summary_apart_from_user_requests() -> None:
    session = ClaudeCodeReader().read(CLAUDE / "-home-someone-elsewhere" / "sess-a.jsonl")[0]
    kinds = [(t.role, t.kind) for t in session.turns if t.kind != "message"]
    assert kinds == [("assistant", "compaction"), ("user", "summary")]
    requests = [t.text for t in session.turns if t.role == "user" and t.kind == "message"]
    assert requests == ["The cart total is wrong when a coupon is applied. Please fix it."]


def test_claude_code_counts_unknown_record_types_and_drops_known_bookkeeping() -> None:
    session = ClaudeCodeReader().read(CLAUDE / "-home-someone-elsewhere" / "sess-a.jsonl")[0]
    assert dict(session.skipped) == {"unknown record type 'mystery-record'": 1}


def test_claude_code_does_not_repeat_the_prefix_a_forked_session_copied() -> None:
    sessions = read_all(ClaudeCodeReader(), CLAUDE)
    forked = sessions["sess-b"]
    assert forked.parent_session == "sess-a"
    assert [t.text for t in forked.turns if t.role == "user"] == [
        "Now also handle expired coupons."
    ]
    assert forked.skipped["copied from an earlier session"] == 2
    assert forked.started is not None
    assert forked.started.isoformat() == "2026-12-01T10:00:00+00:00"
    assert forked.git_branch == "fix-cart-2"
    assert forked.files_edited == ["/nonexistent/work/demo-shop/shop/coupons.py"]
    # the parent keeps its own history whole
    assert sessions["sess-a"].turns[0].text.startswith("The cart total is wrong")


def test_claude_code_reads_a_subagent_file_as_a_child_of_its_session() -> None:
    sessions = read_all(ClaudeCodeReader(), CLAUDE)
    child = sessions["sess-a:agent-f00d"]
    assert child.parent_session == "sess-a"
    assert child.turns[-1].text == "It is computed in shop/cart.py line 12."


def test_the_project_is_the_git_remote_name_when_the_cwd_is_a_local_repository(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "checkout-folder"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(
        ["git", "-C", str(repo), "remote", "add", "origin", "git@example.com:team/Real-Name.git"],
        check=True,
    )
    line = {
        "type": "user",
        "uuid": "u1",
        "sessionId": "s1",
        "timestamp": "2026-11-30T09:00:00Z",
        "cwd": str(repo),
        "message": {"role": "user", "content": "hello"},
    }
    path = tmp_path / "proj" / "s1.jsonl"
    path.parent.mkdir()
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    assert ClaudeCodeReader().read(path)[0].project == "real-name"


# -- Codex -------------------------------------------------------------------


def codex_session() -> Session:
    paths = list(CodexReader().discover(CODEX))
    assert len(paths) == 1
    return CodexReader().read(paths[0])[0]


def test_codex_reads_the_session_meta_and_turn_context() -> None:
    session = codex_session()
    assert session.id == "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0000"
    assert session.harness == "codex"
    assert session.cwd == "/nonexistent/src/ledger-local"
    # the cwd is not on this machine: the recorded remote names the project
    assert session.project == "ledger-api"
    assert session.git_branch == "main"
    assert session.model == "gpt-test-codex"
    assert session.started is not None
    assert session.started.isoformat() == "2026-11-30T14:00:00+00:00"


def test_codex_mirrored_user_and_agent_messages_appear_once() -> None:
    session = codex_session()
    said = [(t.role, t.text) for t in session.turns if t.text and t.kind == "message"]
    assert said == [
        ("user", "Add a --dry-run flag to the import command."),
        ("assistant", "Added --dry-run; cargo test passes."),
    ]


def test_codex_extracts_shell_commands_exit_codes_and_patched_files() -> None:
    session = codex_session()
    shell = [(c.command, c.exit_code, c.failed) for c in session.tool_calls if c.command]
    assert shell == [("cargo test import", 101, True), ("cargo test", 0, False)]
    assert session.files_edited == ["src/import.rs", "tests/dry_run.rs"]


def test_codex_keeps_the_compacted_summary_and_counts_unknown_types() -> None:
    session = codex_session()
    assert [t.kind for t in session.turns[-2:]] == ["compaction", "summary"]
    assert dict(session.skipped) == {
        "unknown event 'brand_new_event'": 1,
        "unknown record type 'future_record_kind'": 1,
    }


# -- Gemini CLI --------------------------------------------------------------


def test_gemini_reads_a_chat_file_with_tool_calls_and_the_project_root() -> None:
    chat = next(s for s in GeminiReader().read_all(GEMINI) if s.source.parent.name == "chats")
    assert chat.id == "1a2b3c4d-0000-4000-8000-000000000001"
    assert chat.project == "weather-app"
    assert chat.model == "gemini-test-pro"
    shell = [(c.command, c.exit_code, c.failed) for c in chat.tool_calls if c.command]
    assert shell == [("npm test -- cache", 1, True)]
    assert chat.files_edited == ["/nonexistent/code/weather-app/src/cache.ts"]
    assert dict(chat.skipped) == {"unknown message type 'hologram'": 1}


def test_gemini_logs_hold_one_session_per_session_id() -> None:
    reader = GeminiReader()
    logs = next(p for p in reader.discover(GEMINI) if p.name == "logs.json")
    sessions = reader.read(logs)
    assert [len(s.turns) for s in sessions] == [1, 2]
    assert sessions[1].id == "9e8d7c6b-0000-4000-8000-000000000002"


def test_gemini_reads_a_checkpoint_history_of_parts() -> None:
    reader = GeminiReader()
    path = next(p for p in reader.discover(GEMINI) if p.name.startswith("checkpoint"))
    session = reader.read(path)[0]
    assert session.id == "3f1c9a0e7b2d:checkpoint-cache-fix"
    assert [t.role for t in session.turns] == ["user", "assistant", "tool", "assistant"]
    assert session.tool_calls[0].exit_code == 0


def test_gemini_finds_the_project_from_given_roots_by_their_hash(tmp_path: Path) -> None:
    import hashlib

    root = tmp_path / "my-app"
    root.mkdir()
    folder = tmp_path / "gemini" / hashlib.sha256(str(root).encode()).hexdigest()
    folder.mkdir(parents=True)
    (folder / "logs.json").write_text(
        '[{"sessionId": "s", "messageId": 0, "type": "user", "message": "hi",'
        ' "timestamp": "2026-11-30T11:00:00Z"}]',
        encoding="utf-8",
    )
    session = GeminiReader(project_roots=[root]).read(folder / "logs.json")[0]
    assert session.project == "my-app"


# -- Aider -------------------------------------------------------------------


@pytest.fixture
def aider_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "garden-planner"
    shutil.copytree(FIXTURES / "aider" / "garden-planner", repo)
    return repo


def test_aider_splits_the_history_into_sessions_at_each_header(aider_repo: Path) -> None:
    sessions = list(AiderReader().read_all(aider_repo))
    assert len(sessions) == 2
    assert all(s.project == "garden-planner" for s in sessions)
    assert sessions[0].started is not None
    # the header is the writing machine's local time
    local = sessions[0].started.astimezone().replace(tzinfo=None)
    assert local == dt.datetime(2026, 11, 28, 16, 0, 0)
    assert [t.text for t in sessions[0].turns if t.role == "user"] == [
        "make the frost date configurable",
        "/run pytest -q",
    ]
    assert sessions[0].id != sessions[1].id


def test_aider_extracts_applied_edits_and_commands_run(aider_repo: Path) -> None:
    first, second = AiderReader().read_all(aider_repo)
    assert first.files_edited == ["planner.py"]
    assert [c.command for c in first.tool_calls if c.command] == ["pytest -q"]
    assert second.files_edited == ["README.md"]
    assert second.turns[1].text == "Added a section to README.md."


def test_aider_appending_a_session_leaves_earlier_session_hashes_alone(aider_repo: Path) -> None:
    history = aider_repo / ".aider.chat.history.md"
    before = [s.content_sha256 for s in AiderReader().read(history)]
    with history.open("a", encoding="utf-8") as out:
        out.write("\n# aider chat started at 2026-11-30 10:00:00\n\n#### one more thing\n")
    after = [s.content_sha256 for s in AiderReader().read(history)]
    assert after[:2] == before
    assert len(after) == 3


def test_codex_reads_an_older_rollout_of_bare_items(tmp_path: Path) -> None:
    lines = [
        {"id": "old-1", "timestamp": "2025-05-01T10:00:00Z", "instructions": None},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]},
        {
            "type": "function_call",
            "name": "shell",
            "arguments": '{"command": ["ls", "-la"]}',
            "call_id": "c1",
        },
        {"type": "function_call_output", "call_id": "c1", "output": "Exit code: 2\nls: nope"},
    ]
    path = tmp_path / "rollout-old.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    session = CodexReader().read(path)[0]
    assert session.id == "old-1"
    assert session.turns[0].text == "hi"
    assert [(c.command, c.exit_code, c.failed) for c in session.tool_calls] == [("ls -la", 2, True)]


def test_discovering_a_missing_folder_finds_nothing(tmp_path: Path) -> None:
    for name in reader_names():
        assert list(load_reader(name).discover(tmp_path / "missing")) == []


def test_default_folders_honour_the_harness_environment_overrides(
    monkeypatch: pytest.MonkeyPatch, isolated_home: Path
) -> None:
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    assert ClaudeCodeReader().default_paths() == [
        isolated_home / ".claude" / "projects",
        isolated_home / ".config" / "claude" / "projects",
    ]
    assert CodexReader().default_paths() == [isolated_home / ".codex" / "sessions"]
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "/elsewhere/claude")
    monkeypatch.setenv("CODEX_HOME", "/elsewhere/codex")
    assert ClaudeCodeReader().default_paths()[0] == Path("/elsewhere/claude/projects")
    assert CodexReader().default_paths() == [Path("/elsewhere/codex/sessions")]


def test_claude_code_keeps_only_its_own_summaries_and_leaves_out_sidechain_records(
    tmp_path: Path,
) -> None:
    def rec(**kw: object) -> str:
        return json.dumps({"sessionId": "s", "timestamp": "2026-11-30T09:00:00Z", **kw})

    lines = [
        rec(type="user", uuid="u1", message={"role": "user", "content": "main request"}),
        rec(type="user", uuid="x1", isSidechain=True, message={"role": "user", "content": "sub"}),
        json.dumps({"type": "summary", "summary": "Mine", "leafUuid": "u1"}),
        json.dumps({"type": "summary", "summary": "Someone else's", "leafUuid": "zzz"}),
    ]
    path = tmp_path / "p" / "s.jsonl"
    path.parent.mkdir()
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    session = ClaudeCodeReader().read(path)[0]
    assert session.summaries == ["Mine"]
    assert [t.text for t in session.turns] == ["main request"]
    assert dict(session.skipped) == {"subagent record in the main file": 1}


def test_claude_code_marks_harness_text_in_the_users_place_as_meta(tmp_path: Path) -> None:
    texts = [
        "<command-name>/clear</command-name>",
        "<local-command-stdout>cleared</local-command-stdout>",
        "[Request interrupted by user]",
        "a real request",
    ]
    lines = [
        json.dumps(
            {
                "type": "user",
                "uuid": f"u{n}",
                "sessionId": "s",
                "timestamp": "2026-11-30T09:00:00Z",
                "message": {"role": "user", "content": text},
            }
        )
        for n, text in enumerate(texts)
    ]
    path = tmp_path / "p" / "s.jsonl"
    path.parent.mkdir()
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    kinds = [t.kind for t in ClaudeCodeReader().read(path)[0].turns]
    assert kinds == ["meta", "meta", "meta", "message"]


def test_files_touched_are_relative_to_the_sessions_folder_when_inside_it() -> None:
    sessions = read_all(ClaudeCodeReader(), CLAUDE)
    assert sessions["sess-a"].files_touched == ["shop/cart.py"]
    assert codex_session().files_touched == ["src/import.rs", "tests/dry_run.rs"]
