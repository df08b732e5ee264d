"""Run the installed ``mnemex`` command in a subprocess, as a user does, for the CLI tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

MNEMEX = [sys.executable, "-m", "mnemex"]


def run(
    *args: str,
    cwd: Path | None = None,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
    ok: bool = True,
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [*MNEMEX, *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
        check=False,
    )
    if ok:
        assert done.returncode == 0, done.stderr
    return done


def run_json(*args: str, **kw: Any) -> Any:
    return json.loads(run(*args, "--json", **kw).stdout)
