"""The served brain every interface shares: privacy from the settings, index freshness."""

from __future__ import annotations

import math

from helpers import write
from mnemex.brain import Brain
from mnemex.retrieve.served import ServedBrain


def _paths(brain: Brain) -> set[str]:
    return set(brain.backend.note_paths())


def test_a_served_brain_syncs_before_a_read_once_its_last_sync_is_old(brain: Brain) -> None:
    root = brain.vault.root
    always = ServedBrain(brain, refresh_seconds=0)
    write(root, "notes/one.md", "one")
    assert "notes/one.md" in _paths(always.fresh())
    write(root, "notes/two.md", "two")
    assert "notes/two.md" in _paths(always.fresh())


def test_a_write_counts_as_a_sync_and_a_long_refresh_waits(brain: Brain) -> None:
    root = brain.vault.root
    served = ServedBrain(brain, refresh_seconds=math.inf)
    write(root, "notes/one.md", "one")
    assert "notes/one.md" in _paths(served.fresh())  # the first read always syncs
    write(root, "notes/two.md", "two")
    served.wrote()
    assert "notes/two.md" not in _paths(served.fresh())


def test_private_names_are_served_only_when_named(brain: Brain) -> None:
    assert "private" in ServedBrain(brain).privacy.hidden
    assert "private" not in ServedBrain(brain, include_private=["private"]).privacy.hidden
