"""``mnemex doctor``: vectors judged by distinct chunk texts, hints that name real commands,
and a check that ``mnemex serve`` answers a client."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import write
from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.health import scan
from mnemex.health.doctor import diagnose
from mnemex.mcp.probe import ServerProbeFailed, probe_stdio_server, serve_check
from mnemex.vault import Vault, init_vault

BOILERPLATE = "# Meeting\n\nAttendees were listed in the shared calendar invitation as usual.\n"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    init_vault(root, git=False)
    settings = root / "mnemex.toml"
    settings.write_text(
        settings.read_text(encoding="utf-8").replace('name = "minilm"', 'name = "hashing"'),
        encoding="utf-8",
    )
    write(root, "notes/monday.md", BOILERPLATE)
    write(root, "notes/tuesday.md", BOILERPLATE)  # the same chunk text: one shared vector
    write(root, "notes/plan.md", "# Plan\n\nShip the importer after the rows are validated.\n")
    return root


def _doctor(root: Path, probe: bool = False) -> dict[str, Any]:
    with Brain(Vault(root), embedder=HashingEmbedder()) as brain:
        brain.sync()
        return diagnose(brain, load_embedder=False, probe_clients=probe, serve_check=serve_check)


def _checks(data: dict[str, Any]) -> dict[str, dict[str, str]]:
    return {c["name"]: c for c in data["checks"]}


def test_identical_chunks_sharing_one_vector_are_not_a_warning(root: Path) -> None:
    data = _doctor(root)
    with Brain(Vault(root), embedder=HashingEmbedder()) as brain:
        stats = brain.backend.stats()
    assert sum(stats.vectors.values()) < stats.chunks  # the case that used to warn
    assert "vectors" not in _checks(data)


def test_chunk_texts_without_a_vector_are_a_warning_naming_the_command(root: Path) -> None:
    _doctor(root)
    with sqlite3.connect(root / ".mnemex" / "index.sqlite") as db:
        db.execute("DELETE FROM vectors WHERE rowid IN (SELECT rowid FROM vectors LIMIT 1)")
    with Brain(Vault(root), embedder=HashingEmbedder()) as brain:
        data = diagnose(brain, load_embedder=False, probe_clients=False)
    check = _checks(data)["vectors"]
    assert check["status"] == "warn" and "1 distinct chunk text" in check["detail"]
    assert "`mnemex index`" in check["detail"]


def test_the_index_drift_hint_names_a_command_that_exists(root: Path) -> None:
    _doctor(root)
    write(root, "notes/new.md", "# New\n\nNot indexed yet.\n")
    with Brain(Vault(root), embedder=HashingEmbedder()) as brain:
        [issue] = scan(brain.vault, brain.backend, kinds=("index_drift",)).issues["index_drift"]
    [command] = re.findall(r"`mnemex ([^`]+)`", issue.suggestion or "")
    done = subprocess.run(
        [sys.executable, "-m", "mnemex", "--vault", str(root), *command.split()],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    with Brain(Vault(root), embedder=HashingEmbedder()) as brain:
        assert scan(brain.vault, brain.backend, kinds=("index_drift",)).issues["index_drift"] == []


def test_doctor_starts_the_mcp_server_and_reports_its_tools_and_time(root: Path) -> None:
    check = _checks(_doctor(root, probe=True))["serve"]
    # ok within the limit, warn past it on a slow machine; only a server that fails is a fail
    assert check["status"] in {"ok", "warn"}, check
    assert re.search(r"\(\d+ tools\) in \d+\.\d s", check["detail"]), check


def test_a_server_that_exits_fails_the_probe_with_its_last_words() -> None:
    code = "import sys; print('no vault here', file=sys.stderr); sys.exit(3)"
    with pytest.raises(ServerProbeFailed, match="no vault here"):
        probe_stdio_server(sys.executable, ["-c", code])


def test_a_server_that_never_answers_fails_the_probe_at_its_timeout() -> None:
    with pytest.raises(ServerProbeFailed, match="within 1 s"):
        probe_stdio_server(sys.executable, ["-c", "import time; time.sleep(60)"], timeout=1)


def test_a_changed_note_is_stale_even_beside_a_symlink_the_index_leaves_out(
    root: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("# Outside\n\nnot the vault's\n", encoding="utf-8")
    (root / "notes" / "link.md").symlink_to(outside)
    _doctor(root)  # indexed; the symlink is listed as left out
    write(root, "notes/plan.md", "# Plan\n\nShip the importer next week instead.\n")
    with Brain(Vault(root), embedder=HashingEmbedder()) as brain:
        data = diagnose(brain, load_embedder=False, probe_clients=False)
    check = _checks(data)["index"]
    assert check["status"] == "warn" and check["detail"].startswith("1 file(s) changed")
