"""The [model] table: defaults per provider, precise errors, keys only from the environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from mnemex.config import load_settings
from mnemex.errors import ConfigError
from mnemex.llm import is_local_url, load_model, parse_model_config
from mnemex.vault import Vault


def test_no_model_table_means_offline(vault_dir: Path) -> None:
    assert load_model(Vault(vault_dir)) is None


def test_the_model_table_is_read_from_mnemex_toml(vault_dir: Path) -> None:
    path = vault_dir / "mnemex.toml"
    path.write_text(
        path.read_text() + '\n[model]\nprovider = "openai"\nmodel = "llama3.1"\n'
        'base_url = "http://127.0.0.1:11434/v1"\ncontext_tokens = 4096\n'
    )
    assert load_settings(vault_dir).model["model"] == "llama3.1"
    client = load_model(Vault(vault_dir))
    assert client is not None
    assert client.identity == "openai:llama3.1@127.0.0.1:11434"
    assert client.context_tokens == 4096
    assert client.config.price_in_per_mtok == 0.0  # local: free, so never gated
    assert client.config.api_key_env is None


@pytest.mark.parametrize(
    ("provider", "url", "env"),
    [
        ("openai", "https://api.openai.com/v1", "OPENAI_API_KEY"),
        ("anthropic", "https://api.anthropic.com/v1", "ANTHROPIC_API_KEY"),
        ("gemini", "https://generativelanguage.googleapis.com/v1beta", "GEMINI_API_KEY"),
    ],
)
def test_each_provider_has_its_default_url_and_key_variable(
    provider: str, url: str, env: str
) -> None:
    config = parse_model_config({"provider": provider, "model": "m"}, {env: "k"})
    assert (config.base_url, config.api_key_env) == (url, env)
    assert config.price_in_per_mtok is None  # remote and no price: unknown, not free


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (
            {"provider": "mistral", "model": "m"},
            r"provider must be one of openai, anthropic, gemini",
        ),
        ({"provider": "openai"}, r"\[model\] model is missing"),
        ({"provider": "openai", "model": "m", "base_url": "ftp://x"}, "must be an http"),
        ({"provider": "openai", "model": "m", "context_tokens": "big"}, "whole number"),
        ({"provider": "openai", "model": "m", "price_in_per_mtok": -1}, "must not be negative"),
        ({"provider": "openai", "model": "m", "modle": "x"}, r"unknown setting\(s\) modle"),
        ({"provider": "openai", "model": "m"}, "OPENAI_API_KEY is not set"),
        (
            {"provider": "anthropic", "model": "m", "api_key_env": "MY_ANTHROPIC"},
            "MY_ANTHROPIC is not set",
        ),
    ],
)
def test_a_bad_table_is_a_config_error_naming_the_setting(
    table: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_model_config(table, {})


def test_a_local_server_needs_no_key_even_when_one_is_named() -> None:
    config = parse_model_config(
        {
            "provider": "openai",
            "model": "m",
            "base_url": "http://localhost:8080/v1",
            "api_key_env": "LLAMA_KEY",
        },
        {},
    )
    assert config.is_local and config.api_key_env == "LLAMA_KEY"


def test_a_model_table_that_is_not_a_table_is_refused(vault_dir: Path) -> None:
    path = vault_dir / "mnemex.toml"
    path.write_text('model = "x"\n' + path.read_text())  # top level: [model] as a string
    with pytest.raises(ConfigError, match=r"\[model\] must be a table"):
        load_settings(vault_dir)


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("http://127.0.0.1:11434/v1", True),
        ("http://localhost:1234/v1", True),
        ("http://[::1]:8000/v1", True),
        ("https://openrouter.ai/api/v1", False),
        ("http://192.168.1.5:8000/v1", False),
    ],
)
def test_local_urls_are_loopback_only(url: str, local: bool) -> None:
    assert is_local_url(url) is local


def test_an_empty_key_variable_says_the_remote_server_takes_no_key() -> None:
    config = parse_model_config(
        {
            "provider": "openai",
            "model": "m",
            "base_url": "http://192.168.1.5:8000/v1",
            "api_key_env": "",
        },
        {},
    )
    assert config.api_key_env is None and not config.is_local
