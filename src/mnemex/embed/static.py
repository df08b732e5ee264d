"""A fast static embedder: WordLlama (``l2_supercat``, 256 dimensions).

Token embeddings averaged, no transformer: thousands of chunks a second on one
core, for very large vaults where MiniLM's ~150 chunks/s is too slow to build
the index. Its weights ship inside the ``wordllama`` wheel; loading runs with
downloads disabled, so it never reaches for the network. Install with
``pip install 'mnemex[fast]'``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mnemex.embed import Embedder, Vectors, normalise
from mnemex.errors import EmbedderError


class WordLlamaEmbedder(Embedder):
    """WordLlama ``l2_supercat`` static embeddings."""

    batch_size = 512

    def __init__(self, dim: int = 256) -> None:
        root = logging.getLogger()
        handlers, level = list(root.handlers), root.level
        try:
            from wordllama import WordLlama
        except ImportError as exc:
            raise EmbedderError(
                "the wordllama embedder needs the optional package: pip install 'mnemex[fast]'"
            ) from exc
        finally:
            # wordllama calls logging.basicConfig() on import; undo it
            root.handlers[:] = handlers
            root.setLevel(level)
        import wordllama

        # wordllama looks for its shipped tokenizer in "tokenizer/" but ships it in
        # "tokenizers/", which is where it looks in a cache folder: so point the cache
        # at the package itself. Downloads stay disabled either way.
        shipped = Path(wordllama.__file__).parent
        try:
            self._model: Any = WordLlama.load(dim=dim, cache_dir=shipped, disable_download=True)
        except (FileNotFoundError, ValueError) as exc:
            raise EmbedderError(f"wordllama could not load its shipped weights: {exc}") from exc
        self.dim = dim
        self.identity = f"wordllama-l2-supercat-{dim}@1"

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = self._model.embed(list(texts), norm=False, batch_size=self.batch_size)
        return normalise(np.asarray(vectors, dtype=np.float32))
