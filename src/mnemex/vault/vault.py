"""The vault: a folder of markdown that is the single source of truth.

Every write goes through :meth:`Vault.write_note`: the path must stay inside the
vault, the write is atomic (a temporary file in the same folder, fsynced, then
renamed over the target), and it never clobbers a file that changed since the
writer read it: the caller passes the sha256 it read, and a mismatch is a
:class:`~mnemex.errors.WriteConflict`. Check and rename happen under a lock
file, so several processes writing at once cannot interleave.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import secrets
import stat
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from mnemex.config import Settings, load_settings
from mnemex.errors import NoteNotFound, PathOutsideVault, ProtectedPath, VaultError, WriteConflict
from mnemex.vault.layout import (
    IGNORED_FOLDERS,
    LOCAL_DIR,
    PROTECTED_FOLDERS,
    mirror_folder,
    mirror_team,
)

NOTE_SUFFIXES = (".md", ".markdown")


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_text(text: str) -> str:
    return sha256_bytes(text.encode("utf-8"))


#: Called as ``hook(vault, paths)`` before :meth:`Vault.write_note` or
#: :meth:`Vault.delete_note` changes a file, outside the write lock. ``mnemex.vault.history``
#: registers the git baseline and intent record here (vault format §12): it cannot be
#: imported from ``vault/``, which the rest of mnemex depends on, not the other way.
ChangeHook = Callable[["Vault", Sequence[str]], None]
_CHANGE_HOOKS: list[ChangeHook] = []


def register_change_hook(hook: ChangeHook) -> None:
    """Run ``hook`` before every change :meth:`Vault.write_note` or ``delete_note`` makes."""
    if hook not in _CHANGE_HOOKS:
        _CHANGE_HOOKS.append(hook)


@dataclass(frozen=True)
class FileEntry:
    """A note file seen while walking the vault."""

    rel: str
    path: str  # absolute
    mtime_ns: int
    size: int


@dataclass(frozen=True)
class NoteText:
    """A note as read from disk, with the hash a later write must quote."""

    rel: str
    text: str
    hash: str


class Vault:
    """A vault rooted at ``root``; cheap to construct (reads only ``mnemex.toml``)."""

    def __init__(self, root: Path | str, settings: Settings | None = None) -> None:
        self.root = Path(root).expanduser().resolve()
        if not self.root.is_dir():
            raise VaultError(f"vault folder {self.root} does not exist; create it with mnemex init")
        self.settings = settings or load_settings(self.root)

    def __repr__(self) -> str:
        return f"Vault({str(self.root)!r})"

    @property
    def local_dir(self) -> Path:
        """The machine-local, git-ignored folder (index, identity, locks)."""
        path = self.root / LOCAL_DIR
        path.mkdir(exist_ok=True)
        return path

    # -- paths ---------------------------------------------------------------

    def rel_path(self, rel: str, note: bool = True) -> str:
        """Normalise a vault-relative path; add ``.md`` to a note path that has no suffix.

        The path is matched to the names on disk, so a path is found as people type
        it: a name in another Unicode normalisation than the file's (NFD, as macOS
        produces, or NFC) is the file's own name, and a write never makes a twin beside
        it; spaces around the whole path are dropped unless names on disk have them
        (`` Inbox/ note.md``).

        Raises:
            PathOutsideVault: absolute, ``..``-escaping, or a symlink that leads outside.
        """
        typed = rel.replace("\\", "/")
        clean = self._on_disk(_clean_rel(typed.strip(), rel, note))
        if typed != typed.strip() and not os.path.lexists(self.root / clean):
            try:
                spaced = self._on_disk(_clean_rel(typed, rel, note))
            except PathOutsideVault:
                spaced = ""
            if spaced and os.path.lexists(self.root / spaced):
                clean = spaced
        target = (self.root / clean).resolve()
        if target != self.root and self.root not in target.parents:
            raise PathOutsideVault(f"{rel}: resolves outside the vault (through a symlink)")
        return clean

    def _on_disk(self, clean: str) -> str:
        """``clean`` with each name that is not on disk as typed replaced by the name on disk
        that is the same text in another Unicode normalisation (when there is one)."""
        if clean.isascii() or os.path.lexists(self.root / clean):
            return clean  # every normalisation of ASCII is itself
        parts = clean.split("/")
        folder = self.root
        for i, part in enumerate(parts):
            if not os.path.lexists(folder / part):
                found = _same_name(folder, part)
                if found is None:
                    break
                parts[i] = found
            folder = folder / parts[i]
        return "/".join(parts)

    def abs_path(self, rel: str, note: bool = True) -> Path:
        return self.root / self.rel_path(rel, note=note)

    def check_writable(self, rel: str) -> None:
        """Refuse the folders that only their own kind's tools may write.

        Raises:
            ProtectedPath: the path is under ``foundations/``, ``state/``, ... or ``.mnemex/``,
                or in a team's mirror (``wiki/shared-<team>/``); or a part of it starts with
                ``.`` or is ``node_modules``.
        """
        parts = PurePosixPath(rel).parts
        top = parts[0]
        if top in PROTECTED_FOLDERS or top == ".git":
            raise ProtectedPath(
                f"{rel}: {top}/ is written only by its own tools "
                "(foundations, state, memories, health and facts each have theirs)"
            )
        team = mirror_team(rel)
        if team is not None:
            # other people's pages, replaced wholesale by the next pull and never committed:
            # an edit there would be lost, so it goes to the member's own domain
            raise ProtectedPath(
                f'{rel}: {mirror_folder(team)}/ is the team "{team}"\'s mirror, written only by '
                "`mnemex team pull`; write to your own domain (wiki/<domain>/) instead"
            )
        # Obsidian, git, editors and sync tools keep their own files under dot names
        # (.obsidian/, .trash/, .stfolder/...), and node_modules/ is a package manager's:
        # none of them is a page, and a page written there could not be read back.
        hidden = next((part for part in parts if part.startswith(".")), None)
        if hidden is not None:
            raise ProtectedPath(
                f"{rel}: {hidden!r} starts with '.', which marks another tool's file or folder "
                "(.obsidian, .trash, .git...); pages are never written there"
            )
        if any(part in IGNORED_FOLDERS for part in parts[:-1]):
            raise ProtectedPath(
                f"{rel}: node_modules/ belongs to a package manager and holds no pages; "
                "pages are never written there"
            )

    # -- reading -------------------------------------------------------------

    def read_note(self, rel: str) -> NoteText:
        """Read a note's text and hash.

        Raises:
            NoteNotFound: no such file.
            VaultError: the file is not UTF-8 text.
        """
        clean = self.rel_path(rel)
        path = self.root / clean
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise NoteNotFound(f"{clean}: no such note") from None
        except IsADirectoryError:
            raise NoteNotFound(f"{clean}: is a folder, not a note") from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise VaultError(f"{clean}: not UTF-8 text (byte {exc.start})") from None
        return NoteText(clean, text, sha256_bytes(data))

    def current_hash(self, rel: str) -> str | None:
        path = self.root / self.rel_path(rel)
        try:
            return sha256_bytes(path.read_bytes())
        except FileNotFoundError:
            return None

    def iter_files(self, skipped: Callable[[str, str], None] | None = None) -> Iterator[FileEntry]:
        """Every note file, depth first, skipping dot-folders (``.git``, ``.obsidian``...).

        The walk applies the rule :meth:`rel_path` applies to a read, so no text from
        outside the vault is ever indexed or served: a symlinked file is yielded only
        when it resolves inside the vault, and symlinked folders are not followed (no
        loops, no escapes, no file counted twice). Those left out are told to
        ``skipped(rel, reason)``. Foundation drafts (``foundations/<project>/drafts/``)
        are proposals, not notes: never walked.
        """
        root = str(self.root)
        cut = len(root) + 1  # entry.path is root + "/" + rel: slicing beats os.path.relpath
        inside = root + os.sep
        stack = [root]
        while stack:
            folder = stack.pop()
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue
            for entry in entries:
                name = entry.name
                try:
                    if entry.is_dir(follow_symlinks=False):
                        if not _ignored_folder(name) and not _is_drafts(entry.path[cut:]):
                            stack.append(entry.path)
                        continue
                    link = entry.is_symlink()
                    if link and _points_to_folder(entry):
                        if skipped is not None and not _ignored_folder(name):
                            skipped(
                                entry.path[cut:].replace(os.sep, "/") + "/",
                                "a symlinked folder: not followed, its notes are not indexed "
                                "(move the folder into the vault, or link its notes one by one)",
                            )
                        continue
                except OSError:
                    continue
                if not name.lower().endswith(NOTE_SUFFIXES):
                    continue
                rel = entry.path[cut:].replace(os.sep, "/")
                if link and not os.path.realpath(entry.path).startswith(inside):
                    if skipped is not None:
                        skipped(
                            rel,
                            "a symlink to a file outside the vault: not indexed or served "
                            f"(it points to {os.readlink(entry.path)})",
                        )
                    continue
                try:
                    st = entry.stat(follow_symlinks=True)
                except OSError:
                    # a dangling symlink or a loop: report it, do not stop the walk
                    yield FileEntry(rel, entry.path, -1, -1)
                    continue
                yield FileEntry(rel, entry.path, st.st_mtime_ns, st.st_size)

    # -- writing -------------------------------------------------------------

    @contextlib.contextmanager
    def lock(self, name: str = "write") -> Iterator[None]:
        """An exclusive advisory lock shared by every mnemex process on this vault."""
        locks = self.local_dir / "locks"
        locks.mkdir(exist_ok=True)
        with (locks / f"{name}.lock").open("a") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)

    def _before_change(self, paths: Sequence[str]) -> None:
        for hook in _CHANGE_HOOKS:
            hook(self, paths)

    def write_note(
        self,
        rel: str,
        text: str,
        expected_hash: str | None = None,
        *,
        overwrite: bool = False,
        protected_ok: bool = False,
    ) -> tuple[str, str]:
        """Write a note atomically; returns ``(outcome, new_hash)``.

        ``outcome`` is ``"created"``, ``"updated"`` or ``"unchanged"``.

        Args:
            rel: vault-relative path (``.md`` added when missing).
            text: the whole new content.
            expected_hash: sha256 of the version the caller read; required to
                replace an existing file unless ``overwrite``.
            overwrite: replace whatever is there (for files mnemex owns).
            protected_ok: allow a kind's own folder; only that kind's tools pass it.

        Raises:
            PathOutsideVault, ProtectedPath, WriteConflict.
        """
        clean = self.rel_path(rel)
        if not protected_ok:
            self.check_writable(clean)
        path = self.root / clean
        data = text.encode("utf-8")
        new_hash = sha256_bytes(data)
        before = self.current_hash(clean)
        if before != new_hash and (before is None or overwrite or expected_hash == before):
            # before the lock: the hook may take the history lock, which comes first
            self._before_change([clean])
        with self.lock():
            current = self.current_hash(clean)
            if current is not None and not overwrite and expected_hash != current:
                raise WriteConflict(clean, expected_hash, current)
            if current is None and expected_hash is not None:
                raise WriteConflict(clean, expected_hash, None)
            if current == new_hash:
                return "unchanged", new_hash
            atomic_write(path, data)
        return ("created" if current is None else "updated"), new_hash

    def delete_note(
        self, rel: str, expected_hash: str | None = None, *, protected_ok: bool = False
    ) -> None:
        """Delete a note, refusing if it changed since it was read.

        ``protected_ok`` allows a kind's own folder; only that kind's tools pass it.
        """
        clean = self.rel_path(rel)
        if not protected_ok:
            self.check_writable(clean)
        before = self.current_hash(clean)
        if before is not None and expected_hash in (None, before):
            self._before_change([clean])
        with self.lock():
            current = self.current_hash(clean)
            if current is None:
                raise NoteNotFound(f"{clean}: no such note")
            if expected_hash is not None and expected_hash != current:
                raise WriteConflict(clean, expected_hash, current)
            (self.root / clean).unlink()


def _clean_rel(raw: str, rel: str, note: bool) -> str:
    """``raw`` as a clean relative path (the checks of :meth:`Vault.rel_path` on the text)."""
    if not raw.strip():
        raise PathOutsideVault("empty path")
    if raw.startswith("/") or (len(raw) > 1 and raw[1] == ":"):
        raise PathOutsideVault(f"{rel}: absolute paths are refused; give a vault-relative path")
    parts: list[str] = []
    for part in PurePosixPath(raw).parts:
        if part in ("", "."):
            continue
        if part == "..":
            raise PathOutsideVault(f"{rel}: '..' is refused; paths stay inside the vault")
        parts.append(part)
    if not parts:
        raise PathOutsideVault(f"{rel}: not a file path")
    clean = "/".join(parts)
    if note and not clean.lower().endswith(NOTE_SUFFIXES):
        clean += ".md"
    return clean


def _points_to_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=True)
    except OSError:  # a symlink loop: not a folder, reported as a file that cannot be read
        return False


def _same_name(folder: Path, name: str) -> str | None:
    """The entry of ``folder`` that is ``name`` in another Unicode normalisation, if any."""
    key = unicodedata.normalize("NFC", name)
    try:
        found = sorted(e for e in os.listdir(folder) if unicodedata.normalize("NFC", e) == key)
    except OSError:
        return None
    return found[0] if found else None


def _ignored_folder(name: str) -> bool:
    """``node_modules`` and every dot-folder (``.git``, ``.obsidian``, ``.github``, ``.trash``):
    Obsidian reads none of them, so neither does mnemex."""
    return name in IGNORED_FOLDERS or name.startswith(".")


def _is_drafts(rel: str) -> bool:
    """``foundations/<project>/drafts``: agents' proposals, not notes and never indexed."""
    parts = rel.replace(os.sep, "/").split("/")
    return len(parts) == 3 and parts[0] == "foundations" and parts[2] == "drafts"


def atomic_write(path: Path, data: bytes, *, mode: int | None = None) -> None:
    """Write ``data`` to ``path`` via a temporary file and a rename (never half a file).

    Permissions as :func:`write_temp` gives them: ``mode`` when given (a secret
    passes ``0o600``), else an existing file's own, else what ``open()`` would
    make (``0o666`` less the umask). A symlink at ``path`` is replaced, never
    written through: the write changes only the path it names (which is what the
    hash check read and what the commit records), and a link cannot send it
    elsewhere; the file the link named keeps its bytes.
    """
    tmp = write_temp(path, data, mode=mode)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_temp(path: Path, data: bytes, *, mode: int | None = None) -> str:
    """Write ``data`` to a fsynced ``.<name>.<random>.tmp`` beside ``path``; returns its path.

    The temporary already has the mode ``path`` should end with, so renaming it into
    place changes nothing else: ``mode`` if given, else the mode of the file now at
    ``path`` (followed through a symlink), else ``0o666`` less the umask, as a new
    file made by ``open()`` gets (the kernel applies the umask, so threads and
    default ACLs are respected).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    if mode is None:
        with contextlib.suppress(FileNotFoundError, NotADirectoryError):
            mode = stat.S_IMODE(os.stat(path).st_mode)
    # a fixed mode starts private and is widened once written, never the other way
    fd, tmp = _create_beside(path, 0o666 if mode is None else 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            if mode is not None:
                os.fchmod(fh.fileno(), mode)
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return tmp


def is_temporary_of(name: str, target: str) -> bool:
    """Whether the file ``name`` is one of :func:`write_temp`'s temporaries for ``target``.

    A killed writer leaves such files; only names of exactly this shape may be removed.
    """
    prefix, suffix = f".{target}.", ".tmp"
    token = name[len(prefix) : -len(suffix)] if name.startswith(prefix) else ""
    return name.endswith(suffix) and len(token) == _TOKEN_HEX and _is_hex(token)


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


#: Length of the random part of a temporary's name (``secrets.token_hex(4)``).
_TOKEN_HEX = 8


def _create_beside(path: Path, perms: int) -> tuple[int, str]:
    # tempfile.mkstemp always makes 0600; os.open lets the umask decide, as open() does
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        tmp = str(path.parent / f".{path.name}.{secrets.token_hex(_TOKEN_HEX // 2)}.tmp")
        try:
            return os.open(tmp, flags, perms), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")


__all__ = [
    "NOTE_SUFFIXES",
    "FileEntry",
    "NoteText",
    "Vault",
    "atomic_write",
    "is_temporary_of",
    "register_change_hook",
    "sha256_bytes",
    "sha256_text",
    "write_temp",
]
