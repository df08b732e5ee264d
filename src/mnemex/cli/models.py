"""``mnemex models status|ledger``: which model is configured, and what it has cost.

Never prints a key: only the name of its environment variable and whether it is set.
"""

from __future__ import annotations

import datetime as dt
import os
import sys
from typing import Any

import click

from mnemex.cli.app import Context, emit, handle_errors, json_option, open_vault, pass_app
from mnemex.errors import ConfigError
from mnemex.llm import ledger_path, ledger_totals, parse_model_config
from mnemex.llm.config import DEFAULT_BASE_URL, DEFAULT_KEY_ENV, is_local_url
from mnemex.vault import Vault


def _since(value: str | None) -> dt.datetime | None:
    if not value:
        return None
    try:
        parsed = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise ConfigError(f"--since {value!r}: give a date (2026-11-01) or an ISO time") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)


def model_status(vault: Vault) -> dict[str, Any]:
    """What ``models status`` shows: the settings (no key), whether the key is set, totals."""
    table = vault.settings.model
    totals = ledger_totals(vault.root).total.to_dict()
    if not table:
        return {"configured": False, "ledger": totals}
    provider = str(table.get("provider", ""))
    base_url = str(table.get("base_url") or DEFAULT_BASE_URL.get(provider, ""))
    key_env = table.get("api_key_env") or (
        None if is_local_url(base_url) else DEFAULT_KEY_ENV.get(provider)
    )
    status: dict[str, Any] = {
        "configured": True,
        "provider": provider,
        "model": table.get("model"),
        "base_url": base_url,
        "local": is_local_url(base_url) if base_url else False,
        "api_key_env": key_env,
        "api_key_set": bool(key_env and os.environ.get(str(key_env))),
        "problem": None,
        "ledger": totals,
    }
    try:
        config = parse_model_config(table)
    except ConfigError as exc:
        status["problem"] = str(exc)
        return status
    key = config.api_key_env
    status.update(
        {
            "api_key_env": key,
            "api_key_set": bool(key and os.environ.get(key)),
            "identity": config.identity,
            "context_tokens": config.context_tokens,
            "max_output_tokens": config.max_output_tokens,
            "price_in_per_mtok": config.price_in_per_mtok,
            "price_out_per_mtok": config.price_out_per_mtok,
            "confirm_above_usd": config.confirm_above_usd,
            "ledger_file": str(ledger_path(vault.root)),
        }
    )
    return status


def _price(value: Any) -> str:
    return "unknown" if value is None else f"${value}/Mtok"


def _bucket_line(name: str, bucket: dict[str, Any]) -> str:
    cost = f"${bucket['cost_usd']:.4f}"
    if bucket["unknown_cost_calls"]:
        cost += f" (+{bucket['unknown_cost_calls']} call(s) of unknown cost)"
    return (
        f"{name}: {bucket['calls']} call(s), {bucket['failed']} failed, "
        f"{bucket['input_tokens']} tokens in, {bucket['output_tokens']} out, {cost}"
    )


@click.group()
def models() -> None:
    """The model provider: what is configured, and what the calls have cost."""


@models.command("status")
@json_option
@pass_app
@handle_errors
def status_command(app: Context, as_json: bool) -> None:
    """Show the configured model, its base URL, whether its key variable is set (never the
    key), and the ledger's totals. With no [model] table mnemex works offline."""
    status = model_status(open_vault(app))

    def text() -> None:
        if not status["configured"]:
            click.echo("no model configured ([model] in mnemex.toml): mnemex works offline")
        else:
            key = status["api_key_env"]
            click.echo(f"provider: {status['provider']}  model: {status['model']}")
            click.echo(f"base URL: {status['base_url']}" + ("  (local)" if status["local"] else ""))
            if key:
                click.echo(f"key: ${key} is {'set' if status['api_key_set'] else 'NOT set'}")
            else:
                click.echo("key: none needed (local server)")
            if status["problem"]:
                click.echo(f"problem: {status['problem']}")
            else:
                click.echo(
                    f"context: {status['context_tokens']} tokens, answers up to "
                    f"{status['max_output_tokens']}; price in {_price(status['price_in_per_mtok'])}"
                    f", out {_price(status['price_out_per_mtok'])}; confirm runs above "
                    f"${status['confirm_above_usd']:.2f}"
                )
        click.echo(_bucket_line("ledger", status["ledger"]))

    emit(status, as_json, text)
    if status.get("problem"):
        sys.exit(1)


@models.command("ledger")
@click.option("--since", help="Only calls at or after this date (2026-11-01) or ISO time.")
@json_option
@pass_app
@handle_errors
def ledger_command(app: Context, since: str | None, as_json: bool) -> None:
    """Show the model calls recorded on this machine: calls, tokens in and out and estimated
    cost, in total, by purpose and by model."""
    totals = ledger_totals(open_vault(app).root, _since(since))
    data = totals.to_dict()

    def text() -> None:
        click.echo(_bucket_line("total" + (f" since {since}" if since else ""), data["total"]))
        for title, key in (("by purpose", "by_purpose"), ("by model", "by_model")):
            if data[key]:
                click.echo(title + ":")
                for name, bucket in data[key].items():
                    click.echo("  " + _bucket_line(name, bucket))

    emit(data, as_json, text)


def register(cli: click.Group) -> None:
    cli.add_command(models)


__all__ = ["model_status", "register"]
