"""Installing the hooks adds them to Claude Code and a block to CLAUDE.md, idempotently."""

from __future__ import annotations

import json
from pathlib import Path

from mnemex.clients.hooks import BEGIN, END, install_hooks, install_instructions
from mnemex.vault import init_vault


def test_hooks_are_added_beside_the_users_own_and_a_second_install_changes_nothing(
    tmp_path: Path,
) -> None:
    vault = tmp_path / "vault"
    init_vault(vault, git=False)
    settings = tmp_path / "settings.json"
    mine = {"hooks": [{"type": "command", "command": "echo mine"}]}
    settings.write_text(json.dumps({"model": "x", "hooks": {"Stop": [mine]}}))
    first = install_hooks(vault, settings=settings)
    assert first.outcome == "updated" and first.backup is not None
    data = json.loads(settings.read_text())
    assert data["model"] == "x"
    assert data["hooks"]["Stop"][0] == mine
    assert data["hooks"]["Stop"][1]["hooks"][0]["command"].endswith("hook stop --block")
    assert data["hooks"]["SessionStart"][0]["hooks"][0]["command"].endswith("hook session-start")
    assert install_hooks(vault, settings=settings).outcome == "unchanged"


def test_the_instructions_block_is_added_once_and_refreshed_in_place(tmp_path: Path) -> None:
    agents = tmp_path / "AGENTS.md"
    agents.write_text("# My project\n\nOwn text.\n")
    assert install_instructions(agents).outcome == "updated"
    assert install_instructions(agents).outcome == "unchanged"
    text = agents.read_text()
    assert text.startswith("# My project\n\nOwn text.\n") and text.count(BEGIN) == 1
    agents.write_text(text.replace("save_handoff", "OLD") + "\nAfter.\n")
    install_instructions(agents)
    text = agents.read_text()
    assert text.count(BEGIN) == 1 and text.count(END) == 1 and "OLD" not in text
    assert text.endswith("After.\n")
