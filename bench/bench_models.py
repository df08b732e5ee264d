"""Model layer overhead: what mnemex adds around a model call, and digest preparation.

    python bench/bench_models.py [--calls 300] [--turns 2000]

Against the loopback fake provider (tests/fake_provider.py, so no network and no
model time): the median round trip of ``ModelClient.complete`` (redaction, JSON, HTTP,
parsing, one ledger line) and of ``complete_json``; then, for one synthetic session of
``--turns`` turns, the transcript a digest sends (fitted to an 8k context, only the kept
lines redacted) against rendering every line, and ``estimate_digest_cost`` over 100 such
sessions. Prints JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from fake_provider import FakeProvider  # noqa: E402
from mnemex.harvest.digest import extract  # noqa: E402
from mnemex.harvest.llm_digest import (  # noqa: E402
    _transcript,
    default_budget,
    estimate_digest_cost,
    fit_lines,
    transcript_lines,
)
from mnemex.harvest.transcript import Session, ToolCall, ToolResult, Turn  # noqa: E402
from mnemex.llm import Message, complete_json  # noqa: E402


def _session(turns: int) -> Session:
    out: list[Turn] = []
    for i in range(turns // 2):
        call = ToolCall(
            "Bash",
            call_id=f"c{i}",
            command=f"pytest -q tests/t{i}.py",
            exit_code=i % 3,
            failed=i % 3 != 0,
        )
        out.append(Turn("user", f"Request {i}: make the parser handle case {i} and explain why."))
        out.append(
            Turn(
                "assistant",
                "Working on it. " * 40,
                tool_calls=[call],
                tool_results=[ToolResult("E AssertionError " * 30, f"c{i}", i % 3 != 0)],
            )
        )
    return Session(
        "bench", "claude-code", Path("/nonexistent"), "0" * 64, project="p", turns=out
    ).finish()


def _median_ms(fn: object, n: int) -> float:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(times), 3)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--turns", type=int, default=2000)
    args = parser.parse_args()
    result: dict[str, object] = {}
    with FakeProvider() as fake, tempfile.TemporaryDirectory() as tmp:
        client = fake.client(ledger=Path(tmp) / "ledger.jsonl", context_tokens=8192)
        fake.queue(*[fake.text("ok")] * args.calls)
        ask = [Message("user", "Summarise this note about SQLite WAL mode. " * 20)]
        result["complete_median_ms"] = _median_ms(
            lambda: client.complete(ask, purpose="bench"), args.calls
        )
        schema = {"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}}}
        fake.queue(*[fake.json({"a": "x"})] * args.calls)
        result["complete_json_median_ms"] = _median_ms(
            lambda: complete_json(client, ask, schema, purpose="bench"), args.calls
        )
        session = _session(args.turns)
        extract(session)
        result["transcript_all_lines_ms"] = _median_ms(lambda: transcript_lines(session), 3)
        budget = default_budget(client)
        result["transcript_sent_ms"] = _median_ms(lambda: _transcript(session, budget), 5)
        lines = transcript_lines(session)
        result["fit_ms"] = _median_ms(lambda: fit_lines(lines, budget), 5)
        kept, omitted = fit_lines(lines, budget)
        result["lines"] = len(lines)
        result["lines_kept"] = len(kept) - 1 if omitted else len(kept)
        start = time.perf_counter()
        estimate = estimate_digest_cost([session] * 100, client)
        result["estimate_100_sessions_s"] = round(time.perf_counter() - start, 3)
        result["estimate_tokens_in_per_session"] = estimate.input_tokens // 100
    print(json.dumps({"calls": args.calls, "turns": args.turns, **result}, indent=2))


if __name__ == "__main__":
    main()
