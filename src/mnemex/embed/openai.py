"""Any OpenAI-compatible ``/v1/embeddings`` server: Ollama, LM Studio, llama.cpp, vLLM, OpenAI.

Settings (``[embedder]`` in ``mnemex.toml``)::

    name = "openai"
    base_url = "http://127.0.0.1:11434/v1"   # required
    model = "nomic-embed-text"               # required
    dim = 768                                # optional; learned from the first answer
    api_key_env = "OPENAI_API_KEY"           # optional: the *name* of the variable

Keys never live in the vault: only the name of the environment variable does.
Uses the standard library's HTTP client, so it adds no dependency.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import Any

import numpy as np

from mnemex.embed import Embedder, Vectors, normalise
from mnemex.errors import ConfigError, EmbedderError


class OpenAIEmbedder(Embedder):
    """Client for ``POST {base_url}/embeddings``."""

    batch_size = 64

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        dim: int = 0,
        timeout: float = 60.0,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self._api_key = api_key
        self.dim = dim
        self.timeout = timeout
        self.identity = f"openai:{model}@{self.base_url}"

    @classmethod
    def from_settings(cls, settings: dict[str, Any]) -> OpenAIEmbedder:
        base_url = settings.get("base_url")
        model = settings.get("model")
        if not base_url or not model:
            raise ConfigError('[embedder] name = "openai" needs base_url and model')
        key_env = str(settings.get("api_key_env", "OPENAI_API_KEY"))
        return cls(
            str(base_url),
            str(model),
            api_key=os.environ.get(key_env),
            dim=int(settings.get("dim", 0)),
            timeout=float(settings.get("timeout", 60)),
        )

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        body = json.dumps({"model": self.model, "input": list(texts)}).encode()
        headers = {"Content-Type": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        request = urllib.request.Request(
            f"{self.base_url}/embeddings", data=body, headers=headers, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                payload = json.loads(response.read())
        except urllib.error.HTTPError as exc:
            detail = exc.read()[:300].decode("utf-8", "replace")
            raise EmbedderError(f"{self.base_url}: HTTP {exc.code}: {detail}") from exc
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            raise EmbedderError(
                f"{self.base_url}: cannot reach the embedding server ({exc})"
            ) from exc
        except json.JSONDecodeError as exc:
            raise EmbedderError(f"{self.base_url}: answer is not JSON ({exc})") from exc
        try:
            items = sorted(payload["data"], key=lambda d: d.get("index", 0))
            matrix = np.asarray([item["embedding"] for item in items], dtype=np.float32)
        except (KeyError, TypeError, ValueError) as exc:
            raise EmbedderError(f"{self.base_url}: unexpected answer shape ({exc})") from exc
        if matrix.ndim != 2 or matrix.shape[0] != len(texts):
            raise EmbedderError(
                f"{self.base_url}: asked for {len(texts)} vectors, got {matrix.shape[0]}"
            )
        if self.dim and matrix.shape[1] != self.dim:
            raise EmbedderError(
                f"{self.base_url}: vectors have {matrix.shape[1]} dimensions, expected {self.dim}"
            )
        self.dim = int(matrix.shape[1])
        return normalise(matrix)
