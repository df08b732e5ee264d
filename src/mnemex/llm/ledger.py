"""The model-cost ledger: one JSON line per model call, machine-local.

``<vault>/.mnemex/models/ledger.jsonl`` records every call, successful or not: when,
which provider and model, for what purpose, tokens in and out, the cost (None when the
price is unknown), whether it worked and how long it took. It lives under ``.mnemex/``
(git-ignored) because what one machine spent is a fact about that machine.
Appends are single ``write`` calls of one line under an ``O_APPEND`` descriptor, so two
processes appending at once do not interleave lines.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

LEDGER_FILE = "models/ledger.jsonl"


@dataclass(frozen=True)
class LedgerEntry:
    """One model call as recorded."""

    time: str
    provider: str
    model: str
    purpose: str
    input_tokens: int
    output_tokens: int
    cost_usd: float | None
    ok: bool
    error: str | None
    latency_ms: int
    attempts: int = 1
    usage_estimated: bool = False

    def to_json(self) -> str:
        return json.dumps(self.__dict__, ensure_ascii=False, sort_keys=True)


def ledger_path(vault_root: Path) -> Path:
    return vault_root / ".mnemex" / LEDGER_FILE


def append_entry(path: Path, entry: LedgerEntry) -> None:
    """Append one line; never raises for a full disk or a read-only folder (a call that
    worked must not be lost because its meter could not be written)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.write(fd, (entry.to_json() + "\n").encode("utf-8"))
        finally:
            os.close(fd)
    except OSError:
        pass


def read_entries(path: Path) -> Iterator[dict[str, Any]]:
    """Every well-formed line of the ledger (a torn or hand-edited line is passed over)."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return
    for line in lines:
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(entry, dict) and isinstance(entry.get("time"), str):
            yield entry


@dataclass
class Bucket:
    """Totals of a group of calls: ``cost_usd`` sums the calls whose cost was known,
    ``unknown_cost_calls`` counts the others (so an unknown price is never shown as free)."""

    calls: int = 0
    failed: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    unknown_cost_calls: int = 0

    def add(self, entry: dict[str, Any]) -> None:
        self.calls += 1
        self.failed += 0 if entry.get("ok") else 1
        self.input_tokens += int(entry.get("input_tokens") or 0)
        self.output_tokens += int(entry.get("output_tokens") or 0)
        cost = entry.get("cost_usd")
        if isinstance(cost, int | float):
            self.cost_usd += float(cost)
        else:
            self.unknown_cost_calls += 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "failed": self.failed,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cost_usd": round(self.cost_usd, 6),
            "unknown_cost_calls": self.unknown_cost_calls,
        }


@dataclass
class LedgerTotals:
    """All calls since a date, in total and by purpose and by model."""

    total: Bucket = field(default_factory=Bucket)
    by_purpose: dict[str, Bucket] = field(default_factory=dict)
    by_model: dict[str, Bucket] = field(default_factory=dict)
    since: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "since": self.since,
            "total": self.total.to_dict(),
            "by_purpose": {k: v.to_dict() for k, v in sorted(self.by_purpose.items())},
            "by_model": {k: v.to_dict() for k, v in sorted(self.by_model.items())},
        }


def _parse_time(value: str) -> dt.datetime | None:
    try:
        parsed = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)


def ledger_totals(vault_root: Path, since: dt.datetime | dt.date | None = None) -> LedgerTotals:
    """Sum the ledger of the vault at ``vault_root``; ``since`` (a date means its midnight UTC)
    keeps the calls at or after it."""
    if isinstance(since, dt.date) and not isinstance(since, dt.datetime):
        since = dt.datetime(since.year, since.month, since.day, tzinfo=dt.UTC)
    if since is not None and since.tzinfo is None:
        since = since.replace(tzinfo=dt.UTC)
    totals = LedgerTotals(since=since.isoformat(timespec="seconds") if since else None)
    for entry in read_entries(ledger_path(vault_root)):
        when = _parse_time(entry["time"])
        if when is None or (since is not None and when < since):
            continue
        totals.total.add(entry)
        purpose = str(entry.get("purpose") or "unknown")
        model = f"{entry.get('provider', '?')}:{entry.get('model', '?')}"
        totals.by_purpose.setdefault(purpose, Bucket()).add(entry)
        totals.by_model.setdefault(model, Bucket()).add(entry)
    return totals


__all__ = [
    "LEDGER_FILE",
    "Bucket",
    "LedgerEntry",
    "LedgerTotals",
    "append_entry",
    "ledger_path",
    "ledger_totals",
    "read_entries",
]
