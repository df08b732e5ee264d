"""A job's heartbeat: machine-local, and a failure never hides the last success."""

from __future__ import annotations

from pathlib import Path

from mnemex.vault import Vault
from mnemex.vault.heartbeat import read_heartbeat, write_heartbeat


def test_a_failed_run_keeps_the_last_success_and_the_file_is_machine_local(
    vault_dir: Path,
) -> None:
    vault = Vault(vault_dir)
    assert read_heartbeat(vault, "watch") is None
    write_heartbeat(vault, "watch", {"last_run": "t1", "last_success": "t1"})
    write_heartbeat(vault, "watch", {"last_run": "t2", "error": "boom"})
    beat = read_heartbeat(vault, "watch")
    assert beat == {"last_run": "t2", "error": "boom", "last_success": "t1"}
    assert (vault_dir / ".mnemex/heartbeats/watch.json").is_file()
    assert read_heartbeat(vault, "harvest") is None


def test_an_unreadable_heartbeat_reads_as_none(vault_dir: Path) -> None:
    vault = Vault(vault_dir)
    path = vault_dir / ".mnemex/heartbeats/watch.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("[1, 2", encoding="utf-8")
    assert read_heartbeat(vault, "watch") is None
