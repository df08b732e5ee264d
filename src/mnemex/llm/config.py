"""The ``[model]`` table of ``mnemex.toml``, checked once into a :class:`ModelConfig`.

Keys never live in the vault: the table names the environment variable that holds the
key (``api_key_env``), and the key is read from the environment when the client is made.
A table that is wrong fails here with a message that names the setting, so a typo is
found at start-up, not on the hundredth call of a long run.
"""

from __future__ import annotations

import ipaddress
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

from mnemex.errors import ConfigError

PROVIDERS = ("openai", "anthropic", "gemini")
DEFAULT_BASE_URL = {
    "openai": "https://api.openai.com/v1",
    "anthropic": "https://api.anthropic.com/v1",
    "gemini": "https://generativelanguage.googleapis.com/v1beta",
}
DEFAULT_KEY_ENV = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "gemini": "GEMINI_API_KEY",
}
DEFAULT_CONTEXT_TOKENS = 8192
DEFAULT_MAX_OUTPUT_TOKENS = 2048
DEFAULT_CONFIRM_ABOVE_USD = 0.50
DEFAULT_TIMEOUT = 120.0
DEFAULT_MAX_RETRIES = 3
_KNOWN_KEYS = frozenset(
    {
        "provider",
        "model",
        "base_url",
        "api_key_env",
        "context_tokens",
        "max_output_tokens",
        "price_in_per_mtok",
        "price_out_per_mtok",
        "confirm_above_usd",
        "timeout",
        "max_retries",
        "temperature",
    }
)


@dataclass(frozen=True)
class ModelConfig:
    """A checked ``[model]`` table. Prices are USD per million tokens; None means unknown."""

    provider: str
    model: str
    base_url: str
    api_key_env: str | None
    context_tokens: int = DEFAULT_CONTEXT_TOKENS
    max_output_tokens: int = DEFAULT_MAX_OUTPUT_TOKENS
    price_in_per_mtok: float | None = None
    price_out_per_mtok: float | None = None
    confirm_above_usd: float = DEFAULT_CONFIRM_ABOVE_USD
    timeout: float = DEFAULT_TIMEOUT
    max_retries: int = DEFAULT_MAX_RETRIES
    temperature: float | None = None

    @property
    def host(self) -> str:
        return urlparse(self.base_url).netloc or self.base_url

    @property
    def identity(self) -> str:
        """``openai:gpt-4o-mini@api.openai.com``: what the ledger and digests record."""
        return f"{self.provider}:{self.model}@{self.host}"

    @property
    def is_local(self) -> bool:
        return is_local_url(self.base_url)


def is_local_url(url: str) -> bool:
    """Whether ``url`` points at this machine (a local server: no key, no cost)."""
    host = (urlparse(url).hostname or "").lower()
    if host in {"localhost", "localhost.localdomain"} or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _where(key: str) -> str:
    return f"mnemex.toml [model] {key}"


def _number(table: Mapping[str, Any], key: str, default: float | None) -> float | None:
    value = table.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ConfigError(f"{_where(key)} must be a number, not {value!r}")
    if value < 0:
        raise ConfigError(f"{_where(key)} must not be negative ({value})")
    return float(value)


def _count(table: Mapping[str, Any], key: str, default: int, minimum: int) -> int:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{_where(key)} must be a whole number, not {value!r}")
    if value < minimum:
        raise ConfigError(f"{_where(key)} must be at least {minimum} ({value})")
    return value


def _text(table: Mapping[str, Any], key: str) -> str | None:
    value = table.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{_where(key)} must be a non-empty string, not {value!r}")
    return value.strip()


def parse_model_config(
    table: Mapping[str, Any], env: Mapping[str, str] | None = None
) -> ModelConfig:
    """Check a ``[model]`` table; ``env`` (default ``os.environ``) is where keys are looked up.

    Raises:
        ConfigError: an unknown provider or setting, a missing model, a bad number, or a key
            variable that is unset while the base URL is not on this machine.
    """
    environ = os.environ if env is None else env
    unknown = sorted(set(table) - _KNOWN_KEYS)
    if unknown:
        raise ConfigError(
            f"mnemex.toml [model]: unknown setting(s) {', '.join(unknown)} "
            f"(known: {', '.join(sorted(_KNOWN_KEYS))})"
        )
    provider = _text(table, "provider")
    if provider not in PROVIDERS:
        raise ConfigError(
            f"{_where('provider')} must be one of {', '.join(PROVIDERS)} "
            f"(openai covers any OpenAI-compatible server), not {provider!r}"
        )
    model = _text(table, "model")
    if model is None:
        raise ConfigError(f'{_where("model")} is missing (e.g. model = "gpt-4o-mini")')
    base_url = (_text(table, "base_url") or DEFAULT_BASE_URL[provider]).rstrip("/")
    if urlparse(base_url).scheme not in {"http", "https"} or not urlparse(base_url).netloc:
        raise ConfigError(f"{_where('base_url')} must be an http(s) URL, not {base_url!r}")
    local = is_local_url(base_url)
    price_default = 0.0 if local else None
    context_tokens = _count(table, "context_tokens", DEFAULT_CONTEXT_TOKENS, 256)
    max_output = _count(table, "max_output_tokens", DEFAULT_MAX_OUTPUT_TOKENS, 16)
    if max_output >= context_tokens:
        raise ConfigError(
            f"{_where('max_output_tokens')} ({max_output}) must be below context_tokens "
            f"({context_tokens}): the answer shares the context window with the prompt"
        )
    numbers = {
        "price_in_per_mtok": _number(table, "price_in_per_mtok", price_default),
        "price_out_per_mtok": _number(table, "price_out_per_mtok", price_default),
        "confirm_above_usd": _number(table, "confirm_above_usd", DEFAULT_CONFIRM_ABOVE_USD),
        "timeout": _number(table, "timeout", DEFAULT_TIMEOUT),
        "temperature": _number(table, "temperature", None),
    }
    max_retries = _count(table, "max_retries", DEFAULT_MAX_RETRIES, 0)
    # api_key_env = "" says "this server takes no key" (a keyless server on the network)
    keyless = table.get("api_key_env") == ""
    named = None if keyless else _text(table, "api_key_env")
    key_env = named or (None if local or keyless else DEFAULT_KEY_ENV[provider])
    if key_env and not local and not environ.get(key_env):
        raise ConfigError(
            f"{_where('api_key_env')}: the environment variable {key_env} is not set; "
            f"export {key_env}=... (the key itself never goes in mnemex.toml)"
        )
    return ModelConfig(
        provider=provider,
        model=model,
        base_url=base_url,
        api_key_env=key_env,
        context_tokens=context_tokens,
        max_output_tokens=max_output,
        price_in_per_mtok=numbers["price_in_per_mtok"],
        price_out_per_mtok=numbers["price_out_per_mtok"],
        confirm_above_usd=numbers["confirm_above_usd"] or 0.0,
        timeout=numbers["timeout"] or DEFAULT_TIMEOUT,
        max_retries=max_retries,
        temperature=numbers["temperature"],
    )


__all__ = [
    "DEFAULT_BASE_URL",
    "DEFAULT_KEY_ENV",
    "PROVIDERS",
    "ModelConfig",
    "is_local_url",
    "parse_model_config",
]
