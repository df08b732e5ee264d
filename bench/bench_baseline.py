"""What the baseline rule costs a write: page appends on a person's vault, committed or not.

    python bench/bench_baseline.py [--notes 50] [--runs 3]

A vault of ``--notes`` notes is made twice: once with every note committed, once as
``mnemex init`` leaves a folder it adopts (git, nothing committed). Each run appends a line
to every note, one :func:`mnemex.pages.edit.append_to_page` call each (one commit each, as an
agent's MCP calls are). On the never-committed vault each first change also commits the
note's own bytes alone (a ``baseline`` commit, vault format §12), so undo gives them back.
Prints the median and worst of ``--runs`` runs, per append, for each vault, and their ratio.
A second pass on the same vault costs the same as a committed one: a note is baselined once.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from mnemex.brain import Brain
from mnemex.pages.edit import append_to_page
from mnemex.vault import init_vault


def make_vault(root: Path, notes: int, commit: bool) -> None:
    root.mkdir(parents=True)
    for i in range(notes):
        (root / f"note {i:03}.md").write_text(f"# Note {i}\n\nWritten by a person.\n", "utf-8")
    init_vault(root, git=True)
    if commit:
        env = ["-c", "user.name=bench", "-c", "user.email=bench@localhost"]
        subprocess.run(["git", "add", "-A"], cwd=root, check=True)
        subprocess.run(["git", *env, "commit", "-qm", "person"], cwd=root, check=True)


def appends(root: Path, notes: int) -> float:
    """Seconds per append over every note of the vault."""
    with Brain.open(root) as brain:
        start = time.perf_counter()
        for i in range(notes):
            append_to_page(brain, f"note {i:03}.md", "- one more line")
        return (time.perf_counter() - start) / notes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    results: dict[str, list[float]] = {"committed": [], "never committed": []}
    for run in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            for name, commit in (("committed", True), ("never committed", False)):
                root = Path(tmp) / f"{run}-{commit}"
                make_vault(root, args.notes, commit)
                results[name].append(appends(root, args.notes))
    print(f"{args.notes} appends, one commit each, {args.runs} runs (ms per append)\n")
    print("| vault | median | worst |\n|---|---:|---:|")
    for name, times in results.items():
        print(f"| {name} | {statistics.median(times) * 1000:.0f} | {max(times) * 1000:.0f} |")
    ratio = statistics.median(results["never committed"]) / statistics.median(results["committed"])
    print(f"\nnever committed / committed: {ratio:.2f}x")


if __name__ == "__main__":
    main()
