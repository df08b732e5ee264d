"""One shape for every place where mnemex picks an implementation by name.

Embedders (``[embedder] name``), transcript readers (by harness), model providers
(``[model] provider``) and index backends (``[index] backend``) are each a
:class:`Registry`: a mapping of names to factories whose built-ins are registered on
first use, so importing a registry costs nothing and a heavy implementation (the ONNX
model, a database driver) is imported only when it is chosen. An unknown name is a
:class:`~mnemex.errors.ConfigError` that lists the known ones.

Registries are internal: third-party entry points are not read (yet). Tests register
their own implementations with ``monkeypatch.setitem(REGISTRY, name, factory)``, which
the mapping interface makes undoable.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from typing import TypeVar

from mnemex.errors import ConfigError

F = TypeVar("F")


class Registry(MutableMapping[str, F]):
    """Named factories of one kind. ``builtins`` registers the built-in ones, once."""

    def __init__(self, kind: str, builtins: Callable[[Registry[F]], None]) -> None:
        self.kind = kind
        self._builtins: Callable[[Registry[F]], None] | None = builtins
        self._factories: dict[str, F] = {}

    def _ready(self) -> dict[str, F]:
        if self._builtins is not None:
            load, self._builtins = self._builtins, None
            load(self)
        return self._factories

    def register(self, name: str, factory: F) -> None:
        """Make ``factory`` available under ``name`` (replacing one of that name)."""
        self._ready()[name] = factory

    def factory(self, name: str) -> F:
        """The factory registered under ``name``.

        Raises:
            ConfigError: none is; the message lists the names that are.
        """
        try:
            return self._ready()[name]
        except KeyError:
            known = ", ".join(sorted(self._factories))
            raise ConfigError(f"unknown {self.kind} {name!r}; known: {known}") from None

    def names(self) -> list[str]:
        return sorted(self._ready())

    def __getitem__(self, name: str) -> F:
        return self._ready()[name]

    def __setitem__(self, name: str, factory: F) -> None:
        self._ready()[name] = factory

    def __delitem__(self, name: str) -> None:
        del self._ready()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._ready())

    def __len__(self) -> int:
        return len(self._ready())


__all__ = ["Registry"]
