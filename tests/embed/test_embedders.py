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


def test_each_distinct_text_is_embedded_once_and_rows_keep_input_order() -> None:
    emb = load_embedder("hashing")
    calls: list[list[str]] = []
    original = emb.embed_batch

    def counted(texts):  # type: ignore[no-untyped-def]
        calls.append(list(texts))
        return original(texts)

    emb.embed_batch = counted  # type: ignore[method-assign]
    ticks: list[int] = []
    texts = ["alpha beta", "gamma", "alpha beta", "delta", "gamma", "alpha beta"]
    vectors = emb.embed_documents(texts, progress=ticks.append)
    assert sorted(t for batch in calls for t in batch) == ["alpha beta", "delta", "gamma"]
    assert np.array_equal(vectors[0], vectors[2]) and np.array_equal(vectors[1], vectors[4])
    assert np.allclose(vectors, np.stack([original([t])[0] for t in texts]))
    assert sum(ticks) == len(texts)


def test_minilm_batches_by_word_pieces_and_reports_every_text(minilm: MiniLMEmbedder) -> None:
    texts = [f"note {i}: " + "word " * (i * 7 % 300) for i in range(70)]
    ticks: list[int] = []
    vectors = minilm.embed_documents(texts, progress=ticks.append)
    assert sum(ticks) == len(texts)
    fitting = [i for i, t in enumerate(texts) if minilm.count_tokens(t) < 256]
    alone = np.stack([minilm.embed_query(texts[i]) for i in fitting])
    assert np.allclose(vectors[fitting], alone, atol=1e-5)
