"""The consolidation bench (``bench/facts_consolidate.py``) runs, on a slice of the timeline.

The slice is the first nine events of the timeline but one (``e04``: with two handoffs in
the slice, a vault written before any pass holds only the handoff saved last, so a
shuffled replay would compare different inputs), and ``e20``, a source whose hosting
supersedes a session's, which waits for the person; fed as tuning phrasing ``0`` with the
hashing embedder, and asked the questions about the slots only those events speak of.
The checks are structural: the run completes, the person reviews what waits, no stable
fact changes without a person, no agent draft is counted, every harvested digest keeps
the user's sentence, and the replays (another order, a clock two days off either way)
derive the same facts. The accuracy is the bench's to report, not this test's.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
SLICE = ("e01", "e02", "e03", "e05", "e06", "e07", "e08", "e09", "e20")


@pytest.fixture(scope="module")
def bench() -> Iterator[ModuleType]:
    sys.path.insert(0, str(BENCH))
    try:
        import facts_consolidate

        yield facts_consolidate
    finally:
        sys.path.remove(str(BENCH))


def _slice(bench: ModuleType) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    data = bench.with_phrasings(bench.load())
    events = [e for e in data["events"] if e["id"] in SLICE]
    inside = {bench._slot(e) for e in events}
    outside = {bench._slot(e) for e in data["events"] if e["id"] not in SLICE}
    questions = [q for q in data["questions"] if bench._slot(q) in inside - outside]
    assert questions
    return data, events, questions


def test_the_slice_is_fed_consolidated_and_scored(bench: ModuleType) -> None:
    data, events, questions = _slice(bench)
    result = bench.run(data, "0", "hashing", events=events, questions=questions)
    assert result["questions"] == len(questions)
    assert set(result["fed"]) == set(SLICE)
    assert result["approved_by_the_person"]["reviews"] >= 1
    assert result["stable_changed_without_a_person"] == []
    assert result["agent_drafts_counted"] == []
    assert result["digests_missing_the_sentence"] == []
    harvested = [s for s in result["fed"].values() if s["path"] == "fact_add"]
    assert harvested and all(s["note"].startswith("memories/") for s in harvested)


def test_replays_in_another_order_and_off_the_clock_give_the_same_facts(
    bench: ModuleType,
) -> None:
    data, events, questions = _slice(bench)
    checks = bench.replays(data, "0", "hashing", events=events, questions=questions)
    assert set(checks) == {"order", "clock", "clock-behind"}
    assert checks["order"]["shuffled"] != sorted(SLICE)
    for name, check in checks.items():
        assert check["facts"] > 0, name
        assert check["equal"], (name, check["differences"])
