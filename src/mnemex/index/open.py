"""Choosing a vault's index backend: the one module that names a backend.

``[index] backend`` in ``mnemex.toml`` says which (``"sqlite"`` when it is silent).
Each name maps to a factory that takes the vault and returns an open
:class:`~mnemex.index.backend.IndexBackend`. The SQLite backend is registered here
the way any other is (a test's in-memory backend, a PostgreSQL backend later), so
nothing outside ``mnemex.index`` imports a backend module.
"""

from __future__ import annotations

from collections.abc import Callable

from mnemex.config import SETTINGS_FILE
from mnemex.errors import ConfigError
from mnemex.index.backend import IndexBackend
from mnemex.index.sqlite.store import INDEX_FILE, SQLiteIndex
from mnemex.vault import Vault

BackendFactory = Callable[[Vault], IndexBackend]

DEFAULT_BACKEND = "sqlite"

_BACKENDS: dict[str, BackendFactory] = {}


def register_backend(name: str, factory: BackendFactory) -> None:
    """Make ``[index] backend = "<name>"`` open the index with ``factory(vault)``.

    A name registered again is replaced (a test may stand in for a built-in).
    """
    _BACKENDS[name] = factory


def backend_name(vault: Vault) -> str:
    """The backend the vault's settings choose."""
    return str(vault.settings.index.get("backend", DEFAULT_BACKEND))


def open_backend(vault: Vault) -> IndexBackend:
    """Open the vault's index with the backend its settings choose.

    Raises:
        ConfigError: the settings name a backend that is not registered.
        IndexUnavailable: the backend cannot open the index.
    """
    name = backend_name(vault)
    factory = _BACKENDS.get(name)
    if factory is None:
        raise ConfigError(
            f"{vault.root / SETTINGS_FILE}: [index] backend = {name!r} is not one of "
            f"{', '.join(sorted(_BACKENDS))}"
        )
    return factory(vault)


def _open_sqlite(vault: Vault) -> IndexBackend:
    return SQLiteIndex(vault.local_dir / INDEX_FILE)


register_backend(DEFAULT_BACKEND, _open_sqlite)


__all__ = ["DEFAULT_BACKEND", "BackendFactory", "backend_name", "open_backend", "register_backend"]
