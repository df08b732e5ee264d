from __future__ import annotations

import json
import re
import shutil
import tomllib
from pathlib import Path

import pytest

from mnemex.clients.install import (
    CODEX_STARTUP_TIMEOUT_SEC,
    check_installed_clients,
    install_client,
    target,
    uninstall_client,
)
from mnemex.errors import ConfigError


def test_claude_code_user_scope_goes_into_the_redirected_home(
    vault_dir: Path, isolated_home: Path
) -> None:
    change = install_client("claude-code", vault_dir)
    assert change.path == isolated_home / ".claude.json"
    assert change.outcome == "created"
    entry = json.loads(change.path.read_text(encoding="utf-8"))["mcpServers"]["mnemex"]
    assert entry["type"] == "stdio"
    assert Path(entry["command"]).is_absolute() and Path(entry["command"]).exists()
    assert entry["args"][-3:] == ["--vault", str(vault_dir.resolve()), "serve"]


def test_installing_twice_changes_nothing_and_makes_no_backup(
    vault_dir: Path, isolated_home: Path
) -> None:
    install_client("cursor", vault_dir)
    again = install_client("cursor", vault_dir)
    assert again.outcome == "unchanged"
    assert list((isolated_home / ".cursor").glob("*.bak")) == []


def test_install_keeps_everything_else_backs_up_and_uninstall_restores_it(
    vault_dir: Path, tmp_path: Path
) -> None:
    config = tmp_path / "claude_desktop_config.json"
    original = (
        json.dumps({"mcpServers": {"other": {"command": "x"}}, "theme": "dark"}, indent=2) + "\n"
    )
    config.write_text(original, encoding="utf-8")
    change = install_client("claude-desktop", vault_dir, config=config)
    assert change.outcome == "updated"
    assert change.backup is not None and change.backup.read_text(encoding="utf-8") == original
    data = json.loads(config.read_text(encoding="utf-8"))
    assert set(data["mcpServers"]) == {"other", "mnemex"} and data["theme"] == "dark"
    removed = uninstall_client("claude-desktop", config=config)
    assert removed.outcome == "removed"
    assert config.read_text(encoding="utf-8") == original
    assert uninstall_client("claude-desktop", config=config).outcome == "absent"


def test_dry_run_shows_the_change_and_writes_nothing(vault_dir: Path, tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    change = install_client("cursor", vault_dir, config=config, dry_run=True)
    assert change.outcome == "created" and change.dry_run
    assert '+    "mnemex": {' in change.diff
    assert not config.exists()


def test_codex_gets_a_marked_toml_table_with_a_startup_timeout(
    vault_dir: Path, tmp_path: Path
) -> None:
    config = tmp_path / "config.toml"
    original = '# my settings\nmodel = "o4"\n\n[mcp_servers.other]\ncommand = "x"\n'
    config.write_text(original, encoding="utf-8")
    install_client("codex", vault_dir, config=config, tools="read")
    text = config.read_text(encoding="utf-8")
    assert text.startswith(original)
    data = tomllib.loads(text)
    assert data["model"] == "o4" and "other" in data["mcp_servers"]
    entry = data["mcp_servers"]["mnemex"]
    assert entry["startup_timeout_sec"] == CODEX_STARTUP_TIMEOUT_SEC
    assert entry["args"][-3:] == ["serve", "--tools", "read"]
    assert install_client("codex", vault_dir, config=config, tools="read").outcome == "unchanged"
    assert install_client("codex", vault_dir, config=config).outcome == "updated"
    uninstall_client("codex", config=config)
    assert config.read_text(encoding="utf-8") == original


def test_codex_refuses_a_mnemex_table_it_did_not_write(vault_dir: Path, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[mcp_servers.mnemex]\ncommand = "mine"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="did not write"):
        install_client("codex", vault_dir, config=config)
    assert config.read_text(encoding="utf-8") == '[mcp_servers.mnemex]\ncommand = "mine"\n'


def test_codex_home_is_honoured(
    vault_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex"))
    assert install_client("codex", vault_dir).path == tmp_path / "codex" / "config.toml"


def test_local_and_project_scopes_are_per_working_directory(
    vault_dir: Path, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    local = install_client("claude-code", vault_dir, scope="local", cwd=project)
    data = json.loads(local.path.read_text(encoding="utf-8"))
    assert "mnemex" in data["projects"][str(project.resolve())]["mcpServers"]
    shared = install_client("cursor", vault_dir, scope="project", cwd=project)
    assert shared.path == project.resolve() / ".cursor" / "mcp.json"
    assert target("claude-code", "project", cwd=project).path == project.resolve() / ".mcp.json"


def test_an_environment_variable_overrides_the_location(
    vault_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MNEMEX_CURSOR_CONFIG", str(tmp_path / "elsewhere.json"))
    assert install_client("cursor", vault_dir).path == tmp_path / "elsewhere.json"


def test_unknown_clients_scopes_and_broken_files_are_refused(
    vault_dir: Path, tmp_path: Path
) -> None:
    with pytest.raises(ConfigError, match="unknown client"):
        install_client("vim", vault_dir)
    with pytest.raises(ConfigError, match="no scope"):
        install_client("claude-desktop", vault_dir, scope="project")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid JSON"):
        install_client("cursor", vault_dir, config=broken)
    assert broken.read_text(encoding="utf-8") == "{not json"


def test_doctor_checks_that_an_installed_client_starts_a_working_server(
    vault_dir: Path, tmp_path: Path
) -> None:
    install_client("claude-desktop", vault_dir)
    checks = check_installed_clients(cwd=tmp_path)
    assert [c["status"] for c in checks] == ["ok"], checks
    assert re.search(r"answered with \d+ tools", checks[0]["detail"])
    shutil.rmtree(vault_dir)
    broken = check_installed_clients(cwd=tmp_path)
    assert broken[0]["status"] == "fail" and "does not exist" in broken[0]["detail"]
