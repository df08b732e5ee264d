"""Docs that cannot go stale: the CLI reference is generated, and checked here."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _generator():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("gen_cli_docs", ROOT / "scripts/gen_cli_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docs_cli_md_matches_the_commands_in_the_code() -> None:
    expected = _generator().render()
    actual = (ROOT / "docs/cli.md").read_text(encoding="utf-8")
    assert actual == expected, "docs/cli.md is stale: run `make docs`"


def test_every_command_has_a_help_text() -> None:
    gen = _generator()
    for path, command in gen._walk(gen.cli, ["mnemex"]):
        assert command.help, f"{' '.join(path)} has no help text"


def test_the_vault_format_spec_names_every_kind_folder() -> None:
    spec = (ROOT / "docs/vault-format.md").read_text(encoding="utf-8")
    for folder in ("wiki/", "foundations/", "state/", "memories/", "facts/", "health/", ".mnemex/"):
        assert folder in spec, folder
