"""``mnemex undo``: revert the last mnemex commit (or a named one), as a new commit.

Only commits mnemex made are reverted (they carry the ``Mnemex-Operation:``
trailer, :mod:`mnemex.vault.history`), unless ``force``; history is never rewritten:
the revert is one new commit, itself a mnemex commit (operation ``undo``, with a
``Mnemex-Reverts:`` trailer), which ``undo <its sha>`` can undo in turn (a redo);
a plain ``undo`` again walks further back instead. Files keep their mode
(git records only the executable bit). A plan comes first (the commit, the files it touched and
what reverting does to each), recorded with the sha256 of each file now; applying
is refused if any of them changed since, or if the working tree holds uncommitted
changes to them (reverting over a person's edit would mix the two).

Undo restores exactly the bytes before the commit, or refuses. A ``baseline``
commit is the person's own files as they were before mnemex first changed them
(:func:`mnemex.vault.history.baseline`), not a change: undoing it is refused, and
``undo`` without a commit passes over it. A commit without the
``Mnemex-Baseline: checked`` trailer was made before that rule: when it records
a file as added, the file may have been the person's, uncommitted, before
mnemex changed it, so deleting it could lose their note; that is refused unless
``force`` (which then deletes it, as git's revert would).
"""

from __future__ import annotations

import os
import re
import stat
from typing import Any

from mnemex.errors import PlanRefused, VaultError
from mnemex.report import Report
from mnemex.vault import Vault
from mnemex.vault.history import (
    BASELINE,
    BASELINE_TRAILER,
    OPERATION_TRAILER,
    commit_change,
    git_environment,
    is_repository,
    recording,
    run_git,
)
from mnemex.vault.plans import create_plan, discard_plan, take_plan

OPERATION = "undo"
TRAILER = f"{OPERATION_TRAILER}:"
#: Names the commit an undo reverted, so a later plain ``undo`` walks past both.
REVERTS_TRAILER = "Mnemex-Reverts:"
_SUBJECT_RE = re.compile(r"^mnemex undo: revert ([0-9a-f]{7,40})")
#: How far back ``undo`` without a commit looks for the last mnemex commit.
SEARCH_DEPTH = 200
_SHA_RE = re.compile(r"^[0-9a-fA-F]{4,40}$")


def _git(vault: Vault, *args: str) -> str:
    done = run_git(vault, *args, env={**git_environment(vault), "GIT_LITERAL_PATHSPECS": "1"})
    if done.returncode != 0:
        raise VaultError(f"git {args[0]} failed: {done.stderr.strip()[:300]}")
    return done.stdout


def _is_mnemex(body: str) -> bool:
    return any(line.startswith(TRAILER) for line in body.splitlines())


def _operation(body: str) -> str | None:
    for line in body.splitlines():
        if line.startswith(TRAILER):
            return line[len(TRAILER) :].strip()
    return None


def last_mnemex_commit(vault: Vault) -> str:
    """The newest mnemex change that is still in effect: what ``undo`` reverts next.

    Baselines are passed over (they are the person's files, not a change), and so
    are undo commits and the commits they reverted: undoing again walks further
    back, like an editor's undo, instead of undoing the undo. An undo that was
    itself undone (``mnemex undo <its sha>``, a redo) puts its commit back in effect.

    Raises:
        VaultError: none among the last :data:`SEARCH_DEPTH` commits.
    """
    out = _git(vault, "log", f"-{SEARCH_DEPTH}", "--format=%H%x00%B%x01")
    reverted: set[str] = set()
    seen = False
    for record in out.split("\x01"):
        sha, _, body = record.strip("\n").partition("\x00")
        if not sha or not _is_mnemex(body) or _operation(body) == BASELINE:
            continue
        seen = True
        if any(sha.startswith(r) for r in reverted):
            continue
        if _operation(body) == OPERATION:
            target = _reverted_sha(body)
            if target:
                reverted.add(target)
            continue
        return sha
    if not seen:
        raise VaultError(f"no mnemex commit among the last {SEARCH_DEPTH} commits: nothing to undo")
    raise VaultError(
        f"no mnemex change left to undo among the last {SEARCH_DEPTH} commits: undo already "
        "reverted each of them (undo COMMIT of an undo puts its change back)"
    )


def _reverted_sha(body: str) -> str | None:
    """The commit an undo commit reverted: its trailer, else the sha in its subject."""
    for line in body.splitlines():
        if line.startswith(REVERTS_TRAILER):
            return line[len(REVERTS_TRAILER) :].strip() or None
    found = _SUBJECT_RE.match(body)
    return found.group(1) if found else None


def _describe(vault: Vault, commit: str | None, force: bool) -> dict[str, Any]:
    if not is_repository(vault):
        raise VaultError(f"{vault.root} is not a git repository: there is no history to undo")
    if commit is not None and not _SHA_RE.match(commit):
        raise VaultError(f"{commit!r} is not a commit id (hex, at least 4 characters)")
    sha = last_mnemex_commit(vault) if commit is None else ""
    if commit is not None:
        sha = _git(vault, "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}").strip()
    body = _git(vault, "log", "-1", "--format=%B", sha)
    parents = _git(vault, "log", "-1", "--format=%P", sha).split()
    if len(parents) > 1:
        raise VaultError(f"{sha[:12]} is a merge commit; undo reverts single commits only")
    if not _is_mnemex(body) and not force:
        raise VaultError(
            f"{sha[:12]} was not made by mnemex (no {TRAILER} trailer); undo only reverts "
            "mnemex's own commits (pass force to revert it anyway)"
        )
    status = _git(vault, "show", "--format=", "--name-status", "--no-renames", "-z", sha)
    fields = status.strip("\0").split("\0")
    files = []
    for code, path in zip(fields[::2], fields[1::2], strict=False):
        if path:
            effect = {"A": "deleted", "D": "restored", "M": "changed back"}.get(code[:1], code)
            files.append({"path": path, "effect": effect})
    if not files:
        raise VaultError(f"{sha[:12]} changed no files: nothing to undo")
    if _operation(body) == BASELINE:
        names = ", ".join(f["path"] for f in files[:5])
        raise VaultError(
            f"{sha[:12]} is a baseline commit: it holds your own file(s) ({names}) as they "
            "were before mnemex first changed them, not a change mnemex made, so it is not "
            "undone; undo the mnemex commit after it to get those bytes back"
        )
    added = [f["path"] for f in files if f["effect"] == "deleted"]
    if added and BASELINE_TRAILER not in body.splitlines() and not force:
        names = ", ".join(added[:5])
        raise VaultError(
            f"{sha[:12]} was made before mnemex committed a person's files before changing "
            f"them: it records {names} as added, but such a file may have been yours, "
            "uncommitted, before mnemex changed it, and undo would delete it. Nothing was "
            f"changed; compare with `git show {sha[:12]} -- <path>` and pass force to delete "
            "it anyway"
        )
    dirty = _git(vault, "status", "--porcelain", "--", *[f["path"] for f in files])
    if dirty.strip():
        changed = ", ".join(ln[3:] for ln in dirty.splitlines()[:5])
        raise VaultError(
            f"uncommitted changes to files {sha[:12]} touched ({changed}); commit or discard "
            "them first, so undo does not mix a revert with your edit"
        )
    return {"commit": sha, "subject": body.splitlines()[0] if body else "", "files": files}


def undo(
    vault: Vault, commit: str | None = None, plan_id: str | None = None, *, force: bool = False
) -> dict[str, Any]:
    """Preview (no ``plan_id``) or apply the revert of ``commit`` (default: the last mnemex one).

    Raises:
        VaultError: not a repository, no such commit, not a mnemex commit (without
            ``force``), uncommitted changes to its files, or git could not revert it cleanly.
        PlanRefused: unknown or used plan, or a file changed since it was made.
    """
    with recording(vault):
        info = _describe(vault, commit, force)
        args = {"commit": info["commit"], "force": force}
        reads = {f["path"]: vault.current_hash(f["path"]) for f in info["files"]}
        if plan_id is None:
            details = {
                **info,
                "note": "nothing is reverted yet: apply with this plan_id (CLI: --yes)",
            }
            return create_plan(vault, OPERATION, args, reads, details).to_dict()
        take_plan(vault, plan_id, OPERATION, args)
        return _revert(vault, info, plan_id)


def _revert(vault: Vault, info: dict[str, Any], plan_id: str) -> dict[str, Any]:
    sha = info["commit"]
    env = git_environment(vault)
    # git keeps only the executable bit and writes a reverted file anew with the
    # umask's mode: the mode each file has now is put back after the revert.
    modes = {f["path"]: _mode(vault, f["path"]) for f in info["files"]}
    done = run_git(vault, "revert", "--no-commit", sha, env=env)
    if done.returncode != 0:
        run_git(vault, "revert", "--abort", env=env)
        raise PlanRefused(
            f"{sha[:12]} does not revert cleanly (later commits changed the same lines): "
            f"{done.stderr.strip()[:300]}; nothing was changed"
        )
    for path, mode in modes.items():
        if mode is not None and _mode(vault, path) not in (None, mode):
            os.chmod(vault.root / path, mode)
    paths = [f["path"] for f in info["files"]]
    commit = commit_change(
        vault,
        paths,
        OPERATION,
        f"revert {sha[:12]} ({info['subject'][:60]})",
        trailers=[f"{REVERTS_TRAILER} {sha}"],
    )
    run_git(vault, "revert", "--quit", env=env)
    discard_plan(vault, plan_id)
    report = Report()
    for f in info["files"]:
        exists = os.path.lexists(vault.root / f["path"])
        outcome = "deleted" if not exists else "created" if f["effect"] == "restored" else "updated"
        report.add(outcome, f["path"])
    return {**info, **report.to_dict(), "reverted": sha, "commit": commit.to_dict()}


def _mode(vault: Vault, rel: str) -> int | None:
    """Permission bits of a regular file (not followed through a symlink), else None."""
    try:
        st = os.lstat(vault.root / rel)
    except OSError:
        return None
    return stat.S_IMODE(st.st_mode) if stat.S_ISREG(st.st_mode) else None


__all__ = ["OPERATION", "last_mnemex_commit", "undo"]
