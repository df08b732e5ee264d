"""`--claude-dir ~/.claude` works as well as `~/.claude/projects`; a folder with no transcripts
is said, not silently counted as nothing to do."""

from __future__ import annotations

from pathlib import Path

from mnemex.harvest.run import harvest_sessions
from mnemex.vault import Vault
from synth import claude_session


def test_the_agents_home_folder_is_taken_for_its_transcript_folder(
    vault_dir: Path, tmp_path: Path
) -> None:
    home = tmp_path / "dot-claude"
    claude_session(home / "projects", "sess-home")
    report = harvest_sessions(Vault(vault_dir), {"claude-code": [home]}, settle_seconds=0)
    assert report.counts()["created"] == 1, report.to_dict()
    assert report.warnings == []


def test_a_folder_without_transcripts_is_a_warning(vault_dir: Path, tmp_path: Path) -> None:
    empty = tmp_path / "nothing-here"
    empty.mkdir()
    report = harvest_sessions(Vault(vault_dir), {"codex": [empty]}, settle_seconds=0)
    assert report.counts()["created"] == 0
    assert [w.reason for w in report.warnings] == ["no codex transcripts found here"]
