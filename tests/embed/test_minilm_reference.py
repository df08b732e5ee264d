"""The default embedder against reference all-MiniLM-L6-v2 vectors.

tests/fixtures/minilm_reference.json holds vectors made by sentence-transformers
with the original float32 torch model (scripts/reference_vectors.py, run in a
separate venv). Ours is the int8 ONNX export, and it multiplies in int8 (the weights
as packaged, each token's activations rounded to 8 bits on its own scale:
mnemex.embed.int8), so vectors agree closely but not exactly. Tokens, truncation,
token_type_ids and pooling are identical to the reference. Measured: the packaged model
run in float gave mean cosine 0.99939 (lowest 0.99896); the int8 products give mean
0.99621, lowest 0.99199, on the shortest texts ("a", "hello world": a few word pieces,
so per-token rounding averages out least), on a CPU with VNNI. Without it (AVX2 only),
onnxruntime's uint8 x int8 kernel saturates pairs of products at 16 bits: run under
valgrind, which offers AVX2 and no AVX-512, mean 0.99490, lowest 0.98862. Hence a
per-text floor of 0.985 and a mean of 0.993: a wrong vocabulary or a broken model lands
far below either.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mnemex.embed.minilm import MiniLMEmbedder

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "minilm_reference.json"
PER_TEXT_MIN_COSINE = 0.985
MEAN_MIN_COSINE = 0.993


@pytest.fixture(scope="module")
def reference() -> dict:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    data["matrix"] = np.asarray(data["vectors"], dtype=np.float32)
    return data


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    return MiniLMEmbedder()


@pytest.fixture(scope="module")
def ours(embedder: MiniLMEmbedder, reference: dict) -> np.ndarray:
    return embedder.embed_batch(reference["texts"])


def test_reference_fixture_holds_one_unit_384_vector_per_text(reference: dict) -> None:
    matrix = reference["matrix"]
    assert matrix.shape == (len(reference["texts"]), 384)
    assert len(reference["texts"]) >= 10
    np.testing.assert_allclose(np.linalg.norm(matrix, axis=1), 1.0, atol=1e-4)


def test_default_embedder_matches_the_reference_model_on_fixture_texts(
    ours: np.ndarray, reference: dict
) -> None:
    cosines = (ours * reference["matrix"]).sum(axis=1)
    low = {
        text[:40]: round(float(c), 6)
        for text, c in zip(reference["texts"], cosines, strict=True)
        if c < PER_TEXT_MIN_COSINE
    }
    assert not low, f"texts below cosine {PER_TEXT_MIN_COSINE}: {low}"
    assert cosines.mean() >= MEAN_MIN_COSINE, f"mean cosine {cosines.mean():.6f}"


def test_default_embedder_vectors_are_unit_length(ours: np.ndarray) -> None:
    assert ours.dtype == np.float32
    assert ours.shape[1] == 384
    np.testing.assert_allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)


def test_query_and_document_embedding_agree_for_a_text_within_the_window(
    embedder: MiniLMEmbedder, reference: dict
) -> None:
    texts = [t for t in reference["texts"] if embedder.count_tokens(t) < 256]
    documents = embedder.embed_documents(texts)
    for i, text in enumerate(texts):
        query = embedder.embed_query(text)
        assert query.shape == (384,)
        assert float(query @ documents[i]) >= 0.99999, text[:40]


def test_a_document_past_the_window_is_read_whole_in_windows(
    embedder: MiniLMEmbedder, reference: dict
) -> None:
    longest = max(reference["texts"], key=len)
    tail = " Zebras graze on the savanna while lions sleep in the shade of acacia trees."
    whole = embedder.embed_documents([longest + tail * 12])[0]
    cut = embedder.embed_query(longest + tail * 12)  # a query is cut at 256 pieces
    zebras = embedder.embed_query(tail.strip())
    np.testing.assert_allclose(np.linalg.norm(whole), 1.0, atol=1e-5)
    # The text past the window moved the document vector towards what it says.
    assert float(whole @ zebras) > float(cut @ zebras) + 0.05
    # Windows cover the text once: a text just past the window stays close to its cut.
    assert float(embedder.embed_documents([longest + " more"])[0] @ cut) > 0.9


def test_a_text_gets_the_same_vector_alone_as_in_a_padded_batch(
    embedder: MiniLMEmbedder, ours: np.ndarray, reference: dict
) -> None:
    for i, text in enumerate(reference["texts"]):
        alone = embedder.embed_batch([text])[0]
        np.testing.assert_allclose(alone, ours[i], atol=1e-5)


def test_long_text_is_cut_at_256_word_pieces_like_the_reference(
    embedder: MiniLMEmbedder, reference: dict
) -> None:
    longest = max(reference["texts"], key=len)
    assert embedder.count_tokens(longest) == 256
    # Past the cut, more text changes nothing: the reference truncates the same way.
    extended = embedder.embed_query(longest + " and then some more words at the very end")
    assert float(extended @ embedder.embed_query(longest)) >= 0.99999


def test_unrelated_fixture_texts_are_less_similar_than_a_text_to_its_reference(
    ours: np.ndarray, reference: dict
) -> None:
    cross = ours @ reference["matrix"].T
    diagonal = np.diag(cross)
    off = cross - np.eye(len(diagonal)) * 10
    assert (diagonal > off.max(axis=1)).all()
