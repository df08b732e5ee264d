"""Hostile input, generated at run time (never committed), and a guard against a hang.

Each input is sized so that a linear parser takes well under a second while a quadratic
one takes minutes (a line of 200,000 unclosed ``[[`` once took 125 s to index). Tests
assert what comes out, never how long it took: the work runs in a subprocess with a
generous timeout, so a regression fails the test instead of hanging the suite.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

#: Far above what the linear code needs (well under a second for each input), far
#: below what a quadratic one would (minutes to hours).
TIMEOUT_SECONDS = 60

TESTS = Path(__file__).resolve().parent


def alias_bomb(levels: int = 9) -> str:
    """Frontmatter whose YAML aliases stand for 9**levels values ("billion laughs")."""
    lines = ['l0: &l0 ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for i in range(1, levels):
        lines.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]")
    return "---\n" + "\n".join(lines) + "\n---\n# Bomb\n\nbody text\n"


def hostile_notes() -> dict[str, str]:
    """Name -> note text: the inputs that were slow, and their cousins."""
    n = 200_000
    return {
        "unclosed-wikilinks": "[[" * n,
        "unclosed-wikilinks-words": "[[a " * (n // 2),
        "unclosed-embeds": "![[" * n,
        "unclosed-markdown-links": "[t](" * (n // 2),
        "markdown-link-headings": "[t](" + "a.md#" * (n // 2) + "x",
        "open-brackets": "[" * n,
        "hash-run": "#" * n,
        "heading-of-spaces": "# a" + " " * (n // 2) + "x",
        "heading-of-hashes": "# a " + "#" * (n // 2) + " x",
        "backtick-run": "`" * n,
        "backtick-pairs": "`` a " * (n // 4),
        "fence-lines": "---\n" * (n // 2),
        "space-run": "a" + " " * n + "b",
        "tag-digits": ("#" + "1" * 1000 + " ") * (n // 1000),
        "giant-word": "w" * n * 2,
        "alias-bomb": alias_bomb(),
        "closed-wikilinks": "[[a]] " * (n // 10),
    }


def _pythonpath() -> list[str]:
    current = os.environ.get("PYTHONPATH")
    return current.split(os.pathsep) if current else []


def bounded(code: str, timeout: float = TIMEOUT_SECONDS) -> Any:
    """Run ``code`` (which prints one JSON value) in a fresh interpreter; its value.

    The subprocess is killed after ``timeout`` seconds and the test fails saying so.
    """
    try:
        done = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            env={**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), *_pythonpath()])},
        )
    except subprocess.TimeoutExpired:
        raise AssertionError(
            f"still running after {timeout} s: something is no longer linear in its input"
        ) from None
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])
