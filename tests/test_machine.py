"""The machine-id file is no secret: it is made as open() would make it, under the umask."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from mnemex.vault import Vault, machine


@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_the_machine_id_file_follows_the_umask(vault_dir: Path, umask: int) -> None:
    old = os.umask(umask)
    try:
        machine.machine_name(Vault(vault_dir))
    finally:
        os.umask(old)
    path = vault_dir / ".mnemex" / machine.MACHINE_ID_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []
