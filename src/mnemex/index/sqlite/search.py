"""Keyword search in the SQLite index: FTS5 with BM25, and a scope as SQL.

A query's terms are OR-ed (each quoted, so no FTS5 syntax comes from a user) and
ranked by ``bm25`` with :data:`BM25_WEIGHTS` over the title, heading and text
columns. A :class:`~mnemex.index.backend.Scope` becomes a WHERE clause on
``notes`` that keyword search, ``notes_in_scope`` and ``tag_counts`` share.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Sequence
from typing import Any

from mnemex.errors import IndexUnavailable
from mnemex.index.backend import ChunkHit, Scope, TermStats
from mnemex.index.sqlite.schema import NOTE_DATE

# bm25 column weights: title, heading, text (chosen with `mnemex eval`, see docs/benchmarks.md)
BM25_WEIGHTS = (2.0, 1.0, 1.0)


def scope_sql(scope: Scope, alias: str = "n") -> tuple[str, list[Any]]:
    """A WHERE clause (and its parameters) for the notes, as ``alias``, that ``scope`` allows."""
    clauses: list[str] = []
    params: list[Any] = []

    def any_of(column: str, values: Sequence[str]) -> None:
        clauses.append(f"{alias}.{column} IN ({','.join('?' * len(values))})")
        params.extend(values)

    if scope.kinds:
        any_of("kind", scope.kinds)
    if scope.domains:
        any_of("domain", scope.domains)
    if scope.projects:
        any_of("project", scope.projects)
    if scope.folders:
        parts = []
        for folder in scope.folders:
            prefix = folder.strip("/")
            parts.append(f"({alias}.path = ? OR {alias}.path LIKE ? ESCAPE '\\')")
            escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            params.extend([prefix, escaped + "/%"])
        clauses.append("(" + " OR ".join(parts) + ")")
    for tag in scope.tags:
        clauses.append(
            f"EXISTS (SELECT 1 FROM tags t WHERE t.note_id = {alias}.id"
            " AND (lower(t.tag) = lower(?) OR lower(t.tag) LIKE lower(?) || '/%'))"
        )
        params.extend([tag.lstrip("#"), tag.lstrip("#")])
    date = NOTE_DATE.format(a=alias)
    if scope.since:
        clauses.append(f"{date} >= ?")
        params.append(scope.since)
    if scope.until:
        clauses.append(f"substr({date}, 1, ?) <= ?")
        params.extend([len(scope.until), scope.until])
    if scope.exclude_private:
        marks = ",".join("?" * len(scope.exclude_private))
        clauses.append(
            f"coalesce({alias}.domain, '') NOT IN ({marks})"
            f" AND coalesce({alias}.project, '') NOT IN ({marks})"
        )
        params.extend([*scope.exclude_private, *scope.exclude_private])
    return (" AND ".join(clauses) or "1"), params


def keyword_search(
    db: sqlite3.Connection, terms: Sequence[str], scope: Scope, limit: int
) -> list[ChunkHit]:
    """The ``limit`` chunks of the notes in ``scope`` that FTS5 ranks best for any of ``terms``."""
    if not terms:
        return []
    match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
    where, params = scope_sql(scope)
    weights = ", ".join(str(w) for w in BM25_WEIGHTS)
    # Rank inside FTS5 first and join only the best rows: joining every match
    # before ORDER BY costs more than the ranking. A narrow scope can leave too
    # few of those rows; then the exact query runs.
    ranked = (
        f"SELECT rowid, bm25(chunks_fts, {weights}) AS s FROM chunks_fts"
        " WHERE chunks_fts MATCH ? ORDER BY s LIMIT ?"
    )
    fast = (
        f"SELECT f.rowid, c.note_id, f.s FROM ({ranked}) f JOIN chunks c ON c.id = f.rowid"
        f" JOIN notes n ON n.id = c.note_id WHERE {where} ORDER BY f.s LIMIT ?"
    )
    exact = (
        f"SELECT f.rowid, c.note_id, bm25(chunks_fts, {weights}) AS s FROM chunks_fts f"
        " JOIN chunks c ON c.id = f.rowid JOIN notes n ON n.id = c.note_id"
        f" WHERE chunks_fts MATCH ? AND {where} ORDER BY s LIMIT ?"
    )
    prelimit = limit * 4
    try:
        rows = db.execute(fast, (match, prelimit, *params, limit)).fetchall()
        if len(rows) < limit:
            total = db.execute(
                f"SELECT count(*) FROM (SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ?"
                f" LIMIT {prelimit + 1})",
                (match,),
            ).fetchone()[0]
            if total > prelimit:
                rows = db.execute(exact, (match, *params, limit)).fetchall()
    except sqlite3.OperationalError as exc:  # pragma: no cover - terms are quoted
        raise IndexUnavailable(f"keyword search failed: {exc}") from exc
    return [ChunkHit(r[0], r[1], -float(r[2])) for r in rows]


def term_stats(
    db: sqlite3.Connection, terms: Sequence[str], chunk_ids: Collection[int]
) -> TermStats:
    """Each term's chunk count over the index, and which of ``chunk_ids`` hold which terms,
    matched by FTS5 as keyword search matches them (Porter stems, any column).

    One query per term lists the chunks holding it; intersecting that list with
    ``chunk_ids`` here is ten times faster than asking FTS5 for ``rowid IN (...)``.
    """
    chunks = db.execute("SELECT count(*) FROM chunks").fetchone()[0]
    asked = {int(c) for c in chunk_ids}
    df: dict[str, int] = {}
    held: dict[int, set[str]] = {}
    for term in dict.fromkeys(terms):
        phrase = '"' + term.replace('"', '""') + '"'
        try:
            rows = db.execute(
                "SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?", (phrase,)
            ).fetchall()
        except sqlite3.OperationalError as exc:  # pragma: no cover - terms are quoted
            raise IndexUnavailable(f"keyword statistics failed: {exc}") from exc
        df[term] = len(rows)
        for (rowid,) in rows:
            if rowid in asked:
                held.setdefault(rowid, set()).add(term)
    return TermStats(chunks, df, {cid: frozenset(ts) for cid, ts in held.items()})


__all__ = ["BM25_WEIGHTS", "keyword_search", "scope_sql", "term_stats"]
