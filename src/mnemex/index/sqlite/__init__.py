"""The SQLite backend of the index: one file, FTS5 for keywords, vectors in a table beside
them and a matrix in memory. :mod:`mnemex.index.open` is the only module outside it that
imports it."""
