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
#: What the fact layer dropped and why: private, never committed.
FACTS_LOG = "facts/_log.jsonl"

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

#: A team's mirror domain is ``wiki/shared-<team>/``: other people's text, pulled by
#: ``mnemex team pull``, git-ignored, written only by that command (docs/team.md).
MIRROR_PREFIX = "shared-"

#: A slug's characters at most.
MAX_SLUG = 80
#: A slug's UTF-8 bytes at most: a file name holds 255 bytes, a CJK letter takes 3 of them,
#: and a slug gets suffixes after it (``-<sha8>.source.md``, ``-<type>-99.md``).
MAX_SLUG_BYTES = 160

_ASCII_WORD_RE = re.compile(r"[a-z0-9]+")
#: Latin letters with no accent to take off that still have a plain spelling, for
#: :func:`fold_name` (``Łódź`` is ``lodz``, ``Ærøskøbing`` is ``aeroskobing``).
_SPELLED_OUT = str.maketrans(
    {"ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i", "ħ": "h"}
)


def slugify(text: str, max_chars: int = MAX_SLUG) -> str:
    """A readable file name for ``text``, in any script; empty becomes ``"untitled"``.

    ``"Café Notes: v2!"`` -> ``"café-notes-v2"``, ``"Łódź"`` -> ``"łódź"``, ``"東京"`` ->
    ``"東京"``, ``"Москва"`` -> ``"москва"``. NFKC (a ligature, a full-width or superscript
    form becomes its plain letter), lower case (not casefold: ``ß`` and a final ``ς`` stay
    as spelled), every letter, digit and combining mark of every script kept, each run of
    anything else turned into one ``-``, ``-`` trimmed; cut to ``max_chars`` characters and
    :data:`MAX_SLUG_BYTES` bytes, never between a letter and its marks. A slug is its own
    slug.
    """
    if text.isascii():  # the common case, ~5x faster: every normalisation of ASCII is itself
        slug = "-".join(_ASCII_WORD_RE.findall(text.lower()))
    else:
        lower = unicodedata.normalize("NFKC", text).lower().replace("i\u0307", "i")  # İ -> i
        slug = "-".join(word_runs(unicodedata.normalize("NFKC", lower)))
    return _cut(slug, max_chars) or "untitled"


def word_runs(text: str) -> list[str]:
    """The words of ``text`` in any script: runs of letters and digits, each letter with
    the combining marks after it (a Devanagari vowel sign is part of its word, not a
    break); everything else separates them, and a mark with no letter before it goes."""
    words: list[str] = []
    current: list[str] = []
    for char in text:
        group = unicodedata.category(char)[0]
        if group in "LN" or (group == "M" and current):
            current.append(char)
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    return words


def _cut(slug: str, max_chars: int) -> str:
    """``slug`` cut to ``max_chars`` characters and :data:`MAX_SLUG_BYTES` UTF-8 bytes, and
    back to the start of a letter, so no mark is parted from its letter."""
    if slug.isascii():
        return slug[: min(max_chars, MAX_SLUG_BYTES)].strip("-")
    end, size = 0, 0
    for char in slug[:max_chars]:
        size += len(char.encode("utf-8"))
        if size > MAX_SLUG_BYTES:
            break
        end += 1
    while 0 < end < len(slug) and unicodedata.category(slug[end])[0] == "M":
        end -= 1
    return slug[:end].strip("-")


def fold_name(text: str) -> str:
    """``text`` as names are matched across accents and case (the page keeps its spelling).

    ``"José Müller"`` -> ``"jose muller"``, ``"Łódź"`` -> ``"lodz"``, ``"Αθήνα"`` ->
    ``"αθηνα"``: compatibility-decomposed, the accents of Latin, Greek and Cyrillic letters
    (the combining diacritical marks) taken off, casefolded, the few Latin letters that
    carry no separable accent spelled plainly. The marks of other scripts are part of
    their letters and stay (``が`` is not ``か``); no script is transliterated into another.
    """
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).casefold())
    bare = "".join(c for c in decomposed if not "\u0300" <= c <= "\u036f")
    return unicodedata.normalize("NFC", bare.translate(_SPELLED_OUT))


def slug_key(text: str) -> str:
    """What two slugs are compared by: :func:`slugify` of :func:`fold_name`, so ``Café``,
    ``cafe`` and ``café`` meet (and a page named before slugs kept accents, ``cafe.md``,
    is still found by its accented title)."""
    return slugify(fold_name(text))


def ascii_slug(text: str) -> str:
    """:func:`slugify` of :func:`fold_name` with only ASCII letters and digits left
    (``"Jürgen's Mac"`` -> ``"jurgen-s-mac"``): for identifiers that patterns match as
    ``[a-z0-9-]`` (a machine name, in commit trailers and conflict copies' names)."""
    return slugify(fold_name(text).encode("ascii", "ignore").decode())


def check_name(name: str, what: str = "name") -> str:
    """A project or domain name must be a plain slug (in any script): no ``..``, no slashes.

    Raises:
        VaultError: the name is empty or not a slug.
    """
    if not name or "/" in name or "\\" in name or ".." in name or slugify(name) != name:
        raise VaultError(
            f"{what} {name!r} is not allowed: use lower-case letters (of any script), digits "
            f"and '-' (for example {slugify(name)!r})"
        )
    return name


@dataclass(frozen=True)
class Placement:
    """Where a vault-relative path sits: its kind, and its domain or project."""

    kind: str
    domain: str | None = None
    project: str | None = None


def mirror_team(rel: str) -> str | None:
    """The team whose mirror ``rel`` lies in (``wiki/shared-<team>/...``), else ``None``."""
    parts = PurePosixPath(rel).parts
    if len(parts) > 2 and parts[0] == "wiki" and parts[1].startswith(MIRROR_PREFIX):
        return parts[1][len(MIRROR_PREFIX) :] or None
    return None


def mirror_folder(team: str) -> str:
    """The vault folder of a team's mirror domain."""
    return f"wiki/{MIRROR_PREFIX}{team}"


def placement(rel: str) -> Placement:
    """The kind, domain and project a vault-relative path belongs to."""
    parts = PurePosixPath(rel).parts
    if not parts:
        return Placement("notes")
    kind = KIND_BY_FOLDER.get(parts[0], "notes") if len(parts) > 1 else "notes"
    second = parts[1] if len(parts) > 2 else None
    if kind == "knowledge":
        return Placement(kind, domain=second)
    if kind in ("foundations", "state", "memories", "facts"):
        return Placement(kind, project=second)
    return Placement(kind)


def _run_git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=False)


def ignore_lines(settings: Settings) -> list[str]:
    """The ``.gitignore`` lines ``init`` writes and ``sync`` checks: ``.mnemex/``, every
    private folder and every team's mirror."""
    mirrors = [f"{mirror_folder(team)}/" for team in sorted(settings.teams)]
    return [f"{LOCAL_DIR}/", FACTS_LOG, *private_folders(settings), *mirrors]


def append_ignores(root: Path, wanted: list[str]) -> list[str]:
    """Append to ``<root>/.gitignore`` the lines of ``wanted`` it lacks (the only change
    mnemex makes to that file of the user's); the lines appended."""
    gitignore = root / ".gitignore"
    text = gitignore.read_text(encoding="utf-8") if gitignore.exists() else ""
    missing = [w for w in wanted if w not in text.splitlines()]
    if missing:
        block = "\n".join(["# mnemex: machine-local and private, never synced", *missing]) + "\n"
        with gitignore.open("a", encoding="utf-8") as fh:
            fh.write(("" if not text or text.endswith("\n") else "\n") + block)
    return missing


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
    existed = (root / ".gitignore").exists()
    missing = append_ignores(root, ignore_lines(settings))
    if missing:
        report.add("updated" if existed else "created", ".gitignore")
        if existed:
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
    "FACTS_LOG",
    "INIT_FOLDERS",
    "KINDS",
    "KIND_BY_FOLDER",
    "LOCAL_DIR",
    "MIRROR_PREFIX",
    "PROTECTED_FOLDERS",
    "Placement",
    "append_ignores",
    "ascii_slug",
    "check_name",
    "fold_name",
    "ignore_lines",
    "init_vault",
    "mirror_folder",
    "mirror_team",
    "placement",
    "slug_key",
    "slugify",
    "word_runs",
]
