"""Forget: remove a memory and everything derived from it, with a plan first (vault format §7, §12).

:func:`plan_forget` names the memory file(s) — one path, or every memory of a
session — and what goes with them: their index entries, chunks and vectors, and
an archived transcript of the session under ``.mnemex/transcripts/`` if there is
one. :func:`apply_forget` takes the plan's ``plan_id``: it deletes the files
(``memories/`` is protected, so through the kind's own permission), syncs the
index so the chunks and vectors go, and commits the deletion as
``mnemex forget: ...``. A plan whose files changed since is refused.

The file stays in git history; ``mnemex doctor --secrets`` says how to purge that.
"""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from typing import Any

from mnemex.brain import Brain
from mnemex.errors import VaultError
from mnemex.memories.recall import memory_path, paths_for_session
from mnemex.vault.history import commit_change, recording
from mnemex.vault.plans import PLANS_DIR, create_plan, discard_plan, take_plan
from mnemex.vault.vault import Vault, atomic_write

#: the digest ids forgotten, so a harvest does not write them again from the same transcript
FORGOTTEN = "harvest-forgotten.json"
#: a digest's file name ends in its id: ``…-<8 hex>.md``
ID_SUFFIX = re.compile(r"-([0-9a-f]{8})\.md$")


def forgotten_ids(vault: Vault) -> set[str]:
    """The digest ids :func:`mark_forgotten` recorded."""
    try:
        data = json.loads((vault.root / ".mnemex" / FORGOTTEN).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    return {str(i) for i in data} if isinstance(data, list) else set()


def mark_forgotten(vault: Vault, digest: str) -> None:
    """Record that the digest with id ``digest`` (or of file name ``…-<id>.md``) was forgotten,
    so a later harvest does not write it again from the same transcript. For ``forget``."""
    match = ID_SUFFIX.search(digest)
    key = match.group(1) if match else digest
    if not re.fullmatch(r"[0-9a-f]{8}", key):
        raise ValueError(f"{digest!r} is not a digest id or a digest's file name")
    ids = sorted(forgotten_ids(vault) | {key})
    atomic_write(vault.local_dir / FORGOTTEN, (json.dumps(ids) + "\n").encode("utf-8"))


TRANSCRIPTS_DIR = "transcripts"
OPERATION = "forget"
_HISTORY_NOTE = (
    "the files stay in git history; `mnemex doctor --secrets` shows how to purge a secret from it"
)


def _targets(
    brain: Brain, path: str | None, session: str | None
) -> tuple[dict[str, Any], list[str]]:
    if (path is None) == (session is None):
        raise VaultError("give either path or session (not both)")
    if path is not None:
        clean = memory_path(brain, path)
        return {"path": clean}, [clean]
    assert session is not None
    return {"session": session.strip()}, paths_for_session(brain, session)


def _sessions(brain: Brain, paths: list[str]) -> list[str]:
    found: list[str] = []
    for rel in paths:
        note = brain.backend.note_by_path(rel)
        value = note.frontmatter.get("session") if note else None
        if value and str(value) not in found:
            found.append(str(value))
    return found


def _transcripts(brain: Brain, sessions: list[str]) -> list[Path]:
    """Archived transcripts of these sessions (files whose name holds the session id)."""
    folder = brain.vault.local_dir / TRANSCRIPTS_DIR
    if not folder.is_dir() or not sessions:
        return []
    return sorted(
        p
        for p in folder.rglob("*")
        if p.is_file() and not p.is_symlink() and any(s in p.name for s in sessions)
    )


def plan_forget(
    brain: Brain, path: str | None = None, session: str | None = None
) -> dict[str, Any]:
    """A plan to forget a memory (by path) or every memory of a session; nothing is deleted.

    Raises:
        VaultError: neither or both of path and session, or a path outside ``memories/``.
        NoteNotFound: no such memory, or no memory of that session.
    """
    brain.sync()
    args, paths = _targets(brain, path, session)
    vault = brain.vault
    reads: dict[str, str | None] = {rel: vault.current_hash(rel) for rel in paths}
    notes = [brain.backend.note_by_path(rel) for rel in paths]
    hashes = brain.backend.chunk_hashes(paths)
    transcripts = _transcripts(brain, _sessions(brain, paths))
    root = vault.root
    details: dict[str, Any] = {
        "delete": paths,
        "hashes": reads,
        "derived": {
            "index_entries": sum(1 for n in notes if n is not None),
            "chunks": len(hashes),
            "vectors": len(hashes),
            "transcripts": [p.relative_to(root).as_posix() for p in transcripts],
        },
        "history": _HISTORY_NOTE,
        "note": "nothing is deleted yet: call forget again with this plan_id to apply",
    }
    return create_plan(vault, OPERATION, args, reads, details).to_dict()


def apply_forget(
    brain: Brain, plan_id: str, path: str | None = None, session: str | None = None
) -> dict[str, Any]:
    """Apply a forget plan: delete the files, drop their index entries, commit.

    With ``path`` or ``session`` the plan must have been made for exactly that.

    Raises:
        PlanRefused: unknown, used or expired plan, made for another memory, or a file
            changed since it was made.
    """
    vault = brain.vault
    if path is not None:
        args: dict[str, Any] = {"path": vault.rel_path(path)}
    elif session is not None:
        args = {"session": session.strip()}
    else:
        args = _planned_args(brain, plan_id)
    with recording(vault):
        plan = take_plan(vault, plan_id, OPERATION, args)
        paths: list[str] = list(plan.details.get("delete", []))
        for rel in paths:
            vault.delete_note(rel, expected_hash=plan.reads.get(rel), protected_ok=True)
            # a forgotten digest must not come back from the same transcript next harvest
            with contextlib.suppress(ValueError):  # not a digest file name: nothing to mark
                mark_forgotten(vault, rel.rsplit("/", 1)[-1])
        removed: list[str] = []
        for rel in plan.details.get("derived", {}).get("transcripts", []):
            target = vault.root / rel
            local = vault.local_dir / TRANSCRIPTS_DIR
            if target.is_file() and target.resolve().is_relative_to(local.resolve()):
                target.unlink()
                removed.append(rel)
        discard_plan(vault, plan_id)
        summary = paths[0] if paths else "nothing"
        if "session" in plan.args:
            summary = f"session {plan.args['session']} ({len(paths)} file(s))"
        commit = commit_change(vault, paths, OPERATION, f"deleted {summary}")
    brain.sync()
    return {
        "operation": OPERATION,
        "deleted": paths,
        "transcripts_deleted": removed,
        "index_entries_left": sum(1 for rel in paths if brain.backend.note_by_path(rel)),
        "commit": commit.to_dict(),
        "history": _HISTORY_NOTE,
    }


def _planned_args(brain: Brain, plan_id: str) -> dict[str, Any]:
    """The arguments a plan was made with (take_plan then checks the id and the hashes)."""
    if not plan_id.isalnum():
        return {}
    try:
        record = json.loads(
            (brain.vault.local_dir / PLANS_DIR / f"{plan_id}.json").read_text(encoding="utf-8")
        )
    except (OSError, ValueError):
        return {}
    args = record.get("args")
    return args if isinstance(args, dict) else {}


__all__ = [
    "FORGOTTEN",
    "TRANSCRIPTS_DIR",
    "apply_forget",
    "forgotten_ids",
    "mark_forgotten",
    "plan_forget",
]
