"""Keyword search in the PostgreSQL index: a ``tsvector`` per chunk, and a scope as SQL.

How it differs from SQLite's FTS5 (:mod:`mnemex.index.sqlite.search`), and why:

- **Words** are cut in Python before PostgreSQL sees them (:func:`words`): runs of letters
  and digits, diacritics removed, lower-cased, as FTS5's ``unicode61 remove_diacritics 2``
  tokenizer cuts them. PostgreSQL's own parser would keep ``notes/lunch`` or an e-mail
  address as one token, and a link's target would no longer match its words.
- **Stems** come from Snowball's English stemmer (Porter 2) with no stopword list, where
  FTS5 uses the original Porter stemmer: the two agree on nearly every word, not on all
  (``generously``: ``generous`` here, ``gener`` in FTS5).
- **Ranking** is each term's ``ts_rank`` (the title weighted twice the heading and the
  text, the BM25 column weights of SQLite) times the term's IDF, summed: BM25's IDF, not
  its length saturation, so two backends order middling hits differently. The rarest
  terms are searched and the common ones only scored (:func:`keyword_search`), which is
  what keeps it fast at a million chunks.
- A phrase (a term of several words) can match across the title and the heading, since
  the three are one ``tsvector``; FTS5 keeps columns apart.
"""

from __future__ import annotations

import math
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


#: The most chunks keyword search reads for a query: a term held by more (with the rarer terms
#: before it) is not searched but scored on what the rarer ones found. Below it, exact.
#: At a million chunks keyword search takes 7 / 9 / 10 ms at the median with 2,000 / 5,000
#: / 10,000 and 36 ms with 20,000 (docs/benchmarks.md, "PostgreSQL at scale").
SEARCHED_ROWS = 5_000


def keyword_search(
    db: psycopg.Connection[tuple[Any, ...]],
    config: str,
    terms: Sequence[str],
    scope: Scope,
    limit: int,
    counts: dict[str | None, int] | None = None,
) -> list[ChunkHit]:
    """The ``limit`` chunks of the notes in ``scope`` that hold any of ``terms`` (each term a
    phrase of its words), best first by the sum of each term's ``ts_rank`` times its IDF,
    ties by chunk id.

    ``ts_rank`` over every chunk that holds a common word was the cost at scale (240 ms at
    a million chunks), for words whose IDF hardly moves a rank. So the rarest terms are
    searched while they hold at most :data:`SEARCHED_ROWS` chunks between them (with none
    that rare: the chunks that hold every term, at most that many), and every term is
    scored on what was found; when that is fewer than ``limit``, ``4 x limit`` chunks of
    the rarest term left out are scored too. While the terms hold at most
    :data:`SEARCHED_ROWS` chunks together, this is the exact ranking. ``counts`` is the
    cache :func:`term_stats` keeps (:func:`_df`).
    """
    queries = _queries(terms)
    if not queries or limit <= 0:
        return []
    counts = {} if counts is None else counts
    total = _chunk_count(db, counts)
    df = {cut: _df(db, config, cut, counts) for _, cut in queries}
    present = sorted((cut for cut in df if df[cut]), key=lambda c: (df[c], c))
    if not present:
        return []
    searched: list[str] = []
    for cut in present:
        if sum(df[c] for c in searched) + df[cut] > SEARCHED_ROWS:
            break
        searched.append(cut)
    left = present[len(searched) :]
    where, params = scope_sql(scope)
    # no scope, no join: PostgreSQL would join every match to its note all the same
    notes = "" if scope.is_empty else " JOIN notes n ON n.id = c.note_id"

    def matching(cuts: list[str], joiner: str, rows: int | None) -> tuple[str, list[Any]]:
        match = joiner.join(f"phraseto_tsquery({config}, %s)" for _ in cuts)
        cap = "" if rows is None else f" LIMIT {int(rows)}"
        sql = f"(SELECT c.id FROM chunks c{notes} WHERE c.tsv @@ ({match}) AND {where}{cap})"
        return sql, [*cuts, *params]

    if searched:
        parts = [matching(searched, " || ", None)]
    else:
        parts = [matching(present, " && ", SEARCHED_ROWS)]
    if left and sum(df[c] for c in searched) < limit:
        parts.append(matching(left[:1], "", 4 * limit))
    score = " + ".join(
        f"%s * ts_rank('{RANK_WEIGHTS}', c.tsv, phraseto_tsquery({config}, %s))" for _ in present
    )
    rows = db.execute(
        f"SELECT c.id, c.note_id, {score} AS s"
        f" FROM ({' UNION '.join(sql for sql, _ in parts)}) f JOIN chunks c ON c.id = f.id"
        " ORDER BY s DESC, c.id LIMIT %s",
        [
            *(x for cut in present for x in (_idf(total, df[cut]), cut)),
            *(x for _, p in parts for x in p),
            limit,
        ],
    ).fetchall()
    return [ChunkHit(int(r[0]), int(r[1]), float(r[2])) for r in rows]


def _idf(chunks: int, df: int) -> float:
    """A term's IDF as search's coverage computes it (``retrieve.search._coverage``)."""
    return math.log((chunks + 1) / (df + 0.5))


def _chunk_count(db: psycopg.Connection[tuple[Any, ...]], counts: dict[str | None, int]) -> int:
    if None not in counts:
        row = db.execute("SELECT count(*) FROM chunks").fetchone()
        counts[None] = int(row[0]) if row else 0
    return counts[None]


def _df(
    db: psycopg.Connection[tuple[Any, ...]], config: str, cut: str, counts: dict[str | None, int]
) -> int:
    """How many chunks hold the phrase ``cut`` (found once per ``counts``): counted when it is
    rarer than :data:`SEARCHED_ROWS`, else estimated.

    Counting a common word reads its whole list of chunks (half a second for a word in
    two thirds of a million chunks), and its IDF is small either way. So a word that
    PostgreSQL's statistics (``ANALYZE``, which autovacuum runs) list among the commonest
    of ``chunks.tsv`` is given their estimate, from a sample of 30,000 chunks; any other
    term is counted up to :data:`SEARCHED_ROWS`, and past that estimated from a sample of
    the table's pages.
    """
    if cut in counts:
        return counts[cut]
    total = _chunk_count(db, counts)
    row = db.execute(
        f"SELECT numnode(q), tsvector_to_array(to_tsvector({config}, %s))"
        f" FROM phraseto_tsquery({config}, %s) q",
        (cut, cut),
    ).fetchone()
    lexemes = list(row[1]) if row and row[1] else []
    if row and int(row[0]) == 1 and len(lexemes) == 1:
        _load_common(db, counts)
        common = counts.get(f"{_COMMON} {lexemes[0]}")
        if common is not None and common > SEARCHED_ROWS:
            counts[cut] = common
            return common
    row = db.execute(
        f"SELECT count(*) FROM (SELECT 1 FROM chunks"
        f" WHERE tsv @@ phraseto_tsquery({config}, %s) LIMIT {SEARCHED_ROWS + 1}) x",
        (cut,),
    ).fetchone()
    found = int(row[0]) if row else 0
    if found > SEARCHED_ROWS:
        share = min(100.0, 100.0 * _SAMPLED_ROWS / max(1, total))
        row = db.execute(
            f"SELECT count(*) FILTER (WHERE tsv @@ phraseto_tsquery({config}, %s)), count(*)"
            " FROM chunks TABLESAMPLE SYSTEM (%s) REPEATABLE (0)",
            (cut, share),
        ).fetchone()
        if row and int(row[1]):
            found = max(found, round(int(row[0]) * total / int(row[1])))
    counts[cut] = found
    return found


#: Chunks a sampled estimate reads (in whole pages of the table).
_SAMPLED_ROWS = 20_000
_COMMON = "\x00common"  # no term's words hold a NUL


def _load_common(db: psycopg.Connection[tuple[Any, ...]], counts: dict[str | None, int]) -> None:
    """Keep in ``counts`` the estimated chunk counts of the lexemes ``ANALYZE`` found
    commonest in ``chunks.tsv`` (``pg_stats.most_common_elems``; none before the table was
    first analyzed), read once per ``counts``."""
    if _COMMON in counts:
        return
    total = _chunk_count(db, counts)
    row = db.execute(
        "SELECT most_common_elems::text::text[], most_common_elem_freqs FROM pg_stats"
        " WHERE schemaname = current_schema() AND tablename = 'chunks' AND attname = 'tsv'"
    ).fetchone()
    counts[_COMMON] = 0
    if row and row[0] and row[1]:
        for lexeme, share in zip(row[0], row[1], strict=False):  # 3 summary shares follow
            counts[f"{_COMMON} {lexeme}"] = round(float(share) * total)
        counts[_COMMON] = len(row[0])


def term_stats(
    db: psycopg.Connection[tuple[Any, ...]],
    config: str,
    terms: Sequence[str],
    chunk_ids: Collection[int],
    counts: dict[str | None, int] | None = None,
) -> TermStats:
    """Each term's chunk count over the index (estimated for a common word: :func:`_df`),
    and which of ``chunk_ids`` hold which terms, matched as :func:`keyword_search` matches
    them.

    ``counts`` caches the counts (``None``: every chunk; a term's words: its chunks) for as
    long as the index does not change; the caller clears it when it does. Which of
    ``chunk_ids`` hold a term is asked of those chunks only, never by listing every chunk
    that holds it (a common word is in a good part of a million chunks).
    """
    counts = {} if counts is None else counts
    total = _chunk_count(db, counts)
    asked = sorted({int(c) for c in chunk_ids})
    df = dict.fromkeys(dict.fromkeys(terms), 0)
    held: dict[int, set[str]] = {}
    for term, cut in _queries(terms):
        df[term] = _df(db, config, cut, counts)
        if not asked or not df[term]:
            continue
        for (cid,) in db.execute(
            f"SELECT id FROM chunks WHERE id = ANY(%s) AND tsv @@ phraseto_tsquery({config}, %s)",
            (asked, cut),
        ):
            held.setdefault(int(cid), set()).add(term)
    return TermStats(total, df, {cid: frozenset(ts) for cid, ts in held.items()})


__all__ = [
    "RANK_WEIGHTS",
    "SEARCHED_ROWS",
    "keyword_search",
    "scope_sql",
    "term_stats",
    "ts_config",
    "tsvector_sql",
    "words",
]
