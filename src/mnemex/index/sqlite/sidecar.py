"""A disposable cache of the vector matrix beside the index, for fast one-shot processes."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path

import numpy as np

from mnemex.index.backend import VectorTable


class VectorSidecar:
    """The vector matrix of one generation, saved beside the index as ``.npy`` files.

    Written after a full load from SQLite, read by the next process at the same
    generation. Files carry the generation in their names and a small JSON marker
    is written last (atomically), so a reader never mixes two generations; any
    problem reading them falls back to SQLite. Derived and disposable, like the index.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _stem(self, embedder: str, gen: int) -> Path:
        key = hashlib.sha1(embedder.encode()).hexdigest()[:12]
        return self.folder / f"{key}-{gen}"

    def _marker(self, embedder: str) -> Path:
        return self.folder / (hashlib.sha1(embedder.encode()).hexdigest()[:12] + ".json")

    def load(self, embedder: str, gen: int) -> VectorTable | None:
        try:
            marker = json.loads(self._marker(embedder).read_text(encoding="utf-8"))
            if marker.get("generation") != gen or marker.get("embedder") != embedder:
                return None
            stem = self._stem(embedder, gen)
            ids = np.load(f"{stem}.ids.npy")
            # not memory-mapped: a search's matrix product reads every page anyway,
            # and a later refresh copies rows out of it far faster from RAM
            matrix = np.load(f"{stem}.matrix.npy")
            if ids.shape != (2, matrix.shape[0]):
                return None
            return VectorTable(ids[0], ids[1], matrix, gen)
        except (OSError, ValueError, KeyError, json.JSONDecodeError):
            return None

    def hashes(self, embedder: str, gen: int) -> list[str]:
        try:
            text = Path(f"{self._stem(embedder, gen)}.hashes.txt").read_text(encoding="ascii")
        except OSError:
            return []
        return text.split()

    def save(self, embedder: str, table: VectorTable, hashes: list[str]) -> None:
        try:
            self.folder.mkdir(exist_ok=True)
            stem = self._stem(embedder, table.generation)
            np.save(f"{stem}.ids.npy.tmp.npy", np.stack([table.chunk_ids, table.note_ids]))
            os.replace(f"{stem}.ids.npy.tmp.npy", f"{stem}.ids.npy")
            np.save(f"{stem}.matrix.npy.tmp.npy", np.ascontiguousarray(table.matrix))
            os.replace(f"{stem}.matrix.npy.tmp.npy", f"{stem}.matrix.npy")
            Path(f"{stem}.hashes.txt").write_text("\n".join(hashes), encoding="ascii")
            marker = self._marker(embedder)
            tmp = marker.with_suffix(".json.tmp")
            tmp.write_text(
                json.dumps({"generation": table.generation, "embedder": embedder}),
                encoding="utf-8",
            )
            os.replace(tmp, marker)
            keep = stem.name
            for old in self.folder.glob(f"{keep.rsplit('-', 1)[0]}-*"):
                if not old.name.startswith(keep + "."):
                    with contextlib.suppress(OSError):
                        old.unlink()
        except OSError:
            pass  # a cache: failing to write it costs speed, never correctness


__all__ = ["VectorSidecar"]
