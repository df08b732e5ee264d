"""The machine identity is minted once, stored whole, and never recomputed; its file is no
secret: it is made as open() would make it, under the umask."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from mnemex.errors import VaultError
from mnemex.vault import Vault, machine


def test_the_machine_name_is_minted_once_and_stored_whole(
    vault_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vault = Vault(vault_dir)
    monkeypatch.setattr(machine.socket, "gethostname", lambda: "Laptop.Local")
    name = machine.machine_name(vault)
    assert name.startswith("laptop-local-") and len(name) == len("laptop-local-") + 8
    stored = (vault_dir / ".mnemex" / "machine-id").read_text(encoding="utf-8").strip()
    assert stored == name
    assert machine.machine_id(vault) == name[-8:]


def test_a_hostname_in_another_script_still_makes_an_ascii_machine_name(
    vault_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vault = Vault(vault_dir)
    monkeypatch.setattr(machine.socket, "gethostname", lambda: "Jürgens-東京")
    name = machine.machine_name(vault)
    assert name.startswith("jurgens-") and name.isascii()
    assert machine.machine_name(vault) == name  # what is stored reads back as a name


def test_a_changed_hostname_does_not_change_the_machine(
    vault_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vault = Vault(vault_dir)
    monkeypatch.setattr(machine.socket, "gethostname", lambda: "first")
    name = machine.machine_name(vault)
    monkeypatch.setattr(machine.socket, "gethostname", lambda: "renamed-later")
    assert machine.machine_name(vault) == name


def test_an_install_id_only_file_is_completed_once_and_then_kept(
    vault_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vault = Vault(vault_dir)
    (vault_dir / ".mnemex" / "machine-id").write_text("3fa2b1c9\n", encoding="utf-8")
    monkeypatch.setattr(machine.socket, "gethostname", lambda: "old-host")
    assert machine.machine_name(vault) == "old-host-3fa2b1c9"
    monkeypatch.setattr(machine.socket, "gethostname", lambda: "new-host")
    assert machine.machine_name(vault) == "old-host-3fa2b1c9"


def test_a_machine_id_file_holding_garbage_is_refused_with_what_to_do(vault_dir: Path) -> None:
    (vault_dir / ".mnemex" / "machine-id").write_text("not an id", encoding="utf-8")
    with pytest.raises(VaultError, match="delete it"):
        machine.machine_name(Vault(vault_dir))


def test_processes_minting_the_machine_name_at_once_all_agree(vault_dir: Path) -> None:
    code = (
        "import sys, time\n"
        "from mnemex.vault.machine import machine_name\n"
        "from mnemex.vault import Vault\n"
        "v = Vault(sys.argv[1])\n"
        "start = float(sys.argv[2])\n"
        "while time.time() < start: pass\n"
        "print(machine_name(v))\n"
    )
    import time

    start = str(time.time() + 1.0)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(vault_dir), start], stdout=subprocess.PIPE, text=True
        )
        for _ in range(8)
    ]
    names = {p.communicate(timeout=60)[0].strip() for p in procs}
    assert len(names) == 1
    stored = (vault_dir / ".mnemex" / "machine-id").read_text(encoding="utf-8").strip()
    assert names == {stored}
    assert not [p for p in (vault_dir / ".mnemex").iterdir() if p.name.endswith(".tmp")]


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
