"""This machine's identity in a vault: ``<hostname-slug>-<install-id>`` (vault format §2).

The 8-hex install id is minted once into ``.mnemex/machine-id`` (first writer
wins, so two processes starting together agree) and never recomputed.
"""

from __future__ import annotations

import os
import re
import secrets
import socket
import time

from mnemex.vault import Vault, slugify

MACHINE_ID_FILE = "machine-id"
_ID_RE = re.compile(r"^[0-9a-f]{8}$")


def machine_id(vault: Vault) -> str:
    """The vault's install id on this machine, minted on first use."""
    path = vault.local_dir / MACHINE_ID_FILE
    for _ in range(50):
        try:
            value = path.read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            value = ""
        if _ID_RE.match(value):
            return value
        minted = secrets.token_hex(4)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            time.sleep(0.02)  # another process won the race and is writing it: re-read
            continue
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(minted + "\n")
        return minted
    raise OSError(f"{path} holds no 8-hex install id; delete it and mnemex mints a new one")


def machine_name(vault: Vault) -> str:
    """``<hostname-slug>-<install-id>``, e.g. ``laptop-local-3fa2b1c9``."""
    return f"{slugify(socket.gethostname())}-{machine_id(vault)}"


__all__ = ["MACHINE_ID_FILE", "machine_id", "machine_name"]
