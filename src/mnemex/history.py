"""Every applied change becomes one git commit in the vault (vault format §12).

Subjects read ``mnemex <operation>: <summary>`` with the trailers
``Mnemex-Operation:`` and ``Mnemex-Machine:``, so ``undo`` can later revert only
what mnemex did. A commit names its paths (``git commit -- <paths>``): whatever
else the person has staged or changed stays out of it.

Several mnemex processes (one MCP server per agent session, the CLI, a
watcher) commit to the same repository. Git refuses a second writer with
``index.lock``; commits are therefore serialised with the vault's ``git`` lock,
and a lock held by someone else (a person running git) is waited out. A writer
holds that lock from its write to its commit (:func:`recording`), so each
commit holds exactly its own change.

Private folders and ``.mnemex/`` are never committed: they are git-ignored by
``init``, and refused here too in case the ignore file was edited.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from mnemex.errors import VaultError
from mnemex.machine import machine_name
from mnemex.vault import LOCAL_DIR, Vault, placement

#: How long to wait out a git index.lock held by someone else (a person's git, an IDE).
INDEX_LOCK_WAIT_SECONDS = 10.0


@dataclass(frozen=True)
class CommitResult:
    """What :func:`commit_change` did: the commit's sha, or why there is none."""

    sha: str | None
    paths: tuple[str, ...] = ()
    reason: str | None = None

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"committed": self.sha is not None}
        if self.sha:
            out["sha"] = self.sha[:12]
        if self.reason:
            out["reason"] = self.reason
        return out


_IDENTITY_ENV: dict[str, dict[str, str]] = {}
_HELD = threading.local()


@contextlib.contextmanager
def recording(vault: Vault) -> Iterator[None]:
    """Hold the vault's history lock around a change and its commit (re-entrant per thread).

    Writing and committing under one lock makes each commit exactly the change of
    its call: another process's write to the same file waits, instead of landing
    in this commit and leaving its own with nothing to commit.
    """
    held: dict[str, int] = _HELD.__dict__.setdefault("depth", {})
    key = str(vault.root)
    if held.get(key):
        held[key] += 1
        try:
            yield
        finally:
            held[key] -= 1
        return
    with vault.lock("git"):
        held[key] = 1
        try:
            yield
        finally:
            held[key] = 0


def run_git(
    vault: Vault, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-c", "core.quotepath=off", *args],
        cwd=vault.root,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )


def git_environment(vault: Vault) -> dict[str, str]:
    """The environment for commits: the person's identity, else a stand-in naming mnemex."""
    key = str(vault.root)
    if key not in _IDENTITY_ENV:
        extra: dict[str, str] = {}
        name = run_git(vault, "config", "user.name").stdout.strip()
        email = run_git(vault, "config", "user.email").stdout.strip()
        if not name:
            extra["GIT_AUTHOR_NAME"] = extra["GIT_COMMITTER_NAME"] = "mnemex"
        if not email:
            extra["GIT_AUTHOR_EMAIL"] = extra["GIT_COMMITTER_EMAIL"] = "mnemex@localhost"
        _IDENTITY_ENV[key] = extra
    return {**os.environ, **_IDENTITY_ENV[key]}


def is_repository(vault: Vault) -> bool:
    return (vault.root / ".git").exists()


def committable(vault: Vault, rel: str) -> bool:
    """Whether a path may ever be committed: not machine-local, not private."""
    parts = PurePosixPath(rel).parts
    if not parts or parts[0] in (LOCAL_DIR, ".git"):
        return False
    where = placement(rel)
    return not any(vault.settings.is_private(n) for n in (where.domain, where.project))


def commit_change(vault: Vault, paths: Sequence[str], operation: str, summary: str) -> CommitResult:
    """Commit the given vault-relative paths (written, moved or deleted) as one commit.

    A vault that is not a git repository, or a change that left the files as
    they were committed, gives no commit and says why; that is not an error.

    Raises:
        VaultError: git failed for a reason other than a busy lock.
    """
    if not is_repository(vault):
        return CommitResult(None, reason="the vault is not a git repository (run `git init` in it)")
    wanted = sorted({p for p in paths if committable(vault, p)})
    if not wanted:
        return CommitResult(None, reason="nothing committable (private or machine-local paths)")
    env = git_environment(vault)
    subject = f"mnemex {operation}: {summary}"
    if len(subject) > 100:
        subject = subject[:99] + "…"
    body = f"Mnemex-Operation: {operation}\nMnemex-Machine: {machine_name(vault)}"
    with recording(vault):
        ignored = set(_run(vault, ["check-ignore", "--no-index", "--", *wanted], env).splitlines())
        tracked = set(_run(vault, ["ls-files", "--", *wanted], env).splitlines())
        wanted = [
            p for p in wanted if p not in ignored and ((vault.root / p).exists() or p in tracked)
        ]
        if not wanted:
            return CommitResult(None, reason="nothing to commit (paths are git-ignored or gone)")
        _run(vault, ["add", "-A", "--", *wanted], env, check=True)
        status = _run(vault, ["status", "--porcelain", "--", *wanted], env)
        if not status.strip():
            return CommitResult(None, tuple(wanted), "no change to commit")
        _run(
            vault,
            ["commit", "-q", "--no-verify", "-m", subject, "-m", body, "--", *wanted],
            env,
            check=True,
        )
        sha = _run(vault, ["rev-parse", "HEAD"], env).strip()
    if not sha:
        raise VaultError(f"git commit for {operation} left no HEAD in {vault.root}")
    return CommitResult(sha, tuple(wanted))


def _run(vault: Vault, args: list[str], env: dict[str, str], check: bool = False) -> str:
    """Run git, waiting out a lock someone outside mnemex holds; returns stdout."""
    deadline = time.monotonic() + INDEX_LOCK_WAIT_SECONDS
    while True:
        done = run_git(vault, *args, env=env)
        if done.returncode == 0 or not check:
            return done.stdout
        if "index.lock" in done.stderr and time.monotonic() < deadline:
            time.sleep(0.05)
            continue
        raise VaultError(f"git {args[0]} failed in {vault.root}: {done.stderr.strip()[:500]}")


__all__ = [
    "INDEX_LOCK_WAIT_SECONDS",
    "CommitResult",
    "commit_change",
    "committable",
    "is_repository",
]
