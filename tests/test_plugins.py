from __future__ import annotations

import pytest

from mnemex.errors import ConfigError


def test_a_registry_names_what_it_knows_when_asked_for_what_it_does_not() -> None:
    from mnemex.embed import EMBEDDERS
    from mnemex.harvest.readers import READERS

    with pytest.raises(ConfigError, match=r"unknown embedder 'nope'; known: hashing, minilm"):
        EMBEDDERS.factory("nope")
    with pytest.raises(ConfigError, match=r"unknown transcript format 'nope'; known: aider"):
        READERS.factory("nope")


def test_a_registered_factory_is_undone_by_monkeypatch(monkeypatch: pytest.MonkeyPatch) -> None:
    from mnemex.embed import EMBEDDERS

    monkeypatch.setitem(EMBEDDERS, "mine", lambda settings: None)
    assert "mine" in EMBEDDERS.names()
    monkeypatch.undo()
    assert "mine" not in EMBEDDERS.names()
    assert "minilm" in EMBEDDERS
