"""Harvesting sessions into digests: idempotent, settled, private-aware, one bad file alone."""

from __future__ import annotations

import datetime as dt
import subprocess
from pathlib import Path

import pytest

from mnemex.harvest.readers.claude_code import ClaudeCodeReader
from mnemex.harvest.run import harvest_check, harvest_sessions, read_heartbeat
from mnemex.vault import Vault, parse_note
from mnemex.vault.layout import init_vault
from synth import claude_session, make_old

FIXTURES = Path(__file__).parent / "fixtures"
ALL = {
    "claude-code": [FIXTURES / "claude" / "projects"],
    "codex": [FIXTURES / "codex" / "sessions"],
    "gemini-cli": [FIXTURES / "gemini" / "tmp"],
    "aider": [FIXTURES / "aider" / "garden-planner"],
}


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    root = tmp_path / "vault"
    init_vault(root)  # a git repository: harvest commits
    return Vault(root)


def _commits(vault: Vault) -> int:
    done = subprocess.run(
        ["git", "-C", str(vault.root), "rev-list", "--count", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout)


def _digests(vault: Vault) -> list[Path]:
    return sorted(p for p in (vault.root / "memories").rglob("*.md"))


def test_every_fixture_session_becomes_one_digest_and_a_second_run_writes_nothing(
    vault: Vault,
) -> None:
    first = harvest_sessions(vault, ALL, settle_seconds=0)
    assert first.created >= 8 and first.failed == 0
    commits = _commits(vault)
    files = {p: p.read_bytes() for p in _digests(vault)}
    assert len(files) == first.created
    second = harvest_sessions(vault, ALL, settle_seconds=0)
    assert (second.created, second.updated, second.failed) == (0, 0, 0)
    assert second.unchanged == first.created
    assert _commits(vault) == commits
    assert {p: p.read_bytes() for p in _digests(vault)} == files


def test_a_digest_has_the_frontmatter_and_path_of_the_spec(vault: Vault, tmp_path: Path) -> None:
    root = tmp_path / "claude"
    claude_session(root, "s1")
    harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0)
    [path] = _digests(vault)
    rel = path.relative_to(vault.root).as_posix()
    assert rel.startswith(
        "memories/synth-app/2026-11/2026-11-20-make-the-importer-skip-blank-rows-"
    )
    fm = parse_note(path.read_text(encoding="utf-8"), rel).frontmatter
    assert fm["type"] == "memory" and fm["harness"] == "claude-code" and fm["session"] == "s1"
    assert fm["domain"] == vault.settings.domains[0] and fm["extractor"] == "offline"
    assert fm["turns"] >= 5 and len(fm["transcript_sha256"]) == 64 and fm["branch"] == "main"
    assert str(fm["started"]).startswith("2026-11-20T10:00:00")
    assert 0.0 <= float(fm["importance"]) <= 1.0


def test_a_grown_session_rewrites_the_same_file(vault: Vault, tmp_path: Path) -> None:
    root = tmp_path / "claude"
    claude_session(root, "s1")
    harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0)
    [before] = _digests(vault)
    created = parse_note(before.read_text(encoding="utf-8")).frontmatter["created"]
    claude_session(root, "s1", extra_requests=("Also count the skipped rows.",))
    later = dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)
    report = harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0, now=later)
    assert (report.created, report.updated) == (0, 1)
    [after] = _digests(vault)
    assert after == before
    text = after.read_text(encoding="utf-8")
    assert "Also count the skipped rows." in text
    assert parse_note(text).frontmatter["created"] == created


def test_a_digest_edited_by_hand_is_skipped_not_overwritten(vault: Vault, tmp_path: Path) -> None:
    root = tmp_path / "claude"
    claude_session(root, "s1")
    harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0)
    [path] = _digests(vault)
    path.write_text(path.read_text(encoding="utf-8") + "my own note\n", encoding="utf-8")
    claude_session(root, "s1", extra_requests=("More.",))
    report = harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0)
    assert report.skipped == 1 and "edited by hand" in report.problems["skipped"][0].reason
    assert path.read_text(encoding="utf-8").endswith("my own note\n")


def test_a_session_still_being_written_is_left_for_later(vault: Vault, tmp_path: Path) -> None:
    root = tmp_path / "claude"
    claude_session(root, "fresh", old=False)
    report = harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=300)
    assert (report.created, report.skipped) == (0, 1)
    assert "still being written" in report.problems["skipped"][0].reason
    assert _digests(vault) == []
    make_old(root / "-nonexistent-work-synth-app" / "fresh.jsonl", 600)
    assert harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=300).created == 1


def test_private_projects_paths_and_marked_folders_are_skipped(
    vault: Vault, tmp_path: Path
) -> None:
    (vault.root / "mnemex.toml").write_text(
        '[vault]\nname = "v"\nprivate = ["private", "synth-app", "/nonexistent/secret"]\n',
        encoding="utf-8",
    )
    vault = Vault(vault.root)
    marked = tmp_path / "marked-proj"
    marked.mkdir()
    (marked / ".mnemex-private").write_text("", encoding="utf-8")
    root = tmp_path / "claude"
    claude_session(root, "by-name")
    claude_session(root, "by-path", cwd="/nonexistent/secret/thing")
    claude_session(root, "by-marker", cwd=str(marked))
    claude_session(root, "public", cwd="/nonexistent/work/open-app")
    report = harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0)
    assert (report.created, report.skipped) == (1, 3)
    reasons = " ".join(p.reason for p in report.problems["skipped"])
    assert "private project" in reasons and "private path" in reasons and "marker" in reasons
    assert [p.parent.parent.name for p in _digests(vault)] == ["open-app"]


def test_a_broken_transcript_fails_alone_and_the_rest_is_harvested(
    vault: Vault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "claude"
    claude_session(root, "good")
    bad = claude_session(root, "bad")
    garbage = root / "-nonexistent-work-synth-app" / "garbage.jsonl"
    garbage.write_bytes(b"\x00\xff\xfe not json\n{truncated")
    make_old(garbage)
    real = ClaudeCodeReader.read

    def read(self: ClaudeCodeReader, path: Path) -> list:  # type: ignore[type-arg]
        if path == bad:
            raise ValueError("reader bug")
        return real(self, path)

    monkeypatch.setattr(ClaudeCodeReader, "read", read)
    report = harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0)
    assert report.created == 1 and report.failed == 1
    assert "reader bug" in report.problems["failed"][0].reason
    assert report.skipped == 1  # the garbage file holds nothing to digest


def test_the_heartbeat_records_each_run_and_doctor_reads_it(vault: Vault, tmp_path: Path) -> None:
    assert harvest_check(vault)["status"] == "ok"  # never configured
    root = tmp_path / "claude"
    claude_session(root, "s1")
    harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0)
    beat = read_heartbeat(vault)
    assert beat is not None and beat["error"] is None and beat["counts"]["created"] == 1
    assert harvest_check(vault)["status"] == "ok"
    later = dt.datetime.now(dt.UTC) + dt.timedelta(days=3)
    stale = harvest_check(vault, now=later)
    assert stale["status"] == "fail" and "STOPPED" in stale["detail"]
    assert beat["last_success"] in stale["detail"]


def test_a_run_that_dies_is_recorded_as_failed_keeping_the_last_success(
    vault: Vault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "claude"
    claude_session(root, "s1")
    harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0)
    success = read_heartbeat(vault)["last_success"]  # type: ignore[index]

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr("mnemex.harvest.run.commit_change", boom)
    claude_session(root, "s2")
    with pytest.raises(RuntimeError):
        harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0)
    check = harvest_check(vault)
    assert check["status"] == "fail" and "disk on fire" in check["detail"]
    assert success in check["detail"]


def test_doctor_reports_the_harvest_check(vault: Vault) -> None:
    from mnemex.brain import Brain
    from mnemex.embed.hashing import HashingEmbedder
    from mnemex.health.doctor import diagnose

    with Brain(vault, embedder=HashingEmbedder()) as brain:
        data = diagnose(brain, load_embedder=False, probe_clients=False)
    [check] = [c for c in data["checks"] if c["name"] == "harvest"]
    assert check["status"] == "ok" and "never run" in check["detail"]


def test_a_no_op_re_harvest_reads_no_transcript_again(
    vault: Vault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "claude"
    claude_session(root, "s1")
    claude_session(root, "s2")
    assert harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0).created == 2

    def read(self: ClaudeCodeReader, path: Path) -> list:  # type: ignore[type-arg]
        raise AssertionError(f"read {path} again")

    monkeypatch.setattr(ClaudeCodeReader, "read", read)
    again = harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0)
    assert (again.unchanged, again.failed) == (2, 0)


def test_watching_keeps_harvesting_and_survives_a_run_that_dies(
    vault: Vault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mnemex.harvest import run as run_module

    root = tmp_path / "claude"
    claude_session(root, "s1")
    seen: list[tuple[int, str]] = []
    real = run_module.harvest_sessions
    calls = [0]

    def flaky(*args: object, **kwargs: object) -> object:
        calls[0] += 1
        if calls[0] == 2:
            raise RuntimeError("transient")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    def note(report: object, error: Exception | None) -> None:
        seen.append((getattr(report, "created", -1), str(error) if error else ""))

    monkeypatch.setattr(run_module, "harvest_sessions", flaky)
    run_module.watch_harvest(
        vault, {"claude-code": [root]}, 0, settle_seconds=0, runs=3, on_report=note
    )
    assert seen == [(1, ""), (-1, "transient"), (0, "")]


def test_a_forgotten_digest_is_not_harvested_again(vault: Vault, tmp_path: Path) -> None:
    from mnemex.memories.forget import mark_forgotten

    root = tmp_path / "claude"
    claude_session(root, "s1")
    harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0)
    [path] = _digests(vault)
    path.unlink()
    mark_forgotten(vault, path.name)
    report = harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0)
    assert (report.created, report.skipped) == (0, 1)
    assert report.problems["skipped"][0].reason == "forgotten: not harvested again"
    assert _digests(vault) == []
    with pytest.raises(ValueError, match="not a digest id"):
        mark_forgotten(vault, "not-an-id")


def test_forget_keeps_a_harvested_digest_from_coming_back(vault: Vault, tmp_path: Path) -> None:
    from mnemex.brain import Brain
    from mnemex.embed.hashing import HashingEmbedder
    from mnemex.memories.forget import apply_forget, plan_forget

    root = tmp_path / "claude"
    claude_session(root, "s1")
    harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0)
    [path] = _digests(vault)
    with Brain(vault, embedder=HashingEmbedder()) as brain:
        brain.sync()
        plan = plan_forget(brain, path=str(path.relative_to(vault.root)))
        apply_forget(brain, plan["plan_id"])
    assert _digests(vault) == []
    again = harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0)
    assert (again.created, again.skipped) == (0, 1)
    assert _digests(vault) == []
