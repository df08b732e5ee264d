"""Model providers: the one layer ingestion, session digests and health checks call.

mnemex works with no model; a ``[model]`` table in ``mnemex.toml`` makes these better::

    from mnemex.llm import Message, complete_json, load_model
    client = load_model(vault)              # None when no [model] table: stay offline
    if client is not None:
        data = complete_json(client, [Message("user", text)], schema, purpose="ingest")

Providers: ``openai`` (any OpenAI-compatible server: OpenAI, OpenRouter, Ollama, LM Studio,
llama.cpp, vLLM), ``anthropic`` and ``gemini``. Every call is redacted on the way out,
metered in ``<vault>/.mnemex/models/ledger.jsonl`` and retried when worth it; a run that
may cost money is estimated first (:func:`estimate_cost`) and gated (:func:`check_budget`).

Errors (all :class:`~mnemex.errors.MnemexError`)::

    ModelError                   a provider call failed
    ├── ModelAuthError           401/403 (names the env var, never the key)
    ├── ModelUnavailable         429/5xx/timeouts after the retries
    └── ModelOutputError         unusable answer; complete_json gave up
    CostConfirmationRequired     estimated above confirm_above_usd, not confirmed
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from pathlib import Path

from mnemex.config import Settings
from mnemex.errors import (
    CostConfirmationRequired,
    ModelAuthError,
    ModelError,
    ModelOutputError,
    ModelUnavailable,
)
from mnemex.llm.client import Completion, ModelClient
from mnemex.llm.config import ModelConfig, is_local_url, parse_model_config
from mnemex.llm.cost import Estimate, check_budget, estimate_cost, estimate_tokens
from mnemex.llm.ledger import LedgerTotals, ledger_path, ledger_totals
from mnemex.llm.providers import Message
from mnemex.llm.structured import check_schema, complete_json, parse_json_answer
from mnemex.vault import Vault


def load_model(
    source: Vault | Settings,
    *,
    env: Mapping[str, str] | None = None,
    ledger: Path | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> ModelClient | None:
    """The vault's configured model, or None when ``mnemex.toml`` has no ``[model]`` table.

    Given a :class:`Vault`, calls are recorded in its ledger; given bare :class:`Settings`,
    only in ``ledger`` (if any). ``env`` replaces ``os.environ`` for the key lookup.

    Raises:
        ConfigError: the table is wrong (unknown provider, no model, key variable unset for
            a remote base URL, ...); the message names the setting.
    """
    settings = source.settings if isinstance(source, Vault) else source
    if not settings.model:
        return None
    config = parse_model_config(settings.model, env)
    if ledger is None and isinstance(source, Vault):
        ledger = ledger_path(source.root)
    return ModelClient(config, ledger=ledger, env=env, sleep=sleep)


__all__ = [
    "Completion",
    "CostConfirmationRequired",
    "Estimate",
    "LedgerTotals",
    "Message",
    "ModelAuthError",
    "ModelClient",
    "ModelConfig",
    "ModelError",
    "ModelOutputError",
    "ModelUnavailable",
    "check_budget",
    "check_schema",
    "complete_json",
    "estimate_cost",
    "estimate_tokens",
    "is_local_url",
    "ledger_path",
    "ledger_totals",
    "load_model",
    "parse_json_answer",
    "parse_model_config",
]
