"""The consolidation speed benchmark (``bench/consolidate_speed.py``) runs end to end.

At a tiny size and with the hashing embedder: the vault is built, every case is measured,
and what the passes read and applied adds up. No time is asserted; the figures are taken
at full size by hand and reported in the benchmarks.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def bench() -> Iterator[ModuleType]:
    sys.path.insert(0, str(BENCH))
    try:
        import consolidate_speed

        yield consolidate_speed
    finally:
        sys.path.remove(str(BENCH))


def test_the_benchmark_runs_at_a_tiny_size(bench: ModuleType, tmp_path: Path) -> None:
    root = tmp_path / "vault"
    results = bench.run(root, notes=50, runs=1, new=5, embedder="hashing")
    cases = {c["case"]: c for c in results["cases"]}
    assert list(cases) == ["first pass", "nothing new", "5 new notes", "nothing new, after"]
    assert all(c["runs"] == 1 and c["median_s"] >= 0 for c in cases.values())

    vault = results["vault"]
    assert sum(vault["kinds"].values()) == 50 and vault["chunks"] > 0
    assert (root / ".git").is_dir() and (root / "mnemex.toml").is_file()
    assert 'owner = "Maya Lindqvist"' in (root / "mnemex.toml").read_text(encoding="utf-8")

    first = cases["first pass"]["detail"][0]
    assert first["read"] == vault["kinds"]["memory"] + vault["kinds"]["summary"]
    assert first["failed"] == 0
    assert cases["nothing new"]["detail"][0]["read"] == 0

    new = cases["5 new notes"]["detail"][0]
    assert new["new_notes"] == 5 and new["read"] == 5 and new["failed"] == 0
    stated = results["new_notes"]["fact_sentences"]
    assert results["new_notes"]["sentences"] >= 15
    if stated:  # a note that states a fact gives a proposal, applied or waiting
        assert sum(new["applied"].values()) + new["waiting"] > 0
        assert list((root / "facts").glob("*.md"))
    after = cases["nothing new, after"]["detail"][0]
    assert after["read"] <= 5 and after["failed"] == 0

    assert cases["nothing new"]["within_target"] in (True, False)
    assert bench.table(results).count("\n|") == 5
