"""The int8 rewrite of the packaged MiniLM (mnemex.embed.int8), on the real model file."""

from __future__ import annotations

import hashlib
from collections import Counter

import numpy as np
import pytest

from mnemex.embed import int8
from mnemex.embed import minilm as minilm_module
from mnemex.embed.minilm import MiniLMEmbedder
from mnemex.errors import EmbedderError


@pytest.fixture(scope="module")
def packaged() -> bytes:
    return minilm_module.model_file().read_bytes()


def _ops(model: bytes) -> Counter[str]:
    (graph,) = [v for n, _, v in int8._fields(model) if n == 7]
    assert isinstance(graph, bytes)
    return Counter(
        int8._Node.parse(v).op for n, _, v in int8._fields(graph) if n == 1 and isinstance(v, bytes)
    )


def test_the_wire_codec_writes_back_the_bytes_it_read(packaged: bytes) -> None:
    # Top level and the graph, field by field: what the rewrite leaves alone stays as it was.
    assert int8._encode(int8._fields(packaged)) == packaged
    (graph,) = [v for n, _, v in int8._fields(packaged) if n == 7]
    assert isinstance(graph, bytes)
    assert int8._encode(int8._fields(graph)) == graph
    for value in (0, 1, 127, 128, 300, 2**40, -1, -(2**63)):
        encoded = int8._varint(value)
        decoded, end = int8._read_varint(encoded, 0)
        assert end == len(encoded)
        assert int8._signed(decoded) == value


def test_every_weight_product_runs_in_int8_and_the_nan_guard_is_gone(packaged: bytes) -> None:
    before, after = _ops(packaged), _ops(int8.rewrite(packaged))
    # 6 layers x (query, key, value, attention output, two feed-forward): 36 weight products.
    assert after["MatMulIntegerToFloat"] == 36
    # What stays float is the attention's own two products per layer.
    assert before["MatMul"] == 48
    assert after["MatMul"] == 12
    assert after["IsNaN"] == 0
    # The quantisation is shared: query, key and value read one quantised input.
    assert after["QuantizeLinear"] == 6 * 4


def test_the_rewrite_is_deterministic_and_matches_the_pinned_hash(packaged: bytes) -> None:
    first = int8.rewrite(packaged)
    assert first == int8.rewrite(packaged)
    assert hashlib.sha256(first).hexdigest() == minilm_module.INT8_SHA256


def test_a_file_that_is_not_this_model_is_refused() -> None:
    with pytest.raises(EmbedderError, match="no single graph"):
        int8.rewrite(b"")
    with pytest.raises(EmbedderError, match="wire type"):
        int8.rewrite(bytes([0x0F]))  # field 1, wire type 7


def test_a_rewrite_other_than_the_pinned_one_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(minilm_module, "INT8_SHA256", "0" * 64)
    with pytest.raises(EmbedderError, match="not the pinned one"):
        MiniLMEmbedder().embed_query("hello")


def test_a_text_gets_the_very_same_vector_alone_and_in_any_batch(minilm: MiniLMEmbedder) -> None:
    # Each token is quantised on its own scale and integer sums are exact, so neighbours in
    # a batch (and their padding) cannot move a text's vector: equality, not closeness.
    texts = [
        "a",
        "Vector search finds notes by meaning rather than by the words they share.",
        "The gateway timed out after 30 s; we raised the limit and retried the deploy. " * 6,
        "東京は日本の首都です。",
    ]
    together = minilm.embed_documents(texts)
    for i, text in enumerate(texts):
        assert np.array_equal(minilm.embed_documents([text])[0], together[i]), text[:30]
        assert np.array_equal(minilm.embed_query(text), together[i]), text[:30]
