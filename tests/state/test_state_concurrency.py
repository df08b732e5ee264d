"""Processes saving at once never lose a save: each is journaled and committed, one file wins."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from mnemex.state import get_handoff, read_journal, save_handoff
from mnemex.vault import Vault, init_vault
from mnemex.vault.machine import machine_name

CODE = """
import sys, time
from mnemex.state import save_handoff
from mnemex.vault import Vault
start = float(sys.argv[3])
while time.time() < start:
    pass
save_handoff(Vault(sys.argv[1]), "mnemex", "save " + sys.argv[2], state=["from " + sys.argv[2]])
"""


def test_concurrent_handoff_saves_of_one_machine_are_all_journaled_and_committed(
    tmp_path: Path,
) -> None:
    root = tmp_path / "vault"
    init_vault(root, git=True)
    vault = Vault(root)
    save_handoff(vault, "mnemex", "first", create=True)
    start = str(time.time() + 1.5)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CODE, str(root), str(i), start], stderr=subprocess.PIPE
        )
        for i in range(4)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err.decode()
    entries = read_journal(vault, "mnemex", machine_name(vault)).entries
    assert sorted(e["headline"] for e in entries) == ["first"] + [f"save {i}" for i in range(4)]
    assert get_handoff(vault, "mnemex")["headline"].startswith("save ")
    log = subprocess.run(
        ["git", "log", "--format=%s"], cwd=root, capture_output=True, text=True, check=True
    ).stdout
    assert log.count("mnemex save_handoff:") == 5
    status = subprocess.run(
        ["git", "status", "--porcelain", "state/mnemex"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert status == ""
