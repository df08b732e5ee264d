"""Members of a team as a user meets them: separate vaults, separate HOMEs, the real
``mnemex team`` command in its own process, and a bare repository on disk as the remote."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mnemex.config import settings_template
from mnemex.vault.layout import init_vault

MNEMEX = [sys.executable, "-m", "mnemex"]


def page(
    title: str, lead: str, points: Sequence[str] = (), related: Sequence[str] = (), **meta: Any
) -> str:
    """A wiki page as ingestion writes one."""
    front = "".join(
        f"{k}: {json.dumps(v)}\n" for k, v in {"type": "entity", "title": title, **meta}.items()
    )
    body = f"---\n{front}---\n# {title}\n{lead}\n"
    if points:
        body += "\n## Key points\n" + "".join(f"- {p}\n" for p in points)
    if related:
        body += "\n## Related\n" + "".join(f"- [[{r}]]\n" for r in related)
    return body


class Member:
    """One person's machine: a vault, a HOME, an identity, a clock (git's dates)."""

    def __init__(self, tmp: Path, name: str, skew_days: int = 0) -> None:
        self.name = name
        self.home = tmp / f"home-{name}"
        self.home.mkdir(parents=True)
        self.root = tmp / f"vault-{name}"
        self.root.mkdir()
        (self.root / "mnemex.toml").write_text(
            settings_template(name)
            .replace('name = "minilm"', 'name = "hashing"')
            .replace('domains = ["general"]', 'domains = ["general", "work", "health"]')
            .replace('private = ["private"]', 'private = ["private", "health"]'),
            encoding="utf-8",
        )
        init_vault(self.root)
        self.env = {
            **os.environ,
            "HOME": str(self.home),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "GIT_AUTHOR_NAME": name,
            "GIT_AUTHOR_EMAIL": f"{name}@example.org",
            "GIT_COMMITTER_NAME": name,
            "GIT_COMMITTER_EMAIL": f"{name}@example.org",
        }
        for key in ("MNEMEX_VAULT", "MNEMEX_INDEX_DSN", "MNEMEX_CONFIG"):
            self.env.pop(key, None)
        self.clock: list[str] = []
        if skew_days:
            self.clock = _skewed_clock(skew_days, self.env)
        self.git("add", "-A")
        self.git("commit", "-qm", "start")

    def git(self, *args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=self.root, env=self.env, capture_output=True, text=True, check=True
        ).stdout

    def write(self, rel: str, text: str) -> None:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    def run(self, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [*self.clock, *MNEMEX, "--vault", str(self.root), *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if ok:
            assert done.returncode == 0, f"{args}: {done.stdout}\n{done.stderr}"
        return done

    def team(self, *args: str, ok: bool = True) -> dict[str, Any]:
        """``mnemex team ARGS --json``: its JSON answer (and ``exit`` its code)."""
        done = self.run("team", *args, "--json", ok=ok)
        data = json.loads(done.stdout) if done.stdout.strip() else {}
        data["exit"] = done.returncode
        data["stderr"] = done.stderr
        return data


def _skewed_clock(days: int, env: dict[str, str]) -> list[str]:
    """A machine whose clock is ``days`` off: the whole process (and every git it runs)
    under Debian's ``faketime``, else git's own dates set that far off.
    ``MNEMEX_REQUIRE_FAKETIME=1`` (CI) makes a missing ``faketime`` a failure."""
    if shutil.which("faketime"):
        return ["faketime", "-f", f"{days:+d}d"]
    if os.environ.get("MNEMEX_REQUIRE_FAKETIME") == "1":
        raise AssertionError("faketime is missing: install Debian's faketime (CI does)")
    when = (dt.datetime.now(dt.UTC) + dt.timedelta(days=days)).isoformat(timespec="seconds")
    env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = when
    return []


def bare(tmp: Path, name: str = "team.git") -> Path:
    origin = tmp / name
    subprocess.run(["git", "init", "-q", "--bare", str(origin)], check=True)
    return origin


def shared_files(origin: Path) -> dict[str, str]:
    """The shared branch's files: path -> text."""
    names = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", "main"], cwd=origin, capture_output=True, text=True,
        check=True,
    ).stdout.split()  # fmt: skip
    return {
        n: subprocess.run(
            ["git", "show", f"main:{n}"], cwd=origin, capture_output=True, text=True, check=True
        ).stdout
        for n in names
    }


def every_byte(origin: Path) -> bytes:
    """Every object the shared repository holds, in every commit: all that left any machine."""
    listed = subprocess.run(
        ["git", "cat-file", "--batch-all-objects", "--batch"], cwd=origin, capture_output=True,
        check=True,
    )  # fmt: skip
    return listed.stdout


__all__ = ["MNEMEX", "Member", "bare", "every_byte", "page", "shared_files"]
