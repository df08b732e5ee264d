"""The optional model pass over duplicate pairs, against the fake provider over loopback."""

from __future__ import annotations

import pytest

from fake_provider import FakeProvider
from health_support import ADA, ADAS, LONELY
from helpers import write
from mnemex.brain import Brain
from mnemex.errors import CostConfirmationRequired
from mnemex.health import scan
from mnemex.health.confirm import confirm_duplicates


def _two_pairs(brain: Brain) -> None:
    write(
        brain.vault.root,
        "health/possible-duplicates.json",
        '{"version": 1, "pairs": [{"a": "' + LONELY + '", "b": "' + ADA + '", "score": 0.5,'
        ' "reason": "x", "source": "s", "recorded": "t"}]}',
    )


def test_the_model_confirms_one_pair_and_rules_out_the_other(
    sick_brain: Brain, fake: FakeProvider
) -> None:
    _two_pairs(sick_brain)
    report = scan(sick_brain.vault, sick_brain.backend)
    assert len(report.issues["duplicates"]) == 2
    fake.queue(
        fake.json({"same": True, "reason": "plural of one name"}),
        fake.json({"same": False, "reason": "a person and a card system"}),
    )
    client = fake.client("openai", price_in_per_mtok=1.0, price_out_per_mtok=1.0)
    done = confirm_duplicates(sick_brain.vault, report, client)
    assert (done["asked"], done["same"], done["different"]) == (2, 1, 1)
    [kept] = report.issues["duplicates"]
    assert kept.files == [ADA, ADAS] and kept.data["model"]["same"] is True
    assert "confirms" in kept.detail and "~$" in done["estimate"]


def test_a_model_pass_above_the_cost_gate_needs_confirmation_first(
    sick_brain: Brain, fake: FakeProvider
) -> None:
    report = scan(sick_brain.vault, sick_brain.backend)
    client = fake.client(
        "openai", price_in_per_mtok=1e6, price_out_per_mtok=1e6, confirm_above_usd=0.01
    )
    with pytest.raises(CostConfirmationRequired):
        confirm_duplicates(sick_brain.vault, report, client)
    assert len(report.issues["duplicates"]) == 1  # nothing asked, nothing changed


def test_a_failing_model_leaves_the_pair_as_found(sick_brain: Brain, fake: FakeProvider) -> None:
    report = scan(sick_brain.vault, sick_brain.backend)
    fake.queue(*[fake.status(500)] * 10)
    client = fake.client("openai", max_retries=0)
    done = confirm_duplicates(sick_brain.vault, report, client, confirmed=True)
    assert done["failed"] == 1 and len(report.issues["duplicates"]) == 1
