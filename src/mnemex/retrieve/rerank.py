"""Optional reranking: re-score the best hits of a search with a cross-encoder over HTTP.

A cross-encoder reads the query and a document together, so it ranks better than the fused
lexical and vector scores, but it is a model: mnemex ships none (no PyPI package ships a
cross-encoder without downloading its weights at run time). When one is configured, mnemex
asks a provider's ``/rerank`` endpoint, in the shape Cohere, Jina, vLLM, llama.cpp-server,
Infinity and TEI share::

    POST {base_url}/rerank
    {"model": ..., "query": ..., "documents": [str, ...], "top_n": n}
    -> {"results": [{"index": i, "relevance_score": s}, ...]}

``"score"`` is accepted for ``"relevance_score"``, and a bare top-level list of results (as
TEI answers) for the ``{"results": [...]}`` object.

Settings (``[search.rerank]`` in ``mnemex.toml``; without the table, nothing is reranked)::

    base_url = "http://127.0.0.1:8080/v1"   # required
    model = "bge-reranker-v2-m3"            # required
    api_key_env = "RERANK_API_KEY"          # optional: the *name* of the variable
    timeout = 10                            # seconds
    top = 50                                # how many of the best hits are re-scored

Keys never live in the vault: only the name of the environment variable does.
Uses the standard library's HTTP client, so it adds no dependency.
"""

from __future__ import annotations

import json
import math
import os
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mnemex.errors import ConfigError, RerankError

RERANK_KEYS = ("base_url", "model", "api_key_env", "timeout", "top")


def _positive(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value > 0


@dataclass(frozen=True)
class RerankSettings:
    """The ``[search.rerank]`` table, checked."""

    base_url: str
    model: str
    api_key_env: str | None = None
    timeout: float = 10.0
    top: int = 50

    @classmethod
    def from_settings(cls, table: Mapping[str, Any]) -> RerankSettings:
        """Check and read the table.

        Raises:
            ConfigError: an unknown key, a missing or empty required key, or a bad value.
        """
        where = "mnemex.toml: [search.rerank]"
        unknown = sorted(set(table) - set(RERANK_KEYS))
        if unknown:
            known = ", ".join(RERANK_KEYS)
            raise ConfigError(f"{where} has unknown key(s) {unknown}; known: {known}")
        for key in ("base_url", "model"):
            if not isinstance(table.get(key), str) or not table[key].strip():
                raise ConfigError(f"{where} needs {key} (a non-empty string)")
        base_url = table["base_url"].strip().rstrip("/")
        if not base_url.startswith(("http://", "https://")):
            raise ConfigError(f"{where} base_url must start with http:// or https://")
        key_env = table.get("api_key_env")
        if key_env is not None and (not isinstance(key_env, str) or not key_env):
            raise ConfigError(f"{where} api_key_env must be the name of an environment variable")
        timeout = table.get("timeout", cls.timeout)
        if not _positive(timeout):
            raise ConfigError(f"{where} timeout must be a number of seconds > 0")
        top = table.get("top", cls.top)
        if not _positive(top) or not isinstance(top, int):
            raise ConfigError(f"{where} top must be a whole number > 0")
        return cls(base_url, table["model"].strip(), key_env, float(timeout), top)


class Reranker:
    """Client for ``POST {base_url}/rerank``."""

    def __init__(self, settings: RerankSettings, api_key: str | None = None) -> None:
        self.settings = settings
        self._api_key = api_key
        self._url = f"{settings.base_url.rstrip('/')}/rerank"

    @property
    def identity(self) -> str:
        return f"rerank:{self.settings.model}@{self.settings.base_url.rstrip('/')}"

    def scores(self, query: str, documents: Sequence[str]) -> list[float]:
        """One relevance score per document, in the order of ``documents``.

        Raises:
            RerankError: the server cannot be reached, answers an error, or does not
                score every document with a finite number.
        """
        if not documents:
            return []
        body = {
            "model": self.settings.model,
            "query": query,
            "documents": list(documents),
            "top_n": len(documents),
        }
        headers = {"Content-Type": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        request = urllib.request.Request(
            self._url, data=json.dumps(body).encode(), headers=headers, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=self.settings.timeout) as response:
                payload = json.loads(response.read())
        except urllib.error.HTTPError as exc:
            with exc:
                detail = exc.read()[:300].decode("utf-8", "replace")
            raise RerankError(f"{self._url}: HTTP {exc.code}: {detail}") from exc
        except (urllib.error.URLError, OSError) as exc:
            raise RerankError(f"{self._url}: cannot reach the rerank server ({exc})") from exc
        except ValueError as exc:
            raise RerankError(f"{self._url}: answer is not JSON ({exc})") from exc
        return self._read(payload, len(documents))

    def _read(self, payload: Any, count: int) -> list[float]:
        results = payload.get("results") if isinstance(payload, dict) else payload
        if not isinstance(results, list):
            raise RerankError(f"{self._url}: answer has no list of results")
        found: dict[int, float] = {}
        for item in results:
            if not isinstance(item, dict):
                raise RerankError(f"{self._url}: a result is not an object: {item!r:.100}")
            index = item.get("index")
            score = item.get("relevance_score", item.get("score"))
            if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < count:
                raise RerankError(f"{self._url}: result index {index!r} is not in 0..{count - 1}")
            if index in found:
                raise RerankError(f"{self._url}: document {index} is scored twice")
            if (
                not isinstance(score, int | float)
                or isinstance(score, bool)
                or not math.isfinite(score)
            ):
                raise RerankError(f"{self._url}: document {index} has no finite score")
            found[index] = float(score)
        missing = sorted(set(range(count)) - set(found))
        if missing:
            raise RerankError(
                f"{self._url}: {len(missing)} of {count} documents not scored, e.g. {missing[:5]}"
            )
        return [found[i] for i in range(count)]


def load_reranker(search_settings: Mapping[str, Any]) -> Reranker | None:
    """The reranker ``[search.rerank]`` configures, or None without that table.

    Raises:
        ConfigError: the table is not a table, or its settings are wrong.
    """
    table = search_settings.get("rerank")
    if table is None:
        return None
    if not isinstance(table, Mapping):
        raise ConfigError("mnemex.toml: [search.rerank] must be a table")
    settings = RerankSettings.from_settings(table)
    key = os.environ.get(settings.api_key_env) if settings.api_key_env else None
    return Reranker(settings, api_key=key)


__all__ = ["RerankError", "RerankSettings", "Reranker", "load_reranker"]
