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

Nothing lost (vault format §12). Before mnemex first changes, moves or deletes a
file whose current bytes git does not hold (untracked, or tracked with
uncommitted edits), :func:`baseline` commits those bytes alone, so undoing the
mnemex commit gives them back instead of deleting the file. And every path a
writer is about to touch is first listed in an intent record
(``.mnemex/intents/``), removed once the writer's session ends normally: a run
killed between its writes and its commit leaves the record, and the next
session on the vault commits what it left (operation ``recover``) and removes
its stray temporary files. :meth:`Vault.write_note` and :meth:`Vault.delete_note`
call :func:`before_change` through the vault's change hook (registered below:
``vault/`` cannot import this module); writers that put files in place another
way call it themselves.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import subprocess
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from mnemex.errors import VaultError
from mnemex.vault import LOCAL_DIR, Vault, placement
from mnemex.vault.layout import FACTS_LOG, mirror_team
from mnemex.vault.machine import machine_name
from mnemex.vault.privacy import is_private
from mnemex.vault.vault import is_temporary_of, register_change_hook

#: How long to wait out a git index.lock held by someone else (a person's git, an IDE).
INDEX_LOCK_WAIT_SECONDS = 10.0
#: The operation of a commit holding a person's own bytes before mnemex first changed them.
BASELINE = "baseline"
#: The operation of a commit finishing what an interrupted run left uncommitted.
RECOVER = "recover"
#: The trailer keys of every mnemex commit: the operation that made it and on which machine
#: (``undo`` reads the first, ``sync`` the second; see :func:`commit_trailers`).
OPERATION_TRAILER = "Mnemex-Operation"
MACHINE_TRAILER = "Mnemex-Machine"
#: Trailer of every commit made under the baseline rule: each file it changed had its
#: earlier bytes in git, so undo may delete what it added (older commits lack it).
BASELINE_TRAILER = "Mnemex-Baseline: checked"
#: ``.mnemex/intents/<id>.jsonl``: the paths a live session is about to write.
INTENTS_DIR = "intents"


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
_RECOVERED: dict[str, list[str]] = {}


@dataclass
class _Session:
    """One thread's hold of a vault's history lock, from its outermost :func:`recording`."""

    depth: int = 1
    #: Paths already checked for a baseline: a later write in the session must not
    #: baseline mnemex's own uncommitted change as if it were the person's.
    checked: set[str] = field(default_factory=set)
    intent: Path | None = None


def _sessions() -> dict[str, _Session]:
    found: dict[str, _Session] = _HELD.__dict__.setdefault("sessions", {})
    return found


@contextlib.contextmanager
def recording(vault: Vault) -> Iterator[None]:
    """Hold the vault's history lock around a change and its commit (re-entrant per thread).

    Writing and committing under one lock makes each commit exactly the change of
    its call: another process's write to the same file waits, instead of landing
    in this commit and leaving its own with nothing to commit. Entering it first
    finishes what an interrupted session left (:func:`recover`): holding the lock
    proves no live writer owns those intent records.
    """
    sessions = _sessions()
    key = str(vault.root)
    session = sessions.get(key)
    if session is not None:
        session.depth += 1
        try:
            yield
        finally:
            session.depth -= 1
        return
    with vault.lock("git"):
        session = sessions[key] = _Session()
        finished = False
        try:
            recover(vault)
            yield
            finished = True
        finally:
            del sessions[key]
            # after an error the record stays: the next session commits what was written
            if finished and session.intent is not None:
                with contextlib.suppress(FileNotFoundError):
                    session.intent.unlink()


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


def _literal_env(vault: Vault) -> dict[str, str]:
    # mnemex passes file names, never patterns: 'notes/a[1].md' is that file
    return {**git_environment(vault), "GIT_LITERAL_PATHSPECS": "1"}


def committable(vault: Vault, rel: str) -> bool:
    """Whether a path may ever be committed: not machine-local, not private, not in a team's
    mirror (other people's pages, pulled again by ``mnemex team pull``: never this vault's
    history, whatever ``.gitignore`` says)."""
    parts = PurePosixPath(rel).parts
    if not parts or parts[0] in (LOCAL_DIR, ".git") or rel == FACTS_LOG:
        return False
    if mirror_team(rel) is not None:
        return False
    where = placement(rel)
    return not any(is_private(vault.settings, n) for n in (where.domain, where.project))


def commit_trailers(vault: Vault, operation: str) -> str:
    """The trailer lines every mnemex commit carries: its operation and this machine."""
    return f"{OPERATION_TRAILER}: {operation}\n{MACHINE_TRAILER}: {machine_name(vault)}"


def commit_change(
    vault: Vault,
    paths: Sequence[str],
    operation: str,
    summary: str,
    trailers: Sequence[str] = (),
) -> CommitResult:
    """Commit the given vault-relative paths (written, moved or deleted) as one commit.

    A vault that is not a git repository, or a change that left the files as
    they were committed, gives no commit and says why; that is not an error.
    ``trailers`` are extra ``Key: value`` lines for the message (undo names what it reverts).

    Raises:
        VaultError: git failed for a reason other than a busy lock.
    """
    if not is_repository(vault):
        return CommitResult(None, reason="the vault is not a git repository (run `git init` in it)")
    wanted = sorted({p for p in paths if committable(vault, p)})
    if not wanted:
        return CommitResult(None, reason="nothing committable (private or machine-local paths)")
    env = _literal_env(vault)
    subject = f"mnemex {operation}: {summary}"
    if len(subject) > 100:
        subject = subject[:99] + "…"
    body = f"{commit_trailers(vault, operation)}\n{BASELINE_TRAILER}"
    body += "".join(f"\n{line}" for line in trailers)
    if operation != BASELINE:
        crash_point("commit")
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


def baseline(vault: Vault, paths: Sequence[str]) -> CommitResult | None:
    """Commit the person's current bytes of ``paths`` that git does not hold, alone.

    Run before mnemex first changes, moves or deletes a file: afterwards undoing
    mnemex's commit restores exactly those bytes. Only existing files that are
    untracked or carry uncommitted edits are committed (operation ``baseline``);
    git-ignored, private and machine-local paths are left alone, and so is a vault
    that is not a git repository. A path is checked once per :func:`recording`
    session. One ``git status`` call per batch.

    Returns:
        The baseline commit, or None when nothing needed one.

    Raises:
        VaultError: git failed.
    """
    if not is_repository(vault):
        return None
    with recording(vault):
        session = _sessions()[str(vault.root)]
        fresh = [p for p in dict.fromkeys(paths) if p not in session.checked]
        session.checked.update(fresh)
        present = [p for p in fresh if committable(vault, p) and os.path.lexists(vault.root / p)]
        if not present:
            return None
        env = _literal_env(vault)
        status = _run(
            vault, ["status", "--porcelain", "-z", "--untracked-files=all", "--", *present], env
        )
        dirty = _status_paths(status)
        loose = [p for p in present if p in dirty]
        if not loose:
            return None
        what = loose[0] if len(loose) == 1 else f"{len(loose)} files"
        return commit_change(vault, loose, BASELINE, f"{what} as it was before mnemex changed it")


def _status_paths(porcelain: str) -> set[str]:
    """The paths of ``git status --porcelain -z`` (a rename's second name is its origin)."""
    found: set[str] = set()
    fields = porcelain.split("\0")
    i = 0
    while i < len(fields):
        entry = fields[i]
        i += 1
        if len(entry) < 4:
            continue
        found.add(entry[3:])
        if entry[0] in "RC":
            i += 1
    return found


def before_change(vault: Vault, paths: Sequence[str]) -> None:
    """Make ``paths`` safe to write, move or delete: baseline them, then record the intent.

    Inside a :func:`recording` session the paths go into the session's intent
    record (fsynced) before the caller writes, so a crash before the commit is
    finished by the next session. :meth:`Vault.write_note` and
    :meth:`Vault.delete_note` call this themselves; other writers call it first.

    Raises:
        VaultError: git failed while committing a baseline.
    """
    crash_point("change")
    session = _sessions().get(str(vault.root))
    baseline(vault, paths)
    if session is None:
        return  # no session, no commit to wait for: nothing to recover later
    if session.intent is None:
        folder = vault.local_dir / INTENTS_DIR
        folder.mkdir(exist_ok=True)
        session.intent = folder / f"{os.getpid()}-{secrets.token_hex(4)}.jsonl"
    lines = "".join(json.dumps({"path": p}, ensure_ascii=False) + "\n" for p in paths)
    with session.intent.open("a", encoding="utf-8") as fh:
        fh.write(lines)
        fh.flush()
        os.fsync(fh.fileno())


def recover(vault: Vault) -> list[str]:
    """Finish what interrupted sessions left: commit their files, remove their temporary files.

    The paths of each intent record left in ``.mnemex/intents/`` are committed as
    they are (operation ``recover``): every write is atomic, so each file holds
    either its old bytes (nothing to commit) or mnemex's new ones, and the
    commit can be undone like any other. Rolling back instead would throw away
    finished work (a harvest's digests) and could clobber a person's edit made
    since. Call it holding the history lock (:func:`recording` does, on entry).

    Returns:
        One message per record finished; also kept for :func:`take_recovered`.
    """
    folder = vault.root / LOCAL_DIR / INTENTS_DIR
    try:
        records = sorted(folder.glob("*.jsonl"))
    except OSError:
        return []
    messages: list[str] = []
    for record in records:
        paths = _intent_paths(record)
        removed = _remove_temporaries(vault, paths)
        done = (
            commit_change(vault, paths, RECOVER, f"{len(paths)} file(s) an interrupted run left")
            if paths
            else CommitResult(None, reason="the record named no file")
        )
        what = f"an interrupted run ({record.stem}) left {len(paths)} file(s)"
        if done.sha:
            what += f": committed as {done.sha[:12]}"
        else:
            what += f": nothing to commit ({done.reason})"
        if removed:
            what += f"; removed {removed} stray temporary file(s)"
        messages.append(what)
        record.unlink()
    if messages:
        _RECOVERED.setdefault(str(vault.root), []).extend(messages)
    return messages


def take_recovered(vault: Vault) -> list[str]:
    """The messages of :func:`recover` runs on ``vault`` not yet reported, then forgets them."""
    return _RECOVERED.pop(str(vault.root), [])


def _intent_paths(record: Path) -> list[str]:
    paths: list[str] = []
    try:
        lines = record.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return paths
    for line in lines:
        try:
            item = json.loads(line)
        except ValueError:
            continue  # the line being written when the process died
        path = item.get("path") if isinstance(item, dict) else None
        if isinstance(path, str) and path and path not in paths:
            paths.append(path)
    return paths


def _remove_temporaries(vault: Vault, paths: Sequence[str]) -> int:
    """Remove ``atomic_write``'s leftovers beside ``paths``: only names of that exact pattern."""
    removed = 0
    for rel in paths:
        parts = PurePosixPath(rel).parts
        if not parts or ".." in parts or parts[0] == ".git":
            continue
        target = vault.root / rel
        try:
            entries = list(os.scandir(target.parent))
        except OSError:
            continue
        for entry in entries:
            if is_temporary_of(entry.name, target.name) and entry.is_file(follow_symlinks=False):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(entry.path)
                    removed += 1
    return removed


#: Test hook (``MNEMEX_TEST_CRASH=<point>:<n>``): die by SIGKILL the n-th time a point
#: is reached. It fires only when ``MNEMEX_TEST_CRASH_CONFIRM`` says so, too.
_CRASH_COUNTS: dict[str, int] = {}


def crash_point(point: str) -> None:
    """Kill this process here when the crash test hook names ``point`` (tests only)."""
    spec = os.environ.get("MNEMEX_TEST_CRASH")
    if not spec or os.environ.get("MNEMEX_TEST_CRASH_CONFIRM") != "kill this process":
        return
    wanted, _, count = spec.partition(":")
    if wanted != point:
        return
    _CRASH_COUNTS[point] = _CRASH_COUNTS.get(point, 0) + 1
    if str(_CRASH_COUNTS[point]) == (count or "1"):
        os.kill(os.getpid(), signal.SIGKILL)


register_change_hook(before_change)


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
    "BASELINE",
    "BASELINE_TRAILER",
    "INDEX_LOCK_WAIT_SECONDS",
    "MACHINE_TRAILER",
    "OPERATION_TRAILER",
    "RECOVER",
    "CommitResult",
    "baseline",
    "before_change",
    "commit_change",
    "commit_trailers",
    "committable",
    "crash_point",
    "is_repository",
    "recover",
    "take_recovered",
]
