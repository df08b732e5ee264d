"""Vectors in pgvector: stored per (text hash, embedder), ranked in the database.

The ``vectors`` column is a ``vector`` of no fixed width, so one schema can hold the
vectors of an embedder being replaced beside the new one's; each embedder gets a partial
HNSW index on its own width (``(vec::vector(d)) vector_cosine_ops WHERE embedder = ...``,
or a spread graph, below).
It is made in bulk (:func:`build_hnsw`) once an embedding run has finished and the
embedder has :data:`HNSW_MIN_VECTORS` vectors: building it over the rows is several times
faster than growing it row by row through a first sync, and below that size an exact scan
costs a few milliseconds. Once made, PostgreSQL keeps it up to date with every write.

When the embedder's vectors sit in a narrow cone (the mean of its unit vectors is at
least :data:`HNSW_CONE` long), the graph is not built on the vectors as they are but on
each unit vector *x* moved by that mean *μ* and scaled per dimension by *w* = σ^-½ (σ: each
dimension's spread over the vectors when the index was built), searched by inner product
with the query *q* scaled by 1/*w*: (*q*/*w*)·((*x* − *μ*)*w*) = *q*·*x* − *q*·*μ*, and
*q*·*μ* is the same for every vector, so the order is exactly the cosine's, for any *μ*
and *w*, also for vectors written after the build. What changes is the graph: in a narrow
cone (the hashing embedder's vectors of generated notes share 0.72 of their length in the
mean direction: the common words) a graph built by cosine links chunks by what every chunk
has, and a short query, far from every chunk, cannot find its way; centred and spread, the
directions chunks differ in carry the graph (at a million generated chunks recall@10 at
``ef_search`` 100 rose from 0.42 to 0.65; docs/benchmarks.md, "PostgreSQL at scale").
Vectors spread already (MiniLM's and WordLlama's on ordinary text) keep the cosine graph,
where spreading gained nothing. *μ* and *w* are written into the index's definition and
kept in ``meta`` under ``hnsw:<index name>``, where :func:`nearest` reads them.

:func:`nearest` ranks the vectors first, ordered by the indexed expression so PostgreSQL
can walk the index, keeping only vectors some chunk (of the notes asked for) uses; then it
hands out the chunks of those vectors. A vector is shared by every chunk of its text, so
the ``k`` best vectors hold the ``k`` best chunks.

Differences from SQLite's brute force (:mod:`mnemex.index.sqlite.vectors`): with an HNSW
index the ranking is approximate, so on a large index a hit may be missed (pgvector's
iterative scan is turned on, so a filter on notes still returns ``k`` hits when there are);
two different texts with exactly the same vector tie in no promised order; the score is
``1 - (a <=> b)``, the cosine pgvector computes in single precision (it agrees with
numpy's to about 1e-7 for unit vectors); a zero vector has no cosine in pgvector, so it
ranks last with a score of 0 where SQLite's dot product would give it 0 in its place.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Collection
from typing import Any

import numpy as np
import numpy.typing as npt
import psycopg
from psycopg import sql

from mnemex.index.backend import ChunkHit, VectorTable

#: The widest vector pgvector's HNSW index takes; wider ones are ranked by a scan.
HNSW_MAX_DIM = 2000
#: Vectors of one embedder from which an HNSW index is worth its build.
HNSW_MIN_VECTORS = 10_000
#: Candidates HNSW keeps while searching, at least (pgvector's default is 40).
EF_SEARCH = 100
#: The HNSW graph's build settings: pgvector's ``m`` (16) and three times its
#: ``ef_construction`` (64). On 116,636 chunks of real text with real questions, recall@10 at
#: ``ef_search`` 100 rose from 0.52 to 0.82 (WordLlama) and 0.64 to 0.76 (hashing); the
#: build takes about three times as long (docs/benchmarks.md, "PostgreSQL at scale").
HNSW_M = 16
HNSW_EF_CONSTRUCTION = 200
#: How far a spread graph's vectors are spread: each dimension is scaled by its spread to
#: this power, negated (0 only centres them, 1 whitens each dimension fully). Chosen on
#: generated notes, where 0.5 beat 0 and 1 (see the module's docstring).
HNSW_SPREAD = 0.5
#: The length of the unit vectors' mean from which their graph is spread: 0.72 for the
#: hashing embedder on generated notes (spread, recall@10 rose by half), 0.41 for WordLlama
#: and 0.28 for hashing on text written by others, where spreading gained little or lost
#: (docs/benchmarks.md, "PostgreSQL at scale").
HNSW_CONE = 0.5


def vector_literal(vec: npt.NDArray[np.float32]) -> str:
    """A vector as pgvector's text form; ``repr`` of a float32 reads back bit for bit."""
    return "[" + ",".join(repr(float(x)) for x in np.asarray(vec, dtype=np.float32)) + "]"


def index_name(embedder: str, dim: int) -> str:
    """The HNSW index of one embedder's vectors of width ``dim``, built with this release's
    settings: an index an earlier release built under other settings has another name."""
    digest = hashlib.sha256(embedder.encode()).hexdigest()[:12]
    return (
        f"vectors_hnsw_{digest}_{dim}_m{HNSW_M}e{HNSW_EF_CONSTRUCTION}s{round(HNSW_SPREAD * 100)}"
    )


def _graph_vector(dim: int, mean: str, weights: str) -> sql.Composable:
    """The expression the graph is built on: the unit vector, moved by ``mean`` and scaled
    by ``weights`` (both pgvector literals)."""
    return sql.SQL(
        "(((l2_normalize(vec::vector({d})) - {m}::vector({d})) * {w}::vector({d}))::vector({d}))"
    ).format(d=sql.Literal(dim), m=sql.Literal(mean), w=sql.Literal(weights))


def _spread(
    db: psycopg.Connection[tuple[Any, ...]], embedder: str, dim: int
) -> tuple[str, str] | None:
    """The mean and the weights (each dimension's spread to the power -:data:`HNSW_SPREAD`,
    their mean 1) of ``embedder``'s unit vectors, as pgvector literals (one scan), or None
    when the mean is shorter than :data:`HNSW_CONE`: vectors spread enough already."""
    unit = sql.SQL("l2_normalize(vec::vector({d}))").format(d=sql.Literal(dim))
    row = db.execute(
        sql.SQL(
            "SELECT avg({u})::text, avg({u} * {u})::text FROM vectors WHERE embedder = %s"
        ).format(u=unit),
        (embedder,),
    ).fetchone()
    assert row is not None
    mean = _from_text(str(row[0])).astype(np.float64)
    square = _from_text(str(row[1])).astype(np.float64)
    if not np.linalg.norm(mean) >= HNSW_CONE:
        return None
    sd = np.sqrt(np.maximum(square - mean * mean, 0.0))
    sd = np.maximum(sd, max(float(sd.max()), 1e-12) * 1e-3)  # a dimension no vector uses
    weights = sd**-HNSW_SPREAD
    weights /= weights.mean()
    return vector_literal(mean.astype(np.float32)), vector_literal(weights.astype(np.float32))


def _indexes_of(db: psycopg.Connection[tuple[Any, ...]], schema: str) -> list[str]:
    rows = db.execute(
        "SELECT indexname FROM pg_indexes WHERE schemaname = %s AND tablename = 'vectors'"
        " AND indexname LIKE 'vectors\\_hnsw\\_%%'",
        (schema,),
    ).fetchall()
    return [str(r[0]) for r in rows]


def _drop(db: psycopg.Connection[tuple[Any, ...]], schema: str, names: list[str]) -> None:
    for name in names:
        db.execute("DELETE FROM meta WHERE key = %s", ("hnsw:" + name,))
        db.execute(
            sql.SQL("DROP INDEX IF EXISTS {}.{}").format(
                sql.Identifier(schema), sql.Identifier(name)
            )
        )


def build_hnsw(
    db: psycopg.Connection[tuple[Any, ...]],
    schema: str,
    embedder: str,
    min_vectors: int = HNSW_MIN_VECTORS,
) -> bool:
    """Make the HNSW index of ``embedder``'s vectors when it has none built with
    :data:`HNSW_M` and :data:`HNSW_EF_CONSTRUCTION` and holds at least ``min_vectors`` of
    them (run inside a transaction); whether one was made. One an earlier release built
    under other settings serves searches until the new one is made, and is dropped then.

    The build may take longer than the connection's statement timeout (three minutes or
    so for 100,000 vectors of 384 dimensions), so that timeout is lifted for it alone.
    """
    row = db.execute(
        "SELECT vector_dims(vec) FROM vectors WHERE embedder = %s LIMIT 1", (embedder,)
    ).fetchone()
    dim = int(row[0]) if row else 0
    if not 0 < dim <= HNSW_MAX_DIM:
        return False
    name = index_name(embedder, dim)
    found = db.execute(
        "SELECT 1 FROM pg_indexes WHERE schemaname = %s AND indexname = %s", (schema, name)
    ).fetchone()
    if found is not None:
        return False
    count = db.execute(
        "SELECT count(*) FROM (SELECT 1 FROM vectors WHERE embedder = %s LIMIT %s) x",
        (embedder, min_vectors),
    ).fetchone()
    if count is None or int(count[0]) < min_vectors:
        return False
    db.execute("SET LOCAL statement_timeout = 0")
    spread = _spread(db, embedder, dim)
    graph: sql.Composable = sql.SQL("(vec::vector({d})) vector_cosine_ops").format(
        d=sql.Literal(dim)
    )
    if spread is not None:
        graph = sql.SQL("{g} vector_ip_ops").format(g=_graph_vector(dim, *spread))
    db.execute(
        sql.SQL(
            "CREATE INDEX IF NOT EXISTS {name} ON {s}.vectors USING hnsw"
            " ({graph}) WITH (m = {m}, ef_construction = {ef})"
            " WHERE embedder = {embedder}"
        ).format(
            name=sql.Identifier(name),
            s=sql.Identifier(schema),
            graph=graph,
            m=sql.Literal(HNSW_M),
            ef=sql.Literal(HNSW_EF_CONSTRUCTION),
            embedder=sql.Literal(embedder),
        )
    )
    if spread is not None:
        db.execute(
            "INSERT INTO meta(key, value) VALUES (%s, %s)"
            " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            ("hnsw:" + name, json.dumps({"mean": spread[0], "weights": spread[1]})),
        )
    earlier = name.rsplit("_", 1)[0]  # the same embedder and width, other settings
    stale = [n for n in _indexes_of(db, schema) if n == earlier or n.startswith(earlier + "_m")]
    _drop(db, schema, [n for n in stale if n != name])
    return True


def drop_hnsw_except(db: psycopg.Connection[tuple[Any, ...]], schema: str, embedder: str) -> None:
    """Drop the HNSW indexes of every embedder but ``embedder``."""
    keep = "vectors_hnsw_" + hashlib.sha256(embedder.encode()).hexdigest()[:12] + "_"
    _drop(db, schema, [n for n in _indexes_of(db, schema) if not n.startswith(keep)])


def nearest(
    db: psycopg.Connection[tuple[Any, ...]],
    embedder: str,
    query: npt.NDArray[np.float32],
    k: int,
    among: Collection[int] | None = None,
    *,
    iterative: bool = True,
) -> list[ChunkHit]:
    """The ``k`` chunks whose ``embedder`` vectors are nearest ``query`` by cosine distance,
    best first (ties by chunk id), only chunks of the notes ``among`` when given."""
    if k <= 0 or (among is not None and not among):
        return []
    dim = int(np.asarray(query).shape[-1])
    db.execute(
        "SELECT set_config('hnsw.ef_search', %s, true)", (str(min(1000, max(EF_SEARCH, k))),)
    )
    if iterative:  # pgvector 0.8: a filtered HNSW scan goes on until it has k rows
        db.execute("SELECT set_config('hnsw.iterative_scan', 'strict_order', true)")
    q = sql.Literal(vector_literal(query))
    distance = sql.SQL("(v.vec::vector({dim})) <=> {q}::vector({dim})").format(
        dim=sql.Literal(dim), q=q
    )
    order: sql.Composable = distance
    graph = _graph_of(db, index_name(embedder, dim))
    if graph is not None:  # walk the graph in its own space: the same order (module doc)
        mean, weights = graph
        scaled = np.asarray(query, dtype=np.float32) / _from_text(weights)
        order = sql.SQL("{g} <#> {q}::vector({d})").format(
            g=_graph_vector(dim, mean, weights),
            q=sql.Literal(vector_literal(scaled)),
            d=sql.Literal(dim),
        )
    within = sql.SQL("")
    if among is not None:
        within = sql.SQL(" AND c.note_id = ANY(%(among)s)")
    rows = db.execute(
        sql.SQL(
            "WITH top AS (SELECT v.hash, {d} AS d FROM vectors v WHERE v.embedder = {e}"
            " AND EXISTS (SELECT 1 FROM chunks c WHERE c.hash = v.hash{w})"
            " ORDER BY {o} LIMIT %(k)s)"
            " SELECT c.id, c.note_id, top.d FROM top JOIN chunks c ON c.hash = top.hash{w}"
            " ORDER BY top.d, c.id LIMIT %(k)s"
        ).format(d=distance, e=sql.Literal(embedder), w=within, o=order),
        {"k": k, "among": None if among is None else [int(n) for n in among]},
    ).fetchall()
    hits = []
    for cid, nid, dist in rows:
        score = 0.0 if dist is None or dist != dist else 1.0 - float(dist)  # NaN: a zero vector
        hits.append(ChunkHit(int(cid), int(nid), score))
    return hits


def _graph_of(db: psycopg.Connection[tuple[Any, ...]], name: str) -> tuple[str, str] | None:
    """The mean and weights the graph ``name`` was built with, or None when there is no
    spread graph of that name: too few vectors for a graph, vectors spread enough for the
    cosine graph, or a graph an earlier release built (by cosine, under another name)."""
    row = db.execute("SELECT value FROM meta WHERE key = %s", ("hnsw:" + name,)).fetchone()
    if row is None:
        return None
    kept = json.loads(str(row[0]))
    return str(kept["mean"]), str(kept["weights"])


@functools.lru_cache(maxsize=8)
def _from_text(literal: str) -> npt.NDArray[np.float32]:
    """A vector from pgvector's text form (``[1,2.5,...]``), as :func:`vector_literal`
    writes it; the same few literals come back on every search, hence the cache."""
    out = np.array(literal.strip("[]").split(","), dtype=np.float32)
    out.setflags(write=False)
    return out


def vector_table(
    db: psycopg.Connection[tuple[Any, ...]],
    embedder: str,
    generation: int,
    notes: Collection[int] | None = None,
    chunks: Collection[int] | None = None,
) -> VectorTable:
    """The ``embedder`` vectors of the chunks (of ``notes``, and only ``chunks``, when given),
    a row per chunk in chunk id order. Vectors travel in pgvector's binary form (big-endian
    float32s)."""
    where = ""
    params: list[Any] = [embedder]
    if notes is not None:
        where += " AND c.note_id = ANY(%s)"
        params.append([int(n) for n in notes])
    if chunks is not None:
        where += " AND c.id = ANY(%s)"
        params.append([int(c) for c in chunks])
    rows: list[tuple[Any, ...]] = []
    if (notes is None or notes) and (chunks is None or chunks):
        with db.cursor(binary=True) as cur:
            cur.execute(
                "SELECT c.id, c.note_id, vector_send(v.vec) FROM chunks c"
                " JOIN vectors v ON v.hash = c.hash AND v.embedder = %s"
                f" WHERE true{where} ORDER BY c.id",
                params,
            )
            rows = cur.fetchall()
    if not rows:
        return VectorTable(
            np.zeros(0, dtype=np.int64),
            np.zeros(0, dtype=np.int64),
            np.zeros((0, 1), dtype=np.float32),
            generation,
        )
    matrix = np.stack([_from_binary(bytes(r[2])) for r in rows])
    return VectorTable(
        np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows)),
        np.fromiter((r[1] for r in rows), dtype=np.int64, count=len(rows)),
        matrix,
        generation,
    )


def _from_binary(data: bytes) -> npt.NDArray[np.float32]:
    """pgvector's binary form: int16 width, int16 unused, then big-endian float32s."""
    dim = int.from_bytes(data[:2], "big")
    return np.frombuffer(data, dtype=">f4", count=dim, offset=4).astype(np.float32)


__all__ = [
    "EF_SEARCH",
    "HNSW_MAX_DIM",
    "HNSW_MIN_VECTORS",
    "build_hnsw",
    "drop_hnsw_except",
    "index_name",
    "nearest",
    "vector_literal",
    "vector_table",
]
