"""Which project a piece of work belongs to, and which projects exist: one rule each.

A project's name comes from the agent's working folder (its git remote's name, else the
folder's name), slugified.
"""

from __future__ import annotations

import functools
import re
import subprocess
from pathlib import Path, PurePath

from mnemex.vault import slugify


@functools.lru_cache(maxsize=512)
def _git_remote_name(folder: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", folder, "remote", "get-url", "origin"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    url = done.stdout.strip()
    if done.returncode != 0 or not url:
        return None
    name = re.split(r"[/:]", url.rstrip("/"))[-1]
    return name[:-4] if name.endswith(".git") else name


def project_from_remote_url(url: str) -> str | None:
    """``git@host:me/mnemex.git`` -> ``mnemex``."""
    name = re.split(r"[/:]", url.strip().rstrip("/"))[-1]
    name = name[:-4] if name.endswith(".git") else name
    slug = slugify(name)
    return None if slug == "untitled" else slug


def project_for_cwd(cwd: str) -> str | None:
    """The project of an agent's working folder: its git remote's name when the folder exists
    here and is a git repository, else the folder's name; slugified. None for the filesystem
    root or the home folder (no project there)."""
    pure = PurePath(cwd)
    if not pure.name:
        return None
    local = Path(cwd).expanduser()
    name: str | None = None
    try:
        if local.is_dir():
            resolved = local.resolve()
            if resolved == Path.home().resolve():
                return None
            name = _git_remote_name(str(resolved))
    except OSError:
        name = None
    slug = slugify(name or pure.name)
    return None if slug == "untitled" else slug


__all__ = ["project_for_cwd", "project_from_remote_url"]
