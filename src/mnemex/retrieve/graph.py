"""The link graph: backlinks, connected nodes, an overview, and proximity for search.

Edges are resolved ``[[wikilinks]]`` (and local markdown links) between notes.
The adjacency is cached per index generation, so repeated calls in a server
cost a dict lookup, and is rebuilt after any change.
"""

from __future__ import annotations

import weakref
from collections import Counter, deque
from dataclasses import dataclass
from typing import Any

from mnemex.errors import NoteNotFound
from mnemex.index.backend import Backlink, IndexBackend, NoteDetail, Scope


@dataclass
class _Adjacency:
    generation: int
    out: dict[int, set[int]]
    into: dict[int, set[int]]

    def neighbours(self, node: int) -> set[int]:
        return self.out.get(node, set()) | self.into.get(node, set())


#: per backend object (not its id(), which a later object may reuse), gone with it
_CACHE: weakref.WeakKeyDictionary[IndexBackend, _Adjacency] = weakref.WeakKeyDictionary()


def adjacency(backend: IndexBackend) -> _Adjacency:
    gen = backend.generation()
    cached = _CACHE.get(backend)
    if cached is not None and cached.generation == gen:
        return cached
    out: dict[int, set[int]] = {}
    into: dict[int, set[int]] = {}
    for src, dst in backend.edges():
        out.setdefault(src, set()).add(dst)
        into.setdefault(dst, set()).add(src)
    adj = _Adjacency(gen, out, into)
    _CACHE[backend] = adj
    return adj


def _walk(adj: _Adjacency, start: list[int], depth: int) -> dict[int, int]:
    """Distance of every node within ``depth`` undirected hops of any start node."""
    dist = dict.fromkeys(start, 0)
    queue = deque(start)
    while queue:
        node = queue.popleft()
        if dist[node] >= depth:
            continue
        for nxt in adj.neighbours(node):
            if nxt not in dist:
                dist[nxt] = dist[node] + 1
                queue.append(nxt)
    return dist


def proximity(
    backend: IndexBackend, seeds: list[int], allowed: set[int] | None = None, depth: int = 2
) -> list[int]:
    """Notes near the seeds, nearest first (ties: nearer a better seed).

    A seed is never its own neighbour, but it can be another seed's: two top hits
    that link to each other support each other.
    """
    adj = adjacency(backend)
    if not adj.out:
        return []
    best: dict[int, tuple[int, int]] = {}
    for seed_rank, seed in enumerate(seeds):
        for node, d in _walk(adj, [seed], depth).items():
            if d == 0 or (allowed is not None and node not in allowed):
                continue
            key = (d, seed_rank)
            if node not in best or key < best[node]:
                best[node] = key
    return sorted(best, key=lambda n: best[n])


def _note(backend: IndexBackend, path: str) -> NoteDetail:
    note = backend.note_by_path(path)
    if note is None:
        raise NoteNotFound(f"{path}: not in the index (check the path, or run `mnemex index`)")
    return note


def backlinks(backend: IndexBackend, path: str) -> list[Backlink]:
    """Every link into the note at ``path``: source path and title, line, alias."""
    return backend.links_to(_note(backend, path).id)


def connected(
    backend: IndexBackend, path: str, depth: int = 2, limit: int = 50
) -> list[dict[str, Any]]:
    """Notes within ``depth`` hops (either direction), nearest first, with the direction."""
    note = _note(backend, path)
    adj = adjacency(backend)
    start = note.id
    dist = _walk(adj, [start], depth)
    dist.pop(start, None)
    ranked = sorted(dist, key=lambda n: (dist[n], -len(adj.neighbours(n)), n))[:limit]
    meta = backend.notes_by_id(ranked)
    out = []
    for node in ranked:
        if node not in meta:
            continue
        relation = []
        if node in adj.out.get(start, set()):
            relation.append("links-to")
        if node in adj.into.get(start, set()):
            relation.append("linked-from")
        out.append(
            {
                "path": meta[node].path,
                "title": meta[node].title,
                "kind": meta[node].kind,
                "distance": dist[node],
                "relation": relation or ["indirect"],
                "degree": len(adj.neighbours(node)),
            }
        )
    return out


def overview(
    backend: IndexBackend, top: int = 20, scope: Scope | None = None, unresolved: int | None = None
) -> dict[str, Any]:
    """Node and edge counts, pages by type, top hubs, orphans, top tags.

    With ``scope``, only the notes it allows (and the links between them) count.
    ``unresolved``: the links to nowhere as counted with the vault's attachments
    (:meth:`mnemex.brain.Brain.links_to_nowhere`); without it, the index's own count.
    """
    adj = adjacency(backend)
    stats = backend.stats()
    allowed = backend.notes_in_scope(scope) if scope is not None else None
    ids = _all_note_ids(backend)
    all_ids = backend.notes_by_id(ids if allowed is None else [n for n in ids if n in allowed])

    def linked(n: int) -> set[int]:
        near = adj.neighbours(n)
        return near if allowed is None else near & allowed

    degree = Counter({n: len(linked(n)) for n in all_ids})
    hubs = [
        {
            "path": all_ids[n].path,
            "title": all_ids[n].title,
            "degree": d,
            "backlinks": len(
                adj.into.get(n, set()) if allowed is None else adj.into.get(n, set()) & allowed
            ),
        }
        for n, d in degree.most_common(top)
        if d > 0
    ]
    orphans = sorted(all_ids[n].path for n, d in degree.items() if d == 0)
    by_type = Counter((meta.type or meta.kind) for meta in all_ids.values())
    by_kind = Counter(meta.kind for meta in all_ids.values())
    edges = sum(
        len(v if allowed is None else v & allowed)
        for src, v in adj.out.items()
        if allowed is None or src in allowed
    )
    return {
        "nodes": len(all_ids),
        "edges": edges,
        "unresolved_links": stats.unresolved_links if unresolved is None else unresolved,
        "pages_by_type": dict(sorted(by_type.items())),
        "pages_by_kind": stats.notes_by_kind if allowed is None else dict(sorted(by_kind.items())),
        "hubs": hubs,
        "orphans": orphans[:200],
        "orphan_count": len(orphans),
        "top_tags": [{"tag": t, "notes": c} for t, c in backend.tag_counts(scope)[:top]],
    }


def _all_note_ids(backend: IndexBackend) -> list[int]:
    return [state.id for state in backend.note_states().values()]


__all__ = ["adjacency", "backlinks", "connected", "overview", "proximity"]
