"""Keeping the index in step with the vault: incremental sync and full rebuild.

A file is re-read only when its mtime or size moved, re-parsed only when its
content hash moved, and re-embedded only for chunk texts never embedded before
(vectors are keyed by text hash). A deleted file whose hash reappears under a
new path is a move: its chunks and vectors are kept. After any change to the set
of paths every link is re-resolved, because a new file can capture a link that
pointed elsewhere (Obsidian's shortest-path rule). That is what makes an
incremental sync give exactly the index a rebuild gives.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mnemex.embed import Embedder, settings_key
from mnemex.errors import IndexUnavailable
from mnemex.index.backend import (
    ChunkRecord,
    IndexBackend,
    LinkRecord,
    NoteRecord,
    NoteState,
    Scope,
)
from mnemex.index.chunking import Chunk, chunk_body
from mnemex.report import Report
from mnemex.text.dates import utc_iso
from mnemex.vault import LinkResolver, Vault, parse_note, placement, sha256_bytes, sha256_text
from mnemex.vault.history import is_repository, run_git
from mnemex.vault.privacy import private_names
from mnemex.vault.vault import FileEntry

#: The commit of the vault a shared index was last written from.
VAULT_COMMIT = "vault_commit"
#: Why a sync wrote nothing: another process was writing the shared index.
BUSY = "another machine is writing the shared index: nothing was written; the next sync tries again"
#: How long (seconds) a command someone ran waits for another machine's sync to end.
WRITER_WAIT = 120.0
#: Why a private note is not in an index that may live beyond this machine.
PRIVATE_ELSEWHERE = "private: never written to an index beyond this machine"

#: Notes larger than this are not indexed (reported by name). A real note is
#: rarely over a few hundred KB; a 50 MB ".md" is a log or a data dump.
MAX_NOTE_BYTES = 8 * 1024 * 1024

ProgressFactory = Callable[[int, str], Callable[[int], None]]


@dataclass
class SyncResult:
    """What one sync did: the counts plus index-specific ones."""

    report: Report = field(default_factory=Report)
    removed: int = 0
    moved: int = 0
    embedded: int = 0
    seconds: float = 0.0
    #: Why this sync wrote nothing to an index other machines write too (another writer
    #: held it, or this vault is behind the commit it was written from); None: it ran.
    deferred: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {
            **self.report.to_dict(),
            "removed": self.removed,
            "moved": self.moved,
            "embedded": self.embedded,
            "seconds": round(self.seconds, 3),
        }
        if self.deferred:
            out["deferred"] = self.deferred
        return out


def embed_text(title: str | None, heading: str, text: str) -> str:
    """What the embedder sees for a chunk: its place in the note, then the chunk.

    A title that the heading path already opens with (a note whose ``title`` is
    also its H1) is said once: the repeat costs word pieces and adds no meaning.
    """
    if title and heading and heading.split(" > ", 1)[0].strip().casefold() == title.casefold():
        title = None
    context = " > ".join(part for part in (title, heading) if part)
    return f"{context}\n{text}" if context else text


def _note_date(frontmatter: dict[str, Any], kind: str | None = None) -> str | None:
    """The note's own date (``date``, else ``updated``, else ``created``), as ISO 8601.

    A memory is dated by its session's start (``started``) first (vault format §7):
    a digest's ``updated`` is when it was harvested, not when the work happened.
    Notes that carry none are dated by their file's mtime at query time, not here,
    so touching a file never makes the stored index differ from a rebuild.
    """
    from mnemex.text.dates import parse_date

    keys: tuple[str, ...] = ("date", "updated", "created")
    if kind == "memories":
        keys = ("started", *keys)
    for key in keys:
        value = frontmatter.get(key)
        if value:
            parsed = parse_date(str(value))
            if parsed:
                return parsed
    return None


def _importance(frontmatter: dict[str, Any]) -> float | None:
    value = frontmatter.get("importance")
    try:
        return None if value is None else max(0.0, min(1.0, float(value)))
    except (TypeError, ValueError):
        return None


def build_records(
    rel: str, text: str, data_hash: str, entry: FileEntry
) -> tuple[NoteRecord, list[ChunkRecord], list[LinkRecord]]:
    """Parse one note into what the index stores."""
    parsed = parse_note(text, rel)
    where = placement(rel)
    fm = parsed.frontmatter
    note = NoteRecord(
        path=rel,
        title=parsed.title,
        kind=where.kind,
        domain=where.domain,
        project=where.project
        if where.project
        else (str(fm["project"]) if fm.get("project") else None),
        type=str(fm["type"]) if fm.get("type") else None,
        status=str(fm["status"]) if fm.get("status") else None,
        date=_note_date(fm, where.kind),
        importance=_importance(fm),
        tags=parsed.tags,
        aliases=parsed.aliases,
        frontmatter=fm,
        warnings=parsed.warnings,
        hash=data_hash,
        mtime_ns=entry.mtime_ns,
        size=entry.size,
    )
    note.embed_title = parsed.title if parsed.titled else None
    pieces = chunk_body(parsed.body, parsed.body_line) or [
        Chunk(0, "", parsed.title, parsed.body_line)  # an empty note is still found by title
    ]
    chunks = []
    for piece in pieces:
        etext = embed_text(note.embed_title, piece.heading, piece.text)
        chunks.append(
            ChunkRecord(piece.ord, piece.heading, piece.text, piece.line, sha256_text(etext))
        )
    links = [LinkRecord(lk.target, lk.heading, lk.alias, lk.embed, lk.line) for lk in parsed.links]
    return note, chunks, links


def _read_entry(entry: FileEntry) -> tuple[bytes | None, str | None]:
    """The file's bytes, or a reason it cannot be indexed."""
    if entry.size < 0:
        return None, "cannot be read (a dangling symlink or a symlink loop)"
    if entry.size > MAX_NOTE_BYTES:
        return None, (
            f"too large to index ({entry.size / 1e6:.1f} MB > {MAX_NOTE_BYTES / 1e6:.0f} MB)"
        )
    try:
        with open(entry.path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror or exc})"
    if b"\x00" in data[:8192]:
        return None, "binary content, not a text note"
    return data, None


def names_kept_out(vault: Vault, backend: IndexBackend) -> frozenset[str]:
    """The private names whose notes ``backend`` must never hold: none for an index on this
    machine; every private domain and project for one that says ``holds_private = False``
    (a database server), not even their paths (``notes/divorce-lawyer.md`` is itself data)."""
    if getattr(backend, "holds_private", True):
        return frozenset()
    return frozenset(private_names(vault.settings))


def kept_out(rel: str, private: frozenset[str], note: NoteRecord | None = None) -> bool:
    """Whether the note at ``rel`` (its frontmatter's domain and project too, once read)
    belongs to one of the ``private`` names."""
    if not private:
        return False
    where = placement(rel)
    names = {where.domain, where.project}
    if note is not None:
        names |= {note.domain, note.project}
    return bool(names & private)


@dataclass
class _SyncRun:
    """What one sync has found so far; its steps read and extend it in order."""

    states: dict[str, NoteState]  # the index's notes; a note taken out leaves it
    known_problems: dict[str, str]  # path -> reason, as the index had them
    result: SyncResult = field(default_factory=SyncResult)
    seen: set[str] = field(default_factory=set)  # every path the walk met
    changed: list[tuple[FileEntry, bytes]] = field(default_factory=list)
    cleared: list[str] = field(default_factory=list)  # paths whose problems are gone
    paths_changed: bool = False
    dropped: set[str] = field(default_factory=set)  # chunk hashes replaced or removed
    written: set[str] = field(default_factory=set)  # chunk hashes written: to embed

    def forget(self, backend: IndexBackend, rel: str, keep_state: bool = False) -> None:
        """Take an indexed note out: its file is gone from the index's view."""
        self.dropped |= backend.chunk_hashes([rel])
        backend.delete_notes([rel])
        if not keep_state:
            del self.states[rel]
        self.paths_changed = True


class Indexer:
    """Syncs one vault into one index backend with one embedder (loaded only when needed)."""

    def __init__(
        self,
        vault: Vault,
        backend: IndexBackend,
        embedder: Callable[[], Embedder],
        progress: ProgressFactory | None = None,
    ) -> None:
        self.vault = vault
        self.backend = backend
        self._embedder_factory = embedder
        self._embedder: Embedder | None = None
        self._progress = progress
        self._private = names_kept_out(vault, backend)

    def _kept_out(self, rel: str, note: NoteRecord | None = None) -> bool:
        return kept_out(rel, self._private, note)

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = self._embedder_factory()
        return self._embedder

    def sync(self, wait: float = 0.0) -> SyncResult:
        """Bring the index up to date with the files; returns what changed.

        An index other machines write too is written by one of them at a time: when
        another holds it for all of ``wait`` seconds, or this vault is behind the commit
        the index was last written from, nothing is written and the result says why
        (:attr:`SyncResult.deferred`); the next sync tries again.

        Raises:
            IndexUnavailable: the index cannot be reached, or holds another embedder's
                vectors.
        """
        return self._locked(wait, rebuild=False)

    def rebuild(self, wait: float = 0.0) -> SyncResult:
        """Throw the index away and build it again from the files (deferred as
        :meth:`sync` is, before anything is thrown away)."""
        return self._locked(wait, rebuild=True)

    def _locked(self, wait: float, rebuild: bool) -> SyncResult:
        started = time.perf_counter()
        with self.backend.writer(wait) as held:
            if not held:
                return SyncResult(deferred=BUSY, seconds=time.perf_counter() - started)
            head, behind = self._where()
            if behind:
                return SyncResult(deferred=behind, seconds=time.perf_counter() - started)
            self._check_embedder()
            if rebuild:
                self.backend.reset()
            result = self._sync(head)
        result.seconds = time.perf_counter() - started
        return result

    def _sync(self, head: str | None) -> SyncResult:
        run = _SyncRun(self.backend.note_states(), dict(self.backend.problems()))
        self._take_out_private(run)
        left_out = self._read_files(run)
        self._leave_out(run, left_out)
        gone = {p: s for p, s in run.states.items() if p not in run.seen}
        run.paths_changed = (
            run.paths_changed or bool(gone) or any(e.rel not in run.states for e, _ in run.changed)
        )
        self._write_changed(run, gone)
        backend = self.backend
        if gone:
            run.dropped |= backend.chunk_hashes(gone)
            backend.delete_notes(gone)
            run.result.removed = len(gone)
        stale_problems = [p for p in run.known_problems if p not in run.seen]
        backend.clear_problems([*run.cleared, *stale_problems])
        if run.paths_changed:
            self._resolve_links()
        run.result.embedded = self.embed_missing(run.written)
        if run.dropped:
            backend.prune_vectors(run.dropped)
        backend.set_meta("last_sync", utc_iso())
        if head:
            backend.set_meta(VAULT_COMMIT, head)
        return run.result

    def _check_embedder(self) -> None:
        """An index other machines write too keeps one embedder: a machine whose embedder
        differs is refused before it writes anything (its sync would drop their vectors).
        A newer build of the same model (``Embedder.supersedes``) is let through: the first
        machine to upgrade embeds the index again, and the older build is refused from then.

        Raises:
            IndexUnavailable: the shared index's vectors are of another embedder.
        """
        backend = self.backend
        if getattr(backend, "holds_private", True):
            return
        stored = backend.get_meta("embedder")
        config = settings_key(self.vault.settings.embedder_name, self.vault.settings.embedder)
        if not stored or backend.get_meta("embedder_config") == config:
            return
        identity = self.embedder.identity
        if identity != stored and stored not in self.embedder.supersedes:
            raise IndexUnavailable(
                f"the shared index holds vectors of {stored}; this machine's embedder is "
                f"{identity}: one embedder per shared index (set [embedder] as the other "
                "machines have it); nothing was written"
            )

    def behind(self) -> str | None:
        """Why this vault may not write a shared index now (it lacks the commit the index
        was last written from), or None."""
        return self._where()[1]

    def _where(self) -> tuple[str | None, str | None]:
        """For an index other machines write too: this vault's commit, and why it may not
        write (None: it may), which is when the index was last written from a commit this
        vault lacks (a writer behind it would undo others' work)."""
        if getattr(self.backend, "holds_private", True) or not is_repository(self.vault):
            return None, None
        head = run_git(self.vault, "rev-parse", "--verify", "-q", "HEAD").stdout.strip()
        recorded = self.backend.get_meta(VAULT_COMMIT)
        if not head or not recorded or recorded == head:
            return head or None, None
        known = run_git(self.vault, "merge-base", "--is-ancestor", recorded, head).returncode
        if known != 0:
            return head, (
                f"the shared index was last written from commit {recorded[:12]}, which this "
                f"vault does not have (it is at {head[:12]}): pull (`mnemex sync`) first; "
                "nothing was written"
            )
        return head, None

    def _take_out_private(self, run: _SyncRun) -> None:
        """A shared index holding a private note (written before it was shared, or before
        its frontmatter named a private project) lets it go."""
        if not self._private:
            return
        names = tuple(sorted(self._private))
        backend = self.backend
        ids = (backend.notes_in_scope(Scope(projects=names)) or set()) | (
            backend.notes_in_scope(Scope(domains=names)) or set()
        )
        for row in backend.notes_by_id(ids).values():
            if row.path in run.states:
                run.forget(backend, row.path)

    def _read_files(self, run: _SyncRun) -> list[tuple[str, str]]:
        """Walk the vault: count the unchanged files, note the unreadable ones, and keep the
        changed ones' bytes. Returns the symlinks the walk refused, with the reason."""
        backend = self.backend
        report = run.result.report
        left_out: list[tuple[str, str]] = []
        for entry in self.vault.iter_files(skipped=lambda rel, why: left_out.append((rel, why))):
            run.seen.add(entry.rel)
            state = run.states.get(entry.rel)
            if self._kept_out(entry.rel):
                report.add("skipped", entry.rel, PRIVATE_ELSEWHERE)
                if state is not None:  # indexed before the index was shared
                    run.forget(backend, entry.rel)
                continue
            if state is not None and state.mtime_ns == entry.mtime_ns and state.size == entry.size:
                report.add("unchanged")
                continue
            data, reason = _read_entry(entry)
            if data is None:
                report.add("skipped", entry.rel, reason)
                backend.set_problems(entry.rel, [reason or "not indexed"])
                if state is not None:  # it was indexed before: it no longer is
                    run.forget(backend, entry.rel)
                continue
            if state is not None and state.hash == sha256_bytes(data):
                backend.touch_note(entry.rel, entry.mtime_ns, entry.size)
                report.add("unchanged")
                continue
            run.changed.append((entry, data))
        return left_out

    def _leave_out(self, run: _SyncRun, left_out: list[tuple[str, str]]) -> None:
        # Outside the vault is outside for the index too, as it is for a read: an older
        # version may have indexed such a file, so its text leaves the index now.
        for rel, reason in left_out:
            run.seen.add(rel)
            run.result.report.add("skipped", rel, reason)
            if run.known_problems.get(rel) != reason:
                self.backend.set_problems(rel, [reason])
            if rel in run.states:
                run.forget(self.backend, rel)

    def _write_changed(self, run: _SyncRun, gone: dict[str, NoteState]) -> None:
        """Parse and write every changed file; a new path whose content a gone one had is a
        move (taken out of ``gone``)."""
        backend = self.backend
        report = run.result.report
        gone_by_hash = {s.hash: p for p, s in gone.items()}
        # With the same set of paths, no existing link can change target: only the
        # changed notes' own links need resolving, against the unchanged resolver.
        resolver = (
            None if run.paths_changed or not run.changed else LinkResolver(backend.note_paths())
        )
        changed = run.changed
        parsed = self._progress(len(changed), "parsing") if self._progress and changed else None
        for entry, data in changed:
            if parsed is not None:
                parsed(1)  # ticked as each file is taken up, so every path out of the loop counts
            rel = entry.rel
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                reason = f"not UTF-8 text (invalid byte at offset {exc.start}); convert it to UTF-8"
                report.add("skipped", rel, reason)
                backend.set_problems(rel, [reason])
                if rel in run.states:
                    run.forget(backend, rel, keep_state=True)
                    resolver = None
                continue
            digest = sha256_bytes(data)
            try:
                note, chunks, links = build_records(rel, text, digest, entry)
            except Exception as exc:  # a parser bug must not stop the run
                reason = f"could not be parsed ({type(exc).__name__}: {exc})"
                report.add("failed", rel, reason)
                backend.set_problems(rel, [reason])
                continue
            if self._kept_out(rel, note):  # private by its frontmatter's project or domain
                report.add("skipped", rel, PRIVATE_ELSEWHERE)
                if rel in run.states:
                    run.forget(backend, rel)
                    resolver = None
                continue
            # A move is written like a new note, but its chunk hashes are the old ones
            # (unless the title came from the file name), so nothing is embedded again.
            old = gone_by_hash.pop(digest, None) if rel not in run.states else None
            if old is not None:
                run.dropped |= backend.chunk_hashes([old])
                backend.delete_notes([old])
                del gone[old]
                run.result.moved += 1
            elif rel in run.states:
                run.dropped |= backend.chunk_hashes([rel])
            if resolver is not None:
                for link in links:
                    link.resolved = resolver.resolve(link.target, rel)
            backend.upsert_note(note, chunks, links)
            run.written.update(c.hash for c in chunks)
            report.add("updated" if rel in run.states or old is not None else "created")
            for warning in note.warnings:
                report.warn(rel, warning)
            if note.warnings:
                backend.set_problems(rel, [f"warning: {w}" for w in note.warnings])
            elif rel in run.known_problems:
                run.cleared.append(rel)

    def _resolve_links(self) -> None:
        # Every link, every time something changed: a new file can capture a link that
        # pointed elsewhere. ~0.1 s per 50,000 links; a no-op sync skips it.
        backend = self.backend
        resolver = LinkResolver(backend.note_paths())
        backend.set_link_targets(
            (link_id, resolver.resolve(target, source))
            for link_id, target, source in backend.all_links()
        )

    def embed_missing(self, written: set[str] | None = None) -> int:
        """Embed every chunk text that has no vector from the current embedder.

        When the last embedding run finished (``vectors_complete`` names this
        embedder), only the chunks this sync ``written`` can lack a vector, and only
        they are checked; after an interrupted run or an embedder change, all are.
        """
        backend = self.backend
        identity = self._identity()
        complete = backend.get_meta("vectors_complete") == identity
        missing = backend.chunks_missing_vectors(
            identity, among=written if complete and written is not None else None
        )
        if not missing:
            if not complete:
                backend.set_meta("vectors_complete", identity)
            return 0
        backend.set_meta("vectors_complete", "")
        embedder = self.embedder
        texts = [embed_text(title, heading, text) for _, title, heading, text in missing]
        hashes = [h for h, *_ in missing]
        tick = self._progress(len(texts), "embedding") if self._progress else None
        step = 2048  # store in slices so an interrupted run keeps what it finished
        for start in range(0, len(texts), step):
            vectors = embedder.embed_documents(texts[start : start + step], progress=tick)
            backend.store_vectors(
                embedder.identity,
                [
                    (h, v.tobytes())
                    for h, v in zip(hashes[start : start + step], vectors, strict=True)
                ],
            )
        backend.set_meta("vectors_complete", identity)
        return len(texts)

    def _identity(self) -> str:
        """The current embedder's identity, loading the model only when the settings changed.

        A different identity from the stored one means the embedder changed: the
        old vectors are dropped and every chunk is embedded again.
        """
        backend = self.backend
        stored = backend.get_meta("embedder")
        config = settings_key(self.vault.settings.embedder_name, self.vault.settings.embedder)
        if stored and backend.get_meta("embedder_config") == config:
            return stored
        identity = self.embedder.identity
        if stored != identity:
            backend.drop_vectors_except(identity)
        backend.set_meta("embedder", identity)
        backend.set_meta("embedder_config", config)
        return identity


__all__ = [
    "BUSY",
    "MAX_NOTE_BYTES",
    "PRIVATE_ELSEWHERE",
    "WRITER_WAIT",
    "Indexer",
    "SyncResult",
    "build_records",
    "embed_text",
    "kept_out",
    "names_kept_out",
]
