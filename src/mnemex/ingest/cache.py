"""Model extractions kept machine-locally, so a preview and its apply pay for one run.

``mnemex ingest X --preview`` runs the model and stores what it extracted under
``.mnemex/ingest/extractions/<source sha256>-<setup hash>.json``; ``mnemex ingest X``
then plans from that file: no model call, no cost, and exactly the pages the preview
showed. The setup hash covers what changes the answer (the model's identity, its context
and output limits, its temperature, and the prompts and schemas): another model or a new
prompt extracts afresh. An extraction that fell back to the offline extractor as a whole
is not kept, so the next run asks the model again. A file that cannot be read back is
ignored with a warning and the source extracted again.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import Any

from mnemex.ingest.records import Evidence, Extraction, PlannedPage, SourceDoc
from mnemex.llm import ModelClient
from mnemex.vault import LOCAL_DIR, Vault, atomic_write

#: The layout of a stored file (:func:`to_dict`); a file of another version is recomputed.
FORMAT_VERSION = 1

CACHE_DIR = "ingest/extractions"


def setup_hash(client: ModelClient) -> str:
    """A short hash of everything besides the source that shapes a model extraction."""
    from mnemex.ingest import llm_extract as mx

    config = client.config
    parts = {
        "format": FORMAT_VERSION,
        "identity": client.identity,
        "context_tokens": config.context_tokens,
        "max_output_tokens": config.max_output_tokens,
        "temperature": config.temperature,
        "system": mx.SYSTEM,
        "outline_schema": mx.OUTLINE_SCHEMA,
        "batch_schema": mx.BATCH_SCHEMA,
        "prompts": [mx.PROMPT_VERSION, mx.OUTLINE_MAX_TOKENS, mx.BATCH_MAX_TOKENS],
    }
    text = json.dumps(parts, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def cache_path(vault: Vault, doc: SourceDoc, client: ModelClient) -> Path:
    """Where the model extraction of ``doc`` by ``client`` is kept."""
    return vault.root / LOCAL_DIR / CACHE_DIR / f"{doc.sha256}-{setup_hash(client)}.json"


def load(path: Path) -> tuple[Extraction | None, str | None]:
    """The extraction kept at ``path`` (``None`` when absent), and a warning when unreadable."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, f"cached extraction {path.name} unreadable ({exc}); extracted again"
    try:
        return from_dict(json.loads(data)), None
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        reason = f"{type(exc).__name__}: {exc}"
        return None, f"cached extraction {path.name} is corrupt ({reason}); extracted again"


def store(path: Path, extraction: Extraction) -> None:
    """Keep ``extraction`` at ``path`` (atomically: a reader sees the old file or the new)."""
    text = json.dumps(to_dict(extraction), ensure_ascii=False, indent=1, sort_keys=True)
    atomic_write(path, (text + "\n").encode("utf-8"))


def to_dict(extraction: Extraction) -> dict[str, Any]:
    return {"version": FORMAT_VERSION, "extraction": dataclasses.asdict(extraction)}


def from_dict(data: Any) -> Extraction:
    """An :class:`Extraction` from :func:`to_dict`'s output, every field type-checked.

    Raises:
        ValueError, TypeError, KeyError: the data is not a stored extraction.
    """
    if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION:
        raise ValueError("not a stored extraction of this version")
    raw = data["extraction"]
    pages = [_page(p) for p in _list(raw["pages"], dict)]
    relations = []
    for rel in _list(raw["relations"], list):
        a, relation, b = _list(rel, str)
        relations.append((a, relation, b))
    return Extraction(
        title=_str(raw["title"]),
        summary=_list(raw["summary"], str),
        key_points=_list(raw["key_points"], str),
        pages=pages,
        relations=relations,
        extractor=_str(raw["extractor"]),
        warnings=_list(raw["warnings"], str),
    )


def _page(raw: dict[str, Any]) -> PlannedPage:
    kind = raw["kind"]
    if kind not in ("entity", "concept"):
        raise ValueError(f"page kind {kind!r}")
    facts = []
    for fact in _list(raw["facts"], dict):
        position = fact["position"]
        if not isinstance(position, int):
            raise TypeError("fact position is not an integer")
        facts.append(Evidence(_str(fact["text"]), position))
    mentions = raw["mentions"]
    if not isinstance(mentions, int):
        raise TypeError("mentions is not an integer")
    return PlannedPage(
        name=_str(raw["name"]),
        kind="entity" if kind == "entity" else "concept",
        type=_str(raw["type"]),
        aliases=_list(raw["aliases"], str),
        description=_str(raw["description"]),
        facts=facts,
        related=_list(raw["related"], str),
        mentions=mentions,
    )


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {type(value).__name__}")
    return value


def _list(value: Any, kind: type) -> list[Any]:
    if not isinstance(value, list) or not all(isinstance(v, kind) for v in value):
        raise TypeError(f"expected a list of {kind.__name__}")
    return list(value)


__all__ = [
    "CACHE_DIR",
    "FORMAT_VERSION",
    "cache_path",
    "from_dict",
    "load",
    "setup_hash",
    "store",
    "to_dict",
]
