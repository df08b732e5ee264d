"""Ingesting sources into the knowledge wiki: read, extract, plan the merge, apply.

The pipeline is ``readers`` (a file becomes a :class:`~mnemex.ingest.records.SourceDoc`),
``extract`` (a document becomes an :class:`~mnemex.ingest.records.Extraction`: offline
by default, a model when one is configured), ``plan`` (the extraction is resolved
against the pages that exist: create, merge, or record a possible duplicate) and
``apply`` (the plan is written atomically as one git commit).
"""
