"""The SQLite backend of the index (FTS5 keywords, vectors in a table beside them)."""
