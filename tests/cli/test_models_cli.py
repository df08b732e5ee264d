"""``mnemex models status|ledger``: settings without the key, and the ledger's totals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from fake_provider import FakeProvider
from mnemex.cli import cli
from mnemex.llm import Message, load_model
from mnemex.llm.ledger import LedgerEntry, append_entry, ledger_path
from mnemex.vault import Vault

SECRET = "sk-proj-THISKEYMUSTNEVERBEPRINTED0123456789"


def run(vault: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["--vault", str(vault), "models", *args])
    return result.exit_code, result.output


def test_status_without_a_model_says_offline(vault_dir: Path) -> None:
    code, out = run(vault_dir, "status")
    assert code == 0 and "works offline" in out
    code, out = run(vault_dir, "status", "--json")
    assert json.loads(out)["configured"] is False


def test_status_names_the_key_variable_and_never_prints_the_key(
    vault_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    path = vault_dir / "mnemex.toml"
    path.write_text(path.read_text() + '\n[model]\nprovider = "openai"\nmodel = "gpt-4o-mini"\n')
    code, out = run(vault_dir, "status")
    assert code == 0, out
    assert "$OPENAI_API_KEY is set" in out and "api.openai.com" in out
    assert "price in unknown" in out
    code, out = run(vault_dir, "status", "--json")
    data = json.loads(out)
    assert data["api_key_set"] is True and data["identity"] == "openai:gpt-4o-mini@api.openai.com"
    assert SECRET not in out


def test_status_shows_the_problem_of_a_bad_table_and_fails(
    vault_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    path = vault_dir / "mnemex.toml"
    path.write_text(path.read_text() + '\n[model]\nprovider = "anthropic"\nmodel = "claude"\n')
    code, out = run(vault_dir, "status")
    assert code == 1
    assert "$ANTHROPIC_API_KEY is NOT set" in out and "problem:" in out


def test_ledger_sums_calls_by_purpose_and_model_since_a_date(
    fake: FakeProvider, vault_dir: Path
) -> None:
    fake.write_config(vault_dir, price_in_per_mtok=1.0, price_out_per_mtok=2.0)
    client = load_model(Vault(vault_dir), sleep=fake.sleeps.append)
    assert client is not None
    fake.queue(fake.text("a", input_tokens=1000, output_tokens=500), fake.text("b"))
    client.complete([Message("user", "x")], purpose="ingest")
    client.complete([Message("user", "y")], purpose="harvest-digest")
    append_entry(
        ledger_path(vault_dir),
        LedgerEntry(
            "2020-01-01T00:00:00+00:00", "openai", "old", "ingest", 9, 9, None, True, None, 5
        ),
    )
    code, out = run(vault_dir, "ledger", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["total"]["calls"] == 3 and data["total"]["unknown_cost_calls"] == 1
    assert data["by_purpose"]["ingest"]["calls"] == 2
    assert data["total"]["cost_usd"] == pytest.approx((1000 + 1000 + 100 + 40) / 1e6)
    code, out = run(vault_dir, "ledger", "--since", "2026-01-01", "--json")
    assert json.loads(out)["total"]["calls"] == 2
    code, out = run(vault_dir, "ledger")
    assert "harvest-digest: 1 call(s)" in out and "openai:fake-model" in out
    code, out = run(vault_dir, "ledger", "--since", "last week")
    assert code == 1 and "--since 'last week'" in out
