"""Which domain and project names are private: the one rule.

A name is private when ``[vault] private`` in ``mnemex.toml`` lists it; a domain or project
called ``private`` always is, whatever the file says. Private names never leave the machine:
their folders are git-ignored, never committed or pushed, and an interface serves them only
when started with them (:class:`mnemex.retrieve.privacy.Privacy` applies this rule to what
is served).
"""

from __future__ import annotations

from mnemex.config import Settings

#: The name that is private in every vault.
ALWAYS_PRIVATE = "private"

#: The top folders that hold a domain's or a project's files, each git-ignored when private.
_NAMED_FOLDERS = ("wiki", "foundations", "state", "memories", "facts")


def private_names(settings: Settings) -> frozenset[str]:
    """Every private domain or project name of a vault."""
    return frozenset({ALWAYS_PRIVATE, *settings.private})


def is_private(settings: Settings, name: str | None) -> bool:
    """Whether a domain or project name is private (``private`` always is)."""
    return bool(name) and name in private_names(settings)


def private_folders(settings: Settings) -> list[str]:
    """The ``<top>/<name>/`` folders of every private name, in ``.gitignore`` line order."""
    return [f"{top}/{name}/" for name in sorted(private_names(settings)) for top in _NAMED_FOLDERS]


__all__ = ["ALWAYS_PRIVATE", "is_private", "private_folders", "private_names"]
