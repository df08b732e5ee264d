"""Heartbeats: what a background job last did, for ``doctor`` to say when it stopped.

A job writes ``.mnemex/heartbeats/<job>.json`` (machine-local, never synced) after every
run: when it ran, its counts, its interval, and ``error`` when it failed. A failed run
keeps the ``last_success`` of the one before, so doctor can say how long it has been.
Harvest is the job that leaves one today; what a stale heartbeat means is the job's own
check (:func:`mnemex.harvest.run.harvest_check`).
"""

from __future__ import annotations

import json
from typing import Any

from mnemex.vault.vault import Vault, atomic_write

HEARTBEATS_DIR = "heartbeats"


def heartbeat_path(job: str) -> str:
    """Where ``job``'s heartbeat lives, relative to the vault's ``.mnemex/``."""
    return f"{HEARTBEATS_DIR}/{job}.json"


def read_heartbeat(vault: Vault, job: str) -> dict[str, Any] | None:
    """``job``'s last heartbeat, or None when it never ran (or the file is unreadable)."""
    path = vault.root / ".mnemex" / heartbeat_path(job)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write_heartbeat(vault: Vault, job: str, data: dict[str, Any]) -> None:
    """Write ``job``'s heartbeat; a failed run keeps the last success recorded before it."""
    path = vault.local_dir / heartbeat_path(job)
    path.parent.mkdir(parents=True, exist_ok=True)
    previous = read_heartbeat(vault, job) or {}
    if data.get("error") and previous.get("last_success"):
        data["last_success"] = previous["last_success"]
    atomic_write(path, (json.dumps(data, indent=2, sort_keys=True) + "\n").encode("utf-8"))


__all__ = ["HEARTBEATS_DIR", "heartbeat_path", "read_heartbeat", "write_heartbeat"]
