"""Where the vault is, and what its ``mnemex.toml`` says.

Resolution order, first match wins (an explicit choice always beats anything in
the home directory, which is what keeps tests and scripts off a real brain):

1. an explicit path (the CLI's global ``--vault``, a function argument);
2. the ``MNEMEX_VAULT`` environment variable;
3. discovery: the nearest folder at or above the current directory holding ``mnemex.toml``;
4. the user default: ``vault = "..."`` in ``$MNEMEX_CONFIG`` or
   ``$XDG_CONFIG_HOME/mnemex/config.toml`` (``~/.config/mnemex/config.toml``).
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mnemex.errors import ConfigError

SETTINGS_FILE = "mnemex.toml"
FORMAT_VERSION = 1
DEFAULT_DOMAINS = ("general",)


@dataclass(frozen=True)
class VaultLocation:
    """A resolved vault path and how it was found (shown by ``doctor``)."""

    path: Path
    source: str  # "explicit" | "env" | "discovered" | "user-default"


def user_config_file() -> Path:
    """The per-user config file (it may not exist)."""
    explicit = os.environ.get("MNEMEX_CONFIG")
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "mnemex" / "config.toml"


def discover(start: Path) -> Path | None:
    """The nearest folder at or above ``start`` that holds ``mnemex.toml``."""
    current = start.resolve()
    for folder in (current, *current.parents):
        if (folder / SETTINGS_FILE).is_file():
            return folder
    return None


def resolve_vault(
    explicit: str | os.PathLike[str] | None = None, cwd: Path | None = None
) -> VaultLocation:
    """Find the vault, following the order in this module's docstring.

    Raises:
        ConfigError: no vault could be found.
    """
    if explicit:
        return VaultLocation(Path(explicit).expanduser().resolve(), "explicit")
    env = os.environ.get("MNEMEX_VAULT")
    if env:
        return VaultLocation(Path(env).expanduser().resolve(), "env")
    found = discover(cwd or Path.cwd())
    if found is not None:
        return VaultLocation(found, "discovered")
    config = user_config_file()
    if config.is_file():
        data = _read_toml(config)
        vault = data.get("vault")
        if isinstance(vault, str) and vault:
            return VaultLocation(Path(vault).expanduser().resolve(), "user-default")
    raise ConfigError(
        "no vault found: pass --vault PATH, set MNEMEX_VAULT, run inside a vault, "
        f'or set vault = "..." in {config}; create one with `mnemex init PATH`'
    )


@dataclass
class Settings:
    """The parsed ``mnemex.toml`` of a vault (defaults where it is silent)."""

    name: str = "brain"
    format: int = FORMAT_VERSION
    domains: list[str] = field(default_factory=lambda: list(DEFAULT_DOMAINS))
    private: list[str] = field(default_factory=lambda: ["private"])
    #: the vault owner's name: who "I" is in the owner's own statements (facts)
    owner: str | None = None
    embedder: dict[str, Any] = field(default_factory=lambda: {"name": "minilm"})
    search: dict[str, Any] = field(default_factory=dict)
    harvest: dict[str, Any] = field(default_factory=dict)
    model: dict[str, Any] = field(default_factory=dict)
    health: dict[str, Any] = field(default_factory=dict)
    index: dict[str, Any] = field(default_factory=dict)
    consolidate: dict[str, Any] = field(default_factory=dict)
    #: ``[team.<name>]`` tables: the shared brains this vault takes part in (docs/team.md)
    teams: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def embedder_name(self) -> str:
        return str(self.embedder.get("name", "minilm"))


def user_settings() -> dict[str, Any]:
    """What the per-user config file says (empty when there is none): this machine's own
    choices, such as ``[index] dsn``, which a vault's ``mnemex.toml`` (it syncs) cannot make.

    Raises:
        ConfigError: the file is not valid TOML.
    """
    path = user_config_file()
    return _read_toml(path) if path.is_file() else {}


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc


def load_settings(vault: Path) -> Settings:
    """Read ``<vault>/mnemex.toml``; a missing file means all defaults.

    Raises:
        ConfigError: the file is not valid TOML or a value has the wrong type.
    """
    path = vault / SETTINGS_FILE
    if not path.is_file():
        return Settings(name=vault.name or "brain")
    data = _read_toml(path)
    table = data.get("vault", {})
    settings = Settings(name=str(table.get("name", vault.name or "brain")))
    settings.format = int(table.get("format", FORMAT_VERSION))
    if settings.format > FORMAT_VERSION:
        raise ConfigError(
            f"{path}: vault format {settings.format} is newer than this mnemex "
            f"understands ({FORMAT_VERSION}); upgrade mnemex"
        )
    for key in ("domains", "private"):
        value = table.get(key, getattr(settings, key))
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{path}: [vault] {key} must be a list of strings")
        setattr(settings, key, list(value))
    mirrors = [d for d in settings.domains if d.startswith("shared-")]
    if mirrors:
        raise ConfigError(
            f"{path}: [vault] domains {mirrors}: names starting with 'shared-' are reserved for "
            "team mirrors (wiki/shared-<team>/); rename the domain"
        )
    owner = table.get("owner")
    if owner is not None and (not isinstance(owner, str) or not owner.strip()):
        raise ConfigError(f"{path}: [vault] owner must be a name (a non-empty string)")
    settings.owner = owner.strip() if isinstance(owner, str) else None
    for key in ("embedder", "search", "model", "harvest", "health", "index", "consolidate"):
        value = data.get(key, getattr(settings, key))
        if not isinstance(value, dict):
            raise ConfigError(f"{path}: [{key}] must be a table")
        setattr(settings, key, {**getattr(settings, key), **value})
    teams = data.get("team", {})
    if not isinstance(teams, dict) or not all(isinstance(t, dict) for t in teams.values()):
        raise ConfigError(f"{path}: [team.<name>] must be tables, one per team")
    settings.teams = {str(name): dict(table) for name, table in teams.items()}
    return settings


def settings_template(name: str) -> str:
    """The ``mnemex.toml`` that ``mnemex init`` writes."""
    return f"""# mnemex vault settings (no secrets here: API keys come from the environment)
[vault]
format = {FORMAT_VERSION}
name = "{name}"
# knowledge domains: wiki/<domain>/
domains = ["general"]
# private domains and projects never leave this machine ("private" always is)
private = ["private"]
# who "I" is in your own statements of fact (`mnemex fact add "I live in Lisbon"`)
# owner = "Your Name"

[embedder]
# minilm (default, offline) | wordllama (fast, static) | openai (any /v1/embeddings server)
name = "minilm"
"""


__all__ = [
    "FORMAT_VERSION",
    "SETTINGS_FILE",
    "Settings",
    "VaultLocation",
    "discover",
    "load_settings",
    "resolve_vault",
    "settings_template",
    "user_config_file",
    "user_settings",
]
