"""Which backend opens a vault's index: ``[index] backend``, SQLite when it is silent."""

from __future__ import annotations

from pathlib import Path

import pytest

from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.errors import ConfigError
from mnemex.index.backend import IndexBackend
from mnemex.index.open import BACKENDS, open_backend
from mnemex.index.sqlite.store import SQLiteIndex
from mnemex.vault import Vault


def choose(vault_dir: Path, name: str) -> Vault:
    settings = vault_dir / "mnemex.toml"
    settings.write_text(settings.read_text() + f'\n[index]\nbackend = "{name}"\n')
    return Vault(vault_dir)


def test_a_vault_that_names_no_backend_gets_the_sqlite_file(vault_dir: Path) -> None:
    backend = open_backend(Vault(vault_dir))
    try:
        assert backend.stats().path == str(vault_dir / ".mnemex" / "index.sqlite")
    finally:
        backend.close()


def test_a_registered_backend_is_opened_by_the_name_the_settings_give(
    vault_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[Path] = []

    def factory(vault: Vault) -> IndexBackend:
        opened.append(vault.root)
        return SQLiteIndex(tmp_path / "elsewhere.sqlite")

    monkeypatch.setitem(BACKENDS, "test-open-recorder", factory)
    with Brain(choose(vault_dir, "test-open-recorder"), embedder=HashingEmbedder()) as brain:
        assert opened == [vault_dir]
        assert brain.backend.stats().path == str(tmp_path / "elsewhere.sqlite")


def test_an_unknown_backend_is_a_clear_error_naming_the_known_ones(vault_dir: Path) -> None:
    with pytest.raises(ConfigError, match=r"unknown index backend 'nowhere'; known: .*sqlite"):
        open_backend(choose(vault_dir, "nowhere"))
