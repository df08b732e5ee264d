"""Harvest with a [model]: the model writes the digest, a failed call leaves an offline stand-in
that a later run replaces, and an offline run never touches a model-written digest.

The fake provider on 127.0.0.1 tests the plumbing only, not digest quality.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from fake_provider import FakeProvider
from mnemex.cli import cli
from mnemex.harvest.run import harvest_sessions
from mnemex.llm import load_model
from mnemex.vault import Vault, parse_note
from synth import claude_session

GOOD = {
    "title": "Importer skips blank rows",
    "summary": "Made the importer skip blank rows.",
    "worked_on": ["Skipping blank rows"],
    "problem": ["KeyError on blank rows"],
    "solution": ["Blank rows are skipped"],
    "decisions": ["Skip rather than fail"],
    "dead_ends": [],
    "open_items": [],
    "tags": ["csv"],
    "importance": 0.6,
}


def _frontmatter(vault_dir: Path) -> tuple[Path, dict[str, object]]:
    (path,) = vault_dir.glob("memories/*/*/*.md")
    return path, parse_note(path.read_text(encoding="utf-8"), path.name).frontmatter


def test_a_model_digest_replaces_the_offline_stand_in_and_then_stays(
    fake: FakeProvider, vault_dir: Path, tmp_path: Path
) -> None:
    src = tmp_path / "claude"
    claude_session(src, "sess-1")
    fake.write_config(vault_dir)
    vault = Vault(vault_dir)
    client = load_model(vault, sleep=lambda _s: None)
    assert client is not None

    fake.queue(*[fake.text("not json")] * 3)
    report = harvest_sessions(vault, {"claude-code": [src]}, settle_seconds=0, model=client)
    path, fm = _frontmatter(vault_dir)
    assert str(fm["extractor"]).startswith("offline (model failed: ModelOutputError"), fm
    assert report.counts()["created"] == 1 and report.warnings

    fake.queue(fake.json(GOOD))
    report = harvest_sessions(vault, {"claude-code": [src]}, settle_seconds=0, model=client)
    _, fm = _frontmatter(vault_dir)
    assert str(fm["extractor"]).startswith("model:openai:fake-model@"), fm
    assert report.counts()["updated"] == 1, report.to_dict()
    assert "Skip rather than fail" in path.read_text(encoding="utf-8")

    calls = len(fake.requests)
    report = harvest_sessions(vault, {"claude-code": [src]}, settle_seconds=0, model=client)
    assert report.counts()["unchanged"] == 1 and len(fake.requests) == calls

    report = harvest_sessions(vault, {"claude-code": [src]}, settle_seconds=0)
    assert report.counts()["unchanged"] == 1
    _, fm = _frontmatter(vault_dir)
    assert str(fm["extractor"]).startswith("model:"), fm


def test_the_cli_uses_the_configured_model_unless_offline(
    fake: FakeProvider, vault_dir: Path, tmp_path: Path
) -> None:
    src = tmp_path / "claude"
    claude_session(src, "sess-2")
    fake.write_config(vault_dir)
    base = ["--vault", str(vault_dir), "harvest", "--claude-dir", str(src), "--settle", "0"]

    offline = CliRunner().invoke(cli, [*base, "--offline", "--no-index", "--json"])
    assert offline.exit_code == 0, offline.output
    assert json.loads(offline.output)["created"] == 1
    assert fake.requests == []
    _, fm = _frontmatter(vault_dir)
    assert fm["extractor"] == "offline"

    fake.queue(fake.json(GOOD))
    # an offline digest is the real thing, not a stand-in: a model run leaves it alone
    again = CliRunner().invoke(cli, [*base, "--no-index", "--json"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.output)["unchanged"] == 1
