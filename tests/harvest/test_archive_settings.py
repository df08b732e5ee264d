"""The transcript archive (redacted, compressed, idempotent) and the ``[harvest]`` settings."""

from __future__ import annotations

import gzip
import json
import re
import subprocess
from pathlib import Path

import pytest

from mnemex.errors import ConfigError
from mnemex.harvest.archive import ARCHIVE_DIR, read_archive
from mnemex.harvest.run import (
    harvest_sessions,
    harvest_settings,
    read_heartbeat,
    resolve_sources,
)
from mnemex.vault import Vault
from mnemex.vault.layout import init_vault
from synth import claude_session, make_old

FIXTURES = Path(__file__).parent / "fixtures"
ALL = {
    "claude-code": [FIXTURES / "claude" / "projects"],
    "codex": [FIXTURES / "codex" / "sessions"],
    "gemini-cli": [FIXTURES / "gemini" / "tmp"],
    "aider": [FIXTURES / "aider" / "garden-planner"],
}
SECRETS = {
    "api key": "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD",
    "github token": "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    "aws key": "AKIAIOSFODNN7EXAMPLE",
    "connection string": "hunter2secretpw",
    "password": "CorrectHorseBattery9",
    "env value": "s3cr3t-env-value-42",
    "private key": "MIIEowIBAAKCAQEAq7BFUpkGp3+Xz9Lq",
    "bearer": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXBhcnQ",
}
PLANTED = (
    f"Deploy with {SECRETS['api key']} and {SECRETS['github token']}; AWS {SECRETS['aws key']}. "
    f"The db is postgres://app:{SECRETS['connection string']}@db.internal/app and "
    f'password: "{SECRETS["password"]}".\n'
    f"My .env is:\nDB_SECRET={SECRETS['env value']}\n"
    f"-----BEGIN RSA PRIVATE KEY-----\n{SECRETS['private key']}\n-----END RSA PRIVATE KEY-----\n"
    f"Authorization: Bearer {SECRETS['bearer']}"
)


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    root = tmp_path / "vault"
    init_vault(root)
    return Vault(root)


def _settings(vault: Vault, harvest: str) -> Vault:
    path = vault.root / "mnemex.toml"
    path.write_text(path.read_text(encoding="utf-8") + "\n[harvest]\n" + harvest, encoding="utf-8")
    return Vault(vault.root)


def _archives(vault: Vault) -> list[Path]:
    folder = vault.root / ".mnemex" / ARCHIVE_DIR
    return sorted(p for p in folder.rglob("*.gz"))


def test_planted_secrets_of_every_kind_do_not_survive_in_the_archive(
    vault: Vault, tmp_path: Path
) -> None:
    claude = tmp_path / "claude"
    claude_session(claude, "leaky", request=PLANTED, final=f"Used {SECRETS['api key']}.")
    aider_repo = tmp_path / "repo"
    aider_repo.mkdir()
    history = aider_repo / ".aider.chat.history.md"
    history.write_text(
        f"# aider chat started at 2026-11-28 16:00:00\n\n#### {PLANTED}\n\nDone.\n",
        encoding="utf-8",
    )
    make_old(history)
    report = harvest_sessions(
        vault, {"claude-code": [claude], "aider": [aider_repo]}, settle_seconds=0, archive=True
    )
    assert report.created == 2 and report.archived == 2
    archives = _archives(vault)
    assert [p.parent.name for p in archives] == ["aider", "claude-code"]
    assert archives[1].name == "leaky.jsonl.gz"
    for path in archives:
        raw = gzip.decompress(path.read_bytes())
        for kind, secret in SECRETS.items():
            assert secret.encode() not in raw, f"{kind} survived in {path.name}"
        assert b"[redacted:" in raw
    # the archive is still the transcript: every JSON line parses, the content is there
    lines = read_archive(archives[1]).splitlines()
    assert len(lines) == len(claude_session(tmp_path / "again", "leaky").read_text().splitlines())
    records = [json.loads(line) for line in lines]
    assert records[0]["sessionId"] == "leaky" and "KeyError" in read_archive(archives[1])
    # and archives stay machine-local: .mnemex/ is git-ignored
    ignored = subprocess.run(
        ["git", "-C", str(vault.root), "check-ignore", "-q", str(archives[0])], check=False
    )
    assert ignored.returncode == 0


def test_the_archive_is_written_once_and_again_only_when_the_session_grew(
    vault: Vault, tmp_path: Path
) -> None:
    root = tmp_path / "claude"
    claude_session(root, "s1")
    first = harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0, archive=True)
    [path] = _archives(vault)
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    again = harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0, archive=True)
    assert (first.archived, again.archived, again.unchanged) == (1, 0, 1)
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before
    claude_session(root, "s1", extra_requests=("Also handle quoted newlines.",))
    grown = harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0, archive=True)
    assert (grown.updated, grown.archived) == (1, 1)
    assert "quoted newlines" in read_archive(path)


def test_turning_the_archive_on_later_archives_sessions_already_digested(
    vault: Vault, tmp_path: Path
) -> None:
    root = tmp_path / "claude"
    claude_session(root, "s1")
    harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0)
    assert _archives(vault) == []
    later = harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0, archive=True)
    assert (later.unchanged, later.archived) == (1, 1) and len(_archives(vault)) == 1


def test_every_fixture_format_is_archived_with_non_utf8_bytes_replaced(
    vault: Vault, tmp_path: Path
) -> None:
    root = tmp_path / "claude"
    path = claude_session(root, "odd-bytes")
    path.write_bytes(path.read_bytes() + b'{"type":"user","junk":"\xff\xfe\x00"}\n')
    make_old(path)
    report = harvest_sessions(
        vault, {**ALL, "claude-code": [root, *ALL["claude-code"]]}, settle_seconds=0, archive=True
    )
    assert report.failed == 0 and report.archived == report.created
    harnesses = {p.parent.name for p in _archives(vault)}
    assert harnesses == {"claude-code", "codex", "gemini-cli", "aider"}
    text = read_archive(
        _archives(vault)[[p.name for p in _archives(vault)].index("odd-bytes.jsonl.gz")]
    )
    assert "\ufffd" in text


def test_forget_deletes_the_archived_transcript(vault: Vault, tmp_path: Path) -> None:
    from mnemex.brain import Brain
    from mnemex.embed.hashing import HashingEmbedder
    from mnemex.memories.forget import apply_forget, plan_forget

    root = tmp_path / "claude"
    claude_session(root, "s1")
    claude_session(root, "s2")
    harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0, archive=True)
    assert [p.name for p in _archives(vault)] == ["s1.jsonl.gz", "s2.jsonl.gz"]
    with Brain(vault, embedder=HashingEmbedder()) as brain:
        brain.sync()
        plan = plan_forget(brain, session="s1")
        assert plan["derived"]["transcripts"] == [".mnemex/transcripts/claude-code/s1.jsonl.gz"]
        apply_forget(brain, plan["plan_id"])
    assert [p.name for p in _archives(vault)] == ["s2.jsonl.gz"]


def test_an_archive_that_cannot_be_written_warns_keeps_the_digest_and_is_retried(
    vault: Vault, tmp_path: Path
) -> None:
    root = tmp_path / "claude"
    claude_session(root, "s1")
    blocker = vault.root / ".mnemex" / ARCHIVE_DIR
    blocker.parent.mkdir(parents=True, exist_ok=True)
    blocker.write_text("not a folder", encoding="utf-8")
    first = harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0, archive=True)
    assert (first.created, first.failed, first.archived) == (1, 0, 0)
    assert "transcript not archived" in first.warnings[0].reason
    blocker.unlink()
    again = harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0, archive=True)
    assert (again.unchanged, again.archived) == (1, 1)


def test_a_subagent_session_id_is_kept_in_the_archive_name_so_forget_finds_it(
    vault: Vault,
) -> None:
    from mnemex.brain import Brain
    from mnemex.embed.hashing import HashingEmbedder
    from mnemex.memories.forget import plan_forget

    harvest_sessions(vault, {"claude-code": ALL["claude-code"]}, settle_seconds=0, archive=True)
    names = [p.name for p in _archives(vault)]
    assert "sess-a:agent-f00d.jsonl.gz" in names
    with Brain(vault, embedder=HashingEmbedder()) as brain:
        brain.sync()
        plan = plan_forget(brain, session="sess-a:agent-f00d")
    assert plan["derived"]["transcripts"] == [
        ".mnemex/transcripts/claude-code/sess-a:agent-f00d.jsonl.gz"
    ]


def test_archive_true_in_the_settings_turns_the_archive_on(vault: Vault, tmp_path: Path) -> None:
    vault = _settings(vault, "archive = true\n")
    root = tmp_path / "claude"
    claude_session(root, "s1")
    assert harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0).archived == 1
    off = harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0, archive=False)
    assert off.archived == 0


def test_a_private_marker_from_the_settings_skips_the_session_with_the_reason(
    vault: Vault, tmp_path: Path
) -> None:
    vault = _settings(vault, 'private_marker = ".no-harvest"\n')
    marked = tmp_path / "marked"
    marked.mkdir()
    (marked / ".no-harvest").write_text("", encoding="utf-8")
    old_style = tmp_path / "old-style"
    old_style.mkdir()
    (old_style / ".mnemex-private").write_text("", encoding="utf-8")
    root = tmp_path / "claude"
    claude_session(root, "marked", cwd=str(marked))
    claude_session(root, "old-marker", cwd=str(old_style))
    report = harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0)
    assert (report.created, report.skipped) == (1, 1)
    [problem] = report.problems["skipped"]
    assert problem.path.endswith("#marked")
    assert problem.reason == "private marker .no-harvest in the working folder: not written"


def test_private_paths_from_the_settings_skip_sessions_under_them(
    vault: Vault, tmp_path: Path
) -> None:
    vault = _settings(vault, 'private_paths = ["/nonexistent/clients"]\n')
    root = tmp_path / "claude"
    claude_session(root, "client", cwd="/nonexistent/clients/acme")
    claude_session(root, "near-miss", cwd="/nonexistent/clients-public/site")
    report = harvest_sessions(vault, {"claude-code": [root]}, settle_seconds=0)
    assert (report.created, report.skipped) == (1, 1)
    assert "private path '/nonexistent/clients'" in report.problems["skipped"][0].reason


def test_settle_seconds_from_the_settings_leaves_a_fresh_file_for_later(
    vault: Vault, tmp_path: Path
) -> None:
    root = tmp_path / "claude"
    claude_session(root, "fresh", old=False)
    late = _settings(vault, "settle_seconds = 600\n")
    report = harvest_sessions(late, {"claude-code": [root]})
    assert report.skipped == 1 and "settle time 600 s" in report.problems["skipped"][0].reason
    eager = Vault(vault.root)
    (vault.root / "mnemex.toml").write_text(
        (vault.root / "mnemex.toml").read_text(encoding="utf-8").replace("600", "0"),
        encoding="utf-8",
    )
    assert harvest_sessions(Vault(eager.root), {"claude-code": [root]}).created == 1


def test_folder_settings_replace_the_usual_folders_and_aider_repos_add_up(
    vault: Vault, tmp_path: Path
) -> None:
    claude = tmp_path / "claude"
    claude_session(claude, "from-settings")
    repos = [str(FIXTURES / "aider" / "garden-planner")]
    vault = _settings(
        vault,
        f"claude_dirs = [{json.dumps(str(claude))}]\n"
        f"codex_dirs = [{json.dumps(str(FIXTURES / 'codex' / 'sessions'))}]\n"
        f"aider_repos = {json.dumps(repos)}\n",
    )
    options = harvest_settings(vault.settings)
    sources = resolve_sources(options)
    assert sources["claude-code"] == [claude]
    assert sources["aider"] == [FIXTURES / "aider" / "garden-planner"]
    extra = tmp_path / "other-repo"
    given = resolve_sources(options, {"aider": [extra]})
    assert given == {"aider": [FIXTURES / "aider" / "garden-planner", extra]}
    report = harvest_sessions(vault, settle_seconds=0)  # no folders given: the settings'
    assert report.failed == 0
    harnesses = {
        json.dumps(p.read_text(encoding="utf-8").split("harness: ")[1].split("\n")[0])
        for p in (vault.root / "memories").rglob("*.md")
    }
    assert harnesses == {'"claude-code"', '"codex"', '"aider"'}


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("archve = true\n", "unknown key(s) ['archve']"),
        ('archive = "yes"\n', "archive must be true or false"),
        ('aider_repos = "~/code/x"\n', "aider_repos must be a list"),
        ("settle_seconds = -1\n", "settle_seconds must be a number >= 0"),
        ('private_marker = "a/b"\n', "private_marker must be a file name"),
        ('private_paths = ["clients"]\n', "private_paths must be absolute or start with ~"),
    ],
)
def test_a_wrong_harvest_setting_is_refused_with_a_precise_message(
    vault: Vault, tmp_path: Path, table: str, message: str
) -> None:
    vault = _settings(vault, table)
    with pytest.raises(ConfigError, match=re.escape(message)):
        harvest_sessions(vault, {"claude-code": [tmp_path]}, settle_seconds=0)
    assert not list((vault.root / "memories").rglob("*.md"))
    beat = read_heartbeat(vault)
    assert beat is not None and message in beat["error"]
