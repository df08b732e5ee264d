"""The exceptions mnemex raises, in one place.

::

    MnemexError                 anything mnemex refuses or cannot do
    ├── ConfigError             settings or vault location are wrong
    ├── VaultError              a vault operation was refused
    │   ├── PathOutsideVault    a path escapes the vault (``..``, absolute, symlink)
    │   ├── ProtectedPath       a kind's folder that only its own tools may write
    │   ├── WriteConflict       the file changed on disk since it was read
    │   │   └── PageExists      write_page without a hash, for a page that exists
    │   ├── NoteNotFound        no note at that path or link
    │   ├── PlanRefused         a plan_id that is unknown, expired, or whose files changed
    │   ├── StateRefused        a state save refused (unknown project, shrinking save, ...)
    │   ├── FactError           a fact file cannot be read, or a fact change was refused
    │   └── IngestFailed        writing an ingest plan failed part-way; the vault was put back
    ├── SourceReadError         a source to ingest could not be read
    ├── DatasetError            an evaluation dataset is missing a file or has a bad line
    ├── ServerProbeFailed       `doctor`'s MCP server did not start or answer in time
    ├── TeamError               a team operation was refused or its shared repository failed
    ├── IndexUnavailable        the derived index is missing, stale or unusable
    ├── EmbedderError           an embedder could not load or answer
    ├── RerankError             the configured reranker could not be reached or answered badly
    ├── ModelError              a model provider call failed (see :mod:`mnemex.llm`)
    │   ├── ModelAuthError      401/403: the key is missing or wrong (names the env var)
    │   ├── ModelUnavailable    429/5xx/timeouts after the retries, or nothing listening
    │   └── ModelOutputError    the answer is not usable (bad JSON body, invalid structured output)
    └── CostConfirmationRequired  a run's estimated cost needs an explicit yes

Interfaces (the CLI, the MCP server) catch :class:`MnemexError` and show its message;
anything else is a bug and keeps its traceback.
"""

from __future__ import annotations


class MnemexError(Exception):
    """Base of every error mnemex raises on purpose."""


class ConfigError(MnemexError):
    """Settings, or where the vault is, are wrong."""


class VaultError(MnemexError):
    """A vault operation was refused."""


class PathOutsideVault(VaultError):
    """A path resolves outside the vault."""


class ProtectedPath(VaultError):
    """A path belongs to a kind whose own tools alone may write it."""


class WriteConflict(VaultError):
    """The file on disk is not the version the writer read."""

    def __init__(self, path: str, expected: str | None, actual: str | None) -> None:
        self.path = path
        self.expected = expected
        self.actual = actual
        if actual is None:
            detail = "it was deleted"
        elif expected is None:
            detail = "it already exists"
        else:
            detail = f"expected hash {expected[:12]}, found {actual[:12]}"
        super().__init__(
            f"{path} changed on disk since it was read ({detail}); "
            "read it again and reapply your change"
        )


class NoteNotFound(VaultError):
    """No note at that path or link."""


class PlanRefused(VaultError):
    """A plan cannot be applied: unknown or used id, expired, or its files changed since."""


class IndexUnavailable(MnemexError):
    """The derived index is missing or unusable."""


class EmbedderError(MnemexError):
    """An embedder could not load or answer."""


class RerankError(MnemexError):
    """The reranker ``[search.rerank]`` configures could not be reached, or answered badly."""


class ModelError(MnemexError):
    """A model provider call failed; callers may degrade to the offline path."""


class ModelAuthError(ModelError):
    """The provider refused the key (401/403); the message names the env var, never the key."""


class ModelUnavailable(ModelError):
    """The provider kept failing (429, 5xx, timeouts) after the retries, or cannot be reached."""


class ModelOutputError(ModelError):
    """The provider answered, but not with something usable (bad JSON, invalid output)."""


class CostConfirmationRequired(MnemexError):
    """A model run is estimated above ``confirm_above_usd`` and was not confirmed."""


class DatasetError(MnemexError):
    """An evaluation dataset is missing a file or has a bad line."""


class IngestFailed(VaultError):
    """Writing the plan failed part-way; the vault was put back as it was."""


class SourceReadError(MnemexError):
    """A source could not be read; the message says why."""


class FactError(VaultError):
    """A fact file cannot be read as facts, or a fact change was refused."""


class StateRefused(VaultError):
    """A state save was refused (unknown project, empty headline, a shrinking save, ...)."""


class PageExists(WriteConflict):
    """``write_page`` without a hash, for a page that already exists."""

    def __init__(self, path: str, actual: str) -> None:
        super().__init__(path, None, actual)
        self.args = (
            f"{path} already exists (hash {actual}); to replace it pass that hash as "
            "expected_hash (read_page returns it), or use append_to_page to add to it",
        )


class TeamError(MnemexError):
    """A team operation was refused (not a member, not an admin, a private domain, a
    synthesis that would empty the wiki) or the team's shared repository could not be
    reached; nothing was changed where it was refused."""


class ServerProbeFailed(MnemexError):
    """The server did not start, or did not answer ``initialize`` and ``tools/list`` in time."""


__all__ = [
    "ConfigError",
    "CostConfirmationRequired",
    "DatasetError",
    "EmbedderError",
    "FactError",
    "IndexUnavailable",
    "IngestFailed",
    "MnemexError",
    "ModelAuthError",
    "ModelError",
    "ModelOutputError",
    "ModelUnavailable",
    "NoteNotFound",
    "PageExists",
    "PathOutsideVault",
    "PlanRefused",
    "ProtectedPath",
    "ServerProbeFailed",
    "SourceReadError",
    "StateRefused",
    "TeamError",
    "VaultError",
    "WriteConflict",
]
