from __future__ import annotations

from pathlib import Path

import pytest

from mnemex.config import load_settings, resolve_vault
from mnemex.errors import ConfigError
from mnemex.vault import init_vault


@pytest.fixture
def home_default(tmp_path: Path, isolated_home: Path) -> Path:
    """A user default in the (redirected) home that points at a different vault."""
    other = tmp_path / "home-brain"
    init_vault(other, git=False)
    config = isolated_home / ".config" / "mnemex" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'vault = "{other}"\n', encoding="utf-8")
    return other


def test_an_explicit_vault_wins_over_env_discovery_and_the_home_default(
    tmp_path: Path, home_default: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    explicit = tmp_path / "explicit"
    env = tmp_path / "env"
    discovered = tmp_path / "discovered"
    for path in (explicit, env, discovered):
        init_vault(path, git=False)
    monkeypatch.setenv("MNEMEX_VAULT", str(env))
    found = resolve_vault(explicit, cwd=discovered)
    assert (found.path, found.source) == (explicit.resolve(), "explicit")


def test_the_environment_wins_over_discovery_and_the_home_default(
    tmp_path: Path, home_default: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = tmp_path / "env"
    init_vault(env, git=False)
    monkeypatch.setenv("MNEMEX_VAULT", str(env))
    assert resolve_vault(cwd=tmp_path).path == env.resolve()


def test_discovery_finds_the_nearest_vault_above_the_current_folder(
    tmp_path: Path, home_default: Path
) -> None:
    root = tmp_path / "nearby"
    init_vault(root, git=False)
    deep = root / "wiki" / "general" / "entities"
    found = resolve_vault(cwd=deep)
    assert (found.path, found.source) == (root.resolve(), "discovered")


def test_the_home_default_is_used_only_when_nothing_else_names_a_vault(
    tmp_path: Path, home_default: Path
) -> None:
    elsewhere = tmp_path / "not-a-vault"
    elsewhere.mkdir()
    assert resolve_vault(cwd=elsewhere).path == home_default.resolve()


def test_no_vault_anywhere_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no vault found"):
        resolve_vault(cwd=tmp_path)


def test_broken_settings_are_a_clear_error_naming_the_file(tmp_path: Path) -> None:
    (tmp_path / "mnemex.toml").write_text("[vault\nname=", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"mnemex\.toml: not valid TOML"):
        load_settings(tmp_path)


def test_settings_from_a_newer_format_are_refused(tmp_path: Path) -> None:
    (tmp_path / "mnemex.toml").write_text("[vault]\nformat = 99\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="newer than this mnemex"):
        load_settings(tmp_path)
