"""The public API of mnemex.llm: complete, sorted, and usable from bare settings."""

from __future__ import annotations

from pathlib import Path

import mnemex.llm as llm
from fake_provider import FakeProvider
from mnemex.config import Settings
from mnemex.llm import Message, load_model


def test_all_is_sorted_and_names_what_exists() -> None:
    assert llm.__all__ == sorted(llm.__all__, key=lambda n: (not n[0].isupper(), n))
    for name in llm.__all__:
        assert hasattr(llm, name), name
    public = {n for n in vars(llm) if not n.startswith("_") and n[0].isupper()}
    assert public - {"Callable", "Mapping", "Path", "Settings", "Vault"} <= set(llm.__all__)


def test_bare_settings_give_a_client_that_records_only_where_told(
    fake: FakeProvider, tmp_path: Path
) -> None:
    settings = Settings(model=fake.model_table("openai"))
    client = load_model(settings, sleep=fake.sleeps.append)
    assert client is not None and client.ledger is None
    fake.queue(fake.text("ok"))
    assert client.complete([Message("user", "hi")], purpose="t").text == "ok"
    ledger = tmp_path / "ledger.jsonl"
    recorded = load_model(settings, ledger=ledger)
    assert recorded is not None and recorded.ledger == ledger
    assert load_model(Settings()) is None
