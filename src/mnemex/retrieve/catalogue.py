"""Cheap ways into a brain before searching or reading: domains, a domain's catalogue,
tags, what changed lately, the link graph, all bounded and without private names.

These read the index only (never a model), so they answer in milliseconds; an
agent lists and narrows first, then reads the few pages it needs.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from mnemex.brain import Brain
from mnemex.errors import NoteNotFound, VaultError
from mnemex.index.backend import Scope
from mnemex.retrieve.budget import json_tokens, take_within
from mnemex.retrieve.graph import backlinks, connected, overview
from mnemex.retrieve.privacy import Privacy
from mnemex.text.dates import parse_date, utc_iso
from mnemex.vault import KINDS, placement
from mnemex.vault.projects import known_projects

_TYPE_ORDER = {"entity": 0, "concept": 1, "summary": 2, "source": 3}


def _count(brain: Brain, privacy: Privacy, scope: Scope) -> int:
    ids = brain.backend.notes_in_scope(privacy.scope(scope))
    return 0 if ids is None else len(ids)


def list_domains(brain: Brain, privacy: Privacy) -> dict[str, Any]:
    """The vault's knowledge domains and projects with how many notes each holds."""
    settings = brain.vault.settings
    wiki = brain.vault.root / "wiki"
    names = set(settings.domains)
    if wiki.is_dir():
        names.update(p.name for p in wiki.iterdir() if p.is_dir() and not p.name.startswith("."))
    domains = [
        {
            "name": name,
            "pages": _count(brain, privacy, Scope(kinds=("knowledge",), domains=(name,))),
            **({} if name in settings.domains else {"configured": False}),
        }
        for name in sorted(names)
        if not privacy.hides(name)
    ]
    projects = [
        {
            "name": name,
            "memories": _count(brain, privacy, Scope(kinds=("memories",), projects=(name,))),
            "state": _count(brain, privacy, Scope(kinds=("state",), projects=(name,))),
            "foundations": _count(brain, privacy, Scope(kinds=("foundations",), projects=(name,))),
        }
        for name in known_projects(brain.vault)
        if not privacy.hides(name)
    ]
    return {
        "vault": settings.name,
        "domains": domains,
        "projects": projects,
        "notes_by_kind": {kind: _count(brain, privacy, Scope(kinds=(kind,))) for kind in KINDS},
    }


def domain_index(
    brain: Brain, privacy: Privacy, domain: str, max_tokens: int, offset: int = 0
) -> dict[str, Any]:
    """A domain's catalogue: every knowledge page's path, title and type, entities first.

    Raises:
        VaultError: unknown or private domain.
    """
    privacy.check_names([domain], "domain")
    known = set(brain.vault.settings.domains) | {
        p.name for p in (brain.vault.root / "wiki").glob("*") if p.is_dir()
    }
    if domain not in known:
        raise VaultError(
            f"unknown domain {domain!r}; the domains are {', '.join(sorted(known))} "
            "(list_domains shows them)"
        )
    backend = brain.backend
    ids = backend.notes_in_scope(privacy.scope(Scope(kinds=("knowledge",), domains=(domain,))))
    notes = backend.notes_by_id(ids or [])
    rows = sorted(
        ({"path": n.path, "title": n.title, "type": n.type or "note"} for n in notes.values()),
        key=lambda r: (_TYPE_ORDER.get(r["type"], 9), r["title"].lower(), r["path"]),
    )
    page = take_within(rows, max_tokens, offset)
    return {"domain": domain, "pages": page.items, **page.fields("pages")}


def _since_ns(since: str | None) -> int | None:
    if not since:
        return None
    parsed = parse_date(since)
    if parsed is None:
        raise VaultError(f"since={since!r} is not a date; give one like 2026-12-01")
    when = dt.datetime.fromisoformat(parsed)
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return int(when.timestamp() * 1e9)


def recent_changes(
    brain: Brain,
    privacy: Privacy,
    max_tokens: int,
    limit: int = 20,
    since: str | None = None,
    kinds: tuple[str, ...] = (),
) -> dict[str, Any]:
    """The notes changed most lately (by file time), newest first."""
    threshold = _since_ns(since)
    states = brain.backend.note_states()
    ordered = sorted(states.items(), key=lambda kv: (-kv[1].mtime_ns, kv[0]))
    picked = []
    for path, state in ordered:
        if threshold is not None and state.mtime_ns < threshold:
            break
        if privacy.hides_path(path) or (kinds and placement(path).kind not in kinds):
            continue
        picked.append((path, state))
        if len(picked) >= limit:
            break
    meta = brain.backend.notes_by_id(s.id for _, s in picked)
    rows = []
    for path, state in picked:
        note = meta.get(state.id)
        if note is None or privacy.hides(note.project):
            continue
        modified = dt.datetime.fromtimestamp(state.mtime_ns / 1e9, dt.UTC)
        rows.append(
            {
                "path": path,
                "title": note.title,
                "kind": note.kind,
                "modified": utc_iso(modified),
            }
        )
    page = take_within(rows, max_tokens)
    return {"changes": page.items, **page.fields("changes")}


def tag_list(
    brain: Brain,
    privacy: Privacy,
    max_tokens: int,
    prefix: str | None = None,
    domain: str | None = None,
    offset: int = 0,
) -> dict[str, Any]:
    """Tags with how many notes carry each, most used first."""
    scope = privacy.scope(Scope(domains=(domain,) if domain else ()))
    wanted = (prefix or "").lstrip("#").lower()
    rows = [
        {"tag": tag, "notes": n}
        for tag, n in brain.backend.tag_counts(scope)
        if tag.lower().startswith(wanted)
    ]
    page = take_within(rows, max_tokens, offset)
    return {"tags": page.items, **page.fields("tags")}


def _served_note(brain: Brain, privacy: Privacy, path: str) -> str:
    clean = brain.vault.rel_path(path)
    note = brain.backend.note_by_path(clean)
    if note is None:
        raise NoteNotFound(f"{clean}: no such note (search or get_index to find the right path)")
    if privacy.hides_path(clean, note.project):
        raise VaultError(f"{clean} is in a private domain or project and is not served here")
    return clean


def served_backlinks(
    brain: Brain, privacy: Privacy, path: str, max_tokens: int, offset: int = 0
) -> dict[str, Any]:
    """Every note linking to ``path``, with the line and how the link is written."""
    clean = _served_note(brain, privacy, path)
    rows = [
        {
            "path": lk.src_path,
            "title": lk.src_title,
            "line": lk.line,
            "target": lk.target,
            **({"heading": lk.heading} if lk.heading else {}),
            **({"alias": lk.alias} if lk.alias else {}),
        }
        for lk in backlinks(brain.backend, clean)
        if not privacy.hides_path(lk.src_path)
    ]
    page = take_within(rows, max_tokens, offset)
    return {"path": clean, "backlinks": page.items, **page.fields("backlinks")}


def served_connected(
    brain: Brain, privacy: Privacy, path: str, max_tokens: int, depth: int = 2, limit: int = 30
) -> dict[str, Any]:
    """Notes within ``depth`` link hops of ``path``, nearest first."""
    clean = _served_note(brain, privacy, path)
    rows = [
        n
        for n in connected(brain.backend, clean, depth=depth, limit=limit * 2)
        if not privacy.hides_path(n["path"])
    ][:limit]
    page = take_within(rows, max_tokens)
    return {"path": clean, "nodes": page.items, **page.fields("nodes")}


def served_overview(
    brain: Brain, privacy: Privacy, max_tokens: int, top: int = 20
) -> dict[str, Any]:
    """The graph's shape: counts, pages by type, hubs, orphans, top tags (no private notes)."""
    data = overview(
        brain.backend,
        top=top,
        scope=privacy.scope(Scope()),
        unresolved=brain.links_to_nowhere(limit=0)[0],
    )
    counts = {k: v for k, v in data.items() if k not in ("hubs", "orphans", "top_tags")}
    room = max(100, max_tokens - json_tokens(counts) - 80)
    left = []
    for key, share in (("hubs", 0.45), ("top_tags", 0.2), ("orphans", 0.35)):
        page = take_within(data[key], int(room * share))
        data[key] = page.items
        if page.next_offset is not None:
            total = data["orphan_count"] if key == "orphans" else page.total
            left.append(f"{total - len(page.items)} {key.replace('top_', '')}")
    if left:
        data["note"] = (
            f"left out to fit max_tokens: {', '.join(left)}; raise max_tokens or lower top"
        )
    return data


__all__ = [
    "domain_index",
    "list_domains",
    "recent_changes",
    "served_backlinks",
    "served_connected",
    "served_overview",
    "tag_list",
]
