"""Choosing a vault's index backend: the one module that names a backend.

The index is derived and per machine: an offline laptop keeps SQLite while a server of
the same vault indexes into PostgreSQL. So, first match wins:

1. ``MNEMEX_INDEX_DSN`` in the environment: a PostgreSQL DSN (``postgresql://...`` or
   ``host=... dbname=...``) chooses PostgreSQL; set and empty (or ``sqlite``), SQLite;
2. ``[index] dsn`` in the user config (``~/.config/mnemex/config.toml``): PostgreSQL;
3. ``[index] backend`` in the vault's ``mnemex.toml`` (``"sqlite"`` when it is silent).

A DSN never lives in ``mnemex.toml`` (it syncs to every machine), and no file holds its
password: a DSN with a password anywhere but the environment is refused, and the password
comes from ``PGPASSWORD`` or ``~/.pgpass`` as libpq reads them. Each vault has its own
schema, ``mnemex_<vault id>``; the id is minted once into ``mnemex.toml``
(``[index] vault_id``), from the vault's first commit when it has one, so two clones that
mint it independently agree.

:data:`BACKENDS` maps each name to a factory that takes the vault and returns an
open :class:`~mnemex.index.backend.IndexBackend`. The SQLite backend is registered
there the way any other is (a test's in-memory backend, PostgreSQL) and imported only
when chosen, so nothing outside ``mnemex.index`` imports a backend module.
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

from mnemex.config import SETTINGS_FILE, user_config_file, user_settings
from mnemex.errors import ConfigError
from mnemex.index.backend import IndexBackend
from mnemex.plugins import Registry
from mnemex.vault import Vault
from mnemex.vault.history import commit_change, run_git
from mnemex.vault.privacy import private_names

BackendFactory = Callable[[Vault], IndexBackend]

DEFAULT_BACKEND = "sqlite"
DSN_ENV = "MNEMEX_INDEX_DSN"
_VAULT_ID_RE = re.compile(r"[a-z0-9]{8,32}")
_KEYWORD_PASSWORD_RE = re.compile(r"(?:^|\s)password\s*=", re.IGNORECASE)


def _builtins(registry: Registry[BackendFactory]) -> None:
    def sqlite(vault: Vault) -> IndexBackend:
        from mnemex.index.sqlite.store import INDEX_FILE, SQLiteIndex

        return SQLiteIndex(vault.local_dir / INDEX_FILE)

    def postgres(vault: Vault) -> IndexBackend:
        from mnemex.index.postgres.store import PostgresIndex

        dsn = index_dsn(vault)
        if dsn is None:
            raise ConfigError(
                f'[index] backend = "postgres" needs a DSN: set {DSN_ENV} or [index] dsn '
                f"in {user_config_file()} (this machine's choice, never mnemex.toml)"
            )
        given, minted = _vault_id(vault)
        index = PostgresIndex(dsn, f"mnemex_{given}", private=private_names(vault.settings))
        if minted:  # written only once the server answered: a failed start changes no file
            _write_vault_id(vault, given)
        return index

    registry.register("sqlite", sqlite)
    registry.register("postgres", postgres)


#: name -> factory taking the vault.
BACKENDS: Registry[BackendFactory] = Registry("index backend", _builtins)


def register_backend(name: str, factory: BackendFactory) -> None:
    """Make ``[index] backend = "<name>"`` open the index with ``factory(vault)``."""
    BACKENDS.register(name, factory)


def has_password(dsn: str) -> bool:
    """Whether a DSN carries a password (``user:pw@``, ``?password=``, ``password=``)."""
    if "://" in dsn:
        parts = urlsplit(dsn)
        return bool(parts.password) or "password" in parse_qs(parts.query)
    return bool(_KEYWORD_PASSWORD_RE.search(dsn))


def index_dsn(vault: Vault) -> str | None:
    """The PostgreSQL DSN this machine chose for the vault's index, or None for SQLite.

    Raises:
        ConfigError: a DSN in ``mnemex.toml``, or one with a password in a file.
    """
    if "dsn" in vault.settings.index:
        raise ConfigError(
            f"{vault.root / SETTINGS_FILE}: [index] dsn is refused there (the file syncs to "
            f"every machine, and the index is chosen per machine): set {DSN_ENV} or [index] "
            f"dsn in {user_config_file()}"
        )
    env = os.environ.get(DSN_ENV)
    if env is not None:
        env = env.strip()
        return None if env in ("", "sqlite") else env
    table = user_settings().get("index", {})
    dsn = table.get("dsn") if isinstance(table, dict) else None
    if dsn is None:
        return None
    if not isinstance(dsn, str) or not dsn.strip():
        raise ConfigError(f"{user_config_file()}: [index] dsn must be a non-empty string")
    if has_password(dsn):
        raise ConfigError(
            f"{user_config_file()}: [index] dsn holds a password; keep it out of files: "
            f"PGPASSWORD, ~/.pgpass, or {DSN_ENV} in the environment"
        )
    return dsn.strip()


def backend_name(vault: Vault) -> str:
    """The backend this machine uses for the vault: PostgreSQL when it chose a DSN, else
    what the vault's settings say."""
    if index_dsn(vault) is not None:
        return "postgres"
    return str(vault.settings.index.get("backend", DEFAULT_BACKEND))


def vault_id(vault: Vault) -> str:
    """The vault's id, ``[index] vault_id`` in ``mnemex.toml``, minted on first use.

    Minted from the vault's first commit when it is a git repository (so clones minting it
    apart agree), else at random; written into ``mnemex.toml`` and committed.

    Raises:
        ConfigError: ``[index] vault_id`` is not 8 to 32 lower-case letters and digits.
    """
    given, minted = _vault_id(vault)
    if minted:
        _write_vault_id(vault, given)
    return given


def _vault_id(vault: Vault) -> tuple[str, bool]:
    """The vault's id, and whether it was minted now (and is not written yet)."""
    given = vault.settings.index.get("vault_id")
    if given is not None:
        if not isinstance(given, str) or not _VAULT_ID_RE.fullmatch(given):
            raise ConfigError(
                f"{vault.root / SETTINGS_FILE}: [index] vault_id must be 8 to 32 lower-case "
                "letters and digits"
            )
        return given, False
    roots = run_git(vault, "rev-list", "--max-parents=0", "HEAD").stdout.split()
    return (sorted(roots)[0][:16] if roots else secrets.token_hex(8)), True


def _write_vault_id(vault: Vault, minted: str) -> None:
    path = vault.root / SETTINGS_FILE
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    line = f'vault_id = "{minted}"  # names this vault\'s schema in a PostgreSQL index\n'
    header = re.search(r"(?m)^\[index\][ \t]*(?:#.*)?$", text)
    if header:
        end = text.find("\n", header.end())
        at = len(text) if end < 0 else end + 1
        text = text[:at] + ("" if end >= 0 else "\n") + line + text[at:]
    else:
        text = text + ("" if not text or text.endswith("\n") else "\n") + "\n[index]\n" + line
    path.write_text(text, encoding="utf-8")
    vault.settings.index["vault_id"] = minted
    commit_change(vault, [SETTINGS_FILE], "index-vault-id", f"vault id {minted}")


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
    "DSN_ENV",
    "BackendFactory",
    "backend_name",
    "has_password",
    "index_dsn",
    "open_backend",
    "register_backend",
    "vault_id",
]
