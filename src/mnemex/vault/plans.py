"""Plans: a destructive operation is previewed first and applied only with its ``plan_id``.

A plan names what it will change and the sha256 of every file it read. It is
kept machine-locally in ``.mnemex/plans/<plan_id>.json`` (never synced: a plan
made on one machine means nothing on another) and expires after
:data:`PLAN_TTL_SECONDS`. Applying checks the operation, its arguments and
every recorded hash; anything that moved since refuses the plan, so what is
applied is exactly what was shown. A plan is used once.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import re
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mnemex.errors import PlanRefused
from mnemex.text.dates import utc_iso
from mnemex.vault import Vault, atomic_write

PLANS_DIR = "plans"
PLAN_TTL_SECONDS = 30 * 60
_ID_RE = re.compile(r"^[0-9a-f]{16}$")


@dataclass
class Plan:
    """A previewed operation, waiting to be applied with its ``id``."""

    id: str
    operation: str
    args: dict[str, Any]
    reads: dict[str, str | None]  # vault-relative path -> sha256 read (None: must not exist)
    created: float
    expires: float
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "plan_id": self.id,
            "operation": self.operation,
            "expires": utc_iso(dt.datetime.fromtimestamp(self.expires, dt.UTC)),
            **self.details,
        }


def _folder(vault: Vault) -> Path:
    folder = vault.local_dir / PLANS_DIR
    folder.mkdir(exist_ok=True)
    return folder


def _prune(folder: Path, now: float) -> None:
    for path in folder.glob("*.json"):
        with contextlib.suppress(OSError, ValueError, KeyError):
            if json.loads(path.read_text(encoding="utf-8"))["expires"] < now:
                path.unlink()


def create_plan(
    vault: Vault,
    operation: str,
    args: dict[str, Any],
    reads: dict[str, str | None],
    details: dict[str, Any] | None = None,
    ttl: float = PLAN_TTL_SECONDS,
) -> Plan:
    """Record a plan and return it (its ``id`` is what applying takes)."""
    now = time.time()
    folder = _folder(vault)
    _prune(folder, now)
    plan = Plan(secrets.token_hex(8), operation, args, reads, now, now + ttl, details or {})
    record = {
        "id": plan.id,
        "operation": operation,
        "args": args,
        "reads": reads,
        "created": plan.created,
        "expires": plan.expires,
        "details": plan.details,
    }
    atomic_write(folder / f"{plan.id}.json", json.dumps(record, ensure_ascii=False).encode())
    return plan


def take_plan(vault: Vault, plan_id: str, operation: str, args: dict[str, Any]) -> Plan:
    """Load a plan for applying, checking it still describes the vault.

    The plan is consumed by :func:`discard_plan` once applied.

    Raises:
        PlanRefused: unknown, used or expired id; another operation or other
            arguments than the plan was made for; or a file it read has changed.
    """
    again = f"call {operation} again without plan_id for a fresh plan"
    if not _ID_RE.match(plan_id):
        raise PlanRefused(f"plan_id {plan_id!r} is not a plan id; {again}")
    path = _folder(vault) / f"{plan_id}.json"
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PlanRefused(
            f"no plan {plan_id} (unknown, already applied or expired); {again}"
        ) from None
    plan = Plan(
        record["id"],
        record["operation"],
        record["args"],
        record["reads"],
        record["created"],
        record["expires"],
        record.get("details", {}),
    )
    if plan.expires < time.time():
        discard_plan(vault, plan_id)
        raise PlanRefused(f"plan {plan_id} expired; {again}")
    if plan.operation != operation or plan.args != args:
        shown = ", ".join(f"{k}={v!r}" for k, v in plan.args.items())
        raise PlanRefused(
            f"plan {plan_id} was made for {plan.operation}({shown}), not this call; "
            f"repeat that call with the plan_id, or {again}"
        )
    for rel, expected in plan.reads.items():
        if vault.current_hash(rel) != expected:
            raise PlanRefused(
                f"{rel} changed since plan {plan_id} was made, so it no longer shows what would "
                f"happen; {again}"
            )
    return plan


def discard_plan(vault: Vault, plan_id: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        (_folder(vault) / f"{plan_id}.json").unlink()


__all__ = ["PLAN_TTL_SECONDS", "Plan", "create_plan", "discard_plan", "take_plan"]
