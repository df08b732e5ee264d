"""The PostgreSQL backend of the index: one schema per vault in a database that may serve
several machines, ``tsvector`` for keywords, pgvector for vectors (with an HNSW index).
:mod:`mnemex.index.open` is the only module outside it that imports it.

It may live beyond this machine, so it says ``holds_private = False``: sync keeps every
private domain's and project's note out of it, and :class:`~.store.PostgresIndex` refuses
them itself as well."""
