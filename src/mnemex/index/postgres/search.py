"""Keyword search in the PostgreSQL index: a ``tsvector`` per chunk, and a scope as SQL.

How it differs from SQLite's FTS5 (:mod:`mnemex.index.sqlite.search`), and why:

- **Words** are cut in Python before PostgreSQL sees them (:func:`words`): runs of letters
  and digits, diacritics removed, lower-cased, as FTS5's ``unicode61 remove_diacritics 2``
  tokenizer cuts them. PostgreSQL's own parser would keep ``notes/lunch`` or an e-mail
  address as one token, and a link's target would no longer match its words.
- **Stems** come from Snowball's English stemmer (Porter 2) with no stopword list, where
  FTS5 uses the original Porter stemmer: the two agree on nearly every word, not on all
  (``generously``: ``generous`` here, ``gener`` in FTS5).
- **Ranking** is ``ts_rank`` with the title weighted twice the heading and the text (the
  BM25 column weights of SQLite): a term frequency score with no IDF and no BM25 length
  saturation, so two backends order middling hits differently. Search fuses ranks and
  weighs hits by :meth:`term_stats`' IDF, which both backends compute alike.
- A phrase (a term of several words) can match across the title and the heading, since
  the three are one ``tsvector``; FTS5 keeps columns apart.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Sequence
from typing import Any

import psycopg

from mnemex.index.backend import ChunkHit, Scope, TermStats
from mnemex.index.postgres.schema import NOTE_DATE, TS_CONFIG

#: ts_rank weights, in its order {D, C, B, A}: text (C) and heading (B) half the title (A).
RANK_WEIGHTS = "{0.1, 0.5, 0.5, 1.0}"

_WORD_RE = re.compile(r"[^\W_]+")
_MAX_WORD = 200  # PostgreSQL refuses lexemes over 2 KB; no real word is this long


def words(text: str) -> str:
    """The words of ``text`` as FTS5's ``unicode61`` tokenizer cuts them, space-separated."""
    if not text.isascii():
        decomposed = unicodedata.normalize("NFKD", text)
        text = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(w[:_MAX_WORD] for w in _WORD_RE.findall(text.lower()))


def tsvector_sql(config: str) -> str:
    """The expression of a chunk's ``tsvector`` from three parameters: its note's title,
    its heading and its text, each already passed through :func:`words`."""
    return (
        f"setweight(to_tsvector({config}, %s), 'A') || setweight(to_tsvector({config}, %s), 'B')"
        f" || setweight(to_tsvector({config}, %s), 'C')"
    )


def ts_config(schema_sql: str) -> str:
    """The text search configuration of the schema, as an SQL ``regconfig`` literal."""
    name = f"{schema_sql}.{TS_CONFIG}"
    return "'" + name.replace("'", "''") + "'::regconfig"


def scope_sql(scope: Scope, alias: str = "n") -> tuple[str, list[Any]]:
    """A WHERE clause (and its parameters) for the notes, as ``alias``, that ``scope`` allows;
    the same rules as SQLite's (and the in-memory backend's)."""
    clauses: list[str] = []
    params: list[Any] = []
    if scope.kinds:
        clauses.append(f"{alias}.kind = ANY(%s)")
        params.append(list(scope.kinds))
    if scope.domains:
        clauses.append(f"{alias}.domain = ANY(%s)")
        params.append(list(scope.domains))
    if scope.projects:
        clauses.append(f"{alias}.project = ANY(%s)")
        params.append(list(scope.projects))
    if scope.folders:
        parts = []
        for folder in scope.folders:
            prefix = folder.strip("/")
            parts.append(f"({alias}.path = %s OR {alias}.path LIKE %s)")
            params.extend([prefix, _like_prefix(prefix) + "/%"])
        clauses.append("(" + " OR ".join(parts) + ")")
    for tag in scope.tags:
        clauses.append(
            f"EXISTS (SELECT 1 FROM tags t WHERE t.note_id = {alias}.id"
            " AND (lower(t.tag) = lower(%s) OR lower(t.tag) LIKE lower(%s)))"
        )
        bare = tag.lstrip("#")
        params.extend([bare, _like_prefix(bare) + "/%"])
    date = NOTE_DATE.format(a=alias)
    if scope.since:
        clauses.append(f"{date} >= %s")
        params.append(scope.since)
    if scope.until:
        clauses.append(f"left({date}, %s) <= %s")
        params.extend([len(scope.until), scope.until])
    if scope.exclude_private:
        names = list(scope.exclude_private)
        clauses.append(
            f"coalesce({alias}.domain, '') <> ALL(%s) AND coalesce({alias}.project, '') <> ALL(%s)"
        )
        params.extend([names, names])
    return (" AND ".join(clauses) or "true"), params


def _like_prefix(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _queries(terms: Sequence[str]) -> list[tuple[str, str]]:
    """``(term, its words)`` of the terms that have any words, once each."""
    out = []
    for term in dict.fromkeys(terms):
        cut = words(term)
        if cut:
            out.append((term, cut))
    return out


def keyword_search(
    db: psycopg.Connection[tuple[Any, ...]],
    config: str,
    terms: Sequence[str],
    scope: Scope,
    limit: int,
) -> list[ChunkHit]:
    """The ``limit`` chunks of the notes in ``scope`` that ``ts_rank`` ranks best for any of
    ``terms`` (each term a phrase of its words), best first, ties by chunk id."""
    queries = _queries(terms)
    if not queries or limit <= 0:
        return []
    query = " || ".join(f"phraseto_tsquery({config}, %s)" for _ in queries)
    where, params = scope_sql(scope)
    # no scope, no join: PostgreSQL would join every match to its note all the same
    notes = "" if scope.is_empty else " JOIN notes n ON n.id = c.note_id"
    rows = db.execute(
        f"SELECT c.id, c.note_id, ts_rank('{RANK_WEIGHTS}', c.tsv, q.q) AS s"
        f" FROM (SELECT {query} AS q) q, chunks c{notes}"
        f" WHERE c.tsv @@ q.q AND {where} ORDER BY s DESC, c.id LIMIT %s",
        [*(cut for _, cut in queries), *params, limit],
    ).fetchall()
    return [ChunkHit(int(r[0]), int(r[1]), float(r[2])) for r in rows]


def term_stats(
    db: psycopg.Connection[tuple[Any, ...]],
    config: str,
    terms: Sequence[str],
    chunk_ids: Collection[int],
    counts: dict[str | None, int] | None = None,
) -> TermStats:
    """Each term's chunk count over the index, and which of ``chunk_ids`` hold which terms,
    matched as :func:`keyword_search` matches them.

    ``counts`` caches the counts (``None``: every chunk; a term's words: its chunks) for as
    long as the index does not change; the caller clears it when it does. Which of
    ``chunk_ids`` hold a term is asked of those chunks only, never by listing every chunk
    that holds it (a common word is in a good part of a million chunks).
    """
    counts = {} if counts is None else counts
    if None not in counts:
        row = db.execute("SELECT count(*) FROM chunks").fetchone()
        counts[None] = int(row[0]) if row else 0
    asked = sorted({int(c) for c in chunk_ids})
    df = dict.fromkeys(dict.fromkeys(terms), 0)
    held: dict[int, set[str]] = {}
    for term, cut in _queries(terms):
        if cut not in counts:
            row = db.execute(
                f"SELECT count(*) FROM chunks WHERE tsv @@ phraseto_tsquery({config}, %s)",
                (cut,),
            ).fetchone()
            counts[cut] = int(row[0]) if row else 0
        df[term] = counts[cut]
        if not asked or not counts[cut]:
            continue
        for (cid,) in db.execute(
            f"SELECT id FROM chunks WHERE id = ANY(%s) AND tsv @@ phraseto_tsquery({config}, %s)",
            (asked, cut),
        ):
            held.setdefault(int(cid), set()).add(term)
    return TermStats(counts[None], df, {cid: frozenset(ts) for cid, ts in held.items()})


__all__ = [
    "RANK_WEIGHTS",
    "keyword_search",
    "scope_sql",
    "term_stats",
    "ts_config",
    "tsvector_sql",
    "words",
]
