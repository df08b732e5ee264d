"""mnemex: a local-first second brain for AI agents.

The vault (plain markdown, git) is the truth; the index is derived from it.
Open a brain, sync it, search it::

    from mnemex import Brain, search
    with Brain.open("~/brain") as brain:
        brain.sync()
        for hit in search(brain, "why did we pick SQLite?", k=5).hits:
            print(hit.path, hit.snippet)
"""

# Imported for its side effect: it registers the git baseline and intent record that
# every Vault.write_note/delete_note runs first (vault format §12), whatever imported
# the vault, so no writer can forget them.
import mnemex.vault.history  # noqa: F401
from mnemex.brain import Brain
from mnemex.config import Settings, load_settings, resolve_vault
from mnemex.errors import (
    ConfigError,
    EmbedderError,
    IndexUnavailable,
    MnemexError,
    NoteNotFound,
    PathOutsideVault,
    ProtectedPath,
    VaultError,
    WriteConflict,
)
from mnemex.index.backend import Scope
from mnemex.report import Report
from mnemex.retrieve import Hit, SearchResult, Weights, backlinks, connected, overview, search
from mnemex.vault import Vault, init_vault

__version__ = "0.1.0"

__all__ = [
    "Brain",
    "ConfigError",
    "EmbedderError",
    "Hit",
    "IndexUnavailable",
    "MnemexError",
    "NoteNotFound",
    "PathOutsideVault",
    "ProtectedPath",
    "Report",
    "Scope",
    "SearchResult",
    "Settings",
    "Vault",
    "VaultError",
    "Weights",
    "WriteConflict",
    "__version__",
    "backlinks",
    "connected",
    "init_vault",
    "load_settings",
    "overview",
    "resolve_vault",
    "search",
]
