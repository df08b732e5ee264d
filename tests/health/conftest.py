"""Fixtures for the health tests: the small sick vault, synced."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from health_support import make_sick_vault, open_brain

from mnemex.brain import Brain


@pytest.fixture
def sick(tmp_path: Path) -> Path:
    return make_sick_vault(tmp_path / "vault")


@pytest.fixture
def sick_brain(sick: Path) -> Iterator[Brain]:
    with open_brain(sick) as brain:
        brain.sync()
        yield brain
