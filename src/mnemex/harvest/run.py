"""Harvesting: every finished session found by the readers becomes one digest (vault format §7).

:func:`harvest_sessions` discovers transcripts with each reader, leaves a file changed within
the settle time for a later run (it may still be written), leaves private sessions out, and
writes one memory note per session at
``memories/<project>/<YYYY-MM>/<YYYY-MM-DD>-<slug>-<id>.md``. It is idempotent: a session
whose ``transcript_sha256`` is already in its digest is ``unchanged``; a grown session
rewrites the same file (``updated``); a digest edited by hand is ``skipped``. A bad file
fails alone. All the writes of a run are one git commit, and the run leaves a heartbeat in
``.mnemex/heartbeats/harvest.json`` for ``mnemex doctor``. With the archive on, each digested
session's transcript is also kept, redacted and compressed (:mod:`mnemex.harvest.archive`).

The ``[harvest]`` table of ``mnemex.toml`` (vault format §3) sets the defaults:
:func:`harvest_settings` reads and checks it, :func:`resolve_sources` turns it and the CLI's
folder options into the folders to read.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mnemex.config import Settings
from mnemex.errors import ConfigError
from mnemex.harvest.archive import TranscriptArchive
from mnemex.harvest.digest import EXTRACTOR, clean, digest_id, extract
from mnemex.harvest.llm_digest import ModelDigester
from mnemex.harvest.readers import load_reader, reader_names
from mnemex.harvest.transcript import Session
from mnemex.llm import ModelClient
from mnemex.memories.forget import ID_SUFFIX, forgotten_ids
from mnemex.report import Report
from mnemex.text.dates import utc_iso
from mnemex.vault import Vault, parse_note, render_note, slugify
from mnemex.vault.heartbeat import heartbeat_path, write_heartbeat
from mnemex.vault.heartbeat import read_heartbeat as read_beat
from mnemex.vault.history import commit_change, recording, take_recovered
from mnemex.vault.machine import machine_name
from mnemex.vault.privacy import is_private
from mnemex.vault.vault import atomic_write

if TYPE_CHECKING:
    from mnemex.index.sync import ProgressFactory

#: Seconds a transcript must have been left alone before it is digested.
DEFAULT_SETTLE_SECONDS = 300.0
#: A file of this name in a session's working folder marks the session private.
PRIVATE_MARKER = ".mnemex-private"
#: The project of a session whose transcript names no working folder.
NO_PROJECT = "unsorted"
#: the job name of harvest's heartbeat (:mod:`mnemex.vault.heartbeat`)
JOB = "harvest"
HEARTBEAT = heartbeat_path(JOB)
#: Machine-local: transcript path -> (mtime, size, digest ids), so a no-op re-harvest reads nothing.
FILE_CACHE = "harvest-files.json"
#: Machine-local: digest ids that were forgotten, never harvested again.
_SLUG_IN_NAME = 50


def default_sources() -> dict[str, list[Path]]:
    """Each reader's usual folders (Aider has none: its history lives in each repository)."""
    return {name: load_reader(name).default_paths() for name in reader_names()}


#: ``[harvest]`` key -> the harness whose folders it replaces (``aider_repos`` adds, below).
_FOLDER_KEYS = {"claude_dirs": "claude-code", "codex_dirs": "codex", "gemini_dirs": "gemini-cli"}
_LIST_KEYS = (*_FOLDER_KEYS, "aider_repos", "private_paths")
HARVEST_KEYS = ("archive", "private_marker", "settle_seconds", *_LIST_KEYS)


@dataclass(frozen=True)
class HarvestSettings:
    """The ``[harvest]`` table of ``mnemex.toml``, checked, with the defaults filled in."""

    archive: bool = False
    settle_seconds: float = DEFAULT_SETTLE_SECONDS
    private_marker: str = PRIVATE_MARKER
    #: Working-folder prefixes whose sessions are never harvested.
    private_paths: tuple[str, ...] = ()
    aider_repos: tuple[str, ...] = ()
    #: harness -> folders replacing the reader's usual ones.
    folders: dict[str, tuple[str, ...]] = field(default_factory=dict)


def harvest_settings(settings: Settings) -> HarvestSettings:
    """Read ``settings.harvest`` (the ``[harvest]`` table).

    Raises:
        ConfigError: an unknown key, or a value of the wrong type (the message names both).
    """
    table = settings.harvest
    unknown = sorted(set(table) - set(HARVEST_KEYS))
    if unknown:
        known = ", ".join(HARVEST_KEYS)
        raise ConfigError(f"mnemex.toml: [harvest] has unknown key(s) {unknown}; known: {known}")
    lists: dict[str, tuple[str, ...]] = {}
    for key in _LIST_KEYS:
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise ConfigError(f"mnemex.toml: [harvest] {key} must be a list of paths (strings)")
        lists[key] = tuple(value)
    relative = [p for p in lists["private_paths"] if not p.startswith(("/", "~"))]
    if relative:  # a working folder is absolute: a relative entry would never match
        raise ConfigError(
            f"mnemex.toml: [harvest] private_paths must be absolute or start with ~: {relative}"
        )
    archive = table.get("archive", False)
    if not isinstance(archive, bool):
        raise ConfigError("mnemex.toml: [harvest] archive must be true or false")
    settle = table.get("settle_seconds", DEFAULT_SETTLE_SECONDS)
    if isinstance(settle, bool) or not isinstance(settle, int | float) or settle < 0:
        raise ConfigError("mnemex.toml: [harvest] settle_seconds must be a number >= 0")
    marker = table.get("private_marker", PRIVATE_MARKER)
    if not isinstance(marker, str) or "/" in marker:
        raise ConfigError(
            "mnemex.toml: [harvest] private_marker must be a file name (a string without '/'; "
            '"" turns the marker off)'
        )
    return HarvestSettings(
        archive=archive,
        settle_seconds=float(settle),
        private_marker=marker,
        private_paths=lists["private_paths"],
        aider_repos=lists["aider_repos"],
        folders={h: lists[k] for k, h in _FOLDER_KEYS.items() if lists[k]},
    )


def resolve_sources(
    options: HarvestSettings, given: Mapping[str, Sequence[Path]] | None = None
) -> dict[str, list[Path]]:
    """The folders to read: ``given`` (harness -> folders, e.g. from CLI options) wins.

    With nothing given, each harness reads its ``[harvest]`` folders, else its usual ones,
    and Aider the ``aider_repos``. With any folder given, only the harnesses given are read
    (that is how a test or an import of another machine's transcripts stays contained),
    except that Aider repositories given are added to ``aider_repos``.
    """
    chosen = {k: list(v) for k, v in (given or {}).items() if v}
    repos = [Path(p).expanduser() for p in options.aider_repos]
    if chosen:
        if "aider" in chosen:
            chosen["aider"] = list(dict.fromkeys([*repos, *chosen["aider"]]))
        return chosen
    sources = default_sources()
    for harness, folders in options.folders.items():
        sources[harness] = [Path(p).expanduser() for p in folders]
    sources["aider"] = [*sources.get("aider", []), *repos]
    return sources


def _existing_digests(vault: Vault) -> dict[str, str]:
    """``<id>`` -> vault-relative path of every digest-shaped file under ``memories/``."""
    root = vault.root / "memories"
    found: dict[str, str] = {}
    if not root.is_dir():
        return found
    for path in root.glob("*/*/*.md"):
        match = ID_SUFFIX.search(path.name)
        if match:
            found.setdefault(match.group(1), path.relative_to(vault.root).as_posix())
    return found


def _is_private(
    vault: Vault, session: Session, marker: str, paths: Sequence[str] = ()
) -> str | None:
    """Why ``session`` is private, or None. ``paths``: ``[harvest] private_paths``; a path in
    ``[vault] private`` counts too."""
    settings = vault.settings
    if session.project and is_private(settings, session.project):
        return f"private project {session.project!r}"
    if session.cwd:
        cwd = session.cwd.rstrip("/")
        for entry in [*paths, *settings.private]:
            if entry.startswith(("/", "~")):
                base = str(Path(entry).expanduser()).rstrip("/")
                if cwd == base or cwd.startswith(base + "/"):
                    return f"private path {entry!r}"
        try:
            if marker and (Path(session.cwd).expanduser() / marker).exists():
                return f"private marker {marker} in the working folder"
        except OSError:
            pass
    return None


def _render(
    vault: Vault,
    session: Session,
    project: str,
    now: dt.datetime,
    created: Any = None,
    digester: ModelDigester | None = None,
) -> tuple[str, str, str | None]:
    """``(title, note text, warning)`` of the digest of ``session``."""
    digest = extract(session, vault.settings.domains)
    extractor, warning = EXTRACTOR, None
    if digester is not None:
        written = digester(session, digest)
        digest, extractor, warning = written, written.extractor, written.warning
    body = digest.body(session)
    stamp = utc_iso(now)
    fm: dict[str, Any] = {"type": "memory", "title": digest.title}
    if digest.tags:
        fm["tags"] = digest.tags
    fm.update(
        {
            "project": project,
            "domain": digest.domain,
            "importance": digest.importance,
            "session": clean(session.id, 200),
            "harness": session.harness,
            "started": utc_iso(session.started) if session.started else None,
            "ended": utc_iso(session.ended) if session.ended else None,
            "transcript_sha256": session.content_sha256,
            "turns": len(session.turns),
            "body_sha256": hashlib.sha256(body.encode("utf-8")).hexdigest(),
            "machine": machine_name(vault),
            "extractor": extractor,
        }
    )
    if session.git_branch:
        fm["branch"] = clean(session.git_branch, 100)
    if session.model:
        fm["model"] = clean(session.model, 100)
    if session.parent_session:
        fm["parent_session"] = clean(session.parent_session, 200)
    fm = {k: v for k, v in fm.items() if v is not None}
    fm["created"] = str(created) if created else stamp
    fm["updated"] = stamp
    return digest.title, render_note(fm, body), warning


def _load_cache(vault: Vault) -> dict[str, Any]:
    try:
        data = json.loads((vault.root / ".mnemex" / FILE_CACHE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save_cache(vault: Vault, cache: dict[str, Any], previous: dict[str, Any]) -> None:
    merged = {**previous, **cache}
    if merged == previous:
        return
    data = json.dumps(merged, sort_keys=True).encode("utf-8")
    atomic_write(vault.local_dir / FILE_CACHE, data)


def _write_heartbeat(vault: Vault, data: dict[str, Any]) -> None:
    write_heartbeat(vault, JOB, data)


def read_heartbeat(vault: Vault) -> dict[str, Any] | None:
    """The last harvest's heartbeat, or None when harvest never ran (or it is unreadable)."""
    return read_beat(vault, JOB)


def record_failure(
    vault: Vault,
    error: BaseException | str,
    *,
    since: str | None = None,
    interval: float | None = None,
) -> None:
    """Record a failed harvest run in the heartbeat (keeping the last success) for doctor.

    ``since``: when the run started; a failure the run itself recorded at or after it is kept
    as it is, since it holds the counts so far.
    """
    if since is not None:
        beat = read_heartbeat(vault) or {}
        if beat.get("error") and str(beat.get("last_run") or "") >= since:
            return
    message = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
    _write_heartbeat(
        vault,
        {
            "last_run": since or utc_iso(),
            "interval_seconds": interval,
            "error": message,
        },
    )


@contextlib.contextmanager
def failures_recorded(vault: Vault, *, interval: float | None = None) -> Iterator[None]:
    """Record an exception leaving the block in the heartbeat, then let it go on.

    A run that fails anywhere (its settings, loading a model, a reader, the vault, the index
    sync after it) exits non-zero; without a heartbeat doctor would keep showing the success
    before it.
    """
    since = utc_iso()
    try:
        yield
    except Exception as exc:
        with contextlib.suppress(OSError):  # a vault we cannot write must not hide the error
            record_failure(vault, exc, since=since, interval=interval)
        raise


@dataclass
class HarvestReport(Report):
    """The counts of the digests, plus ``archived``: transcripts archived (written) now."""

    archived: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "archived": self.archived}

    def summary(self) -> str:
        return f"{super().summary()}, {self.archived} transcript(s) archived"


class _Harvest:
    def __init__(
        self,
        vault: Vault,
        now: dt.datetime,
        options: HarvestSettings,
        archive: TranscriptArchive | None,
        digester: ModelDigester | None = None,
    ) -> None:
        self.vault = vault
        self.digester = digester
        self.now = now
        self.settle = options.settle_seconds
        self.marker = options.private_marker
        self.private_paths = options.private_paths
        self.archive = archive
        self.report = HarvestReport()
        self.written: list[str] = []
        self.titles: list[str] = []
        self.existing = _existing_digests(vault)
        self.seen: set[str] = set()
        self.transcripts = 0
        self.cache = _load_cache(vault)
        self.forgotten = forgotten_ids(vault)
        self.new_cache: dict[str, Any] = {}
        self.file_ids: list[str] | None = None

    def _cached(self, shown: str, st: Any) -> bool:
        """Whether the file is as it was when all its sessions were last digested."""
        entry = self.cache.get(shown)
        if not isinstance(entry, dict):
            return False
        if entry.get("mtime_ns") != st.st_mtime_ns or entry.get("size") != st.st_size:
            return False
        ids = entry.get("digests")
        if not isinstance(ids, list) or not ids:
            return False
        if self.archive is not None and not entry.get("archived"):
            return False  # the archive was turned on since: read the file once more
        if not all(i in self.existing and i not in self.seen for i in ids):
            return False
        for key in ids:
            self.seen.add(key)
            self.report.add("unchanged", self.existing[key])
        self.new_cache[shown] = entry
        return True

    def file(self, harness: str, path: Path, read: Any) -> None:
        self.transcripts += 1
        shown = str(path)
        try:
            st = path.stat()
            age = self.now.timestamp() - st.st_mtime
        except OSError as exc:
            self.report.add("failed", shown, f"cannot read: {exc.strerror or exc}")
            return
        if age < self.settle:
            self.report.add(
                "skipped",
                shown,
                f"still being written (changed {max(0, int(age))} s ago; settle time "
                f"{int(self.settle)} s): left for a later run",
            )
            return
        if self._cached(shown, st):
            return
        try:
            sessions: list[Session] = read(path)
        except OSError as exc:
            self.report.add("failed", shown, f"cannot read: {exc.strerror or exc}")
            return
        except Exception as exc:  # a reader bug on one file must not stop the batch
            self.report.add("failed", shown, f"could not be read: {type(exc).__name__}: {exc}")
            return
        if not sessions:
            self.report.add("skipped", shown, "no session in the file")
        # one file may hold the same session twice (e.g. Gemini's logs and chats): keep the fuller
        best: dict[str, Session] = {}
        for session in sessions:
            kept = best.get(session.id)
            if kept is None or len(session.turns) > len(kept.turns):
                best[session.id] = session
        self.file_ids = []
        for session in best.values():
            try:
                self.session(session, shown)
            except Exception as exc:  # one bad session fails alone
                self.file_ids = None
                self.report.add("failed", f"{shown}#{session.id}", f"{type(exc).__name__}: {exc}")
        if self.file_ids and len(sessions) == len(best):
            self.new_cache[shown] = {
                "mtime_ns": st.st_mtime_ns,
                "size": st.st_size,
                "digests": self.file_ids,
                "archived": self.archive is not None,
            }
        self.file_ids = None

    def done(self, key: str, rel: str, session: Session) -> None:
        """Session ``key`` is digested at ``rel`` (written now or already): archive it."""
        self.existing[key] = rel
        if self.file_ids is not None:
            self.file_ids.append(key)
        if self.archive is None:
            return
        try:
            outcome = self.archive.archive(session)
        except OSError as exc:  # the digest stands; the next run tries the archive again
            self.report.warn(rel, f"transcript not archived: {exc.strerror or exc}")
            self.not_done()
            return
        except Exception as exc:  # an archive bug must not fail a digest already written
            self.report.warn(rel, f"transcript not archived: {type(exc).__name__}: {exc}")
            self.not_done()
            return
        if outcome != "unchanged":
            self.report.archived += 1

    def not_done(self) -> None:
        """The current file has a session that is not digested: do not cache it."""
        self.file_ids = None

    def session(self, session: Session, shown: str) -> None:
        where = f"{shown}#{session.id}"
        key = digest_id(session.harness, session.id)
        if key in self.seen:
            self.report.add("skipped", where, "the same session was already digested in this run")
            self.not_done()
            return
        self.seen.add(key)
        if key in self.forgotten and key not in self.existing:
            self.report.add("skipped", where, "forgotten: not harvested again")
            self.not_done()
            return
        if not session.turns or not any(t.text.strip() for t in session.turns):
            self.report.add("skipped", where, "nothing to digest (no messages)")
            self.not_done()
            return
        private = _is_private(self.vault, session, self.marker, self.private_paths)
        if private:
            self.report.add("skipped", where, f"{private}: not written")
            self.not_done()
            return
        project = session.project or NO_PROJECT
        rel = self.existing.get(key)
        current_hash = None
        created = None
        if rel is not None:
            text = (self.vault.root / rel).read_bytes()
            current_hash = hashlib.sha256(text).hexdigest()
            parsed = parse_note(text.decode("utf-8", errors="replace"), rel)
            fm = parsed.frontmatter
            if fm.get("harness") == "mnemex":  # a remembered note whose random id collides
                self.report.add("refused", rel, f"a remembered note holds digest id {key}")
                self.not_done()
                return
            stand_in = str(fm.get("extractor", "")).startswith("offline (")
            if fm.get("transcript_sha256") == session.content_sha256 and not (
                self.digester is not None and stand_in
            ):
                self.report.add("unchanged", rel)
                self.done(key, rel, session)
                return
            wrote = hashlib.sha256(parsed.body.encode("utf-8")).hexdigest()
            if fm.get("body_sha256") and fm.get("body_sha256") != wrote:
                self.report.add(
                    "skipped", rel, "edited by hand since harvest wrote it: not overwritten"
                )
                self.not_done()
                return
            created = fm.get("created")
        title, note, warning = _render(
            self.vault, session, project, self.now, created, self.digester
        )
        if rel is None:
            when = session.started or self.now
            slug = slugify(title, max_chars=_SLUG_IN_NAME)
            rel = f"memories/{project}/{when:%Y-%m}/{when:%Y-%m-%d}-{slug}-{key}.md"
        outcome, _ = self.vault.write_note(rel, note, current_hash, protected_ok=True)
        self.report.add(outcome, rel)
        self.done(key, rel, session)
        if warning:
            self.report.warn(rel, warning)
            self.not_done()  # a stand-in digest: read the file again on the next run
        if outcome != "unchanged":
            self.written.append(rel)
            self.titles.append(title)


def harvest_sessions(
    vault: Vault,
    sources: Mapping[str, Sequence[Path]] | None = None,
    settle_seconds: float | None = None,
    now: dt.datetime | None = None,
    private_marker: str | None = None,
    archive: bool | None = None,
    model: ModelClient | None = None,
    confirmed: bool = False,
    interval: float | None = None,
    progress: ProgressFactory | None = None,
) -> HarvestReport:
    """Digest every finished session under ``sources`` (harness -> folders) into ``vault``.

    ``sources`` None means the folders of :func:`resolve_sources` (``[harvest]`` settings,
    else each reader's usual ones). ``settle_seconds``, ``private_marker`` and ``archive``
    left None come from ``[harvest]``. ``interval``: the seconds between runs of a watch, kept
    in the heartbeat so doctor knows when the watch has stopped. ``progress(total, label)``
    returns a ``tick(n)`` callback, ticked once per transcript file. Returns the counts; skips and
    failures carry reasons. Never raises for a bad transcript; the heartbeat records any error
    that stopped the run (settings, a reader, the vault), and the error is raised again.

    Raises:
        ConfigError: the ``[harvest]`` table is wrong (nothing is harvested).
    """
    with failures_recorded(vault, interval=interval):
        return _harvest_sessions(
            vault,
            sources,
            settle_seconds,
            now,
            private_marker,
            archive,
            model,
            confirmed,
            interval,
            progress,
        )


def _harvest_sessions(
    vault: Vault,
    sources: Mapping[str, Sequence[Path]] | None,
    settle_seconds: float | None,
    now: dt.datetime | None,
    private_marker: str | None,
    archive: bool | None,
    model: ModelClient | None,
    confirmed: bool,
    interval: float | None,
    progress: ProgressFactory | None,
) -> HarvestReport:
    started = time.monotonic()
    when = (now or dt.datetime.now(dt.UTC)).astimezone(dt.UTC)
    heartbeat: dict[str, Any] = {
        "last_run": utc_iso(),
        "interval_seconds": interval,
    }
    options = harvest_settings(vault.settings)
    overrides: dict[str, Any] = {
        "settle_seconds": settle_seconds,
        "private_marker": private_marker,
        "archive": archive,
    }
    options = replace(options, **{k: v for k, v in overrides.items() if v is not None})
    wanted = dict(sources) if sources is not None else resolve_sources(options)
    keeper = TranscriptArchive(vault) if options.archive else None
    digester = ModelDigester(model, confirmed=confirmed) if model is not None else None
    run = _Harvest(vault, when, options, keeper, digester)
    try:
        with recording(vault):
            for message in take_recovered(vault):  # what an interrupted run left, now committed
                run.report.warn(".mnemex/intents", message)
            # every folder is listed first, so the progress bar knows its length
            found: list[tuple[str, Path, Callable[[Path], list[Session]]]] = []
            for harness, roots in wanted.items():
                reader = load_reader(harness)
                for root in roots:
                    root = _agent_folder(harness, Path(root).expanduser())
                    if not root.exists():
                        continue
                    try:
                        paths = list(reader.discover(root))
                    except OSError as exc:
                        run.report.add("failed", str(root), f"cannot list: {exc}")
                        continue
                    if not paths:
                        run.report.warn(str(root), f"no {harness} transcripts found here")
                    found.extend((harness, path, reader.read) for path in paths)
            tick = progress(len(found), "harvesting") if progress else None
            for harness, path, read in found:
                run.file(harness, path, read)
                if tick is not None:
                    tick(1)
            if run.written:
                summary = (
                    run.titles[0]
                    if len(run.written) == 1
                    else f"{len(run.written)} session digests"
                )
                commit_change(vault, run.written, "harvest", summary)
            _save_cache(vault, run.new_cache, run.cache)
            if keeper is not None:
                keeper.save()
    except Exception as exc:
        heartbeat.update({"error": f"{type(exc).__name__}: {exc}", "counts": run.report.counts()})
        _write_heartbeat(vault, heartbeat)
        raise
    heartbeat.update(
        {
            "last_success": utc_iso(),
            "counts": run.report.counts(),
            "archived": run.report.archived,
            "transcripts": run.transcripts,
            "seconds": round(time.monotonic() - started, 3),
            "error": None,
        }
    )
    _write_heartbeat(vault, heartbeat)
    return run.report


#: The folder inside an agent's home that holds its transcripts (``~/.claude`` -> ``projects``).
_TRANSCRIPT_FOLDER = {"claude-code": "projects", "codex": "sessions", "gemini-cli": "tmp"}


def _agent_folder(harness: str, root: Path) -> Path:
    """``root``, or its transcript folder when ``root`` is the agent's home (``~/.claude``).

    No Claude Code project folder is called ``projects`` (they are path slugs), no Codex
    year folder ``sessions`` and no Gemini project folder ``tmp`` (they are hashes), so
    descending is never wrong, and ``--claude-dir ~/.claude`` works as a user expects.
    """
    child = root / _TRANSCRIPT_FOLDER.get(harness, "")
    return child if harness in _TRANSCRIPT_FOLDER and child.is_dir() else root


def watch_harvest(
    vault: Vault,
    sources: Mapping[str, Sequence[Path]] | None,
    interval: float,
    *,
    settle_seconds: float | None = None,
    archive: bool | None = None,
    model: ModelClient | None = None,
    confirmed: bool = False,
    runs: int | None = None,
    on_report: Callable[[Report | None, Exception | None], None] | None = None,
) -> None:
    """Harvest every ``interval`` seconds (``runs`` times, or until interrupted).

    A run that dies is recorded in the heartbeat (doctor says so) and the next run goes on.
    """
    done = 0
    while runs is None or done < runs:
        try:
            report: Report | None = harvest_sessions(
                vault,
                sources,
                settle_seconds=settle_seconds,
                archive=archive,
                model=model,
                confirmed=confirmed,
                interval=interval,
            )
            error: Exception | None = None
        except Exception as exc:  # recorded in the heartbeat; keep watching
            report, error = None, exc
        if on_report is not None:
            on_report(report, error)
        done += 1
        if runs is None or done < runs:
            time.sleep(interval)


#: A harvest whose last success is older than this, while transcripts exist, has stopped.
STALE_AFTER = dt.timedelta(days=2)
#: A watch has stopped when no run ended for this many of its intervals (plus the time its
#: last run took, twice: a slow model digest is not a stop).
STALE_INTERVALS = 3


def _watch_stopped(beat: dict[str, Any], when: dt.datetime) -> str | None:
    """Why the ``--watch`` that wrote ``beat`` has stopped, or None while it keeps its pace."""
    interval = beat.get("interval_seconds")
    if isinstance(interval, bool) or not isinstance(interval, int | float) or interval <= 0:
        return None
    try:
        last = dt.datetime.fromisoformat(str(beat.get("last_run")))
    except ValueError:
        return "STOPPED: the heartbeat has no readable last run; restart `mnemex harvest --watch`"
    took = beat.get("seconds")
    took = float(took) if isinstance(took, int | float) and not isinstance(took, bool) else 0.0
    idle = (when - last).total_seconds() - took  # since the last run ended
    if idle <= STALE_INTERVALS * interval + took:  # the next run may take as long again
        return None
    return (
        f"STOPPED: the watch runs every {interval:g} s but its last run was {beat.get('last_run')}"
        f" ({idle / 60:.0f} min without one); restart `mnemex harvest --watch {interval:g}`"
    )


def harvest_check(vault: Vault, now: dt.datetime | None = None) -> dict[str, str]:
    """``mnemex doctor``'s harvest check: ``fail`` when the ``[harvest]`` settings are wrong,
    the last run failed, or harvesting stopped: a ``--watch`` without a run for
    :data:`STALE_INTERVALS` of its intervals, else a last success older than
    :data:`STALE_AFTER` while there were transcripts."""
    try:
        harvest_settings(vault.settings)
    except ConfigError as exc:  # every run will fail, whatever the last one said
        return {"name": "harvest", "status": "fail", "detail": f"every run will fail: {exc}"}
    beat = read_heartbeat(vault)
    if beat is None:
        return {"name": "harvest", "status": "ok", "detail": "never run (no heartbeat)"}
    when = (now or dt.datetime.now(dt.UTC)).astimezone(dt.UTC)
    success = beat.get("last_success")
    shown = success or "never"
    if beat.get("error"):
        return {
            "name": "harvest",
            "status": "fail",
            "detail": f"the last run ({beat.get('last_run')}) FAILED: {beat['error']}; "
            f"last success {shown}",
        }
    stopped = _watch_stopped(beat, when)
    if stopped is not None:
        return {"name": "harvest", "status": "fail", "detail": stopped}
    try:
        last = dt.datetime.fromisoformat(str(success)) if success else None
    except ValueError:
        last = None
    if last is None or (when - last > STALE_AFTER and beat.get("transcripts", 1)):
        age = f"{(when - last).days} day(s) ago" if last else "no success recorded"
        return {
            "name": "harvest",
            "status": "fail",
            "detail": f"STOPPED: last success {shown} ({age}); run `mnemex harvest` "
            "and check its schedule",
        }
    counts = beat.get("counts") or {}
    failed = counts.get("failed", 0)
    detail = f"last success {shown}: " + ", ".join(f"{v} {k}" for k, v in counts.items())
    return {"name": "harvest", "status": "warn" if failed else "ok", "detail": detail}


__all__ = [
    "DEFAULT_SETTLE_SECONDS",
    "HARVEST_KEYS",
    "HEARTBEAT",
    "PRIVATE_MARKER",
    "STALE_AFTER",
    "STALE_INTERVALS",
    "HarvestReport",
    "HarvestSettings",
    "default_sources",
    "failures_recorded",
    "harvest_check",
    "harvest_sessions",
    "harvest_settings",
    "read_heartbeat",
    "record_failure",
    "resolve_sources",
    "watch_harvest",
]
