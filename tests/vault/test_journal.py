"""The journal is append-only, and a malformed line is skipped when read, never fatal."""

from __future__ import annotations

from pathlib import Path

from mnemex.state import append_entry, read_journal
from mnemex.vault import Vault


def test_appending_never_rewrites_earlier_lines(vault_dir: Path) -> None:
    vault = Vault(vault_dir)
    rel = append_entry(vault, "p", "m-00000000", {"ts": "2026-01-01T00:00:00+00:00", "event": "a"})
    first = (vault_dir / rel).read_bytes()
    append_entry(vault, "p", "m-00000000", {"ts": "2026-01-02T00:00:00+00:00", "event": "b"})
    assert (vault_dir / rel).read_bytes().startswith(first)


def test_malformed_lines_are_skipped_and_counted(vault_dir: Path) -> None:
    vault = Vault(vault_dir)
    rel = append_entry(vault, "p", "m-00000000", {"ts": "2026-01-01T00:00:00+00:00", "event": "a"})
    with (vault_dir / rel).open("ab") as fh:
        fh.write(b'{"broken": \n[1, 2]\n\xff\xfe\n{"no": "ts"}\n{"ts": "2026-01-03T00:00:00+00:00"')
    append_entry(vault, "p", "m-00000000", {"ts": "2026-01-02T00:00:00+00:00", "event": "b"})
    read = read_journal(vault, "p")
    assert [e.get("event") for e in read.entries] == ["a", "b"]
    assert read.skipped == 5  # the unterminated last line too: the next append did not glue to it


def test_journals_of_several_machines_are_read_together_oldest_first(vault_dir: Path) -> None:
    vault = Vault(vault_dir)
    append_entry(vault, "p", "b-00000000", {"ts": "2026-01-02T00:00:00+00:00", "event": "x"})
    append_entry(vault, "p", "a-00000000", {"ts": "2026-01-01T00:00:00+00:00", "event": "y"})
    entries = read_journal(vault, "p").entries
    assert [e["machine"] for e in entries] == ["a-00000000", "b-00000000"]
    assert read_journal(vault, "nothing-here").entries == []
