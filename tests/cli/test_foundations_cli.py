"""``mnemex foundation add|approve|list``: a person's commands, plans shown before --yes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mnemex.cli import cli
from mnemex.foundations.store import propose_foundation, read_foundation
from mnemex.vault import Vault, init_vault


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    init_vault(root, git=True)
    for key, value in (("user.name", "Ada"), ("user.email", "ada@example.org")):
        subprocess.run(["git", "config", key, value], cwd=root, check=True)
    (root / "state" / "proj").mkdir(parents=True)
    return root


def mnemex(root: Path, *args: str, code: int = 0) -> Result:
    result = CliRunner().invoke(cli, ["--vault", str(root), *args], catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result


def test_foundation_add_then_list_as_text_and_json(root: Path, tmp_path: Path) -> None:
    doc = tmp_path / "Decisions.txt"
    doc.write_bytes(b"We use SQLite.\r\n")
    out = mnemex(root, "foundation", "add", "proj", str(doc)).output
    assert out.startswith("added proj/decisions.txt (16 bytes")
    assert (root / "foundations/proj/decisions.txt").read_bytes() == b"We use SQLite.\r\n"
    listed = json.loads(mnemex(root, "foundation", "list", "proj", "--json").output)
    assert listed["foundations"][0]["slug"] == "decisions" and listed["foundations"][0]["fresh"]
    assert "1. decisions.txt  16 bytes" in mnemex(root, "foundation", "list", "proj").output


def test_foundation_add_over_an_existing_one_shows_a_diff_and_needs_yes(
    root: Path, tmp_path: Path
) -> None:
    doc = tmp_path / "arch.md"
    doc.write_text("alpha\n", encoding="utf-8")
    mnemex(root, "foundation", "add", "proj", str(doc))
    doc.write_text("beta\n", encoding="utf-8")
    out = mnemex(root, "foundation", "add", "proj", str(doc)).output
    assert "-alpha" in out and "+beta" in out and "--yes" in out
    assert (root / "foundations/proj/arch.md").read_text() == "alpha\n"
    data = json.loads(mnemex(root, "foundation", "add", "proj", str(doc), "--yes", "--json").output)
    assert data["applied"] and data["report"]["updated"] == 1
    assert (root / "foundations/proj/arch.md").read_text() == "beta\n"


def test_foundation_approve_shows_the_diff_and_applies_only_with_yes(
    root: Path, tmp_path: Path
) -> None:
    vault = Vault(root)
    doc = tmp_path / "arch.md"
    doc.write_text("alpha\n", encoding="utf-8")
    mnemex(root, "foundation", "add", "proj", str(doc))
    propose_foundation(vault, "proj", "arch", "gamma\n", "rename alpha", "claude-code@m")
    out = mnemex(root, "foundation", "approve", "proj", "arch").output
    assert "proposed by claude-code@m" in out and "-alpha" in out and "+gamma" in out
    assert "nothing written" in out
    assert read_foundation(vault, "proj", "arch")["content"] == "alpha\n"
    out = mnemex(root, "foundation", "approve", "proj", "arch", "--yes").output
    assert out.startswith("approved proj/arch.md")
    assert read_foundation(vault, "proj", "arch")["content"] == "gamma\n"
    assert not (root / "foundations/proj/drafts/arch.md").exists()


def test_foundation_commands_refuse_bad_input_with_a_clear_message(
    root: Path, tmp_path: Path
) -> None:
    doc = tmp_path / "arch.md"
    doc.write_text("x\n", encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["--vault", str(root), "foundation", "add", "proj", str(doc), "--slug", "../x"]
    )
    assert result.exit_code == 1 and "not allowed" in result.output
    result = CliRunner().invoke(cli, ["--vault", str(root), "foundation", "approve", "proj", "x"])
    assert result.exit_code == 1 and "no draft" in result.output
    assert not (root / "foundations/proj").exists()


def test_foundation_reject_deletes_the_draft_and_keeps_the_foundation(
    root: Path, tmp_path: Path
) -> None:
    doc = tmp_path / "arch.md"
    doc.write_text("alpha\n", encoding="utf-8")
    mnemex(root, "foundation", "add", "proj", str(doc))
    propose_foundation(Vault(root), "proj", "arch", "gamma\n", "why", "claude-code@m")
    out = mnemex(root, "foundation", "reject", "proj", "arch").output
    assert "rejected foundations/proj/drafts/arch.md" in out
    assert not (root / "foundations/proj/drafts/arch.md").exists()
    assert read_foundation(Vault(root), "proj", "arch")["content"] == "alpha\n"
