"""``mnemex doctor``: is the brain healthy enough to trust?

Checks that the vault is found (and how), the settings parse, the index's backend answers
(a PostgreSQL server: its version, pgvector's, the schema; one that cannot be reached or
lacks pgvector fails, and the checks that need no index still run), the index exists
and is fresh against the files, every chunk text has a vector, the embedder loads and
answers, that ``mnemex serve`` answers an agent client within its start-up limit, and
lists files that could not be indexed, and that every agent client mnemex was installed
into starts a working MCP server. :func:`diagnose_secrets` (``--secrets``) scans the
vault and its git history for secrets. Each check is ``ok``, ``warn`` or ``fail``; each
is a small function of ``_CHECKS``, run and reported in that order.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from mnemex.brain import Brain
from mnemex.clients.install import (
    CODEX_STARTUP_TIMEOUT_SEC,
    check_installed_clients,
)
from mnemex.config import VaultLocation
from mnemex.embed import load_embedder as load_configured_embedder
from mnemex.errors import IndexUnavailable, MnemexError
from mnemex.facts.consolidate import consolidate_check
from mnemex.foundations.store import foundation_checks
from mnemex.harvest.run import harvest_check
from mnemex.index.backend import IndexStats
from mnemex.index.sync import kept_out, names_kept_out
from mnemex.vault import Vault, parse_note
from mnemex.vault.gitsync import sync_checks

#: Seconds a client waits for a stdio server's first answers by default (Codex: 10 s).
SERVE_LIMIT = 10.0
#: A server that has not answered after this long is broken, not slow: `mnemex install codex`
#: asks Codex for this much.
SERVE_GIVE_UP = float(CODEX_STARTUP_TIMEOUT_SEC)


@dataclass
class Check:
    name: str
    status: str  # ok | warn | fail
    detail: str

    def to_dict(self) -> dict[str, str]:
        return {"name": self.name, "status": self.status, "detail": self.detail}


def diagnose(
    brain: Brain,
    load_embedder: bool = True,
    probe_clients: bool = True,
    serve_check: Callable[[Path], Check] | None = None,
) -> dict[str, Any]:
    """Run every check; never raises for a problem it can describe.

    ``probe_clients`` starts MCP servers and asks them for their tools: this vault's
    (``mnemex serve``, timed against :data:`SERVE_LIMIT`) and the one each installed client
    configuration names (off: no server is started, only the paths are checked).
    ``serve_check`` is how this vault's server is started and timed; the interface that
    has an MCP client passes it (:func:`mnemex.mcp.probe.serve_check`), since the core
    imports no MCP client.
    """
    backend = brain.backend
    exam = _Exam(brain.vault, brain.location, load_embedder, probe_clients, serve_check, brain)
    describe = getattr(backend, "describe", None)  # a backend beyond this machine has one
    try:
        info: dict[str, Any] | None = dict(describe()) if callable(describe) else None
        stats = replace(backend.stats(), unresolved_links=brain.links_to_nowhere(limit=0)[0])
        problems = backend.problems()
    except IndexUnavailable as exc:  # opened, but the server went away since
        name = "postgres" if callable(describe) else "index"
        return _report(replace(exam, brain=None, backend_name=name, index_error=str(exc)))
    return _report(replace(exam, stats=stats, problems=problems, backend_info=info))


def diagnose_unopened(
    vault: Vault,
    location: VaultLocation,
    error: str,
    backend: str,
    load_embedder: bool = True,
    probe_clients: bool = True,
    serve_check: Callable[[Path], Check] | None = None,
) -> dict[str, Any]:
    """The checks of :func:`diagnose` for a vault whose index could not be opened (a
    PostgreSQL server that cannot be reached, pgvector missing, a DSN refused): the
    ``backend`` check fails with ``error``; the index's own checks are left out, every
    other one runs."""
    exam = _Exam(vault, location, load_embedder, probe_clients, serve_check)
    return _report(replace(exam, backend_name=backend, index_error=error))


def _report(exam: _Exam) -> dict[str, Any]:
    checks: list[Check] = []
    for run in _CHECKS:
        try:
            checks += run(exam)
        except IndexUnavailable as exc:  # the server went away during the checks
            checks.append(Check("backend", "fail", str(exc)))
    worst = (
        "fail"
        if any(c.status == "fail" for c in checks)
        else ("warn" if any(c.status == "warn" for c in checks) else "ok")
    )
    stats = exam.stats
    data: dict[str, Any] = {
        "status": worst,
        "checks": [c.to_dict() for c in checks],
        "counts": {
            k: getattr(stats, k) if stats is not None else None
            for k in ("notes", "chunks", "links", "unresolved_links", "tags")
        },
        "problems": [{"path": p, "reason": r} for p, r in exam.problems],
    }
    if exam.index_error is not None:
        data["backend"] = {"backend": exam.backend_name, "ok": False, "error": exam.index_error}
    elif exam.backend_info is not None:
        data["backend"] = {**exam.backend_info, "ok": True}
    return data


@dataclass(frozen=True)
class _Exam:
    """What the checks read: the vault, the brain (None when its index could not be
    opened, with ``index_error`` saying why), the index's counts and problems (read
    once), what the backend says of itself, and the options of this run."""

    vault: Vault
    location: VaultLocation
    load_embedder: bool
    probe_clients: bool
    serve_check: Callable[[Path], Check] | None
    brain: Brain | None = None
    stats: IndexStats | None = None
    #: (path, reason) of the files sync refused or warned on
    problems: list[tuple[str, str]] = field(default_factory=list)
    backend_info: dict[str, Any] | None = None  # the backend's describe(), when it has one
    backend_name: str = "index"
    index_error: str | None = None

    @property
    def refused(self) -> list[str]:
        """Files sync could not index (a reason that is no mere warning)."""
        return [p for p, reason in self.problems if not reason.startswith("warning:")]


def _vault(exam: _Exam) -> list[Check]:
    return [Check("vault", "ok", f"{exam.vault.root} ({exam.location.source})")]


def _settings(exam: _Exam) -> list[Check]:
    settings = exam.vault.settings
    return [
        Check(
            "settings",
            "ok",
            f"format {settings.format}, domains "
            f"{', '.join(settings.domains)}, embedder {settings.embedder_name}",
        )
    ]


def _backend(exam: _Exam) -> list[Check]:
    """The index's backend, when it lives beyond this machine (PostgreSQL: the server's
    version, pgvector's, the schema and where, never a password), or why it could not be
    opened."""
    if exam.index_error is not None:
        return [Check("backend", "fail", f"{exam.backend_name}: {exam.index_error}")]
    info, stats = exam.backend_info, exam.stats
    if info is None or stats is None:
        return []  # on this machine (SQLite): the index check says enough
    detail = (
        f"{info.get('backend', '?')}: PostgreSQL {info.get('server', '?')}, pgvector "
        f"{info.get('pgvector', '?')}, schema {info.get('schema', '?')} at "
        f"{info.get('where', '?')}; {stats.notes} notes, {stats.chunks} chunks"
    )
    if exam.brain is not None:
        behind = exam.brain.indexer().behind()
        if behind:  # the index follows others' commits: this machine cannot write it
            why = behind.removesuffix("; nothing was written")
            return [Check("backend", "warn", f"{detail}; {why}")]
    return [Check("backend", "ok", detail)]


def _index(exam: _Exam) -> list[Check]:
    """Fresh when every file is indexed as it is now, and no indexed note lost its file."""
    if exam.brain is None or exam.stats is None:
        return []  # the backend check says why there is no index to check
    states = exam.brain.backend.note_states()
    # a file sync refused (unreadable, too big) is never in the index: not drift; nor is
    # a private note kept out of an index beyond this machine
    refused = set(exam.refused)
    private = names_kept_out(exam.vault, exam.brain.backend)
    stale = 0
    files = 0
    for entry in exam.vault.iter_files():
        if kept_out(entry.rel, private):
            continue
        state = states.pop(entry.rel, None)
        if state is None and private and _private_by_frontmatter(Path(entry.path), private):
            continue
        files += 1
        if entry.rel in refused and state is None:
            continue
        if state is None or state.mtime_ns != entry.mtime_ns or state.size != entry.size:
            stale += 1
    stale += len(states)  # indexed notes whose files are gone
    stats = exam.stats
    if stats.notes == 0 and files:
        detail = f"empty, but the vault has {files} notes: run `mnemex index`"
        return [Check("index", "fail", detail)]
    if stale:
        detail = f"{stale} file(s) changed since the last sync: run `mnemex index`"
        return [Check("index", "warn", detail)]
    detail = (
        f"fresh: {stats.notes} notes, {stats.chunks} chunks, last sync {stats.last_sync or 'never'}"
    )
    return [Check("index", "ok", detail)]


def _private_by_frontmatter(path: Path, private: frozenset[str]) -> bool:
    """A note whose frontmatter names a private project or domain (kept out of a shared
    index by sync, so its absence there is no drift)."""
    try:
        meta = parse_note(path.read_text(encoding="utf-8")).frontmatter
    except (OSError, UnicodeDecodeError):
        return False
    return bool({str(meta.get("project") or ""), str(meta.get("domain") or "")} & private)


def _vectors(exam: _Exam) -> list[Check]:
    if exam.brain is None or exam.stats is None:
        return []
    missing = _chunks_without_vectors(exam.brain, exam.stats)
    return [Check("vectors", "warn", missing)] if missing else []


def _embedder(exam: _Exam) -> list[Check]:
    """The embedder loads and answers, and is the one the index was embedded with."""
    if not exam.load_embedder:
        return []
    try:
        started = time.perf_counter()
        if exam.brain is not None:
            embedder = exam.brain.embedder  # loaded on first use: a load that fails is a fail
        else:
            settings = exam.vault.settings
            embedder = load_configured_embedder(settings.embedder_name, settings.embedder)
        vec = embedder.embed_query("mnemex doctor")
        ms = (time.perf_counter() - started) * 1000
    except MnemexError as exc:
        return [Check("embedder", "fail", str(exc))]
    checks = [
        Check(
            "embedder",
            "ok",
            f"{embedder.identity}, {len(vec)} dimensions, loaded and answered in {ms:.0f} ms",
        )
    ]
    indexed_with = exam.stats.embedder if exam.stats is not None else None
    if indexed_with and indexed_with != embedder.identity:
        detail = f"index was embedded with {indexed_with}; `mnemex index` re-embeds"
        checks.append(Check("embedder", "warn", detail))
    return checks


def _serve(exam: _Exam) -> list[Check]:
    if not exam.probe_clients or exam.serve_check is None:
        return []
    return [exam.serve_check(exam.vault.root)]


def _installed_clients(exam: _Exam) -> list[Check]:
    return [Check(**c) for c in check_installed_clients(probe=exam.probe_clients)]


def _git_sync(exam: _Exam) -> list[Check]:
    """Conflict copies, private files tracked."""
    return [Check(**c) for c in sync_checks(exam.vault)]


def _foundations(exam: _Exam) -> list[Check]:
    """Foundations changed outside mnemex, or not listed."""
    return [Check(**c) for c in foundation_checks(exam.vault)]


def _harvest(exam: _Exam) -> list[Check]:
    """The heartbeat: harvest stopped or failed."""
    return [Check(**harvest_check(exam.vault))]


def _consolidate(exam: _Exam) -> list[Check]:
    """The consolidation pass's heartbeat: when it last ran, whether it failed."""
    return [Check(**consolidate_check(exam.vault))]


def _problem_files(exam: _Exam) -> list[Check]:
    """Files that could not be indexed, and notes read with warnings (listed below)."""
    checks = []
    unindexable = len(exam.refused)
    if unindexable:
        detail = f"{unindexable} file(s) could not be indexed (listed below)"
        checks.append(Check("files", "warn", detail))
    warned = len(exam.problems) - unindexable
    if warned:
        detail = f"{warned} note(s) read with warnings (listed below)"
        checks.append(Check("frontmatter", "warn", detail))
    return checks


#: The checks :func:`diagnose` runs, in the order it reports them.
_CHECKS: tuple[Callable[[_Exam], list[Check]], ...] = (
    _vault,
    _settings,
    _backend,
    _index,
    _vectors,
    _embedder,
    _serve,
    _installed_clients,
    _git_sync,
    _foundations,
    _harvest,
    _consolidate,
    _problem_files,
)


def _chunks_without_vectors(brain: Brain, stats: IndexStats) -> str | None:
    """What the vectors lack, or None. Vectors are stored once per distinct chunk text, so
    identical chunks (a repeated boilerplate paragraph) share one: compare texts, not rows."""
    if not stats.chunks:
        return None
    embedder = stats.embedder
    if not embedder:
        vectors = sum(stats.vectors.values()) if stats.vectors else 0
        return None if vectors else f"no vectors for {stats.chunks} chunks: run `mnemex index`"
    missing = len(brain.backend.chunks_missing_vectors(embedder))
    if not missing:
        return None
    return f"{missing} distinct chunk text(s) have no {embedder} vector: run `mnemex index`"


def diagnose_secrets(vault_root: Path) -> dict[str, Any]:
    """``mnemex doctor --secrets``: secret patterns in the vault's files and git history.

    ``fail`` when any is found; each finding names the kind, path, commit (short sha,
    ``None`` for the working tree) and line, never the secret. ``purge`` says how to
    remove one from history (vault format §13).
    """
    from mnemex.text.redact import PURGE_RECIPE, scan_vault_history

    findings = scan_vault_history(vault_root)
    commits = sorted({f["commit"] for f in findings if f["commit"]})
    in_history = sum(1 for f in findings if f["commit"])
    if findings:
        check = Check(
            "secrets",
            "fail",
            f"{len(findings)} secret(s) found: {len(findings) - in_history} in the files, "
            f"{in_history} in {len(commits)} commit(s) of the git history"
            ": rotate them, then purge the history",
        )
    else:
        check = Check("secrets", "ok", "no secret patterns in the files or the git history")
    return {
        "status": check.status,
        "checks": [check.to_dict()],
        "findings": findings,
        "commits": commits,
        "purge": PURGE_RECIPE if findings else "",
    }


__all__ = [
    "SERVE_GIVE_UP",
    "SERVE_LIMIT",
    "Check",
    "diagnose",
    "diagnose_secrets",
    "diagnose_unopened",
]
