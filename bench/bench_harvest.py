"""Harvest speed: 500 synthetic Claude Code sessions of ~300 turns each, offline extractor.

    python bench/bench_harvest.py [--sessions 500] [--turns 300] [--runs 3] [--archive]
                                  [--no-embed] [--workdir DIR]

Measures reading + extracting + writing (one commit) for the first harvest, then a no-op
re-harvest, ``--runs`` times each into a fresh vault (medians printed). Then, once, the
index sync that ``mnemex harvest`` runs afterwards with the default MiniLM embedder:
chunks embedded, seconds, chunks/s (reported apart: it is the embedder's cost, not the
harvester's). ``--archive`` also writes the redacted, compressed transcript archive.
Issue 5 targets: first run <= 60 s, no-op <= 2 s.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from mnemex.brain import Brain
from mnemex.harvest.run import HarvestReport, harvest_sessions
from mnemex.vault import Vault
from mnemex.vault.layout import init_vault


def _line(kind: str, sid: str, n: int, message: dict[str, object]) -> str:
    return json.dumps(
        {
            "type": kind,
            "uuid": f"{sid}-{n}",
            "parentUuid": f"{sid}-{n - 1}" if n else None,
            "sessionId": sid,
            "timestamp": f"2026-11-01T{(n // 3600) % 24:02d}:{(n // 60) % 60:02d}:{n % 60:02d}Z",
            "cwd": f"/nonexistent/bench/project-{int(sid.split('-')[1]) % 20}",
            "gitBranch": "main",
            "message": message,
        }
    )


def make_sessions(root: Path, sessions: int, turns: int) -> None:
    for s in range(sessions):
        sid = f"bench-{s:04d}"
        folder = root / f"-bench-project-{s % 20}"
        folder.mkdir(parents=True, exist_ok=True)
        lines = [_line("user", sid, 0, {"role": "user", "content": f"Task {s}: fix the parser."})]
        for n in range(1, turns, 3):
            call = {
                "type": "tool_use",
                "id": f"t{n}",
                "name": "Bash",
                "input": {"command": "pytest -q"},
            }
            text = {"type": "text", "text": f"Step {n}: we will use approach {n} instead. " * 3}
            lines.append(
                _line(
                    "assistant",
                    sid,
                    n,
                    {"id": f"m{n}", "role": "assistant", "content": [text, call]},
                )
            )
            result = {
                "type": "tool_result",
                "tool_use_id": f"t{n}",
                "is_error": n % 7 == 0,
                "content": ("Exit code 1\nE AssertionError\n" if n % 7 == 0 else "ok\n")
                + "x" * 800,
            }
            lines.append(_line("user", sid, n + 1, {"role": "user", "content": [result]}))
            edit = {
                "type": "tool_use",
                "id": f"e{n}",
                "name": "Edit",
                "input": {
                    "file_path": f"/nonexistent/bench/f{n % 9}.py",
                    "old_string": "a",
                    "new_string": "b",
                },
            }
            lines.append(
                _line(
                    "assistant", sid, n + 2, {"id": f"k{n}", "role": "assistant", "content": [edit]}
                )
            )
        path = folder / f"{sid}.jsonl"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        old = time.time() - 3600
        os.utime(path, (old, old))


def _timed_harvest(
    vault: Vault, sources: dict[str, list[Path]], archive: bool
) -> tuple[float, HarvestReport]:
    started = time.perf_counter()
    report = harvest_sessions(vault, sources, settle_seconds=60, archive=archive)
    return time.perf_counter() - started, report


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=500)
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--archive", action="store_true", help="also archive the transcripts")
    parser.add_argument("--no-embed", action="store_true", help="skip the MiniLM index sync")
    parser.add_argument("--workdir", type=Path, default=None)
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="mnemex-bench-harvest-"))
    shutil.rmtree(work / "claude", ignore_errors=True)
    make_sessions(work / "claude", args.sessions, args.turns)
    sources = {"claude-code": [work / "claude"]}
    firsts: list[float] = []
    noops: list[float] = []
    for _ in range(args.runs):
        shutil.rmtree(work / "vault", ignore_errors=True)
        init_vault(work / "vault")
        vault = Vault(work / "vault")
        first_s, first = _timed_harvest(vault, sources, args.archive)
        noop_s, again = _timed_harvest(vault, sources, args.archive)
        firsts.append(first_s)
        noops.append(noop_s)
    runs = f"median of {args.runs}: " + ", ".join(f"{t:.2f}" for t in firsts)
    what = f"harvest {args.sessions} sessions x ~{args.turns} turns"
    if args.archive:
        what += " + archive"
    print(f"| {what} | {statistics.median(firsts):.2f} s | {runs}; {first.summary()} |")
    noop_runs = ", ".join(f"{t:.3f}" for t in noops)
    print(
        f"| no-op re-harvest | {statistics.median(noops):.3f} s | {noop_runs}; {again.summary()} |"
    )
    if args.no_embed:
        return
    with Brain(vault) as brain:  # the vault's embedder: MiniLM by default
        name = brain.embedder.identity
        synced = brain.sync()
    rate = synced.embedded / synced.seconds if synced.seconds else 0.0
    print(
        f"| index sync after harvest ({name}) | {synced.seconds:.1f} s | "
        f"{synced.embedded} chunks embedded, {rate:.0f} chunks/s |"
    )


if __name__ == "__main__":
    main()
