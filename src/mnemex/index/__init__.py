"""The derived index: machine-local, incremental, rebuildable from the vault."""

from mnemex.index.backend import IndexBackend, Scope
from mnemex.index.chunking import Chunk, chunk_body
from mnemex.index.sqlite.store import SQLiteIndex
from mnemex.index.sync import Indexer, SyncResult

__all__ = ["Chunk", "IndexBackend", "Indexer", "SQLiteIndex", "Scope", "SyncResult", "chunk_body"]
