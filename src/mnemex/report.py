"""The counts every command that changes files reports.

``created``, ``updated``, ``deleted``, ``unchanged``, ``skipped``, ``refused``,
``failed``: the same seven words everywhere, so a script (or a worried person) can
tell at a glance whether anything was lost. Skips, refusals and failures carry reasons.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

OUTCOMES = ("created", "updated", "deleted", "unchanged", "skipped", "refused", "failed")


@dataclass
class Problem:
    """One file that was skipped, refused or failed, and why."""

    path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


@dataclass
class Report:
    """What an operation did, in counts, plus the reasons for anything not done."""

    created: int = 0
    updated: int = 0
    deleted: int = 0
    unchanged: int = 0
    skipped: int = 0
    refused: int = 0
    failed: int = 0
    problems: dict[str, list[Problem]] = field(default_factory=dict)
    warnings: list[Problem] = field(default_factory=list)

    def add(self, outcome: str, path: str | None = None, reason: str | None = None) -> None:
        """Count one outcome; skipped/refused/failed should say why."""
        if outcome not in OUTCOMES:
            raise ValueError(f"unknown outcome {outcome!r}")
        setattr(self, outcome, getattr(self, outcome) + 1)
        if reason is not None:
            self.problems.setdefault(outcome, []).append(Problem(path or "", reason))

    def warn(self, path: str, reason: str) -> None:
        """Record something worth saying that did not stop the file being processed."""
        self.warnings.append(Problem(path, reason))

    def merge(self, other: Report) -> None:
        for outcome in OUTCOMES:
            setattr(self, outcome, getattr(self, outcome) + getattr(other, outcome))
        for outcome, items in other.problems.items():
            self.problems.setdefault(outcome, []).extend(items)
        self.warnings.extend(other.warnings)

    @property
    def changed(self) -> bool:
        return bool(self.created or self.updated or self.deleted)

    def counts(self) -> dict[str, int]:
        return {outcome: getattr(self, outcome) for outcome in OUTCOMES}

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.counts(),
            "problems": {
                k: [{"path": p.path, "reason": p.reason} for p in v]
                for k, v in self.problems.items()
            },
            "warnings": [{"path": p.path, "reason": p.reason} for p in self.warnings],
        }

    def summary(self) -> str:
        return ", ".join(f"{getattr(self, o)} {o}" for o in OUTCOMES)


__all__ = ["OUTCOMES", "Problem", "Report"]
