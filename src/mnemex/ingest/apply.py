"""Applying an ingest plan: every file or none, then one git commit.

The plan names the bytes each file had when it was planned. Under the vault's
history lock, every file is checked against those bytes (a file that moved is a
conflict and nothing is written), each new content is written to a temporary
file beside its target, and only then are the temporaries renamed into place
and the inbox files the plan moves are removed. If anything fails on the way,
the files already renamed or removed get their original bytes back (kept in
memory) and the new ones are removed: a failed run leaves the vault as it was.
A process killed part-way cannot restore: the paths were listed in an intent
record first (:func:`mnemex.vault.history.before_change`), so the next session on the
vault commits what was renamed and removes the staged temporaries.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from typing import Any

from mnemex.errors import IngestFailed, VaultError, WriteConflict
from mnemex.ingest.plan import FileChange, IngestPlan
from mnemex.vault import Vault, atomic_write, sha256_bytes, write_temp
from mnemex.vault.history import (
    before_change,
    commit_change,
    crash_point,
    recording,
    take_recovered,
)


def apply_plan(vault: Vault, plan: IngestPlan) -> dict[str, Any]:
    """Write ``plan`` atomically and commit it as one ``mnemex ingest`` commit.

    Returns the plan's preview plus ``applied``, ``commit`` and the final report.

    Raises:
        WriteConflict: a file changed since the plan read it (nothing written).
        IngestFailed: a write failed; every file was restored.
    """
    writes = [
        c
        for c in plan.changes
        if (c.action in ("create", "update") and c.after is not None) or c.action == "delete"
    ]
    result = plan.to_dict(diffs=False)
    with recording(vault):
        recovered = take_recovered(vault)
        # the person's uncommitted bytes first (an existing page, the inbox file), then the
        # intent record: a run killed before its commit is committed by the next one
        before_change(vault, [c.path for c in writes])
        with vault.lock():
            _check_unmoved(vault, writes)
            _write_all(vault, writes)
        commit: dict[str, object] = {"committed": False, "reason": "nothing to write"}
        if writes:
            titles = [s.title for s in plan.sources if s.status == "new"]
            what = titles[0] if len(titles) == 1 else f"{len(titles)} sources"
            done = commit_change(
                vault, [c.path for c in writes], "ingest", f"{what} into {plan.domain}"
            )
            commit = done.to_dict()
    result["applied"] = True
    result["commit"] = commit
    if recovered:  # an interrupted run's files, committed before this one
        result["recovered"] = recovered
    return result


def _check_unmoved(vault: Vault, writes: list[FileChange]) -> None:
    for change in writes:
        path = vault.root / change.path
        try:
            current: str | None = sha256_bytes(path.read_bytes())
        except FileNotFoundError:
            current = None
        expected = sha256_bytes(change.before) if change.before is not None else None
        if current != expected:
            raise WriteConflict(change.path, expected, current)


def _write_all(vault: Vault, writes: list[FileChange]) -> None:
    staged: list[tuple[FileChange, Path, str]] = []
    done: list[tuple[FileChange, Path]] = []
    removed_modes: dict[Path, int | None] = {}
    try:
        # an inbox file moved into sources/ keeps its mode there, as a move would
        moved_modes = {c.moved_to: _mode_of(vault, c.path) for c in writes if c.moved_to}
        for change in writes:
            target = vault.abs_path(change.path, note=False)
            if change.action != "delete":
                mode = moved_modes.get(change.path)
                staged.append((change, target, _stage(target, change.after or b"", mode)))
        for change, target, tmp in staged:
            crash_point("ingest-rename")
            replace(tmp, target)
            done.append((change, target))
        for change in writes:
            if change.action == "delete":
                target = vault.abs_path(change.path, note=False)
                removed_modes[target] = _mode_of(vault, change.path)
                remove(target)
                done.append((change, target))
    except (OSError, VaultError) as exc:
        _restore(done, removed_modes)
        for _, _, tmp in staged:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        raise IngestFailed(
            f"ingest failed writing {len(done) + 1} of {len(writes)} files ({exc}); "
            "every file was put back as it was"
        ) from exc


def _stage(target: Path, data: bytes, mode: int | None = None) -> str:
    """Write ``data`` to a fsynced temporary file beside ``target``; returns its path.

    It has the mode the file should keep (``mode``, else an existing file's own, else
    the umask's).
    """
    return write_temp(target, data, mode=mode)


def _mode_of(vault: Vault, rel: str) -> int | None:
    try:
        return stat.S_IMODE(os.stat(vault.abs_path(rel, note=False)).st_mode)
    except OSError:
        return None


def replace(tmp: str, target: Path) -> None:
    """Rename a staged file into place (a seam: tests make it fail to prove the rollback)."""
    os.replace(tmp, target)


def remove(target: Path) -> None:
    """Remove a moved inbox file (a seam, like :func:`replace`)."""
    target.unlink()


def _restore(done: list[tuple[FileChange, Path]], removed_modes: dict[Path, int | None]) -> None:
    for change, target in reversed(done):
        if change.before is None:
            with contextlib.suppress(FileNotFoundError):
                target.unlink()
        else:  # a put-back inbox file gets its own mode again; a replaced file kept its own
            atomic_write(target, change.before, mode=removed_modes.get(target))


__all__ = ["IngestFailed", "apply_plan", "remove", "replace"]
