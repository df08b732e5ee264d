"""serve, install (with hooks), hook install and uninstall as a user runs them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from cli_support import run, run_json

from mnemex.vault import init_vault


def test_install_prints_the_server_and_uninstall_removes_it(
    vault_dir: Path, tmp_path: Path
) -> None:
    config = tmp_path / "cursor.json"
    dry = run("--vault", str(vault_dir), "install", "cursor", "--config", str(config), "--dry-run")
    assert "would be created" in dry.stdout and not config.exists()
    done = run_json("--vault", str(vault_dir), "install", "cursor", "--config", str(config))
    assert done["outcome"] == "created"
    entry = json.loads(config.read_text(encoding="utf-8"))["mcpServers"]["mnemex"]
    assert entry["args"][-3:] == ["--vault", str(vault_dir.resolve()), "serve"]
    again = run("--vault", str(vault_dir), "install", "cursor", "--config", str(config))
    assert again.stdout.startswith("unchanged")
    gone = run_json("uninstall", "cursor", "--config", str(config))
    assert gone["outcome"] == "removed"
    assert json.loads(config.read_text(encoding="utf-8")) == {}


def test_install_refuses_a_folder_that_is_not_a_vault(tmp_path: Path) -> None:
    done = run("--vault", str(tmp_path), "install", "codex", ok=False)
    assert done.returncode == 1
    assert "not a vault" in done.stderr


def test_doctor_reports_an_installed_client_whose_vault_is_gone(
    vault_dir: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    run("init", str(other), "--no-git")
    run("--vault", str(other), "install", "claude-code")  # into the redirected home
    shutil.rmtree(other)
    data = json.loads(
        run("--vault", str(vault_dir), "doctor", "--no-embedder", "--json", ok=False).stdout
    )
    client = [c for c in data["checks"] if c["name"].startswith("client claude-code")]
    assert client and client[0]["status"] == "fail"


def test_install_with_tools_read_registers_a_server_serving_the_read_profile(
    vault_dir: Path, tmp_path: Path
) -> None:
    config = tmp_path / "cursor.json"
    run("--vault", str(vault_dir), "install", "cursor", "--config", str(config), "--tools", "read")
    entry = json.loads(config.read_text(encoding="utf-8"))["mcpServers"]["mnemex"]
    assert entry["args"][-3:] == ["serve", "--tools", "read"]
    again = run(
        "--vault", str(vault_dir), "install", "cursor", "--config", str(config), "--read-only"
    )
    assert again.stdout.startswith("unchanged")  # --read-only is the same profile


def test_serve_refuses_read_only_together_with_all_tools(vault_dir: Path) -> None:
    done = run("--vault", str(vault_dir), "serve", "--read-only", "--tools", "all", ok=False)
    assert done.returncode == 1
    assert "--read-only is --tools read" in done.stderr


def test_hook_install_through_the_cli_writes_only_the_named_files(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    init_vault(vault, git=False)
    settings = tmp_path / "claude" / "settings.json"
    claude_md = tmp_path / "CLAUDE.md"
    done = subprocess.run(
        [sys.executable, "-m", "mnemex", "--vault", str(vault), "hook", "install",
         "--settings", str(settings), "--instructions", str(claude_md), "--json"],
        capture_output=True, text=True, env={**os.environ}, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert [c["outcome"] for c in json.loads(done.stdout)] == ["created", "created"]
    assert "get_context" in claude_md.read_text()
    assert "SessionStart" in json.loads(settings.read_text())["hooks"]


def test_install_claude_code_with_hooks_adds_them_to_the_users_settings(
    tmp_path: Path, isolated_home: Path
) -> None:
    vault = tmp_path / "vault"
    init_vault(vault, git=False)
    config = tmp_path / "claude.json"
    base = [sys.executable, "-m", "mnemex", "--vault", str(vault), "install"]
    done = subprocess.run(
        [*base, "claude-code", "--config", str(config), "--hooks", "--json"],
        capture_output=True, text=True, env={**os.environ}, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hooks"]["outcome"] == "created"
    settings = json.loads((isolated_home / ".claude" / "settings.json").read_text())
    assert set(settings["hooks"]) == {"SessionStart", "Stop"}
    refused = subprocess.run(
        [*base, "cursor", "--config", str(tmp_path / "c.json"), "--hooks"],
        capture_output=True, text=True, env={**os.environ}, timeout=60, check=False,
    )  # fmt: skip
    assert refused.returncode == 1 and "claude-code only" in refused.stderr
