from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mnemex.embed import load_embedder
from mnemex.embed import minilm as minilm_module
from mnemex.embed.minilm import MiniLMEmbedder
from mnemex.errors import ConfigError, EmbedderError


def test_an_unknown_embedder_name_lists_the_known_ones() -> None:
    with pytest.raises(ConfigError, match="known: hashing, minilm, openai, wordllama"):
        load_embedder("nope")


def test_the_default_model_file_is_refused_when_its_sha256_is_wrong(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not the model")
    monkeypatch.setattr(minilm_module, "model_file", lambda: fake)
    with pytest.raises(EmbedderError, match="damaged"):
        MiniLMEmbedder()


def test_batched_length_sorted_embedding_keeps_input_order(minilm: MiniLMEmbedder) -> None:
    texts = ["short", "a much longer text about vector search and memory " * 5, "mid length text"]
    batched = minilm.embed_documents(texts)
    one_by_one = np.stack([minilm.embed_query(t) for t in texts])
    assert np.allclose(batched, one_by_one, atol=1e-5)


def test_wordllama_loads_its_shipped_weights_offline() -> None:
    emb = load_embedder("wordllama")
    vectors = emb.embed_documents(["vector search", "semantic retrieval", "banana bread"])
    assert vectors.shape == (3, 256)
    assert float(vectors[0] @ vectors[1]) > float(vectors[0] @ vectors[2])
