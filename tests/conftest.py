"""Shared fixtures, and only fixtures (helpers a test imports live in tests/helpers.py and its
neighbours). Every test runs with HOME and the user config redirected into its temporary
folder, so no test can read or write a real brain."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from fake_provider import FakeProvider
from health_support import make_sick_vault, open_brain
from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.vault import Vault, init_vault
from postgres_support import LazyServer, serve


@pytest.fixture(autouse=True)
def isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.delenv("MNEMEX_VAULT", raising=False)
    monkeypatch.delenv("MNEMEX_CONFIG", raising=False)
    return home


@pytest.fixture
def vault_dir(tmp_path: Path) -> Path:
    """An initialised vault using the fast hashing embedder (no model to load)."""
    root = tmp_path / "vault"
    init_vault(root, git=False)
    settings = root / "mnemex.toml"
    settings.write_text(
        settings.read_text(encoding="utf-8").replace('name = "minilm"', 'name = "hashing"'),
        encoding="utf-8",
    )
    return root


@pytest.fixture
def brain(vault_dir: Path) -> Iterator[Brain]:
    with Brain(Vault(vault_dir), embedder=HashingEmbedder()) as b:
        yield b


@pytest.fixture(params=[0o022, 0o077], ids=["umask022", "umask077"])
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    """The process umask for one test, set to a usual (022) and a strict (077) value."""
    value = int(request.param)
    old = os.umask(value)
    try:
        yield value
    finally:
        os.umask(old)


@pytest.fixture(scope="session")
def minilm() -> object:
    from mnemex.embed.minilm import MiniLMEmbedder

    return MiniLMEmbedder()


@pytest.fixture
def fake() -> Iterator[FakeProvider]:
    """A fake model provider listening on 127.0.0.1 (see fake_provider.py)."""
    with FakeProvider() as server:
        yield server


@pytest.fixture
def sick(tmp_path: Path) -> Path:
    """The small sick vault of health_support.py, committed, not yet indexed."""
    return make_sick_vault(tmp_path / "vault")


@pytest.fixture
def sick_brain(sick: Path) -> Iterator[Brain]:
    """The sick vault's brain, synced."""
    with open_brain(sick) as brain:
        brain.sync()
        yield brain


@pytest.fixture(scope="session", autouse=True)
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LazyServer]:
    """The session's one PostgreSQL server (postgres_support.py): its data in a temporary
    folder, started only when a test first needs it, stopped when the session ends."""
    server = LazyServer(tmp_path_factory.mktemp("postgres"))
    serve(server)
    try:
        yield server
    finally:
        serve(None)
        server.stop()
