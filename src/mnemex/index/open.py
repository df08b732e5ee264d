"""Choosing a vault's index backend: the one module that names a backend.

``[index] backend`` in ``mnemex.toml`` says which (``"sqlite"`` when it is silent).
:data:`BACKENDS` maps each name to a factory that takes the vault and returns an
open :class:`~mnemex.index.backend.IndexBackend`. The SQLite backend is registered
there the way any other is (a test's in-memory backend, a PostgreSQL backend later)
and imported only when chosen, so nothing outside ``mnemex.index`` imports a backend
module.
"""

from __future__ import annotations

from collections.abc import Callable

from mnemex.index.backend import IndexBackend
from mnemex.plugins import Registry
from mnemex.vault import Vault

BackendFactory = Callable[[Vault], IndexBackend]

DEFAULT_BACKEND = "sqlite"


def _builtins(registry: Registry[BackendFactory]) -> None:
    def sqlite(vault: Vault) -> IndexBackend:
        from mnemex.index.sqlite.store import INDEX_FILE, SQLiteIndex

        return SQLiteIndex(vault.local_dir / INDEX_FILE)

    registry.register("sqlite", sqlite)


#: name -> factory taking the vault.
BACKENDS: Registry[BackendFactory] = Registry("index backend", _builtins)


def register_backend(name: str, factory: BackendFactory) -> None:
    """Make ``[index] backend = "<name>"`` open the index with ``factory(vault)``."""
    BACKENDS.register(name, factory)


def backend_name(vault: Vault) -> str:
    """The backend the vault's settings choose."""
    return str(vault.settings.index.get("backend", DEFAULT_BACKEND))


def open_backend(vault: Vault) -> IndexBackend:
    """Open the vault's index with the backend its settings choose.

    Raises:
        ConfigError: the settings name a backend that is not registered.
        IndexUnavailable: the backend cannot open the index.
    """
    return BACKENDS.factory(backend_name(vault))(vault)


__all__ = [
    "BACKENDS",
    "DEFAULT_BACKEND",
    "BackendFactory",
    "backend_name",
    "open_backend",
    "register_backend",
]
