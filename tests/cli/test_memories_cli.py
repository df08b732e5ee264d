"""``mnemex remember``, ``mnemex memories search|show`` and ``mnemex forget``, driven in a
subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from memory_fixtures import seed_memories

MNEMEX = [sys.executable, "-m", "mnemex"]
TOKENIZER = "memories/mnemex/2026-12/2026-12-02-5d1e2f-61e8d3f4.md"
SESSION = "5d1e2f9a-aaaa-bbbb-cccc-0c2b61e8d3f4"


def run(vault: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [*MNEMEX, "--vault", str(vault), *args],
        capture_output=True,
        text=True,
        env={**os.environ},
        timeout=120,
        check=False,
    )
    if ok:
        assert done.returncode == 0, done.stderr
    return done


def run_json(vault: Path, *args: str) -> Any:
    return json.loads(run(vault, *args, "--json").stdout)


def test_memories_search_scopes_by_project_and_prints_sessions(vault_dir: Path) -> None:
    seed_memories(vault_dir)
    data = run_json(vault_dir, "memories", "search", "sqlite failed", "--project", "webshop")
    assert [h["project"] for h in data["hits"]] == ["webshop"]
    text = run(vault_dir, "memories", "search", "sqlite-icu", "--tag", "search", "-k", "3").stdout
    assert TOKENIZER in text and SESSION in text


def test_memories_show_prints_a_digest_by_session(vault_dir: Path) -> None:
    seed_memories(vault_dir)
    text = run(vault_dir, "memories", "show", "--session", SESSION).stdout
    assert "## Dead ends and failed attempts" in text
    assert run_json(vault_dir, "memories", "show", TOKENIZER)["path"] == TOKENIZER
    bad = run(vault_dir, "memories", "show", "--session", "nope", ok=False)
    assert bad.returncode == 1 and "no memory of session 'nope'" in bad.stderr


def test_forget_shows_the_plan_and_deletes_only_with_yes(vault_dir: Path) -> None:
    seed_memories(vault_dir)
    shown = run(vault_dir, "forget", TOKENIZER).stdout
    assert f"delete {TOKENIZER}" in shown and "repeat with --yes" in shown
    assert (vault_dir / TOKENIZER).exists()
    done = run_json(vault_dir, "forget", "--session", SESSION, "--yes")
    assert done["deleted"] == [TOKENIZER]
    assert not (vault_dir / TOKENIZER).exists()
    outside = run(vault_dir, "forget", "notes/x.md", ok=False)
    assert outside.returncode == 1 and "not a memory" in outside.stderr


def test_the_cli_remembers_a_note_that_memories_search_then_finds(vault_dir: Path) -> None:
    def run(*args: str, stdin: str | None = None) -> dict[str, object]:
        done = subprocess.run(
            [sys.executable, "-m", "mnemex", "--vault", str(vault_dir), *args, "--json"],
            input=stdin,
            capture_output=True,
            text=True,
            env=dict(os.environ),
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        data: dict[str, object] = json.loads(done.stdout)
        return data

    text = "The staging database password rotates monthly; never pin it in CI."
    first = run("remember", text, "--project", "infra", "--tag", "ops")
    assert first["created"] == 1 and str(first["path"]).startswith("memories/infra/")
    again = run("remember", "-", "--project", "infra", stdin=text)
    assert again["unchanged"] == 1 and again["path"] == first["path"]
    found = run("memories", "search", "staging database password rotation")
    hits = found["hits"]
    assert isinstance(hits, list) and hits[0]["path"] == first["path"]
    assert hits[0]["kind"] == "remembered"
