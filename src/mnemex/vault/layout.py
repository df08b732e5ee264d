"""The vault's folders, the kind of each file, slugs, and ``mnemex init``.

The normative description is ``docs/vault-format.md``; this module is its code.
"""

from __future__ import annotations

import re
import subprocess
import unicodedata
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from mnemex.config import SETTINGS_FILE, Settings, settings_template
from mnemex.errors import VaultError
from mnemex.report import Report
from mnemex.vault.privacy import private_folders

LOCAL_DIR = ".mnemex"

#: top folder -> kind (the search scope ``kind=``); anything else is the user's ``notes``.
KIND_BY_FOLDER = {
    "wiki": "knowledge",
    "foundations": "foundations",
    "state": "state",
    "memories": "memories",
    "facts": "facts",
    "health": "health",
}
KINDS = (*KIND_BY_FOLDER.values(), "notes")

#: Folders whose files only their own tools may write; the generic page tools refuse them.
PROTECTED_FOLDERS = ("foundations", "state", "memories", "health", "facts", LOCAL_DIR)

#: Folders that are never notes.
IGNORED_FOLDERS = frozenset({LOCAL_DIR, ".git", ".obsidian", ".trash", "node_modules"})

INIT_FOLDERS = (
    "inbox",
    "wiki/{domain}/entities",
    "wiki/{domain}/concepts",
    "wiki/{domain}/summaries",
    "wiki/{domain}/sources",
    "foundations",
    "state",
    "memories",
    "facts",
    "health",
)

_SLUG_RE = re.compile(r"[^a-z0-9]+")
MAX_SLUG = 80


def slugify(text: str) -> str:
    """``"Café Notes: v2!"`` -> ``"cafe-notes-v2"``; empty becomes ``"untitled"``."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = _SLUG_RE.sub("-", folded.lower()).strip("-")[:MAX_SLUG].strip("-")
    return slug or "untitled"


def check_name(name: str, what: str = "name") -> str:
    """A project or domain name must be a plain slug: no ``..``, no slashes.

    Raises:
        VaultError: the name is empty or not a slug.
    """
    if not name or "/" in name or "\\" in name or ".." in name or slugify(name) != name:
        raise VaultError(
            f"{what} {name!r} is not allowed: use lower-case letters, digits and '-' "
            f"(for example {slugify(name)!r})"
        )
    return name


@dataclass(frozen=True)
class Placement:
    """Where a vault-relative path sits: its kind, and its domain or project."""

    kind: str
    domain: str | None = None
    project: str | None = None


def placement(rel: str) -> Placement:
    """The kind, domain and project a vault-relative path belongs to."""
    parts = PurePosixPath(rel).parts
    if not parts:
        return Placement("notes")
    kind = KIND_BY_FOLDER.get(parts[0], "notes") if len(parts) > 1 else "notes"
    second = parts[1] if len(parts) > 2 else None
    if kind == "knowledge":
        return Placement(kind, domain=second)
    if kind in ("foundations", "state", "memories"):
        return Placement(kind, project=second)
    return Placement(kind)


def _run_git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=False)


def ignore_lines(settings: Settings) -> list[str]:
    """The ``.gitignore`` lines ``init`` writes and ``sync`` checks: ``.mnemex/`` and every
    private folder."""
    return [f"{LOCAL_DIR}/", *private_folders(settings)]


def init_vault(root: Path, name: str | None = None, git: bool = True) -> Report:
    """Create (or complete) a vault at ``root``; an existing folder of notes is kept as is.

    Creates the layout, ``mnemex.toml`` when missing, appends what must stay
    machine-local to ``.gitignore`` (the only change made to a user's file, and
    reported as an update), and a git repository when there is none.
    """
    report = Report()
    root = root.expanduser()
    if root.exists() and not root.is_dir():
        raise VaultError(f"{root} exists and is not a folder")
    root.mkdir(parents=True, exist_ok=True)
    root = root.resolve()
    from mnemex.config import load_settings

    settings_path = root / SETTINGS_FILE
    if settings_path.exists():
        report.add("unchanged", SETTINGS_FILE)
    else:
        settings_path.write_text(settings_template(name or slugify(root.name)), encoding="utf-8")
        report.add("created", SETTINGS_FILE)
    settings = load_settings(root)
    for pattern in INIT_FOLDERS:
        for domain in settings.domains if "{domain}" in pattern else [""]:
            folder = root / pattern.format(domain=domain)
            if folder.is_dir():
                continue
            folder.mkdir(parents=True, exist_ok=True)
            keep = folder / ".gitkeep"
            keep.touch()
    (root / LOCAL_DIR).mkdir(exist_ok=True)
    wanted = ignore_lines(settings)
    gitignore = root / ".gitignore"
    existing = gitignore.read_text(encoding="utf-8").splitlines() if gitignore.exists() else []
    missing = [w for w in wanted if w not in existing]
    if missing:
        block = "\n".join(["# mnemex: machine-local and private, never synced", *missing]) + "\n"
        prefix = (
            "" if not existing or gitignore.read_text(encoding="utf-8").endswith("\n") else "\n"
        )
        with gitignore.open("a", encoding="utf-8") as fh:
            fh.write(prefix + block)
        report.add("updated" if existing else "created", ".gitignore")
        if existing:
            report.warn(".gitignore", f"appended {len(missing)} line(s): {', '.join(missing)}")
    else:
        report.add("unchanged", ".gitignore")
    if git and not (root / ".git").exists():
        done = _run_git(root, "init", "-q")
        if done.returncode != 0:
            report.add("failed", ".git", f"git init failed: {done.stderr.strip()}")
        else:
            report.add("created", ".git")
    return report


__all__ = [
    "INIT_FOLDERS",
    "KINDS",
    "KIND_BY_FOLDER",
    "LOCAL_DIR",
    "PROTECTED_FOLDERS",
    "Placement",
    "check_name",
    "ignore_lines",
    "init_vault",
    "placement",
    "slugify",
]
