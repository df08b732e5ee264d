"""Recall of memories: session digests and remembered notes (vault format §7).

:func:`search_memories` is the hybrid search narrowed to ``memories/`` and
scoped project → domain → tags → dates; each hit names the memory's session,
harness, date and importance, and quotes the bullet that matched.
:func:`get_digest` serves one whole memory note, by vault path or by session id
(looked up in the index's frontmatter). Everything served is sanitised,
bounded by tokens and framed as data (:mod:`mnemex.retrieve.served`).
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any

from mnemex.brain import Brain
from mnemex.errors import NoteNotFound, VaultError
from mnemex.index.backend import Scope
from mnemex.retrieve.privacy import Privacy
from mnemex.retrieve.search import query_terms, search
from mnemex.retrieve.served import clean_served, served_hits, served_page
from mnemex.text.dates import parse_date
from mnemex.vault import parse_note
from mnemex.vault.markdown import atx_heading

DEFAULT_MAX_TOKENS = 2_000
DEFAULT_DIGEST_TOKENS = 4_000
MEMORIES = "memories"
_SNIPPET_CHARS = 300


def _privacy(brain: Brain, privacy: Privacy | None) -> Privacy:
    return privacy if privacy is not None else Privacy.of(brain.vault.settings)


def _bullet(body: str, heading: str, terms: list[str], fallback: str) -> str:
    """The line of ``body`` (under ``heading`` when it has one) that matches most terms."""
    lines: list[str] = []
    inside = not heading
    for line in body.splitlines():
        found = atx_heading(line, empty=True)
        if found is not None:
            inside = not heading or found[1] == heading
            continue
        if inside and line.strip():
            lines.append(line.strip())
    best, best_score = "", 0
    for line in lines:
        lower = line.lower()
        score = sum(1 for t in terms if t in lower)
        if score > best_score:
            best, best_score = line, score
    if not best:
        return fallback
    if len(best) > _SNIPPET_CHARS:
        best = best[: _SNIPPET_CHARS - 1] + "…"
    return best


def search_memories(
    brain: Brain,
    query: str,
    project: str | None = None,
    domain: str | None = None,
    tags: tuple[str, ...] | list[str] = (),
    since: str | None = None,
    until: str | None = None,
    k: int = 10,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    privacy: Privacy | None = None,
) -> dict[str, Any]:
    """Search memories only (digests of past sessions and remembered notes).

    Returns compact hits within ``max_tokens``: path, title, session, harness,
    date, importance, the section and bullet that matched.

    Raises:
        VaultError: a date is unreadable, ``k`` is not positive, or the scope names a
            private project or domain that is not served.
    """
    if not query.strip():
        raise VaultError("query is empty: say what to look for")
    if k < 1:
        raise VaultError(f"k={k}: ask for at least one hit")
    for name, value in (("since", since), ("until", until)):
        if value and parse_date(value) is None:
            raise VaultError(f"{name}={value!r} is not a date; give one like 2026-12-01")
    served = _privacy(brain, privacy)
    folders: tuple[str, ...] = ()
    if domain:
        # a memory's domain is in its frontmatter, not its path: scope by the paths that have it
        served.check_names([domain], "domain")
        folders = tuple(brain.backend.paths_with_field("domain", domain, kind=MEMORIES))
    scope = served.scope(
        Scope(
            kinds=(MEMORIES,),
            projects=(project,) if project else (),
            folders=folders,
            tags=tuple(t.lstrip("#") for t in tags if t),
            since=since,
            until=until,
        )
    )
    result = search(brain, query, scope=scope, k=k)
    if domain and not folders:
        result.hits = []
    terms = query_terms(query)
    hits: list[dict[str, Any]] = []
    for hit in result.hits:
        note = brain.backend.note_by_path(hit.path)
        fm: dict[str, Any] = note.frontmatter if note else {}
        if served.hides_path(hit.path, str(fm.get("project") or hit.project or "") or None):
            continue
        try:
            body = parse_note(brain.vault.read_note(hit.path).text, hit.path).body
        except (OSError, VaultError, UnicodeDecodeError):
            body = ""
        row: dict[str, Any] = {
            "path": hit.path,
            "title": clean_served(MEMORIES, hit.title),
            "score": hit.score,
            "project": fm.get("project") or hit.project,
            "domain": fm.get("domain") or hit.domain,
            "kind": "remembered" if fm.get("harness") == "mnemex" else "digest",
        }
        for key in ("session", "harness"):
            if fm.get(key):
                row[key] = clean_served(MEMORIES, str(fm[key]))
        date = fm.get("started") or hit.date
        if date:
            row["date"] = str(date)
        if isinstance(fm.get("importance"), int | float):
            row["importance"] = float(fm["importance"])
        if hit.heading:
            row["section"] = clean_served(MEMORIES, hit.heading)
        row["snippet"] = clean_served(MEMORIES, _bullet(body, hit.heading, terms, hit.snippet))
        if note and note.tags:
            row["tags"] = note.tags
        hits.append(row)
    return served_hits(
        query,
        hits,
        max_tokens,
        narrow="project, domain, tags or since",
        none="no memories match: try other words, widen the scope, or use search for the whole "
        "brain",
    )


def memory_path(brain: Brain, path: str) -> str:
    """A vault-relative path that must name a memory note.

    Raises:
        PathOutsideVault: the path leaves the vault.
        VaultError: the path is not under ``memories/``.
        NoteNotFound: no such memory.
    """
    clean = brain.vault.rel_path(path)
    parts = PurePosixPath(clean).parts
    if parts[0] != MEMORIES or len(parts) < 3:
        raise VaultError(
            f"{clean} is not a memory: memories live under memories/<project>/; "
            "search_memories finds their paths"
        )
    if brain.vault.current_hash(clean) is None:
        raise NoteNotFound(f"{clean}: no such memory; search_memories finds their paths")
    return clean


def paths_for_session(brain: Brain, session: str) -> list[str]:
    """The memory notes whose frontmatter names ``session``.

    Raises:
        VaultError: the session id is empty.
        NoteNotFound: no memory names it.
    """
    session = session.strip()
    if not session:
        raise VaultError("session is empty: give a session id (search_memories shows them)")
    brain.sync()
    paths = brain.backend.paths_with_field("session", session, kind=MEMORIES)
    if not paths:
        raise NoteNotFound(
            f"no memory of session {session!r}; search_memories shows the sessions there are"
        )
    return paths


def get_digest(
    brain: Brain,
    path: str | None = None,
    session: str | None = None,
    max_tokens: int = DEFAULT_DIGEST_TOKENS,
    privacy: Privacy | None = None,
) -> dict[str, Any]:
    """One whole memory note, by vault path or by session id, bounded by ``max_tokens``.

    Raises:
        VaultError: neither or both of path and session, a path outside ``memories/``,
            or a private memory not served.
        NoteNotFound: no such memory or session.
    """
    if (path is None) == (session is None):
        raise VaultError("give either path or session (not both)")
    served = _privacy(brain, privacy)
    if path is not None:
        rel = memory_path(brain, path)
    else:
        assert session is not None
        found = [
            p
            for p in paths_for_session(brain, session)
            if not served.hides_path(p, _project_of(brain, p))
        ]
        if not found:
            raise VaultError(f"the memory of session {session!r} is private and not served here")
        # the digest first (harness other than mnemex), then remembered notes
        found.sort(key=lambda p: (_harness_of(brain, p) == "mnemex", p))
        rel = found[0]
    out = served_page(brain, served, rel, max_tokens)
    if path is None and len(found) > 1:
        out["also"] = found[1:]
    return out


def _frontmatter(brain: Brain, rel: str) -> dict[str, Any]:
    note = brain.backend.note_by_path(rel)
    return note.frontmatter if note else {}


def _project_of(brain: Brain, rel: str) -> str | None:
    return str(_frontmatter(brain, rel).get("project") or "") or None


def _harness_of(brain: Brain, rel: str) -> str | None:
    return str(_frontmatter(brain, rel).get("harness") or "") or None


__all__ = [
    "DEFAULT_DIGEST_TOKENS",
    "DEFAULT_MAX_TOKENS",
    "get_digest",
    "memory_path",
    "paths_for_session",
    "search_memories",
]
