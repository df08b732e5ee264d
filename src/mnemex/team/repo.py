"""The shared repository of a team, as this machine holds it.

Each vault keeps a clone of the team's repository at ``.mnemex/team/<team>/repo`` (machine-
local, never synced). The remote is the truth: every operation fetches first and works on the
remote's newest commit, so nothing is built from stale state; an operation that cannot reach it
fails and says so. Pushes that lose a race are retried on the new tip; what still cannot be
pushed stays in the clone and is pushed by the next command.
"""

from __future__ import annotations

import os
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mnemex.errors import TeamError

BRANCH = "main"
TEAM_FILE = "team.toml"
AUDIT_FILE = "audit.jsonl"
#: Attempts at a push that keeps losing races with other members' pushes.
PUSH_ATTEMPTS = 8


@dataclass
class SharedRepo:
    """A clone of a team's shared repository."""

    root: Path
    remote: str
    author: str  # the member id commits are made as

    def git(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        env = {
            **os.environ,
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_AUTHOR_NAME": self.author,
            "GIT_AUTHOR_EMAIL": f"{self.author}@team.mnemex",
            "GIT_COMMITTER_NAME": self.author,
            "GIT_COMMITTER_EMAIL": f"{self.author}@team.mnemex",
        }
        done = subprocess.run(
            ["git", "-c", "core.quotepath=off", "-c", "commit.gpgsign=false", *args],
            cwd=self.root,
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        if check and done.returncode != 0:
            raise TeamError(f"git {args[0]} in the team clone failed: {_last_line(done)}")
        return done

    def ensure(self) -> None:
        """Clone the remote when this machine has no clone yet.

        Raises:
            TeamError: the remote cannot be reached.
        """
        if (self.root / ".git").is_dir():
            self.git("remote", "set-url", "origin", self.remote)
            return
        self.root.parent.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            ["git", "clone", "-q", self.remote, str(self.root)],
            capture_output=True,
            text=True,
            env={**os.environ, "GIT_TERMINAL_PROMPT": "0"},
            check=False,
        )
        if done.returncode != 0:
            raise TeamError(f"cannot reach the team repository {self.remote}: {_last_line(done)}")
        if not self.git("rev-parse", "--verify", "-q", "HEAD", check=False).stdout.strip():
            self.git("checkout", "-q", "-B", BRANCH)  # an empty repository: start its branch

    def refresh(self, keep: str | None = None) -> None:
        """Fetch, then make the clone exactly the remote's newest commit.

        Files under ``keep`` (this stream's folder) that the remote lacks are this machine's
        unpushed contributions: they are set aside and put back, so a failed push loses
        nothing. Anything else the clone held (a synthesis killed halfway, a stray file)
        is dropped: it can be made again.

        Raises:
            TeamError: the remote cannot be reached (nothing is built from stale state).
        """
        fetched = self.git("fetch", "-q", "origin", check=False)
        if fetched.returncode != 0:
            raise TeamError(
                f"cannot reach the team repository {self.remote}: {_last_line(fetched)}; "
                "nothing was done (working from what this machine last saw could empty "
                "the shared wiki)"
            )
        saved = self.unpushed(keep) if keep else {}
        (self.root / ".git" / "index.lock").unlink(missing_ok=True)  # a killed git left it
        if self.has_remote_branch():
            self.git("checkout", "-q", "-B", BRANCH, f"origin/{BRANCH}")
            self.git("reset", "-q", "--hard", f"origin/{BRANCH}")
        else:  # the remote is empty: an empty branch, nothing of a failed earlier start kept
            self.git("checkout", "-q", "--orphan", f"{BRANCH}-new", check=False)
            self.git("rm", "-rqf", "--cached", ".", check=False)
            self.git("checkout", "-q", "-B", BRANCH, check=False)
        self.git("clean", "-qfdx")
        for rel, data in saved.items():
            path = self.root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)

    def has_remote_branch(self) -> bool:
        return bool(
            self.git("rev-parse", "--verify", "-q", f"origin/{BRANCH}", check=False).stdout.strip()
        )

    def unpushed(self, folder: str) -> dict[str, bytes]:
        """Files under ``folder`` the remote's branch has never held (committed or not).

        A file the remote once held and no longer does was taken out there (a member
        removed, contributions withdrawn): it is not pushed back.
        """
        base = self.root / folder
        if not base.is_dir():
            return {}
        remote = self.ever_held(folder)
        out: dict[str, bytes] = {}
        for path in sorted(base.rglob("*")):
            rel = path.relative_to(self.root).as_posix()
            if path.is_file() and rel not in remote:
                out[rel] = path.read_bytes()
        return out

    def ever_held(self, folder: str) -> set[str]:
        """Every path under ``folder`` the remote's branch has held, in any commit."""
        if not self.has_remote_branch():
            return set()
        listed = self.git("log", f"origin/{BRANCH}", "--name-only", "--format=", "--", folder)
        return set(listed.stdout.split())

    def commit(self, message: str, paths: list[str] | None = None) -> bool:
        """Commit the clone's changes (under ``paths`` when given); whether there were any."""
        self.git("add", "-A", "--", *(paths or ["."]))
        if not self.git("status", "--porcelain", check=False).stdout.strip():
            return False
        self.git("commit", "-q", "--no-verify", "-m", message)
        return True

    def ahead(self) -> int:
        """Commits this clone holds that the remote's branch does not."""
        if not self.has_remote_branch():
            count = self.git("rev-list", "--count", "HEAD", check=False).stdout.strip()
            return int(count or 0)
        return int(self.git("rev-list", "--count", f"origin/{BRANCH}..HEAD").stdout.strip())

    def push(self) -> str | None:
        """Push the branch once; ``None`` when it landed, else why not."""
        done = self.git("push", "-q", "origin", f"HEAD:refs/heads/{BRANCH}", check=False)
        return None if done.returncode == 0 else _last_line(done)

    def read_toml(self, rel: str) -> dict[str, Any]:
        path = self.root / rel
        if not path.is_file():
            return {}
        try:
            return tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise TeamError(f"{rel} in the team repository is not valid TOML: {exc}") from None


def _last_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in (done.stderr or done.stdout).splitlines() if line.strip()]
    return lines[-1].strip() if lines else f"exit code {done.returncode}"


__all__ = ["AUDIT_FILE", "BRANCH", "PUSH_ATTEMPTS", "TEAM_FILE", "SharedRepo"]
