"""Embedders: turn text into vectors, behind one small interface.

An embedder separates *document* embedding from *query* embedding (some models
want a prefix or a different pooling for queries) and names itself with an
``identity`` string. The index stores that identity beside every vector, so a
change of embedder is detected and the vault is re-embedded rather than mixing
incompatible vectors.

Built-in embedders register themselves in :data:`EMBEDDERS` the same way a
third-party one would: ``register_embedder("name", factory)``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from mnemex.plugins import Registry

Vectors = npt.NDArray[np.float32]


class Embedder:
    """Base class: subclasses implement :meth:`embed_batch` and set ``identity`` and ``dim``.

    Vectors are L2-normalised float32 rows, so a dot product is a cosine.
    """

    #: Stable name of the model *and* its settings; stored with every vector.
    identity: str = ""
    #: Identities of older builds of this same model: a shared index of their vectors is
    #: embedded again by this one rather than refused (and the older build is then refused).
    supersedes: tuple[str, ...] = ()
    #: Vector dimension.
    dim: int = 0
    #: At most this many texts go to one call of :meth:`embed_batch` ...
    batch_size: int = 32
    #: ... and at most about this many characters, so long texts go in small batches.
    batch_chars: int = 1 << 30

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        """Embed a batch of texts; one normalised row per text."""
        raise NotImplementedError

    def embed_documents(
        self, texts: Sequence[str], progress: Callable[[int], None] | None = None
    ) -> Vectors:
        """Embed many document texts, each distinct text once; rows in input order.

        ``progress(n)`` is called as texts are done, ``len(texts)`` in all.
        """
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        index: dict[str, int] = {}
        where = [index.setdefault(text, len(index)) for text in texts]
        distinct = list(index)
        vectors = self.embed_distinct(distinct, progress)
        if progress is not None and len(distinct) < len(texts):
            progress(len(texts) - len(distinct))
        if len(distinct) == len(texts):
            return vectors
        out: Vectors = vectors[np.asarray(where, dtype=np.intp)]
        return out

    def embed_distinct(
        self, texts: Sequence[str], progress: Callable[[int], None] | None = None
    ) -> Vectors:
        """Embed distinct texts in length-sorted batches (``batch_size``, ``batch_chars``).

        Sorting by length keeps padding (wasted work) low in each batch, which is
        most of the throughput of a transformer on a small CPU. Subclasses that can
        measure length better (in tokens) override this.
        """
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        batch: list[int] = []
        chars = 0
        for i in order:
            if batch and (
                len(batch) >= self.batch_size or chars + len(texts[i]) > self.batch_chars
            ):
                out[batch] = self.embed_batch([texts[j] for j in batch])
                if progress is not None:
                    progress(len(batch))
                batch, chars = [], 0
            batch.append(i)
            chars += len(texts[i])
        out[batch] = self.embed_batch([texts[j] for j in batch])
        if progress is not None:
            progress(len(batch))
        return out

    def embed_query(self, text: str) -> Vectors:
        """Embed one query; a 1-D normalised vector."""
        vector: Vectors = self.embed_batch([text])[0]
        return vector


def normalise(matrix: npt.NDArray[Any]) -> Vectors:
    """L2-normalise rows, leaving all-zero rows at zero."""
    m = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: Vectors = (m / norms).astype(np.float32, copy=False)
    return out


EmbedderFactory = Callable[[dict[str, Any]], Embedder]


def _builtins(registry: Registry[EmbedderFactory]) -> None:
    def minilm(settings: dict[str, Any]) -> Embedder:
        from mnemex.embed.minilm import MiniLMEmbedder

        return MiniLMEmbedder(threads=int(settings.get("threads", 0)))

    def wordllama(settings: dict[str, Any]) -> Embedder:
        from mnemex.embed.static import WordLlamaEmbedder

        return WordLlamaEmbedder(dim=int(settings.get("dim", 256)))

    def openai(settings: dict[str, Any]) -> Embedder:
        from mnemex.embed.openai import OpenAIEmbedder

        return OpenAIEmbedder.from_settings(settings)

    def hashing(settings: dict[str, Any]) -> Embedder:
        from mnemex.embed.hashing import HashingEmbedder

        return HashingEmbedder(dim=int(settings.get("dim", 256)))

    registry.register("minilm", minilm)
    registry.register("wordllama", wordllama)
    registry.register("openai", openai)
    registry.register("hashing", hashing)


#: name -> factory taking the ``[embedder]`` settings table.
EMBEDDERS: Registry[EmbedderFactory] = Registry("embedder", _builtins)


def register_embedder(name: str, factory: EmbedderFactory) -> None:
    """Make an embedder available under ``name`` (``[embedder] name = ...``)."""
    EMBEDDERS.register(name, factory)


def load_embedder(name: str, settings: dict[str, Any] | None = None) -> Embedder:
    """Build the embedder registered under ``name``.

    Raises:
        ConfigError: no embedder of that name is registered.
    """
    return EMBEDDERS.factory(name)(settings or {})


def settings_key(name: str, settings: dict[str, Any]) -> str:
    """What an index records of the embedder that made its vectors, known without loading it.

    The ``[embedder]`` settings, and for the default MiniLM the identity of the model the
    installed mnemex runs (a class attribute: no file is read), so an index made by an
    older build of the model is embedded again even though the settings did not change.
    """
    key: dict[str, Any] = {"settings": settings}
    if name == "minilm":
        from mnemex.embed.minilm import MiniLMEmbedder

        key["model"] = MiniLMEmbedder.identity
    return json.dumps(key, sort_keys=True)


__all__ = [
    "EMBEDDERS",
    "Embedder",
    "EmbedderFactory",
    "Vectors",
    "load_embedder",
    "normalise",
    "register_embedder",
    "settings_key",
]
