"""Which index this machine uses for a vault: PostgreSQL only when this machine says so
(the environment, then the user config), never because a synced file does; the vault id
that names its schema, minted once and the same on every clone."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from mnemex.config import user_config_file
from mnemex.errors import ConfigError
from mnemex.index.open import DSN_ENV, backend_name, has_password, index_dsn, vault_id
from mnemex.vault import Vault, init_vault

IDENTITY = ["-c", "user.name=Ada", "-c", "user.email=ada@example.org"]


def _user_config(text: str) -> None:
    path = user_config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def vault(vault_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Vault:
    monkeypatch.delenv(DSN_ENV, raising=False)
    return Vault(vault_dir)


def test_sqlite_unless_this_machine_chooses_postgres(vault: Vault) -> None:
    assert index_dsn(vault) is None and backend_name(vault) == "sqlite"


def test_the_environment_beats_the_user_config_which_beats_the_vault(
    vault: Vault, monkeypatch: pytest.MonkeyPatch
) -> None:
    _user_config('[index]\ndsn = "host=db.example dbname=brain"\n')
    assert index_dsn(vault) == "host=db.example dbname=brain"
    assert backend_name(vault) == "postgres"
    monkeypatch.setenv(DSN_ENV, "postgresql://me:pw@127.0.0.1/other")
    assert index_dsn(vault) == "postgresql://me:pw@127.0.0.1/other"  # a password: env only
    monkeypatch.setenv(DSN_ENV, "")  # this laptop keeps SQLite, whatever the config says
    assert index_dsn(vault) is None and backend_name(vault) == "sqlite"


def test_a_dsn_in_the_synced_settings_is_refused(vault_dir: Path) -> None:
    settings = vault_dir / "mnemex.toml"
    settings.write_text(
        settings.read_text(encoding="utf-8") + '\n[index]\ndsn = "host=db"\n', encoding="utf-8"
    )
    with pytest.raises(ConfigError, match=r"\[index\] dsn is refused there"):
        index_dsn(Vault(vault_dir))


def test_a_password_in_the_user_config_is_refused_and_never_echoed(vault: Vault) -> None:
    _user_config('[index]\ndsn = "postgresql://me:s3cret@db.example/brain"\n')
    with pytest.raises(ConfigError, match="holds a password") as caught:
        index_dsn(vault)
    assert "s3cret" not in str(caught.value)


@pytest.mark.parametrize(
    ("dsn", "secret"),
    [
        ("postgresql://me:pw@host/db", True),
        ("postgresql://me@host/db", False),
        ("postgresql://host/db?password=pw", True),
        ("postgres://host/db?sslmode=require", False),
        ("host=db user=me password=pw", True),
        ("host=db user=me PASSWORD = pw", True),
        ("host=db user=me passfile=/x", False),
    ],
)
def test_a_password_is_found_in_either_dsn_form(dsn: str, secret: bool) -> None:
    assert has_password(dsn) is secret


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *IDENTITY, *args], cwd=root, capture_output=True, text=True, check=True
    ).stdout


def test_two_clones_mint_the_same_vault_id_and_commit_it(tmp_path: Path) -> None:
    origin = tmp_path / "origin"
    init_vault(origin, git=True)
    _git(origin, "add", "-A")
    _git(origin, "commit", "-qm", "start")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(origin), str(clone)], check=True)
    first, second = vault_id(Vault(origin)), vault_id(Vault(clone))
    assert first == second and len(first) == 16
    assert f'vault_id = "{first}"' in (origin / "mnemex.toml").read_text(encoding="utf-8")
    assert _git(origin, "status", "--porcelain") == ""  # written and committed
    assert vault_id(Vault(origin)) == first  # read back, not minted again


def test_without_git_the_id_is_random_and_kept(vault_dir: Path) -> None:
    minted = vault_id(Vault(vault_dir))
    assert len(minted) == 16 and vault_id(Vault(vault_dir)) == minted


def test_a_bad_vault_id_is_refused(vault_dir: Path) -> None:
    settings = vault_dir / "mnemex.toml"
    settings.write_text(
        settings.read_text(encoding="utf-8") + '\n[index]\nvault_id = "../x"\n', encoding="utf-8"
    )
    with pytest.raises(ConfigError, match="vault_id must be"):
        vault_id(Vault(vault_dir))
