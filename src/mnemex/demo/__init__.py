"""The quickstart's demo: a small brain built from sample notes that ship with mnemex."""

from __future__ import annotations

import shutil
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

from mnemex.brain import Brain
from mnemex.embed import load_embedder
from mnemex.retrieve import search
from mnemex.vault import Vault, init_vault

QUERIES = (
    "how do we roll back a bad release?",
    "why did the admin search move off Elasticsearch",
    "export timeout big tenant",
    "who owns the booking service",
)


def sample_notes() -> Path:
    return Path(str(resources.files("mnemex.demo") / "notes"))


def run_demo(path: Path | None = None, embedder: str | None = None) -> dict[str, Any]:
    """Copy the sample notes into a new vault, index it, and run :data:`QUERIES`."""
    root = path or Path(tempfile.mkdtemp(prefix="mnemex-demo-"))
    root.mkdir(parents=True, exist_ok=True)
    shutil.copytree(sample_notes(), root, dirs_exist_ok=True)
    init_vault(root, name="demo")
    vault = Vault(root)
    chosen = embedder or vault.settings.embedder_name
    with Brain(vault, embedder=lambda: load_embedder(chosen, vault.settings.embedder)) as brain:
        synced = brain.sync()
        searches = []
        for query in QUERIES:
            result = search(brain, query, k=3)
            searches.append({"query": query, "hits": [h.to_dict() for h in result.hits]})
    return {"vault": str(root), "index": synced.to_dict(), "searches": searches}


__all__ = ["QUERIES", "run_demo", "sample_notes"]
