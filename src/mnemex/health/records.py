"""The health folder's synced records: dismissals, scan history, ingestion's duplicates.

Vault format §9: JSON Lines, one file per machine per record type, so two
machines never edit the same file; lines are only appended, and malformed
lines are skipped, never fatal. Each append is one git commit.

- ``health/dismissed/<machine>.jsonl``: ``dismiss`` or ``restore`` of an issue
  id; the latest action by ``ts`` over all machines wins.
- ``health/history/<machine>.jsonl``: one line per recorded scan (score, counts).
- ``health/possible-duplicates.json`` (ingestion's file, ``{"version": 1,
  "pairs": [...]}``) and ``health/possible-duplicates/<machine>.jsonl``: pairs
  ingestion saw in the grey zone, read by the duplicate check.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mnemex.text.dates import utc_iso
from mnemex.text.sanitise import strip
from mnemex.vault import Vault
from mnemex.vault.history import CommitResult, before_change, commit_change, recording
from mnemex.vault.machine import machine_name

HEALTH_DIR = "health"
DISMISSED_DIR = f"{HEALTH_DIR}/dismissed"
HISTORY_DIR = f"{HEALTH_DIR}/history"
POSSIBLE_DUPLICATES_FILE = f"{HEALTH_DIR}/possible-duplicates.json"
POSSIBLE_DUPLICATES_DIR = f"{HEALTH_DIR}/possible-duplicates"
MAX_REASON_CHARS = 500


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """The JSON objects of one file, malformed lines skipped."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return
    for line in text.splitlines():
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if isinstance(item, dict):
            yield item


def read_folder(vault: Vault, folder: str) -> list[dict[str, Any]]:
    """Every record of every machine's file in ``folder``."""
    base = vault.root / folder
    if not base.is_dir():
        return []
    out: list[dict[str, Any]] = []
    for path in sorted(base.glob("*.jsonl")):
        out.extend(read_jsonl(path))
    return out


def append_record(
    vault: Vault, folder: str, record: dict[str, Any], operation: str, summary: str
) -> tuple[str, CommitResult, str]:
    """Append ``record`` to this machine's file in ``folder`` and commit it.

    Returns the file's vault path, the commit, and ``"created"`` or ``"updated"``.
    """
    machine = machine_name(vault)
    rel = f"{folder}/{machine}.jsonl"
    path = vault.root / vault.rel_path(rel, note=False)
    line = json.dumps({"ts": utc_iso(), "machine": machine, **record}, ensure_ascii=False)
    with recording(vault):
        before_change(vault, [rel])  # a hand-edited or never-committed file: baseline it first
        outcome = "updated" if path.exists() else "created"
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            os.write(fd, (line + "\n").encode("utf-8"))
        finally:
            os.close(fd)
        commit = commit_change(vault, [rel], operation, summary)
    return rel, commit, outcome


def dismissed_ids(vault: Vault) -> dict[str, dict[str, Any]]:
    """Issue id -> its dismissal, for the ids whose latest action is ``dismiss``."""
    latest: dict[str, dict[str, Any]] = {}
    for item in read_folder(vault, DISMISSED_DIR):
        key = item.get("id")
        if not isinstance(key, str) or item.get("action") not in ("dismiss", "restore"):
            continue
        if key not in latest or str(item.get("ts", "")) >= str(latest[key].get("ts", "")):
            latest[key] = item
    return {k: v for k, v in latest.items() if v.get("action") == "dismiss"}


def clean_reason(reason: str | None) -> str:
    return strip(reason or "").replace("\n", " ").strip()[:MAX_REASON_CHARS]


def possible_duplicates(vault: Vault) -> list[dict[str, Any]]:
    """Pairs ingestion recorded, from both file shapes: ``{a, b, score, reason, source}``."""
    pairs: list[dict[str, Any]] = []
    path = vault.root / POSSIBLE_DUPLICATES_FILE
    if path.is_file():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, OSError):
            data = {}
        for item in data.get("pairs", []) if isinstance(data, dict) else []:
            ok = isinstance(item, dict) and isinstance(item.get("a"), str)
            if ok and isinstance(item.get("b"), str):
                pairs.append(item)
    for item in read_folder(vault, POSSIBLE_DUPLICATES_DIR):
        files = item.get("files")
        if isinstance(files, list) and len(files) == 2 and all(isinstance(f, str) for f in files):
            pairs.append(
                {
                    "a": files[0],
                    "b": files[1],
                    "score": item.get("score"),
                    "reason": item.get("detail"),
                    "source": item.get("source"),
                }
            )
    return pairs


__all__ = [
    "DISMISSED_DIR",
    "HISTORY_DIR",
    "POSSIBLE_DUPLICATES_DIR",
    "POSSIBLE_DUPLICATES_FILE",
    "append_record",
    "clean_reason",
    "dismissed_ids",
    "possible_duplicates",
    "read_folder",
]
