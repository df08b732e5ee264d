"""The built-in tools. Importing this package registers them with :data:`mnemex.mcp.registry`.

Later capabilities (working state, foundations, harvested memories, ingestion,
health) add a module here, or register from their own package, the same way.
"""

from mnemex.mcp.tools import (
    browse,
    facts,
    foundations,
    health,
    ingest,
    memories,
    recall,
    state,
    write,
)

__all__ = [
    "browse",
    "facts",
    "foundations",
    "health",
    "ingest",
    "memories",
    "recall",
    "state",
    "write",
]
