"""A :class:`Brain` is a vault, its index and its embedder, opened together.

It is cheap to open: the index is opened with the backend the vault's settings
choose (:func:`mnemex.index.open.open_backend`, or the one passed in), the
embedding model is loaded only when something needs a vector (a search, or new
chunks to embed). The CLI and the MCP server each hold one and call the
capability functions with it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from mnemex.config import VaultLocation, resolve_vault
from mnemex.embed import Embedder, load_embedder
from mnemex.index.backend import IndexBackend, UnresolvedLink
from mnemex.index.open import open_backend
from mnemex.index.sync import Indexer, ProgressFactory, SyncResult
from mnemex.vault import LinkResolver, Vault
from mnemex.vault.links import attachment_paths
from mnemex.vault.markdown import is_placeholder


class Brain:
    """A vault with its derived index and (lazily) its embedder."""

    def __init__(
        self,
        vault: Vault,
        backend: IndexBackend | None = None,
        embedder: Embedder | Callable[[], Embedder] | None = None,
        location: VaultLocation | None = None,
    ) -> None:
        self.vault = vault
        self.location = location or VaultLocation(vault.root, "explicit")
        self.backend: IndexBackend = backend if backend is not None else open_backend(vault)
        self._embedder: Embedder | None = embedder if isinstance(embedder, Embedder) else None
        self._embedder_factory = embedder if callable(embedder) else None

    @classmethod
    def open(cls, vault: str | os.PathLike[str] | None = None, cwd: Path | None = None) -> Brain:
        """Open the vault found by :func:`mnemex.config.resolve_vault`."""
        location = resolve_vault(vault, cwd=cwd)
        return cls(Vault(location.path), location=location)

    @property
    def embedder(self) -> Embedder:
        """The configured embedder, loaded on first use."""
        if self._embedder is None:
            if self._embedder_factory is not None:
                self._embedder = self._embedder_factory()
            else:
                settings = self.vault.settings
                self._embedder = load_embedder(settings.embedder_name, settings.embedder)
        return self._embedder

    @property
    def embedder_loaded(self) -> bool:
        return self._embedder is not None

    def indexer(self, progress: ProgressFactory | None = None) -> Indexer:
        return Indexer(self.vault, self.backend, lambda: self.embedder, progress=progress)

    def sync(self, progress: ProgressFactory | None = None, wait: float = 0.0) -> SyncResult:
        """Bring the index up to date with the vault (incremental). An index other
        machines write too may defer it (see :meth:`Indexer.sync`; ``wait`` is how long
        to wait for another writer)."""
        with self.vault.lock("index"):
            return self.indexer(progress).sync(wait)

    def rebuild(self, progress: ProgressFactory | None = None, wait: float = 0.0) -> SyncResult:
        """Rebuild the index from the files (deferred as :meth:`sync` is)."""
        with self.vault.lock("index"):
            return self.indexer(progress).rebuild(wait)

    def links_to_nowhere(self, limit: int = 50) -> tuple[int, list[UnresolvedLink]]:
        """Links that name no note and no other file of the vault, as Obsidian resolves
        them: how many, and the first ``limit`` (source path, line, target, embed).

        The index resolves links to notes only, so an embed of an image, a PDF or a
        canvas that exists is unresolved there; it is not a link to nowhere. Template
        placeholders (``[[{{date}}]]``) are not names and are left out too.
        """
        rows = self.backend.unresolved_links(limit=10**9)
        rows = [r for r in rows if not is_placeholder(r.target)]
        if rows:
            attachments = attachment_paths(self.vault.root)
            if attachments:
                resolver = LinkResolver(self.backend.note_paths(), attachments)
                rows = [r for r in rows if resolver.resolve(r.target, r.path) is None]
        return len(rows), rows[:limit]

    def close(self) -> None:
        self.backend.close()

    def __enter__(self) -> Brain:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["Brain"]
