"""Which project a piece of work belongs to, and which projects exist: one rule each.

A project's name comes from the agent's working folder (its git remote's name, else the
folder's name), slugified. A project exists once it has a folder under ``state/`` or
``memories/`` (vault format §2); a folder under ``foundations/`` alone does not make one.
"""

from __future__ import annotations

import functools
import re
import subprocess
from pathlib import Path, PurePath

from mnemex.vault import Vault, slugify

#: The top folders whose sub-folders are the vault's projects.
PROJECT_ROOTS = ("state", "memories")


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


def known_projects(vault: Vault) -> list[str]:
    """Every project of the vault, sorted (folders under ``state/`` or ``memories/``)."""
    names: set[str] = set()
    for top in PROJECT_ROOTS:
        folder = vault.root / top
        if not folder.is_dir():
            continue
        for entry in folder.iterdir():
            if entry.is_dir() and not entry.name.startswith("."):
                names.add(entry.name)
    return sorted(names)


def project_exists(vault: Vault, project: str) -> bool:
    return any((vault.root / top / project).is_dir() for top in PROJECT_ROOTS)


__all__ = [
    "PROJECT_ROOTS",
    "known_projects",
    "project_exists",
    "project_for_cwd",
    "project_from_remote_url",
]
