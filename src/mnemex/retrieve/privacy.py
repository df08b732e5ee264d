"""What an interface may serve: private domains and projects stay on the machine.

Which names are private is :mod:`mnemex.vault.privacy`'s rule. An interface that serves
the brain to agents (the MCP server, over stdio or HTTP) hides them unless it was started
with them named, and refuses a request that names one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from mnemex.config import Settings
from mnemex.errors import VaultError
from mnemex.index.backend import Scope
from mnemex.vault import placement
from mnemex.vault.privacy import private_names


@dataclass(frozen=True)
class Privacy:
    """The private names of a vault and which of them are served anyway."""

    private: frozenset[str]
    included: frozenset[str] = frozenset()

    @classmethod
    def of(cls, settings: Settings, include: Iterable[str] = ()) -> Privacy:
        """Privacy for a vault; ``include`` names private domains/projects to serve.

        Raises:
            VaultError: an included name is not private (a typo would serve nothing).
        """
        private = private_names(settings)
        included = frozenset(include)
        unknown = sorted(included - private)
        if unknown:
            raise VaultError(
                f"{', '.join(unknown)}: not private in mnemex.toml (private: "
                f"{', '.join(sorted(private))}); only private names need including"
            )
        return cls(private, included)

    @property
    def hidden(self) -> tuple[str, ...]:
        return tuple(sorted(self.private - self.included))

    def hides(self, name: str | None) -> bool:
        return bool(name) and name in self.private and name not in self.included

    def hides_path(self, rel: str, project: str | None = None) -> bool:
        """Whether a vault-relative path (or the project a note names) is hidden."""
        where = placement(rel)
        return self.hides(where.domain) or self.hides(where.project) or self.hides(project)

    def check_names(self, names: Iterable[str], what: str) -> None:
        """Refuse a request that names a hidden domain or project.

        Raises:
            VaultError: a name is private and not served.
        """
        for name in names:
            if self.hides(name):
                raise VaultError(
                    f"{what} {name!r} is private and not served here; a person can serve it "
                    f"by starting the server with --include-private {name}"
                )

    def scope(self, scope: Scope) -> Scope:
        """``scope`` with the hidden names excluded (and refused if it names one)."""
        self.check_names(scope.domains, "domain")
        self.check_names(scope.projects, "project")
        return replace(scope, exclude_private=self.hidden)


__all__ = ["Privacy"]
