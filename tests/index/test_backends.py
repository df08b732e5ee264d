"""The backend contract (:class:`mnemex.index.backend.IndexBackend`), checked on every
backend, and the in-memory reference backend checked against SQLite on the same vault."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from helpers import write
from index_backends import BACKEND_NAMES, brain_on, dump
from mnemex.brain import Brain
from mnemex.index.backend import IndexBackend, Scope
from mnemex.vault import init_vault

NOTES = {
    "wiki/general/entities/orbit.md": "---\ntitle: Orbit\ntags: [project, db/pg]\n---\n"
    "# Orbit\n\n- Orbit stores bookings in PostgreSQL [[notes/lunch]]\n\n"
    "## Deploys\n\n- blue green switches [[nowhere]]\n",
    "notes/lunch.md": "---\ndate: 2025-01-01\nsession: s-1\n---\nWe ate noodles. #Food\n",
    "notes/links.md": "[[wiki/general/entities/orbit]] [[notes/lunch|lunch]]\n\n# Text\n\nprose\n",
    "memories/alpha/2026-11/2026-11-01-x-1234abcd.md": "---\ntype: memory\nproject: alpha\n"
    "session: s-2\ncreated: 2026-11-01\n---\n- fixed the PostgreSQL pool #db #food\n",
    "wiki/private/entities/secret.md": "PostgreSQL password rotation diary ![[scan.png]]",
}


def fill(root: Path) -> None:
    for rel, text in NOTES.items():
        write(root, rel, text)


@pytest.fixture(params=BACKEND_NAMES)
def brain(request: pytest.FixtureRequest, vault_dir: Path) -> Iterator[Brain]:
    with brain_on(str(request.param), vault_dir) as b:
        fill(vault_dir)
        b.sync()
        yield b


def ids_of(backend: IndexBackend, paths: list[str]) -> list[int]:
    states = backend.note_states()
    return [states[p].id for p in paths]


def test_nearest_ranks_chunks_by_cosine_best_first_within_the_notes_asked(brain: Brain) -> None:
    backend = brain.backend
    embedder = backend.get_meta("embedder") or ""
    table = backend.vectors_of(embedder)
    assert backend.vector_count(embedder) == len(table.chunk_ids) > 3
    query = table.matrix[2]
    hits = backend.nearest(embedder, query, k=3)
    assert len(hits) == 3
    assert hits[0].chunk_id == int(table.chunk_ids[2])
    assert hits[0].score == pytest.approx(1.0, abs=1e-5)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    expected = np.sort(table.matrix @ query)[::-1][:3]
    assert [h.score for h in hits] == pytest.approx(expected.tolist(), abs=1e-6)
    lunch = ids_of(backend, ["notes/lunch.md"])
    within = backend.nearest(embedder, query, k=10, among=lunch)
    assert within and {h.note_id for h in within} == set(lunch)
    assert backend.nearest(embedder, query, k=10, among=[]) == []


def test_vectors_of_some_notes_are_their_rows_of_the_whole_table(brain: Brain) -> None:
    backend = brain.backend
    embedder = backend.get_meta("embedder") or ""
    whole = backend.vectors_of(embedder)
    wanted = ids_of(backend, ["notes/lunch.md", "notes/links.md"])
    part = backend.vectors_of(embedder, wanted)
    assert set(part.note_ids.tolist()) == set(wanted)
    for cid, row in zip(part.chunk_ids, part.matrix, strict=True):
        assert np.array_equal(row, whole.matrix[whole.chunk_ids == cid][0])
    assert backend.vectors_of("no-such-embedder").chunk_ids.size == 0
    some = [int(c) for c in whole.chunk_ids[::2]]
    chosen = backend.vectors_of(embedder, chunks=some)
    assert chosen.chunk_ids.tolist() == sorted(some)
    for cid, row in zip(chosen.chunk_ids, chosen.matrix, strict=True):
        assert np.array_equal(row, whole.matrix[whole.chunk_ids == cid][0])
    both = backend.vectors_of(embedder, wanted, chunks=some)
    assert set(both.chunk_ids.tolist()) == set(part.chunk_ids.tolist()) & set(some)
    assert backend.vectors_of(embedder, chunks=[]).chunk_ids.size == 0


def test_every_write_moves_the_generation(brain: Brain) -> None:
    backend = brain.backend
    root = brain.vault.root
    seen = [backend.generation()]
    write(root, "notes/new.md", "new")
    brain.sync()  # a note and its new vector
    seen.append(backend.generation())
    write(root, "notes/copy.md", (root / "wiki/general/entities/orbit.md").read_text())
    brain.sync()  # a note whose texts all have vectors already
    seen.append(backend.generation())
    (root / "notes/new.md").unlink()
    brain.sync()
    seen.append(backend.generation())
    assert seen == sorted(set(seen))


def test_a_reset_never_takes_the_generation_back(brain: Brain) -> None:
    backend = brain.backend
    brain.sync()
    before = backend.generation()
    backend.reset()
    assert backend.generation() > before
    brain.sync()  # a rebuild of the same files makes as many writes as the first build
    assert backend.generation() > before + 1


def test_scopes_tags_and_fields_select_the_same_notes_on_every_backend(brain: Brain) -> None:
    backend = brain.backend

    def paths(scope: Scope) -> set[str]:
        ids = backend.notes_in_scope(scope)
        assert ids is not None
        return {n.path for n in backend.notes_by_id(ids).values()}

    assert backend.notes_in_scope(Scope()) is None
    assert paths(Scope(tags=("db",))) == {
        "wiki/general/entities/orbit.md",
        "memories/alpha/2026-11/2026-11-01-x-1234abcd.md",
    }
    assert paths(Scope(folders=("notes/",), until="2025-01")) == {"notes/lunch.md"}
    assert paths(Scope(exclude_private=("private",), kinds=("knowledge",))) == {
        "wiki/general/entities/orbit.md"
    }
    assert backend.tag_counts() == [("Food", 2), ("db", 1), ("db/pg", 1), ("project", 1)]
    assert backend.paths_with_field("session", "s-2", kind="memories") == [
        "memories/alpha/2026-11/2026-11-01-x-1234abcd.md"
    ]
    with pytest.raises(ValueError, match="not a plain name"):
        backend.paths_with_field("a.b", "x")


def test_navigation_chunks_are_found_by_their_opening(brain: Brain) -> None:
    texts = [c.text for c in brain.backend.scan_chunks(text_prefix="[[")]
    assert texts == ["[[wiki/general/entities/orbit]] [[notes/lunch|lunch]]"]
    assert len(list(brain.backend.scan_chunks())) == brain.backend.stats().chunks


def test_the_reference_backend_holds_what_sqlite_holds_after_the_same_edits(
    tmp_path: Path,
) -> None:
    indexes = {}
    for name in BACKEND_NAMES:
        root = tmp_path / name
        init_vault(root, git=False)
        with brain_on(name, root) as brain:
            fill(root)
            brain.sync()
            write(root, "notes/lunch.md", "---\ntitle: Lunch\n---\nnoodles again [[links]]\n")
            (root / "notes/links.md").rename(root / "notes/moved-links.md")
            (root / "notes/bad.md").write_bytes(b"\x00binary")
            brain.sync()
            backend = brain.backend
            lunch = backend.note_by_path("notes/lunch.md")
            orbit = backend.note_by_path("wiki/general/entities/orbit.md")
            memory = backend.note_by_path("memories/alpha/2026-11/2026-11-01-x-1234abcd.md")
            assert lunch is not None and orbit is not None and memory is not None
            stats = backend.stats()
            indexes[name] = {
                "dump": dump(backend),
                "lunch": {**vars(lunch), "id": 0, "mtime_ns": 0, "date": lunch.date[:4]},
                "memory": {**vars(memory), "id": 0, "mtime_ns": 0},
                "backlinks": [b.to_dict() for b in backend.links_to(lunch.id)],
                "links_from": backend.links_from(orbit.id),
                "unresolved": backend.unresolved_links(),
                "edges": len(backend.edges()),
                "tags": backend.tag_counts(Scope(domains=("general",))),
                "stats": {**vars(stats), "path": None, "bytes": None, "last_sync": None},
                "ranking": [
                    (backend.notes_by_id([h.note_id])[h.note_id].path, round(h.score, 5))
                    for h in backend.nearest(
                        stats.embedder or "", brain.embedder.embed_query("noodles"), k=3
                    )
                ],
            }
    assert indexes["memory"] == indexes["sqlite"]


def test_a_link_target_that_changes_moves_the_generation_and_one_that_does_not_does_not(
    brain: Brain,
) -> None:
    backend = brain.backend
    brain.sync()
    link_id = backend.all_links()[0][0]
    before = backend.generation()
    backend.set_link_targets([(link_id, "notes/elsewhere.md")])
    moved = backend.generation()
    assert moved > before
    backend.set_link_targets([(link_id, "notes/elsewhere.md")])
    assert backend.generation() == moved


def test_term_stats_count_the_chunks_holding_each_term_and_say_which_asked_ones_do(
    brain: Brain,
) -> None:
    backend = brain.backend
    chunks = backend.chunks_by_id(range(1, 1000))
    everything = backend.keyword_search(["postgresql"], Scope(), 100)
    holding = {h.chunk_id for h in everything}
    asked = set(chunks) - {min(holding)}
    stats = backend.term_stats(["postgresql", "noodles", "absent"], asked)
    assert stats.chunks == len(chunks)
    assert stats.df == {"postgresql": len(holding), "noodles": 1, "absent": 0}
    assert {c for c, ts in stats.held.items() if "postgresql" in ts} == holding - {min(holding)}
    assert all(ts <= {"postgresql", "noodles"} and ts for ts in stats.held.values())
    assert backend.term_stats([], asked).held == {}
