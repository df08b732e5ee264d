"""Any sequence of file edits followed by incremental syncs gives the index a rebuild gives,
with every backend."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_sync import dump

from index_backends import BACKEND_NAMES, use_backend
from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.vault import Vault, init_vault

NAMES = ["a.md", "b.md", "sub/c.md", "sub/deep/a.md", "B.md"]
BODIES = [
    "# Title\n\n- item [[b]]\n- other #tag\n",
    "---\ntitle: T\ntags: [x]\n---\nsee [[a]] and [[sub/c]]\n",
    "---\nbroken: [\n---\nbody [[missing]]\n",
    "plain paragraph about [[A]]",
    "",
    "- one\n- two\n- three [[c#h|alias]]\n",
]

edit = st.one_of(
    st.tuples(st.just("write"), st.sampled_from(NAMES), st.sampled_from(BODIES)),
    st.tuples(st.just("delete"), st.sampled_from(NAMES), st.just("")),
    st.tuples(st.just("move"), st.sampled_from(NAMES), st.sampled_from(NAMES)),
    st.tuples(st.just("sync"), st.just(""), st.just("")),
)


def apply(root: Path, op: str, name: str, arg: str, tick: list[int]) -> None:
    path = root / name
    if op == "write":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(arg, encoding="utf-8")
        # a distinct mtime for every write, as a real clock would give
        tick[0] += 1_000_000_000
        os.utime(path, ns=(tick[0], tick[0]))
    elif op == "delete" and path.exists():
        path.unlink()
    elif op == "move" and path.exists() and not (root / arg).exists():
        (root / arg).parent.mkdir(parents=True, exist_ok=True)
        os.rename(path, root / arg)


@pytest.mark.parametrize("backend", BACKEND_NAMES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(edit, min_size=1, max_size=14))
def test_incremental_sync_after_any_edits_equals_a_rebuild(
    backend: str, edits: list[tuple[str, str, str]]
) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="mnemex-prop-"))
    try:
        root = workdir / "v"
        init_vault(root, git=False)
        use_backend(root, backend)
        tick = [1_700_000_000_000_000_000]
        with Brain(Vault(root), embedder=HashingEmbedder(dim=16)) as brain:
            for op, name, arg in edits:
                if op == "sync":
                    brain.sync()
                else:
                    apply(root, op, name, arg, tick)
            brain.sync()
            incremental = dump(brain)
            brain.rebuild()
            assert dump(brain) == incremental
    finally:
        shutil.rmtree(workdir)
