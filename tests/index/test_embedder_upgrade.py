"""An index whose vectors an older build of the default model made is embedded again.

The settings do not change when mnemex upgrades its MiniLM (``name = "minilm"`` before and
after), so the index records the model's identity with them; the first sync after the
upgrade sees the difference without being told.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import write
from mnemex.brain import Brain
from mnemex.embed.minilm import MiniLMEmbedder
from mnemex.errors import IndexUnavailable
from mnemex.retrieve.search import search
from mnemex.vault import Vault, init_vault

OLD = "minilm-l6-v2-int8-onnx@1"


def test_an_index_of_the_previous_minilm_build_is_embedded_again(
    tmp_path: Path, minilm: MiniLMEmbedder
) -> None:
    root = tmp_path / "vault"
    init_vault(root, git=False)
    write(root, "a.md", "# Deploys\n\nThe gateway timed out, so we raised the limit.\n")
    write(root, "b.md", "# Invoices\n\nAmounts are kept in integer minor units.\n")
    with Brain(Vault(root), embedder=minilm) as brain:
        first = brain.sync()
        assert first.embedded == 2
        # As the previous release left it: its identity on every vector and in the meta,
        # and the settings recorded as that release recorded them.
        brain.backend._db.execute("UPDATE vectors SET embedder = ?", (OLD,))  # type: ignore[attr-defined]
        brain.backend._db.commit()  # type: ignore[attr-defined]
        brain.backend.set_meta("embedder", OLD)
        brain.backend.set_meta("vectors_complete", OLD)
        brain.backend.set_meta("embedder_config", json.dumps({"name": "minilm"}, sort_keys=True))
    with Brain(Vault(root), embedder=minilm) as brain:
        again = brain.sync()
        assert again.embedded == 2
        assert brain.backend.stats().vectors == {MiniLMEmbedder.identity: 2}
        assert search(brain, "why did the deploy fail", k=2).hits[0].path == "a.md"
    with Brain(Vault(root), embedder=minilm) as brain:
        assert brain.sync().embedded == 0  # recorded now: the next sync embeds nothing


class _PreviousBuild(MiniLMEmbedder):
    """A machine still on the release before the int8 products (only its identity differs)."""

    identity = OLD
    supersedes = ()


def test_a_shared_index_is_embedded_again_by_the_first_machine_to_upgrade(
    tmp_path: Path, minilm: MiniLMEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "vault"
    init_vault(root, git=False)
    write(root, "a.md", "# Deploys\n\nThe gateway timed out, so we raised the limit.\n")
    with Brain(Vault(root), embedder=_PreviousBuild()) as brain:
        brain.backend.holds_private = False  # type: ignore[attr-defined]
        brain.sync()
        # As the previous release recorded its settings (no model identity in them).
        brain.backend.set_meta("embedder_config", json.dumps({"name": "minilm"}, sort_keys=True))
    with Brain(Vault(root), embedder=minilm) as brain:
        brain.backend.holds_private = False  # type: ignore[attr-defined]
        assert brain.sync().embedded == 1  # the upgrade is let through, and re-embeds
        assert brain.backend.stats().vectors == {MiniLMEmbedder.identity: 1}
    write(root, "b.md", "# Invoices\n\nAmounts are kept in integer minor units.\n")
    # The previous release's rule for the recorded settings, as its sync.py had it.
    monkeypatch.setattr(
        "mnemex.index.sync.settings_key",
        lambda name, settings: json.dumps(settings, sort_keys=True),
    )
    with Brain(Vault(root), embedder=_PreviousBuild()) as brain:
        brain.backend.holds_private = False  # type: ignore[attr-defined]
        with pytest.raises(IndexUnavailable, match="one embedder per shared index"):
            brain.sync()
        assert brain.backend.note_paths() == ["a.md"]  # the older build wrote nothing
