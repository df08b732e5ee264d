"""The derived index: machine-local, incremental, rebuildable from the vault.

The rest of mnemex speaks only :class:`~mnemex.index.backend.IndexBackend` (its
contract is in :mod:`mnemex.index.backend`) and gets one from
:func:`~mnemex.index.open.open_backend`; :mod:`mnemex.index.sync` keeps it in step
with the files. Backends live in subpackages (``sqlite/`` today) and only
:mod:`mnemex.index.open` imports them.
"""

from mnemex.index.backend import IndexBackend, Scope
from mnemex.index.chunking import Chunk, chunk_body
from mnemex.index.open import open_backend, register_backend
from mnemex.index.sync import Indexer, SyncResult

__all__ = [
    "Chunk",
    "IndexBackend",
    "Indexer",
    "Scope",
    "SyncResult",
    "chunk_body",
    "open_backend",
    "register_backend",
]
