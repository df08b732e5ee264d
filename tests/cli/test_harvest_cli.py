"""``mnemex harvest`` in a subprocess: its JSON counts, and a second run that writes nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mnemex.vault import Vault
from mnemex.vault.layout import init_vault
from synth import claude_session

FIXTURES = Path(__file__).parents[1] / "harvest" / "fixtures"
MNEMEX = [sys.executable, "-m", "mnemex"]


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    root = tmp_path / "vault"
    init_vault(root)  # a git repository: harvest commits
    return Vault(root)


def test_the_cli_harvests_twice_and_writes_nothing_the_second_time(
    vault: Vault, tmp_path: Path
) -> None:
    settings = vault.root / "mnemex.toml"
    settings.write_text(
        settings.read_text(encoding="utf-8").replace('name = "minilm"', 'name = "hashing"'),
        encoding="utf-8",
    )
    claude = tmp_path / "claude"
    claude_session(claude, "s1")
    codex = FIXTURES / "codex" / "sessions"
    args = ["--claude-dir", str(claude), "--codex-dir", str(codex), "--settle", "0", "--json"]

    def run() -> dict[str, object]:
        done = subprocess.run(
            [*MNEMEX, "--vault", str(vault.root), "harvest", *args],
            capture_output=True,
            text=True,
            env=dict(os.environ),
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        data: dict[str, object] = json.loads(done.stdout)
        return data

    first = run()
    for key in ("created", "updated", "unchanged", "skipped", "refused", "failed", "problems"):
        assert key in first
    assert first["created"] == 2
    second = run()
    assert (second["created"], second["updated"], second["unchanged"]) == (0, 0, 2)


def test_the_cli_json_has_the_counts_the_reasons_and_archived(vault: Vault, tmp_path: Path) -> None:
    settings = vault.root / "mnemex.toml"
    settings.write_text(
        settings.read_text(encoding="utf-8").replace('name = "minilm"', 'name = "hashing"'),
        encoding="utf-8",
    )
    claude = tmp_path / "claude"
    claude_session(claude, "s1")
    claude_session(claude, "fresh", old=False)
    args = ["--claude-dir", str(claude), "--settle", "60", "--archive", "--json", "--no-index"]
    done = subprocess.run(
        [*MNEMEX, "--vault", str(vault.root), "harvest", *args],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    counts = {"created", "updated", "deleted", "unchanged", "skipped", "refused", "failed"}
    assert set(data) == counts | {"problems", "warnings", "archived"}
    assert (data["created"], data["skipped"], data["archived"]) == (1, 1, 1)
    [skip] = data["problems"]["skipped"]
    assert skip["path"].endswith("fresh.jsonl") and "still being written" in skip["reason"]
