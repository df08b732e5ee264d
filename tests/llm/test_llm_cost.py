"""Estimates and the cost gate: above the limit, or of unknown price, needs a yes."""

from __future__ import annotations

import pytest

from fake_provider import FakeProvider
from mnemex.errors import CostConfirmationRequired
from mnemex.llm import check_budget, estimate_cost, estimate_tokens


def test_estimate_tokens_is_cheap_and_nonzero_for_text() -> None:
    assert estimate_tokens("") == 0
    assert 5 <= estimate_tokens("The quick brown fox jumps over the lazy dog.") <= 15


def test_an_estimate_is_priced_from_the_configured_rates(fake: FakeProvider) -> None:
    client = fake.client(price_in_per_mtok=0.15, price_out_per_mtok=0.60)
    estimate = estimate_cost(client, 1_000_000, 100_000)
    assert estimate.usd == pytest.approx(0.21)
    assert estimate.tokens == 1_100_000


def test_a_cheap_run_passes_and_a_dear_one_needs_confirmation(fake: FakeProvider) -> None:
    client = fake.client(price_in_per_mtok=1.0, price_out_per_mtok=1.0, confirm_above_usd=0.5)
    check_budget(client, estimate_cost(client, 100_000, 0), confirmed=False)
    dear = estimate_cost(client, 2_000_000, 0, calls=40)
    with pytest.raises(CostConfirmationRequired, match=r"40 call\(s\).*\$2\.0000.*--yes"):
        check_budget(client, dear, confirmed=False)
    check_budget(client, dear, confirmed=True)


def test_an_unknown_price_needs_confirmation_rather_than_passing_as_free(
    fake: FakeProvider,
) -> None:
    client = fake.client()
    assert estimate_cost(client, 10, 10).usd == 0.0  # the fake is local: free
    object.__setattr__(client.config, "price_in_per_mtok", None)  # as for a remote URL
    unknown = estimate_cost(client, 10, 10)
    assert unknown.usd is None
    with pytest.raises(CostConfirmationRequired, match=r"price .* is unknown"):
        check_budget(client, unknown, confirmed=False)


def test_estimates_add_up_and_stay_unknown_when_one_part_is(fake: FakeProvider) -> None:
    client = fake.client(price_in_per_mtok=1.0, price_out_per_mtok=1.0)
    total = estimate_cost(client, 10, 5) + estimate_cost(client, 20, 5)
    assert (total.input_tokens, total.output_tokens, total.calls) == (30, 10, 2)
    from mnemex.llm import Estimate

    assert (total + Estimate(1, 1, None)).usd is None
