"""Incremental sync, run against every backend (:data:`index_backends.BACKEND_NAMES`)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import write
from hostile_inputs import bounded, hostile_notes
from index_backends import BACKEND_NAMES, brain_on, use_backend
from index_backends import dump as contract_dump
from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.index.sqlite.store import SQLiteIndex
from mnemex.index.sync import MAX_NOTE_BYTES
from mnemex.vault import Vault

#: SQLite's own tables, FTS rows and vectors no chunk shows included.
SQLITE_TABLES = {
    "notes": "SELECT path, title, kind, domain, project, type, date, hash, embed_title, aliases,"
    " frontmatter FROM notes",
    "chunks": "SELECT n.path, c.ord, c.heading, c.text, c.line, c.hash FROM chunks c"
    " JOIN notes n ON n.id = c.note_id",
    "fts": "SELECT n.path, f.title, f.heading, f.text FROM chunks_fts f"
    " JOIN chunks c ON c.id = f.rowid JOIN notes n ON n.id = c.note_id",
    "links": "SELECT n.path, l.target, l.heading, l.alias, l.embed, l.line, l.dst_path"
    " FROM links l JOIN notes n ON n.id = l.src_id",
    "tags": "SELECT n.path, t.tag FROM tags t JOIN notes n ON n.id = t.note_id",
    "vectors": "SELECT hash, embedder, vec FROM vectors",
    "problems": "SELECT path, reason FROM problems",
}


def dump(brain: Brain) -> dict[str, Any]:
    """The index's content, without row ids, for comparing two indexes: what the backend's
    contract shows, and for SQLite every table as well."""
    out = contract_dump(brain.backend)
    if isinstance(brain.backend, SQLiteIndex):
        db = brain.backend._db
        out |= {
            f"sqlite {name}": sorted(tuple(r) for r in db.execute(sql))
            for name, sql in SQLITE_TABLES.items()
        }
    return out


@pytest.fixture(params=BACKEND_NAMES)
def backend_name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def brain(backend_name: str, vault_dir: Path) -> Iterator[Brain]:
    with brain_on(backend_name, vault_dir) as b:
        yield b


def test_sync_indexes_new_notes_and_a_second_sync_changes_nothing(brain: Brain) -> None:
    write(brain.vault.root, "a.md", "# A\n\n- one [[b]]\n\n# C\n\n- two #tag\n")
    write(brain.vault.root, "b.md", "b body")
    first = brain.sync()
    assert (first.report.created, first.report.failed) == (2, 0)
    assert first.embedded == 3
    second = brain.sync()
    assert second.report.counts() == {
        "created": 0,
        "updated": 0,
        "deleted": 0,
        "unchanged": 2,
        "skipped": 0,
        "refused": 0,
        "failed": 0,
    }
    assert second.embedded == 0


def test_an_edited_note_is_updated_and_only_new_chunk_texts_are_embedded(brain: Brain) -> None:
    path = write(brain.vault.root, "a.md", "# 1\none\n# 2\ntwo\n# 3\nthree\n")
    brain.sync()
    time.sleep(0.01)
    path.write_text("# 1\none\n# 2\ntwo\n# 3\nthree changed\n")
    result = brain.sync()
    assert result.report.updated == 1
    assert result.embedded == 1


def test_a_touched_but_unchanged_note_is_not_reparsed(brain: Brain) -> None:
    path = write(brain.vault.root, "a.md", "text")
    brain.sync()
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 10_000_000))
    result = brain.sync()
    assert result.report.unchanged == 1 and result.report.updated == 0


def test_a_moved_note_keeps_its_vectors_and_its_links_follow(brain: Brain) -> None:
    root = brain.vault.root
    write(root, "notes/target.md", "---\ntitle: Target\n---\n- fact one\n- fact two\n")
    write(root, "linker.md", "see [[target]]")
    brain.sync()
    (root / "archive").mkdir()
    os.rename(root / "notes/target.md", root / "archive/target.md")
    result = brain.sync()
    assert (result.moved, result.embedded, result.removed) == (1, 0, 0)
    linker = brain.backend.note_by_path("linker.md")
    assert linker is not None
    assert brain.backend.links_from(linker.id)[0].dst == "archive/target.md"


def test_a_deleted_note_leaves_the_index_and_its_backlinks_become_unresolved(brain: Brain) -> None:
    root = brain.vault.root
    write(root, "gone.md", "bye")
    write(root, "linker.md", "see [[gone]]")
    brain.sync()
    (root / "gone.md").unlink()
    result = brain.sync()
    assert result.removed == 1
    assert brain.backend.stats().unresolved_links == 1


def test_a_new_note_captures_a_link_that_pointed_nowhere(brain: Brain) -> None:
    root = brain.vault.root
    write(root, "linker.md", "see [[later]]")
    brain.sync()
    write(root, "later.md", "here now")
    brain.sync()
    assert brain.backend.stats().unresolved_links == 0


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("binary.md", b"\x89PNG\x00\x00data", "binary content"),
        ("latin1.md", "caf\xe9 cr\xe8me".encode("latin-1"), "not UTF-8"),
    ],
)
def test_unreadable_files_are_reported_by_name_and_the_rest_is_indexed(
    brain: Brain, name: str, content: bytes, reason: str
) -> None:
    root = brain.vault.root
    (root / name).write_bytes(content)
    write(root, "good.md", "good note")
    before = (root / name).read_bytes()
    result = brain.sync()
    assert result.report.created == 1
    assert result.report.skipped == 1
    problems = dict(brain.backend.problems())
    assert reason in problems[name]
    assert (root / name).read_bytes() == before


def test_a_huge_file_is_skipped_with_its_size_and_nothing_else_stops(brain: Brain) -> None:
    root = brain.vault.root
    with (root / "huge.md").open("wb") as fh:
        fh.truncate(50 * 1024 * 1024)  # sparse: 50 MB without writing 50 MB
    write(root, "good.md", "good")
    result = brain.sync()
    assert result.report.created == 1
    reason = dict(brain.backend.problems())["huge.md"]
    assert "too large" in reason and "52.4 MB" in reason
    assert MAX_NOTE_BYTES < 50 * 1024 * 1024


def test_broken_yaml_is_indexed_as_body_text_with_a_warning(brain: Brain) -> None:
    write(brain.vault.root, "broken.md", "---\ntitle: [unclosed\n---\nsearchable words here\n")
    result = brain.sync()
    assert result.report.created == 1
    assert "line 2" in result.report.warnings[0].reason
    assert "malformed frontmatter" in dict(brain.backend.problems())["broken.md"]


def test_a_fixed_file_leaves_the_problem_list(brain: Brain) -> None:
    root = brain.vault.root
    (root / "x.md").write_bytes(b"\x00\x01")
    brain.sync()
    write(root, "x.md", "fixed")
    brain.sync()
    assert brain.backend.problems() == []


def test_changing_the_embedder_re_embeds_every_chunk(vault_dir: Path, backend_name: str) -> None:
    if backend_name == "postgres":
        pytest.skip("a shared index keeps one embedder: sync refuses another (by design)")
    use_backend(vault_dir, backend_name)
    write(vault_dir, "a.md", "# One\n\none\n\n# Two\n\ntwo\n")
    with Brain(Vault(vault_dir), embedder=HashingEmbedder(dim=64)) as b:
        b.sync()
    settings = vault_dir / "mnemex.toml"
    settings.write_text(
        settings.read_text().replace('name = "hashing"', 'name = "hashing"\ndim = 32')
    )
    with Brain(Vault(vault_dir), embedder=HashingEmbedder(dim=32)) as b:
        result = b.sync()
        assert result.embedded == 2
        assert b.backend.stats().vectors == {"hashing-32@1": 2}


def test_rebuild_gives_the_same_index_as_incremental_sync(brain: Brain) -> None:
    root = brain.vault.root
    write(root, "a.md", "# A\n- [[b]] and [[c]]\n")
    write(root, "b.md", "b #x")
    brain.sync()
    write(root, "c.md", "c now exists")
    (root / "b.md").unlink()
    brain.sync()
    incremental = dump(brain)
    brain.rebuild()
    assert dump(brain) == incremental


def test_a_batch_of_bad_input_changes_nothing_in_the_vault_and_the_good_notes_are_indexed(
    brain: Brain,
) -> None:
    root = brain.vault.root
    (root / "bin.md").write_bytes(b"\x00\x01\x02")
    (root / "latin.md").write_bytes("\xe9t\xe9".encode("latin-1"))
    write(root, "yaml.md", "---\n: : :\n  - [\n---\nstill here")
    write(root, "dangling.md", "[[nowhere]] and ![[missing.png]]")
    os.symlink("loop-b.md", root / "loop-a.md")
    os.symlink("loop-a.md", root / "loop-b.md")
    os.symlink(root, root / "dir-loop")
    with (root / "big.md").open("wb") as fh:
        fh.truncate(MAX_NOTE_BYTES + 1)
    write(root, "good.md", "a good note")

    def snapshot() -> dict[str, bytes]:
        return {
            str(p.relative_to(root)): p.read_bytes()
            for p in root.rglob("*")
            if p.is_file() and not p.is_symlink() and ".mnemex" not in p.parts
        }

    before = snapshot()
    result = brain.sync()
    assert snapshot() == before
    assert result.report.created == 3  # good, yaml (as body text), dangling
    problems = dict(brain.backend.problems())
    assert set(problems) == {
        *("bin.md", "latin.md", "yaml.md", "loop-a.md", "loop-b.md", "big.md"),
        "dir-loop/",  # a symlinked folder is not followed, and says so
    }
    assert [lk.target for lk in brain.backend.unresolved_links()] == ["nowhere", "missing.png"]


def test_a_folder_of_hostile_notes_is_indexed_in_linear_time_and_the_good_note_with_it(
    vault_dir: Path,
) -> None:
    # SQLite only: it runs in a subprocess (bounded), where no test backend is registered
    for name, text in hostile_notes().items():
        write(vault_dir, f"hostile/{name}.md", text)
    write(vault_dir, "hostile/zz-good.md", "# Good\n\nThe greenhouse sensors report hourly.\n")
    result = bounded(
        "import json\n"
        "from mnemex.brain import Brain\n"
        "from mnemex.embed.hashing import HashingEmbedder\n"
        "from mnemex.retrieve import search\n"
        "from mnemex.vault import Vault\n"
        f"with Brain(Vault({str(vault_dir)!r}), embedder=HashingEmbedder()) as brain:\n"
        "    done = brain.sync()\n"
        "    hits = search(brain, 'greenhouse sensors').hits\n"
        "    print(json.dumps([done.report.to_dict(), hits[0].path]))\n"
    )
    report, top = result
    assert report["created"] == len(hostile_notes()) + 1 and report["failed"] == 0
    assert top == "hostile/zz-good.md"
