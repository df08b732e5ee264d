"""This machine's identity in a vault: ``<hostname-slug>-<install-id>`` (vault format §2).

The name is minted once, whole, into ``.mnemex/machine-id`` and never recomputed:
a hostname that changes later (a renamed laptop, a DHCP name) does not change the
machine, so its handoffs and journal stay in one place. Minting is first writer
wins: the file is written in full under a temporary name and hard-linked into
place, which fails if another process got there first, so several processes
starting together all read the same name and nobody ever sees half a file.

A file holding only the 8-hex install id (written by an earlier mnemex) is
completed once with the hostname, under the vault's ``machine`` lock.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import socket
import time
from pathlib import Path

from mnemex.errors import VaultError
from mnemex.vault import Vault, ascii_slug, atomic_write, write_temp

MACHINE_ID_FILE = "machine-id"
_ID_RE = re.compile(r"^[0-9a-f]{8}$")
_NAME_RE = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,78}[a-z0-9])?-[0-9a-f]{8}$")


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return ""


def _publish(path: Path, value: str) -> bool:
    """Put ``value`` at ``path`` unless a file is already there; True if this call did."""
    tmp = write_temp(path, (value + "\n").encode("utf-8"))  # not a secret: the umask decides
    try:
        os.link(tmp, path)  # atomic, and refuses an existing target: first writer wins
    except FileExistsError:
        return False
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
    return True


def machine_name(vault: Vault) -> str:
    """``<hostname-slug>-<install-id>``, e.g. ``laptop-local-3fa2b1c9``, minted on first use.

    Raises:
        VaultError: ``.mnemex/machine-id`` holds something that is not a machine name.
    """
    path = vault.local_dir / MACHINE_ID_FILE
    for _ in range(50):
        value = _read(path)
        if _NAME_RE.match(value):
            return value
        if _ID_RE.match(value):
            return _complete(vault, path)
        if value:
            raise VaultError(
                f"{path} holds {value[:40]!r}, not a machine name; delete it and mnemex mints "
                "a new one (this machine's handoffs then start afresh)"
            )
        if _publish(path, f"{ascii_slug(socket.gethostname())}-{secrets.token_hex(4)}"):
            continue  # re-read: what is on disk is the answer
        time.sleep(0.01)
    raise VaultError(f"{path} could not be read after minting it; check the folder's permissions")


def _complete(vault: Vault, path: Path) -> str:
    """Turn an install-id-only file into a whole name, once (under the ``machine`` lock)."""
    with vault.lock("machine"):
        value = _read(path)
        if _ID_RE.match(value):
            value = f"{ascii_slug(socket.gethostname())}-{value}"
            atomic_write(path, (value + "\n").encode("utf-8"))
    return value


def machine_id(vault: Vault) -> str:
    """The vault's 8-hex install id on this machine (the end of :func:`machine_name`)."""
    return machine_name(vault).rsplit("-", 1)[1]


__all__ = ["MACHINE_ID_FILE", "machine_id", "machine_name"]
