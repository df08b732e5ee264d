"""A tiny deterministic embedder from hashed word and character-trigram features.

No model, no download, a few microseconds per text: for tests that need real
vectors fast, and as a last-resort fallback. Its recall is far below MiniLM's.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from mnemex.embed import Embedder, Vectors, normalise

_WORD_RE = re.compile(r"\w+", re.UNICODE)


class HashingEmbedder(Embedder):
    """Feature hashing of lower-cased words and their character trigrams."""

    batch_size = 256

    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self.identity = f"hashing-{dim}@1"

    def _bucket(self, feature: str) -> tuple[int, float]:
        digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
        value = int.from_bytes(digest, "little")
        return value % self.dim, (1.0 if value >> 63 else -1.0)

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _WORD_RE.findall(text.lower()):
                idx, sign = self._bucket(word)
                out[row, idx] += sign
                padded = f"#{word}#"
                for i in range(len(padded) - 2):
                    idx, sign = self._bucket(padded[i : i + 3])
                    out[row, idx] += 0.3 * sign
        return normalise(out)
