"""``mnemex sync``: commit the vault's changes, pull, push, to the user's own git remote.

- Only committable paths are committed (never ``.mnemex/``, a private domain or
  project, or a team's mirror ``wiki/shared-<team>/``, whatever ``.gitignore`` says),
  and the push is refused when such a path is tracked.
- The pull is a merge (``git merge`` of the fetched branch; a fast-forward when this
  machine has nothing of its own, so machines that sync in turn agree). Per-machine files
  (handoffs, journals) never meet, so they never conflict.
- A real conflict in a shared file (a brief, a wiki page) is never resolved
  silently: ours stays at the path, the other side's version is saved beside it
  as ``<name>.conflict-<machine>-<time><ext>``, both are committed, and the
  conflict is reported here and by ``doctor`` (:func:`sync_checks`) until the
  person merges the copy by hand and deletes it. Nothing is lost.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import PurePosixPath
from typing import Any

from mnemex.errors import VaultError
from mnemex.report import Report
from mnemex.vault import LOCAL_DIR, Vault, ascii_slug
from mnemex.vault.history import (
    MACHINE_TRAILER,
    commit_trailers,
    committable,
    git_environment,
    is_repository,
    recording,
    run_git,
)
from mnemex.vault.layout import ignore_lines

#: A conflict copy: ``<stem>.conflict-<machine>-<YYYYmmddTHHMMSSZ><ext>``.
CONFLICT_RE = re.compile(r"\.conflict-[a-z0-9-]+-\d{8}T\d{6}Z(\.[^/]*)?$")
MAX_LISTED = 50


def _git(vault: Vault, *args: str) -> subprocess.CompletedProcess[str]:
    # never prompt for credentials or a merge message: sync runs unattended
    env = {**git_environment(vault), "GIT_TERMINAL_PROMPT": "0", "GIT_MERGE_AUTOEDIT": "no"}
    return run_git(vault, *args, env=env)


def _out(vault: Vault, *args: str) -> str:
    done = run_git(vault, *args)
    return done.stdout.strip() if done.returncode == 0 else ""


def _must(vault: Vault, *args: str) -> str:
    done = _git(vault, *args)
    if done.returncode != 0:
        raise VaultError(f"git {args[0]} failed in {vault.root}: {done.stderr.strip()[:500]}")
    return done.stdout


def missing_ignores(vault: Vault) -> list[str]:
    path = vault.root / ".gitignore"
    try:
        lines = {line.strip() for line in path.read_text(encoding="utf-8").splitlines()}
    except (OSError, UnicodeDecodeError):
        lines = set()
    return [w for w in ignore_lines(vault.settings) if w not in lines]


def tracked_private(vault: Vault) -> list[str]:
    """Tracked paths that must never leave the machine (private, machine-local or a team's
    mirror: other people's pages must not reach this vault's remote)."""
    files = _out(vault, "ls-files").splitlines()
    return [f for f in files if f and not committable(vault, f)]


def conflict_copies(vault: Vault) -> list[str]:
    """Conflict copies ``sync`` saved that nobody has merged and deleted yet."""
    found: list[str] = []
    skip = {LOCAL_DIR, ".git"}
    for folder, dirs, files in os.walk(vault.root):
        dirs[:] = [d for d in dirs if d not in skip]
        for name in files:
            if CONFLICT_RE.search(name):
                rel = os.path.relpath(os.path.join(folder, name), vault.root)
                found.append(rel.replace(os.sep, "/"))
    return sorted(found)


def _conflict_name(rel: str, machine: str, when: str) -> str:
    path = PurePosixPath(rel)
    name = path.name
    stem, dot, ext = name.partition(".") if not name.startswith(".") else (name, "", "")
    copy = f"{stem}.conflict-{machine}-{when}{dot}{ext}"
    return str(path.with_name(copy))


def _commit_local(vault: Vault, report: Report) -> str | None:
    """Commit every committable change in the vault; returns the commit sha, if any."""
    status = _must(vault, "status", "--porcelain", "-z", "--untracked-files=all")
    entries = [e for e in status.split("\0") if e]
    paths: list[str] = []
    skip_next = False
    for entry in entries:
        if skip_next:  # the source path of a rename
            skip_next = False
            paths.append(entry)
            continue
        code, rel = entry[:2], entry[3:]
        if "R" in code or "C" in code:
            skip_next = True
        if not committable(vault, rel):
            continue
        paths.append(rel)
        report.add("created" if code in ("??", "A ") else "updated", rel)
    paths = [p for p in paths if committable(vault, p)]
    if not paths:
        return None
    ignored = set(_out(vault, "check-ignore", "--no-index", "--", *paths).splitlines())
    paths = [p for p in paths if p not in ignored]
    if not paths:
        return None
    _must(vault, "add", "-A", "--", *paths)
    if not _out(vault, "diff", "--cached", "--name-only", "--", *paths):
        return None
    _must(
        vault,
        "commit",
        "-q",
        "--no-verify",
        "-m",
        f"mnemex sync: {len(paths)} local change(s)",
        "-m",
        commit_trailers(vault, "sync"),
        "--",
        *paths,
    )
    return _out(vault, "rev-parse", "HEAD")


def _their_machine(vault: Vault, ref: str) -> str:
    trailer = _out(vault, "log", "-1", f"--format=%(trailers:key={MACHINE_TRAILER},valueonly)", ref)
    return ascii_slug(trailer.splitlines()[0]) if trailer else "remote"


#: How a kind of file two machines both changed is merged: ``(path, ours, theirs)`` to the
#: merged bytes, or None to keep both copies. Raising is the same as None.
Merger = Callable[[str, bytes, bytes], bytes | None]


def _merged(merge: Merger | None, rel: str, ours: bytes, theirs: bytes) -> bytes | None:
    if merge is None:
        return None
    try:
        return merge(rel, ours, theirs)
    except Exception:  # a merger that cannot read a side leaves both copies, as without one
        return None


def _resolve_conflicts(
    vault: Vault, report: Report, merge: Merger | None = None
) -> list[dict[str, str]]:
    """Merge each conflicted path ``merge`` knows; keep ours at the others, and the other
    side's version beside it."""
    conflicted = _out(vault, "diff", "--name-only", "--diff-filter=U").splitlines()
    theirs_machine = _their_machine(vault, "MERGE_HEAD")
    when = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out: list[dict[str, str]] = []
    stages: dict[str, set[int]] = {}
    for line in _out(vault, "ls-files", "-u", "-z").split("\0"):
        if "\t" in line:
            meta, rel = line.split("\t", 1)
            stages.setdefault(rel, set()).add(int(meta.split()[2]))
    for rel in conflicted:
        have = stages.get(rel, set())
        target = vault.root / rel
        copy = _conflict_name(rel, theirs_machine, when)
        if 2 in have and 3 in have:
            ours = _blob(vault, f":2:{rel}")
            theirs = _blob(vault, f":3:{rel}")
            merged = _merged(merge, rel, ours, theirs)
            if merged is not None:
                target.write_bytes(merged)
                _must(vault, "add", "--", rel)
                out.append({"path": rel, "theirs": "", "kept": "merged"})
                report.add("updated", rel)
                continue
            target.write_bytes(ours)
            (vault.root / copy).write_bytes(theirs)
            _must(vault, "add", "--", rel, copy)
            out.append({"path": rel, "theirs": copy, "kept": "ours"})
            report.add("updated", copy)
            report.warn(rel, f"conflict: kept this machine's version; theirs saved as {copy}")
        elif 3 in have:  # deleted here, changed there: keep theirs, nothing lost
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(_blob(vault, f":3:{rel}"))
            _must(vault, "add", "--", rel)
            out.append({"path": rel, "theirs": rel, "kept": "theirs (deleted here)"})
            report.warn(rel, "conflict: deleted here, changed there; their version kept")
        else:  # changed here, deleted there (or added twice): keep ours
            if 2 in have:
                target.write_bytes(_blob(vault, f":2:{rel}"))
            _must(vault, "add", "--", rel)
            out.append({"path": rel, "theirs": "", "kept": "ours (deleted there)"})
            report.warn(rel, "conflict: changed here, deleted there; this version kept")
    return out


def _blob(vault: Vault, spec: str) -> bytes:
    done = subprocess.run(["git", "show", spec], cwd=vault.root, capture_output=True, check=False)
    if done.returncode != 0:
        raise VaultError(f"git show {spec} failed: {done.stderr.decode(errors='replace')[:300]}")
    return done.stdout


def sync(vault: Vault, remote: str | None = None, merge: Merger | None = None) -> dict[str, Any]:
    """Commit, pull (merge) and push the vault; returns the report, conflicts and what moved.

    ``merge`` merges the files it knows that both sides changed (fact files, by fact id)
    instead of keeping two copies.

    Raises:
        VaultError: the vault is not a git repository, has no remote, or git failed.
    """
    if not is_repository(vault):
        raise VaultError(f"{vault.root} is not a git repository: run `git init` and add a remote")
    report = Report()
    remotes = _out(vault, "remote").splitlines()
    if remote is None:
        remote = "origin" if "origin" in remotes else (remotes[0] if remotes else None)
    if remote is None or remote not in remotes:
        raise VaultError(
            f"no git remote {remote or ''!s} in {vault.root}: add your own with "
            "`git remote add origin <url>`"
        )
    result: dict[str, Any] = {"remote": remote, "pushed": False, "conflicts": []}
    for line in missing_ignores(vault):
        report.warn(".gitignore", f"missing {line!r}: private files are kept out by mnemex anyway")
    with recording(vault):
        if (vault.root / ".git" / "MERGE_HEAD").exists():
            raise VaultError("a merge is in progress in the vault: finish it with git first")
        result["committed"] = _commit_local(vault, report) is not None
        branch = _out(vault, "symbolic-ref", "--short", "HEAD")
        if not branch:
            raise VaultError("the vault's HEAD is detached: check out a branch first")
        result["branch"] = branch
        fetched = _git(vault, "fetch", "--quiet", remote)
        if fetched.returncode != 0:
            report.add("failed", remote, f"git fetch failed: {fetched.stderr.strip()[:300]}")
            result["report"] = report.to_dict()
            return result
        upstream = f"{remote}/{branch}"
        has_upstream = bool(_out(vault, "rev-parse", "--verify", "--quiet", upstream))
        has_head = bool(_out(vault, "rev-parse", "--verify", "--quiet", "HEAD"))
        result["pulled"] = 0
        if has_upstream and has_head:
            before = _out(vault, "rev-parse", "HEAD")
            merged = _git(
                vault,
                "merge",
                "--no-edit",
                "--allow-unrelated-histories",
                "-q",
                upstream,
            )
            if merged.returncode != 0:
                if not (vault.root / ".git" / "MERGE_HEAD").exists():
                    report.add("failed", upstream, f"git merge failed: {merged.stderr.strip()}")
                    result["report"] = report.to_dict()
                    return result
                resolved = _resolve_conflicts(vault, report, merge)
                conflicts = [c for c in resolved if c["kept"] != "merged"]
                result["conflicts"] = conflicts
                result["merged"] = [c["path"] for c in resolved if c["kept"] == "merged"]
                _must(
                    vault,
                    "commit",
                    "-q",
                    "--no-verify",
                    "-m",
                    f"mnemex sync: merge {upstream}, {len(conflicts)} conflict(s), both kept"
                    + (f", {len(result['merged'])} file(s) merged" if result["merged"] else ""),
                    "-m",
                    commit_trailers(vault, "sync"),
                )
            pulled = _out(vault, "diff", "--name-only", before, "HEAD").splitlines()
            result["pulled"] = len(pulled)
            for rel in pulled:
                if not CONFLICT_RE.search(rel):
                    report.add("updated", rel)
        elif has_upstream:
            _must(vault, "merge", "-q", upstream)
        private = tracked_private(vault)
        if private:
            for rel in private[:MAX_LISTED]:
                report.add("refused", rel, "private, machine-local or mirrored, yet tracked by git")
            report.add(
                "refused",
                remote,
                f"push refused: {len(private)} private or machine-local path(s) are tracked; "
                "remove them with `git rm --cached` and keep them in .gitignore",
            )
            result["tracked_private"] = private[:MAX_LISTED]
        elif _out(vault, "rev-parse", "--verify", "--quiet", "HEAD"):
            pushed = _git(vault, "push", "--quiet", "-u", remote, f"HEAD:{branch}")
            if pushed.returncode != 0:
                report.add("failed", remote, f"git push failed: {pushed.stderr.strip()[:300]}")
            else:
                result["pushed"] = True
    open_copies = conflict_copies(vault)
    result["conflict_copies"] = open_copies[:MAX_LISTED]
    result["report"] = report.to_dict()
    return result


def sync_checks(vault: Vault) -> list[dict[str, str]]:
    """Doctor checks: unmerged conflict copies, missing ignore lines, tracked private paths."""
    checks: list[dict[str, str]] = []
    copies = conflict_copies(vault)
    if copies:
        shown = ", ".join(copies[:10]) + (
            f" and {len(copies) - 10} more" if len(copies) > 10 else ""
        )
        checks.append(
            {
                "name": "sync conflicts",
                "status": "warn",
                "detail": f"{len(copies)} conflict copy(ies) to merge by hand, "
                f"then delete: {shown}",
            }
        )
    if is_repository(vault):
        missing = missing_ignores(vault)
        if missing:
            checks.append(
                {
                    "name": "gitignore",
                    "status": "warn",
                    "detail": f".gitignore lacks {', '.join(missing)} (run `mnemex init` again)",
                }
            )
        private = tracked_private(vault)
        if private:
            checks.append(
                {
                    "name": "private files",
                    "status": "fail",
                    "detail": f"{len(private)} private or machine-local path(s) tracked by git "
                    f"(sync refuses to push): {', '.join(private[:10])}",
                }
            )
    return checks


__all__ = [
    "CONFLICT_RE",
    "conflict_copies",
    "missing_ignores",
    "sync",
    "sync_checks",
    "tracked_private",
]
