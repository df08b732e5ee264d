"""The journal: ``state/<project>/journal/<machine>.jsonl``, one JSON line per save (§6).

Append-only: a line is added under the vault's ``journal`` lock and never
rewritten. Reading skips (and counts) malformed lines, never fails on them.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from mnemex.text.sanitise import sanitise
from mnemex.vault import Vault, check_name
from mnemex.vault.history import before_change

EVENTS = (
    "handoff_saved",
    "brief_saved",
    "foundation_added",
    "foundation_replaced",
    "draft_proposed",
    "draft_approved",
    "draft_rejected",
)


def journal_path(project: str, machine: str) -> str:
    return f"state/{project}/journal/{machine}.jsonl"


def append_entry(vault: Vault, project: str, machine: str, entry: dict[str, Any]) -> str:
    """Append one line to this machine's journal of ``project``; returns its vault path."""
    check_name(project, "project")
    rel = vault.rel_path(journal_path(project, machine), note=False)
    path = vault.root / rel
    line = json.dumps(entry, ensure_ascii=False, sort_keys=False) + "\n"
    # the history lock is taken before the journal's; a never-committed journal is baselined
    before_change(vault, [rel])
    with vault.lock("journal"):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            size = os.fstat(fd).st_size
            if size:  # a hand-edited file may lack its last newline: never glue two lines
                os.lseek(fd, size - 1, os.SEEK_SET)
                if os.read(fd, 1) != b"\n":
                    line = "\n" + line
            os.write(fd, line.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
    return rel


def _clean(value: Any) -> Any:
    """Sanitise every string in a journal value (it may come by sync or by hand)."""
    if isinstance(value, str):
        return sanitise(value)
    if isinstance(value, list):
        return [_clean(v) for v in value]
    if isinstance(value, dict):
        return {sanitise(str(k)): _clean(v) for k, v in value.items()}
    return value


@dataclass
class JournalRead:
    entries: list[dict[str, Any]] = field(default_factory=list)
    skipped: int = 0


def read_journal(vault: Vault, project: str, machine: str | None = None) -> JournalRead:
    """Every entry of a project's journal (one machine's, or all), oldest first, sanitised."""
    check_name(project, "project")
    folder = vault.root / "state" / project / "journal"
    out = JournalRead()
    if not folder.is_dir():
        return out
    files = [folder / f"{machine}.jsonl"] if machine else sorted(folder.glob("*.jsonl"))
    for path in files:
        try:
            raw = path.read_bytes()
        except OSError:
            continue
        for line in raw.split(b"\n"):
            if not line.strip():
                continue
            try:
                entry = json.loads(line.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                out.skipped += 1
                continue
            if not isinstance(entry, dict) or not isinstance(entry.get("ts"), str):
                out.skipped += 1
                continue
            entry.setdefault("machine", path.stem)
            out.entries.append(_clean(entry))
    out.entries.sort(key=lambda e: str(e.get("ts")))
    return out


__all__ = ["EVENTS", "JournalRead", "append_entry", "journal_path", "read_journal"]
