"""Helpers for the working-state tests."""

from __future__ import annotations

from pathlib import Path

from mnemex.vault import Vault, init_vault


def git_vault(root: Path) -> Vault:
    """A vault with git, so every save is a commit."""
    init_vault(root, git=True)
    return Vault(root)


def substantial(prefix: str, n: int = 8) -> list[str]:
    return [
        f"{prefix} item {i}: a sentence long enough to carry some real content" for i in range(n)
    ]
