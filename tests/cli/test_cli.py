"""The CLI driven as a user drives it: the installed ``mnemex`` command in a subprocess."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from cli_support import run, run_json

from helpers import write


@pytest.fixture
def notes(vault_dir: Path) -> Path:
    write(
        vault_dir,
        "notes/deploy.md",
        "---\ntitle: Deploying\ntags: [ops]\n---\n# Deploying\n\n- We deploy on Tuesdays with "
        "blue green switches\n- Rollback takes a minute\n\nSee [[database]].\n",
    )
    write(vault_dir, "notes/database.md", "# Database\n\nPostgreSQL is the system of record.\n")
    write(
        vault_dir,
        "wiki/general/concepts/bm25.md",
        "---\ntype: concept\n---\nBM25 ranks documents by term frequency.\n",
    )
    return vault_dir


def test_init_creates_a_vault_and_says_what_it_did(tmp_path: Path) -> None:
    done = run("init", str(tmp_path / "b"))
    assert "created" in done.stdout and (tmp_path / "b/mnemex.toml").is_file()


def test_search_json_lists_one_hit_per_note_with_path_title_and_score(notes: Path) -> None:
    hits = run_json("--vault", str(notes), "search", "when do we deploy", "-k", "2")
    assert len(hits) == 2
    assert hits[0]["path"] == "notes/deploy.md"
    assert {"path", "title", "score", "snippet", "why"} <= set(hits[0])


def test_search_text_says_why_each_hit_ranks(notes: Path) -> None:
    out = run("--vault", str(notes), "search", "PostgreSQL record", "-k", "1").stdout
    assert "notes/database.md" in out
    why = next(line.strip() for line in out.splitlines() if line.strip().startswith("why:"))
    assert why.startswith("why: keyword #1 · vector #")
    assert "coverage 1.0 (postgresql, record)" in why


def test_search_scope_options_filter_the_hits(notes: Path) -> None:
    hits = run_json("--vault", str(notes), "search", "ranks documents", "--kind", "knowledge")
    assert [h["path"] for h in hits] == ["wiki/general/concepts/bm25.md"]
    assert (
        run_json("--vault", str(notes), "search", "deploy", "--tag", "ops")[0]["title"]
        == "Deploying"
    )


def test_the_vault_comes_from_mnemex_vault_when_no_option_is_given(
    notes: Path, tmp_path: Path
) -> None:
    hits = run_json("search", "PostgreSQL", cwd=tmp_path, env={"MNEMEX_VAULT": str(notes)})
    assert hits[0]["path"] == "notes/database.md"


def test_the_vault_is_discovered_from_the_current_folder(notes: Path) -> None:
    assert run_json("search", "PostgreSQL", cwd=notes / "notes")[0]["path"] == "notes/database.md"


def test_no_vault_is_a_one_line_error_and_exit_code_1(tmp_path: Path) -> None:
    done = run("search", "x", cwd=tmp_path, ok=False)
    assert done.returncode == 1
    assert done.stderr.startswith("error: no vault found")
    assert "Traceback" not in done.stderr


def test_index_rebuild_and_status_report_counts_and_unindexable_files(notes: Path) -> None:
    (notes / "bad.md").write_bytes(b"\x00binary")
    result = run_json("--vault", str(notes), "index", "rebuild")
    assert result["created"] == 3 and result["skipped"] == 1
    status = run_json("--vault", str(notes), "index", "status")
    assert status["notes"] == 3
    assert status["problem_files"] == [
        {"path": "bad.md", "reason": "binary content, not a text note"}
    ]


def test_links_to_files_that_exist_are_not_counted_as_links_to_nowhere(notes: Path) -> None:
    (notes / "attachments").mkdir()
    (notes / "attachments" / "Diagram 1.png").write_bytes(b"\x89PNG\r\n")
    (notes / "board.canvas").write_text("{}", encoding="utf-8")
    write(
        notes,
        "notes/embeds.md",
        "# Embeds\n![[Diagram 1.png|200]] ![[board.canvas]] [d](attachments/Diagram%201.png)\n"
        "[[nowhere]] ![[gone.png]] [[{{date}}]]\n",
    )
    run("--vault", str(notes), "index")
    status = run_json("--vault", str(notes), "index", "status")
    assert status["unresolved_links"] == 2
    assert [lk["target"] for lk in status["unresolved"]] == ["nowhere", "gone.png"]
    assert run_json("--vault", str(notes), "graph")["unresolved_links"] == 2


def test_a_sync_that_would_empty_the_index_is_refused_without_allow_empty(notes: Path) -> None:
    run("--vault", str(notes), "index")
    for p in notes.rglob("*.md"):
        p.unlink()
    done = run("--vault", str(notes), "index", ok=False)
    assert done.returncode == 1 and "--allow-empty" in done.stderr
    assert run_json("--vault", str(notes), "index", "status")["notes"] == 3
    emptied = run_json("--vault", str(notes), "index", "--allow-empty")
    assert emptied["removed"] == 3


def test_note_add_from_stdin_writes_frontmatter_and_is_searchable(notes: Path) -> None:
    added = run_json(
        "--vault",
        str(notes),
        "note",
        "add",
        "-",
        "--title",
        "Pinning rules",
        "--tag",
        "decision",
        stdin="- We pin numpy below 3\n",
    )
    assert added == {"path": "notes/pinning-rules.md", "outcome": "created", "hash": added["hash"]}
    text = (notes / "notes/pinning-rules.md").read_text()
    assert text.startswith("---\ntype: note\ntitle: Pinning rules\ntags:\n- decision\n")
    assert (
        run_json("--vault", str(notes), "search", "numpy pin")[0]["path"]
        == "notes/pinning-rules.md"
    )


def test_note_add_never_replaces_an_existing_note(notes: Path) -> None:
    args = ("--vault", str(notes), "note", "add", "-", "--title", "Fresh")
    run(*args, stdin="first")
    done = run(*args, stdin="second", ok=False)
    assert done.returncode == 1 and "already exists at notes/fresh.md" in done.stderr
    assert "first" in (notes / "notes/fresh.md").read_text()


def test_read_prints_a_note_or_one_section(notes: Path) -> None:
    assert "PostgreSQL" in run("--vault", str(notes), "read", "notes/database").stdout
    data = run_json("--vault", str(notes), "read", "notes/deploy.md", "--section", "Deploying")
    assert data["content"].startswith("# Deploying") and len(data["hash"]) == 64


def test_read_finds_a_path_as_typed_in_another_normalisation_or_with_leading_spaces(
    notes: Path,
) -> None:
    write(notes, unicodedata.normalize("NFC", "notes/Crème.md"), "# Crème\nbrûlée\n")
    write(notes, " Inbox/ note.md", "spaced out\n")
    typed = unicodedata.normalize("NFD", "notes/Crème")  # as a macOS terminal gives it
    assert "brûlée" in run("--vault", str(notes), "read", typed).stdout
    assert run("--vault", str(notes), "read", " Inbox/ note.md").stdout == "spaced out\n"


def test_read_refuses_paths_outside_the_vault(notes: Path) -> None:
    done = run("--vault", str(notes), "read", "../../etc/passwd", ok=False)
    assert done.returncode == 1 and "'..' is refused" in done.stderr


def test_backlinks_related_and_graph_walk_the_links(notes: Path) -> None:
    back = run_json("--vault", str(notes), "backlinks", "notes/database.md")
    assert [b["src_path"] for b in back] == ["notes/deploy.md"]
    rel = run_json("--vault", str(notes), "related", "notes/deploy.md")
    assert rel[0]["path"] == "notes/database.md"
    overview = run_json("--vault", str(notes), "graph")
    assert overview["nodes"] == 3 and overview["edges"] == 1


def test_doctor_reports_vault_index_and_embedder(notes: Path) -> None:
    run("--vault", str(notes), "index")
    data = run_json("--vault", str(notes), "doctor")
    names = {c["name"]: c["status"] for c in data["checks"]}
    assert names["vault"] == names["index"] == names["embedder"] == "ok"


def test_doctor_says_when_the_index_is_stale(notes: Path) -> None:
    run("--vault", str(notes), "index")
    write(notes, "notes/new.md", "new")
    data = run_json("--vault", str(notes), "doctor", "--no-embedder")
    assert {c["name"]: c["status"] for c in data["checks"]}["index"] == "warn"


def test_the_demo_builds_indexes_and_searches_with_the_default_embedder(tmp_path: Path) -> None:
    data = run_json("demo", "--path", str(tmp_path / "demo"))
    assert data["index"]["created"] >= 8 and data["index"]["failed"] == 0
    first = data["searches"][0]
    assert first["hits"][0]["path"] in {
        "notes/Runbook - Orbit.md",
        "wiki/general/concepts/blue-green-deployment.md",
    }
