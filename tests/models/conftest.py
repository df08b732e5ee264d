"""The fake provider as a fixture for the model tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fake_provider import FakeProvider

PROVIDERS = ("openai", "anthropic", "gemini")


@pytest.fixture
def fake() -> Iterator[FakeProvider]:
    with FakeProvider() as server:
        yield server
