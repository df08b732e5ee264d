"""Progress bars on a terminal, never in ``--json`` or a pipe, and a line of counts at the end.

The CLI runs as a user runs it, in a subprocess, with stderr on a pseudo-terminal (so it
is a terminal to the child) and stdout a pipe.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from helpers import write
from mnemex.vault import init_vault

MNEMEX = [sys.executable, "-m", "mnemex"]
FIXTURES = Path(__file__).parents[1] / "harvest" / "fixtures"
#: click's bar: ``label  [####-----]  n/total``.
ANY_BAR = re.compile(r"\[[#-]{8,}\]")
COUNTS = re.compile(
    r"\d+ created, \d+ updated, \d+ deleted, \d+ unchanged, \d+ skipped, \d+ refused, \d+ failed"
)


def bar(label: str) -> re.Pattern[str]:
    return re.compile(re.escape(label) + r"\s+\[[#-]+\]")


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    """A git vault with the hashing embedder and a few notes."""
    root = tmp_path / "vault"
    init_vault(root)
    settings = root / "mnemex.toml"
    settings.write_text(
        settings.read_text(encoding="utf-8").replace('name = "minilm"', 'name = "hashing"'),
        encoding="utf-8",
    )
    write(root, "notes/deploy.md", "# Deploying\n\nWe deploy on Tuesdays.\n\nSee [[database]].\n")
    write(root, "notes/database.md", "# Database\n\nPostgreSQL is the system of record.\n")
    write(root, "notes/rollback.md", "# Rollback\n\nA rollback takes a minute.\n")
    return root


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    folder = tmp_path / "sources"
    write(folder, "a-overview.md", "# Kestrel\n\nPriya Raman created KestrelDB in 2017.\n")
    write(folder, "b-interview.txt", "Priya Raman spoke about compaction in 2019.\n")
    write(folder, "c-notes.md", "# Compaction\n\nTom Okafor rewrote compaction in Rust.\n")
    return folder


def command(name: str, vault: Path, sources: Path) -> list[str]:
    """The arguments of the command ``name``: one that changes files and takes a while."""
    args = {
        "index": ["index"],
        "rebuild": ["index", "rebuild"],
        "harvest": [
            "harvest",
            "--claude-dir",
            str(FIXTURES / "claude" / "projects"),
            "--codex-dir",
            str(FIXTURES / "codex" / "sessions"),
            "--settle",
            "0",
        ],
        "ingest": ["ingest", str(sources)],
    }[name]
    return ["--vault", str(vault), *args]


def on_terminal(args: list[str]) -> tuple[int, str, str]:
    """Run mnemex with stderr on a pseudo-terminal; return (exit code, stdout, terminal)."""
    leader, follower = os.openpty()
    seen: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                data = os.read(leader, 65536)
            except OSError:  # EIO on Linux once the child's end is closed
                return
            if not data:
                return
            seen.append(data)

    proc = subprocess.Popen(
        [*MNEMEX, *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=follower,
        env=dict(os.environ),
    )
    os.close(follower)
    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        out, _ = proc.communicate(timeout=180)
    finally:
        proc.kill()
        proc.wait()
    reader.join(timeout=30)
    os.close(leader)
    return proc.returncode, out.decode("utf-8"), b"".join(seen).decode("utf-8", "replace")


def piped(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*MNEMEX, *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=180,
        check=False,
    )


def last_line(text: str) -> str:
    return text.rstrip("\n").rsplit("\n", 1)[-1]


@pytest.mark.parametrize("name", ["index", "rebuild"])
def test_indexing_shows_parsing_and_embedding_bars_on_a_terminal_and_ends_with_the_counts(
    vault: Path, sources: Path, name: str
) -> None:
    code, out, terminal = on_terminal(command(name, vault, sources))
    assert code == 0, terminal
    assert bar("parsing").search(terminal), terminal
    assert bar("embedding").search(terminal), terminal
    assert COUNTS.search(last_line(out)), out
    assert not ANY_BAR.search(out)


def test_harvest_shows_a_bar_over_the_transcripts_and_ends_with_the_counts(
    vault: Path, sources: Path
) -> None:
    code, out, terminal = on_terminal(command("harvest", vault, sources))
    assert code == 0, terminal
    assert bar("harvesting").search(terminal), terminal
    assert COUNTS.search(last_line(out)), out


def test_folder_ingest_shows_reading_and_extracting_bars_and_ends_with_the_counts(
    vault: Path, sources: Path
) -> None:
    code, out, terminal = on_terminal(command("ingest", vault, sources))
    assert code == 0, terminal
    assert bar("reading").search(terminal), terminal
    assert bar("extracting").search(terminal), terminal
    assert COUNTS.search(last_line(out)), out


@pytest.mark.parametrize("name", ["index", "harvest", "ingest"])
def test_no_bar_is_drawn_when_stderr_is_not_a_terminal(
    vault: Path, sources: Path, name: str
) -> None:
    done = piped(command(name, vault, sources))
    assert done.returncode == 0, done.stderr
    assert not ANY_BAR.search(done.stderr), done.stderr
    assert COUNTS.search(last_line(done.stdout)), done.stdout


@pytest.mark.parametrize("name", ["index", "harvest", "ingest"])
def test_json_mode_draws_no_bar_even_on_a_terminal_and_prints_only_json(
    vault: Path, sources: Path, name: str
) -> None:
    code, out, terminal = on_terminal([*command(name, vault, sources), "--json"])
    assert code == 0, terminal
    assert not ANY_BAR.search(terminal), terminal
    assert {"created", "updated", "unchanged", "failed"} <= set(json.loads(out))
