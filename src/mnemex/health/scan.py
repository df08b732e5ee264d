"""The health scan: one checker per kind, run over the index and the files, no model.

Each checker is a function of a :class:`ScanContext` returning
:class:`~mnemex.health.ids.Issue` objects, registered under its kind with
:func:`register_checker`. A later capability adds its own check the same way
(facts add theirs as the ``stale_facts`` and ``disputed_facts`` kinds, in
:mod:`mnemex.health.facts`), so the scan itself never needs to change.

The scan reads the index as it is and does not sync it first: an index out of
step with the files is one of the things it reports (``index_drift``). Where
the other checks rely on the index (links, backlinks, vectors), they describe
the vault as last synced.

A vault folder that is gone is an error, never an empty, healthy report.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mnemex.errors import VaultError
from mnemex.health.ids import KINDS, Issue
from mnemex.health.records import dismissed_ids
from mnemex.health.view import CheckedNote, IndexView, load_view
from mnemex.index.backend import IndexBackend
from mnemex.text.dates import parse_date
from mnemex.vault import Vault
from mnemex.vault.layout import mirror_team
from mnemex.vault.markdown import split_frontmatter

#: Defaults of the ``[health]`` table of ``mnemex.toml``.
DEFAULT_STALE_DAYS = 365
DEFAULT_DUPLICATE_THRESHOLD = 0.88
DEFAULT_MAX_DUPLICATES = 500

#: How much one issue of a kind weighs in the score (per page of the vault).
WEIGHTS = {
    "broken_links": 1.0,
    "loose_links": 0.25,
    "broken_anchors": 0.25,
    "orphans": 0.5,
    "duplicates": 1.0,
    "stale": 0.5,
    "missing_backlinks": 0.5,
    "broken_frontmatter": 1.0,
    "empty_pages": 1.0,
    "index_drift": 0.25,
    "stale_facts": 0.25,
    "disputed_facts": 0.5,
}

#: Folders whose files are kept verbatim or belong to health itself: never checked as pages.
_NOT_PAGES = ("foundations", "health")
#: Wiki folders that hold originals, not pages (vault format §4).
_SOURCES = "sources"
#: File stems of hub pages nothing is expected to link to.
HUB_STEMS = frozenset({"index", "readme", "home"})


@dataclass(frozen=True)
class HealthSettings:
    """The ``[health]`` table: ``stale_days``, ``duplicate_threshold``, ``max_duplicates``,
    ``repos`` (project -> path of its code repository, for stale handoffs)."""

    stale_days: int = DEFAULT_STALE_DAYS
    duplicate_threshold: float = DEFAULT_DUPLICATE_THRESHOLD
    max_duplicates: int = DEFAULT_MAX_DUPLICATES
    repos: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, table: dict[str, Any]) -> HealthSettings:
        """Read the table, refusing values of the wrong type by name."""
        try:
            stale = int(table.get("stale_days", DEFAULT_STALE_DAYS))
            threshold = float(table.get("duplicate_threshold", DEFAULT_DUPLICATE_THRESHOLD))
            most = int(table.get("max_duplicates", DEFAULT_MAX_DUPLICATES))
        except (TypeError, ValueError) as exc:
            raise VaultError(f"mnemex.toml [health]: {exc}") from None
        repos = table.get("repos", {})
        if not isinstance(repos, dict):
            raise VaultError("mnemex.toml [health] repos must be a table of project = path")
        if stale < 1 or not 0.0 < threshold <= 1.0 or most < 0:
            raise VaultError(
                "mnemex.toml [health]: stale_days must be >= 1, duplicate_threshold in (0, 1], "
                "max_duplicates >= 0"
            )
        return cls(stale, threshold, most, {str(k): str(v) for k, v in repos.items()})


@dataclass
class ScanContext:
    """What every checker may read: the vault, the index (loaded once) and the settings."""

    vault: Vault
    backend: IndexBackend
    view: IndexView
    settings: HealthSettings
    now: dt.datetime
    embedder: str | None = None
    semantic: bool = True
    _bodies: dict[str, str | None] = field(default_factory=dict)

    def body(self, rel: str) -> str | None:
        """The file's text as on disk now (None when it cannot be read), read once."""
        if rel not in self._bodies:
            try:
                self._bodies[rel] = (self.vault.root / rel).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                self._bodies[rel] = None
        return self._bodies[rel]


Checker = Callable[[ScanContext], list[Issue]]
_CHECKERS: dict[str, dict[str, Checker]] = {kind: {} for kind in KINDS}


def register_checker(kind: str, name: str) -> Callable[[Checker], Checker]:
    """Register a checker for ``kind`` (a decorator); ``name`` tells checkers of one kind apart.

    Raises:
        ValueError: unknown kind, or the name is taken by another function.
    """

    def add(func: Checker) -> Checker:
        if kind not in _CHECKERS:
            raise ValueError(f"unknown health kind {kind!r}; one of {', '.join(KINDS)}")
        if _CHECKERS[kind].get(name, func) is not func:
            raise ValueError(f"a {kind} checker named {name!r} is already registered")
        _CHECKERS[kind][name] = func
        return func

    return add


def checkers() -> dict[str, list[str]]:
    """Kind -> the names of its registered checkers (for docs and tests)."""
    return {kind: sorted(found) for kind, found in _CHECKERS.items()}


# -- which notes are pages -------------------------------------------------------------


def in_mirror(path: str) -> bool:
    """A file of a team's mirror (``wiki/shared-<team>/``): other people's pages, written only
    by ``mnemex team pull``. Never the subject of an issue (a fix would write into it, and the
    next pull would undo it), always a page other notes may link to."""
    return mirror_team(path) is not None


def is_page(note: CheckedNote) -> bool:
    """A knowledge page or a user's note, not a mirror's: what the page checks look at."""
    if in_mirror(note.path):
        return False
    if note.kind == "knowledge":
        return note.folder != _SOURCES
    return note.kind == "notes" and note.top not in _NOT_PAGES


def is_knowledge(note: CheckedNote) -> bool:
    """A wiki page that is not a summary or an original, nor a mirror's: an entity, concept or
    the like."""
    if in_mirror(note.path):
        return False
    return note.kind == "knowledge" and note.folder not in (_SOURCES, "summaries")


def link_source_checked(note: CheckedNote) -> bool:
    """Whether a note's links are checked: not originals, foundations, health files or a
    team's mirror (its links name its authors' pages, and only a pull changes it)."""
    if note.kind in ("foundations", "health") or in_mirror(note.path):
        return False
    return not (note.kind == "knowledge" and note.folder == _SOURCES)


# -- scanning ----------------------------------------------------------------------------


@dataclass
class HealthReport:
    """A scan's findings, grouped by kind, with counts and a score."""

    issues: dict[str, list[Issue]]
    pages: int
    dismissed: int
    seconds: float
    scanned: str
    #: checkers that failed (their kind is incomplete): never silently
    errors: list[str] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        return {kind: len(self.issues.get(kind, [])) for kind in KINDS}

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def score(self) -> int:
        """0-100: 100 is no issue; each issue costs its kind's weight relative to the pages."""
        penalty = sum(WEIGHTS[k] * n for k, n in self.counts.items())
        return round(100 * self.pages / (self.pages + penalty)) if self.pages else 100

    def find(self, issue_id: str) -> Issue | None:
        for found in self.issues.values():
            for issue in found:
                if issue.id == issue_id:
                    return issue
        return None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            kind: [i.to_dict() for i in self.issues.get(kind, [])] for kind in KINDS
        }
        out["counts"] = self.counts
        out["total"] = self.total
        out["score"] = self.score
        out["pages"] = self.pages
        out["dismissed"] = self.dismissed
        out["seconds"] = round(self.seconds, 3)
        out["scanned"] = self.scanned
        if self.errors:
            out["errors"] = self.errors
        return out


def _check_vault_present(vault: Vault) -> None:
    if not vault.root.is_dir():
        raise VaultError(
            f"vault folder {vault.root} is gone (moved, unmounted or deleted); nothing was "
            "scanned: a missing vault is not a healthy one"
        )


def scan(
    vault: Vault,
    backend: IndexBackend,
    *,
    embedder: str | None = None,
    kinds: tuple[str, ...] = KINDS,
    semantic: bool = True,
    include_dismissed: bool = False,
    now: dt.datetime | None = None,
) -> HealthReport:
    """Run every registered checker of ``kinds`` and group what they find.

    Args:
        embedder: the identity of the embedder whose vectors the semantic
            duplicate check compares (the index's current one when None).
        semantic: False skips the vector comparison (name checks still run).
        include_dismissed: keep dismissed issues in the report.

    Raises:
        VaultError: the vault folder is gone, or ``[health]`` settings are invalid.
    """
    started = time.perf_counter()
    _check_vault_present(vault)
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise VaultError(f"unknown health kind(s) {', '.join(unknown)}; known: {', '.join(KINDS)}")
    settings = HealthSettings.of(vault.settings.health)
    context = ScanContext(
        vault,
        backend,
        load_view(backend),
        settings,
        now or dt.datetime.now(dt.UTC),
        embedder if embedder is not None else backend.get_meta("embedder"),
        semantic,
    )
    found: dict[str, list[Issue]] = {}
    errors: list[str] = []
    for kind in kinds:
        issues: dict[str, Issue] = {}
        for name in sorted(_CHECKERS[kind]):
            try:
                found_now = _CHECKERS[kind][name](context)
            except Exception as exc:
                _check_vault_present(vault)  # a vault gone mid-scan is the error to report
                # one broken checker must not hide what the others found; it is reported
                errors.append(f"{kind}/{name} failed: {type(exc).__name__}: {exc}"[:500])
                continue
            for issue in found_now:
                if not any(in_mirror(f) for f in issue.files):  # whatever checker found it
                    issues.setdefault(issue.id, issue)
        found[kind] = sorted(issues.values(), key=_rank)
    _check_vault_present(vault)  # gone while scanning: the findings describe nothing
    dismissed = {} if include_dismissed else dismissed_ids(vault)
    hidden = 0
    if dismissed:
        for kind, listed in found.items():
            kept = [i for i in listed if i.id not in dismissed]
            hidden += len(listed) - len(kept)
            found[kind] = kept
    return HealthReport(
        found,
        sum(1 for path in context.view.notes if not in_mirror(path)),
        hidden,
        time.perf_counter() - started,
        context.now.isoformat(timespec="seconds"),
        errors,
    )


def _rank(issue: Issue) -> tuple[float, list[str], str]:
    return (-(issue.score or 0.0), sorted(issue.files), issue.key)


# -- frontmatter and bodies ------------------------------------------------------------


def when_of(value: object) -> dt.datetime | None:
    """A frontmatter date as an aware datetime (UTC when it names no zone), or None.

    ISO 8601 (what mnemex writes) is read directly; anything else goes through the
    index's tolerant parser, which is a hundred times slower.
    """
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        when = dt.datetime.fromisoformat(value.strip())
    except ValueError:
        parsed = parse_date(value)
        if parsed is None:
            return None
        try:
            when = dt.datetime.fromisoformat(parsed)
        except ValueError:
            return None
    return when if when.tzinfo else when.replace(tzinfo=dt.UTC)


def body_of(text: str) -> str:
    _, body, _ = split_frontmatter(text)
    return body


def has_unclosed_fence(text: str) -> bool:
    """A note that opens a ``---`` frontmatter fence and never closes it."""
    first = text.split("\n", 1)[0].lstrip("\ufeff")
    return first.strip() == "---" and split_frontmatter(text)[0] is None


__all__ = [
    "DEFAULT_DUPLICATE_THRESHOLD",
    "DEFAULT_MAX_DUPLICATES",
    "DEFAULT_STALE_DAYS",
    "HUB_STEMS",
    "WEIGHTS",
    "Checker",
    "HealthReport",
    "HealthSettings",
    "ScanContext",
    "body_of",
    "checkers",
    "has_unclosed_fence",
    "in_mirror",
    "is_knowledge",
    "is_page",
    "link_source_checked",
    "register_checker",
    "scan",
    "when_of",
]
