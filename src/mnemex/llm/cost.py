"""Estimating what a run costs before it starts, and the gate that asks for a yes.

Token counts use the offline estimator of :mod:`mnemex.text.tokens` (it errs high,
so an estimate rarely undershoots). A price that is not configured is *unknown*, never
zero: an unknown cost on a remote provider needs confirmation just like a high one,
because "we could not tell" must not pass for "free".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from mnemex.errors import CostConfirmationRequired
from mnemex.llm.config import ModelConfig
from mnemex.text.tokens import estimate_tokens


class Priced(Protocol):
    """What pricing needs of a client (a :class:`~mnemex.llm.client.ModelClient` is one)."""

    @property
    def config(self) -> ModelConfig: ...
    @property
    def identity(self) -> str: ...


@dataclass(frozen=True)
class Estimate:
    """Tokens a run is expected to use and what that costs (``usd`` None: price unknown)."""

    input_tokens: int
    output_tokens: int
    usd: float | None
    calls: int = 1

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    def describe(self) -> str:
        cost = "unknown cost (no price configured)" if self.usd is None else f"~${self.usd:.4f}"
        return (
            f"{self.calls} call(s), ~{self.input_tokens} tokens in, "
            f"~{self.output_tokens} tokens out, {cost}"
        )

    def __add__(self, other: Estimate) -> Estimate:
        usd = None if self.usd is None or other.usd is None else self.usd + other.usd
        return Estimate(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            usd,
            self.calls + other.calls,
        )


def price_of(config: ModelConfig, input_tokens: int, output_tokens: int) -> float | None:
    """USD for that many tokens, or None when either price is unknown."""
    if config.price_in_per_mtok is None or config.price_out_per_mtok is None:
        return None
    return (
        input_tokens * config.price_in_per_mtok + output_tokens * config.price_out_per_mtok
    ) / 1_000_000


def estimate_cost(
    client: Priced, input_tokens: int, output_tokens: int, calls: int = 1
) -> Estimate:
    """The :class:`Estimate` of ``calls`` calls using that many tokens in total."""
    return Estimate(
        input_tokens, output_tokens, price_of(client.config, input_tokens, output_tokens), calls
    )


def check_budget(client: Priced, estimate: Estimate, confirmed: bool) -> None:
    """Refuse a run above ``confirm_above_usd`` (or of unknown cost) unless ``confirmed``.

    Raises:
        CostConfirmationRequired: the message shows the estimate and how to confirm.
    """
    if confirmed:
        return
    limit = client.config.confirm_above_usd
    if estimate.usd is not None and estimate.usd <= limit:
        return
    if estimate.usd is None:
        why = (
            f"the price of {client.identity} is unknown (set price_in_per_mtok and "
            "price_out_per_mtok in [model] to have it estimated)"
        )
    else:
        why = f"that is above confirm_above_usd = {limit:.2f}"
    raise CostConfirmationRequired(
        f"this run needs {estimate.describe()}; {why}. "
        "Confirm with --yes on the command line (confirmed=True from code)."
    )


__all__ = ["Estimate", "check_budget", "estimate_cost", "estimate_tokens", "price_of"]
