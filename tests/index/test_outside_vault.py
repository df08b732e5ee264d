"""No content from outside the vault: the index applies the rule a read applies.

A symlink in the vault may point anywhere; a read refuses what resolves outside, so
the index must too, or its text would come back in snippets, graphs and listings.
The in-process tests run against every backend; the CLI ones against SQLite.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import write
from index_backends import BACKEND_NAMES, brain_on
from mnemex.brain import Brain
from mnemex.errors import PathOutsideVault
from mnemex.index.sync import build_records
from mnemex.retrieve import overview, search
from mnemex.vault import Vault, sha256_bytes
from mnemex.vault.vault import FileEntry

SECRET = "the launch code is swordfish"


@pytest.fixture(params=BACKEND_NAMES)
def brain(request: pytest.FixtureRequest, vault_dir: Path) -> Iterator[Brain]:
    with brain_on(str(request.param), vault_dir) as b:
        yield b


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    write(folder, "secret.md", f"# Secret\n\n{SECRET}\n")
    write(folder, "more.md", f"# More\n\nagain {SECRET}\n")
    return folder


def leaked(brain: Brain) -> list[str]:
    """Paths of search hits that show the outside text (other hits come from vectors)."""
    hits = search(brain, "swordfish launch code").hits
    return [h.path for h in hits if "swordfish" in h.snippet or h.path == "notes/leak.md"]


def plant_links(root: Path, outside: Path) -> None:
    write(root, "notes/real.md", "# Real\n\nThe garden needs water.\n")
    os.symlink(outside / "secret.md", root / "notes/leak.md")
    os.symlink(outside, root / "ext")
    os.symlink(root / "notes/real.md", root / "notes/alias.md")  # inside: fine


def test_a_symlink_to_a_file_outside_the_vault_is_not_indexed_and_is_listed_with_the_reason(
    brain: Brain, outside: Path
) -> None:
    plant_links(brain.vault.root, outside)
    result = brain.sync()
    paths = set(brain.backend.note_paths())
    assert paths >= {"notes/real.md", "notes/alias.md"}
    assert "notes/leak.md" not in paths and not any(p.startswith("ext/") for p in paths)
    assert leaked(brain) == []
    problems = dict(brain.backend.problems())
    assert "outside the vault" in problems["notes/leak.md"]
    assert "symlinked folder" in problems["ext/"]
    skipped = {p["path"] for p in result.report.to_dict()["problems"]["skipped"]}
    assert {"notes/leak.md", "ext/"} <= skipped
    brain.sync()  # listed once, however many syncs
    assert [p for p, _ in brain.backend.problems()].count("notes/leak.md") == 1


def test_the_read_refuses_what_the_index_leaves_out(brain: Brain, outside: Path) -> None:
    plant_links(brain.vault.root, outside)
    with pytest.raises(PathOutsideVault):
        brain.vault.read_note("notes/leak.md")
    assert brain.vault.read_note("notes/alias.md").text.startswith("# Real")


def test_a_note_an_older_version_indexed_through_an_outside_symlink_leaves_the_index(
    brain: Brain, outside: Path
) -> None:
    plant_links(brain.vault.root, outside)
    brain.sync()
    # what an older mnemex stored: the outside text under the link's path, up to date
    link = brain.vault.root / "notes/leak.md"
    data = link.read_bytes()
    st = link.stat()
    entry = FileEntry("notes/leak.md", str(link), st.st_mtime_ns, st.st_size)
    note, chunks, links = build_records(entry.rel, data.decode(), sha256_bytes(data), entry)
    brain.backend.upsert_note(note, chunks, links)
    assert leaked(brain) == ["notes/leak.md"]  # the leak, as it was

    brain.sync()
    assert "notes/leak.md" not in set(brain.backend.note_paths())
    assert leaked(brain) == []
    assert overview(brain.backend)["nodes"] == len(set(brain.backend.note_paths()))


def test_the_walk_leaves_out_outside_symlinks_and_symlinked_folders_and_says_why(
    tmp_path: Path, outside: Path
) -> None:
    root = tmp_path / "v"
    root.mkdir()
    plant_links(root, outside)
    told: list[tuple[str, str]] = []
    rels = sorted(e.rel for e in Vault(root).iter_files(lambda rel, why: told.append((rel, why))))
    assert rels == ["notes/alias.md", "notes/real.md"]
    assert sorted(rel for rel, _ in told) == ["ext/", "notes/leak.md"]
    assert sorted(e.rel for e in Vault(root).iter_files()) == rels  # no callback: same walk


def run_cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mnemex", "--vault", str(root), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ},
    )


def test_cli_search_and_graph_never_show_outside_text_and_index_status_lists_the_link_once(
    vault_dir: Path, outside: Path
) -> None:
    # SQLite only: the CLI runs in a subprocess, where no test backend is registered
    plant_links(vault_dir, outside)
    found = run_cli(vault_dir, "search", "swordfish launch code", "--json")
    assert found.returncode == 0, found.stderr
    assert "swordfish" not in found.stdout and "leak" not in found.stdout
    graph = run_cli(vault_dir, "graph", "--json")
    assert graph.returncode == 0, graph.stderr
    assert "leak" not in graph.stdout and "swordfish" not in graph.stdout
    status = run_cli(vault_dir, "index", "status")
    assert status.returncode == 0, status.stderr
    lines = [line for line in status.stdout.splitlines() if "notes/leak.md" in line]
    assert len(lines) == 1 and "outside the vault" in lines[0]
    assert any("ext/" in line and "symlinked folder" in line for line in status.stdout.splitlines())
    data = json.loads(run_cli(vault_dir, "index", "status", "--json").stdout)
    listed = [p["path"] for p in data["problem_files"]]
    assert listed.count("notes/leak.md") == 1 and "ext/" in listed
