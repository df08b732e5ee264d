"""The harvest heartbeat: every failed run is recorded, and doctor's staleness follows the watch."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.harvest.run import harvest_check, harvest_sessions, read_heartbeat, watch_harvest
from mnemex.health.doctor import diagnose
from mnemex.vault import Vault
from mnemex.vault.layout import init_vault
from synth import claude_session

MNEMEX = [sys.executable, "-m", "mnemex"]


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    root = tmp_path / "vault"
    init_vault(root)
    return Vault(root)


def _append_settings(vault: Vault, table: str) -> Vault:
    path = vault.root / "mnemex.toml"
    path.write_text(path.read_text(encoding="utf-8") + "\n" + table, encoding="utf-8")
    return Vault(vault.root)


def _cli_harvest(vault: Vault, claude: Path) -> subprocess.CompletedProcess[str]:
    args = ["harvest", "--claude-dir", str(claude), "--settle", "0", "--no-index"]
    return subprocess.run(
        [*MNEMEX, "--vault", str(vault.root), *args],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=120,
        check=False,
    )


def _doctor_harvest(vault: Vault) -> dict[str, str]:
    with Brain(Vault(vault.root), embedder=HashingEmbedder()) as brain:
        data = diagnose(brain, load_embedder=False, probe_clients=False)
    [check] = [c for c in data["checks"] if c["name"] == "harvest"]
    return check


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("[harvest]\narchve = true\n", "unknown key(s) ['archve']"),
        ('[model]\nprovider = "nobody-knows"\n', "provider"),
    ],
)
def test_a_cli_harvest_stopped_by_a_bad_setting_is_recorded_and_doctor_fails(
    vault: Vault, tmp_path: Path, table: str, message: str
) -> None:
    claude = tmp_path / "claude"
    claude_session(claude, "s1")
    first = _cli_harvest(vault, claude)
    assert first.returncode == 0, first.stderr
    success = read_heartbeat(vault)["last_success"]  # type: ignore[index]
    vault = _append_settings(vault, table)
    failed = _cli_harvest(vault, claude)
    assert failed.returncode == 1 and message in failed.stderr
    beat = read_heartbeat(vault)
    assert beat is not None and message in beat["error"]
    assert beat["last_success"] == success
    check = _doctor_harvest(vault)
    assert check["status"] == "fail" and message in check["detail"]
    assert "ok harvest" not in check["detail"]


def test_doctor_fails_on_a_bad_harvest_setting_even_before_any_run(vault: Vault) -> None:
    vault = _append_settings(vault, "[harvest]\nsettle_seconds = -1\n")
    check = harvest_check(vault)
    assert check["status"] == "fail" and "settle_seconds must be a number" in check["detail"]


def test_a_run_that_fails_before_reading_any_transcript_is_recorded(
    vault: Vault, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken() -> dict[str, list[Path]]:
        raise RuntimeError("a reader failed to load")

    monkeypatch.setattr("mnemex.harvest.run.default_sources", broken)
    with pytest.raises(RuntimeError):
        harvest_sessions(vault, None, settle_seconds=0)
    beat = read_heartbeat(vault)
    assert beat is not None and "a reader failed to load" in beat["error"]
    assert harvest_check(vault)["status"] == "fail"


def test_a_failure_the_run_recorded_keeps_its_counts(
    vault: Vault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    claude = tmp_path / "claude"
    claude_session(claude, "s1")

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr("mnemex.harvest.run.commit_change", boom)
    with pytest.raises(RuntimeError):
        harvest_sessions(vault, {"claude-code": [claude]}, settle_seconds=0)
    beat = read_heartbeat(vault)
    assert beat is not None and "disk on fire" in beat["error"]
    assert beat["counts"]["created"] == 1  # the run's own record, not overwritten


def test_a_stopped_watch_shows_after_a_few_of_its_intervals_not_after_two_days(
    vault: Vault, tmp_path: Path
) -> None:
    claude = tmp_path / "claude"
    claude_session(claude, "s1")
    watch_harvest(vault, {"claude-code": [claude]}, 60, settle_seconds=0, runs=1)
    beat = read_heartbeat(vault)
    assert beat is not None and beat["interval_seconds"] == 60
    last = dt.datetime.fromisoformat(beat["last_run"])
    assert harvest_check(vault, now=last + dt.timedelta(minutes=2))["status"] == "ok"
    stopped = harvest_check(vault, now=last + dt.timedelta(minutes=10))
    assert stopped["status"] == "fail" and "STOPPED" in stopped["detail"]
    assert "every 60 s" in stopped["detail"]


def test_a_one_off_run_keeps_the_two_day_rule(vault: Vault, tmp_path: Path) -> None:
    claude = tmp_path / "claude"
    claude_session(claude, "s1")
    harvest_sessions(vault, {"claude-code": [claude]}, settle_seconds=0)
    last = dt.datetime.fromisoformat(read_heartbeat(vault)["last_run"])  # type: ignore[index]
    assert harvest_check(vault, now=last + dt.timedelta(hours=1))["status"] == "ok"
    assert harvest_check(vault, now=last + dt.timedelta(days=3))["status"] == "fail"
