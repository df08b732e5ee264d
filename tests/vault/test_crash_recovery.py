"""A run killed between its writes and its commit (kill -9): the next run commits what it
left, removes its stray temporary files and says so (vault format §12)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from health_support import BABBAGE, make_sick_vault, open_brain
from mnemex.vault import Vault, init_vault
from mnemex.vault.history import crash_point
from synth import claude_session

SESSIONS = 6
TEMP = re.compile(r"^\..+\.[a-z0-9_]{8}\.tmp$")
HARVEST = """
import sys
from pathlib import Path
from mnemex.harvest.run import harvest_sessions
from mnemex.vault import Vault
harvest_sessions(Vault(sys.argv[1]), {"claude-code": [Path(sys.argv[2])]}, settle_seconds=0)
"""


def killed_at(point: str, script: str, *args: str) -> None:
    """Run ``script`` in a new process that SIGKILLs itself at ``point`` (the test hook)."""
    env = {
        **os.environ,
        "MNEMEX_TEST_CRASH": point,
        "MNEMEX_TEST_CRASH_CONFIRM": "kill this process",
    }
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, capture_output=True, text=True, check=True
    ).stdout


def temporaries(root: Path) -> list[Path]:
    return [p for p in root.rglob(".*.tmp") if ".git" not in p.parts and TEMP.match(p.name)]


def uncommitted_digests(root: Path) -> list[str]:
    status = git(root, "status", "--porcelain", "--untracked-files=all", "--", "memories")
    return [line for line in status.splitlines() if line.endswith(".md")]


def intents(root: Path) -> list[Path]:
    return sorted((root / ".mnemex" / "intents").glob("*.jsonl"))


@pytest.fixture
def transcripts(tmp_path: Path) -> Path:
    folder = tmp_path / "claude"
    for i in range(SESSIONS):
        claude_session(folder, f"session-{i}", request=f"Make importer number {i} skip rows.")
    return folder


@pytest.mark.parametrize(
    ("point", "left"),
    [("change:1", 0), ("change:4", 3), ("commit:1", SESSIONS)],
    ids=["before-the-first-digest", "after-three-digests", "after-every-digest"],
)
def test_a_harvest_killed_mid_run_is_committed_whole_by_the_next_run(
    tmp_path: Path, transcripts: Path, point: str, left: int
) -> None:
    from mnemex.harvest.run import harvest_sessions

    root = tmp_path / "vault"
    init_vault(root, git=True)
    killed_at(point, HARVEST, str(root), str(transcripts))
    digests = sorted((root / "memories").rglob("*.md"))
    assert len(digests) == left
    assert len(uncommitted_digests(root)) == left, "the killed run committed nothing"
    assert len(intents(root)) == (1 if left else 0)

    report = harvest_sessions(Vault(root), {"claude-code": [transcripts]}, settle_seconds=0)
    assert (report.created, report.unchanged, report.failed) == (SESSIONS - left, left, 0)
    assert len(sorted((root / "memories").rglob("*.md"))) == SESSIONS
    assert uncommitted_digests(root) == []
    assert intents(root) == [] and temporaries(root) == []
    recovered = [w.reason for w in report.warnings if w.path == ".mnemex/intents"]
    assert len(recovered) == (1 if left else 0)
    if left:
        assert f"left {left} file(s): committed as" in recovered[0]
        assert "mnemex recover:" in git(root, "log", "--format=%s")
    again = harvest_sessions(Vault(root), {"claude-code": [transcripts]}, settle_seconds=0)
    assert (again.created, again.updated, again.unchanged) == (0, 0, SESSIONS)


INGEST = """
import sys
from pathlib import Path
from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.ingest.apply import apply_plan
from mnemex.ingest.readers import read_sources
from mnemex.ingest.run import plan_docs
from mnemex.vault import Vault
root = Path(sys.argv[1])
with Brain(Vault(root), embedder=HashingEmbedder()) as brain:
    apply_plan(brain.vault, plan_docs(brain, read_sources(root / "inbox"), "general"))
"""


def test_an_ingest_killed_between_renames_leaves_no_temporary_file_and_is_finished_next_run(
    tmp_path: Path,
) -> None:
    from mnemex.ingest.apply import apply_plan
    from mnemex.ingest.readers import read_sources
    from mnemex.ingest.run import plan_docs

    root = tmp_path / "vault"
    init_vault(root, git=True)
    settings = root / "mnemex.toml"
    settings.write_text(settings.read_text().replace('name = "minilm"', 'name = "hashing"'))
    source = "# Gauges\n\nPriya Raman built the Tidewater gauge in Lisbon with Tomas Silva.\n"
    (root / "inbox" / "gauges.md").write_text(source)
    mine = root / "inbox" / ".gauges.md.draft.tmp"  # a person's file of a similar name
    mine.write_text("keep me\n")
    killed_at("ingest-rename:2", INGEST, str(root))
    assert len(temporaries(root)) >= 2, "the staged pages were left beside their targets"
    assert len(intents(root)) == 1

    with open_brain(root) as brain:
        brain.sync()
        plan = plan_docs(brain, read_sources(root / "inbox"), "general")
        result = apply_plan(brain.vault, plan)
    assert temporaries(root) == [] and intents(root) == []
    assert mine.read_text() == "keep me\n", "only mnemex's own temporary names are removed"
    assert "committed as" in result["recovered"][0]
    assert "stray temporary file(s)" in result["recovered"][0]
    assert result["commit"]["committed"]
    assert not (root / "inbox" / "gauges.md").exists()
    status = git(root, "status", "--porcelain", "--untracked-files=all", "--", "wiki", "inbox")
    left = [line for line in status.splitlines() if not line.endswith(".gitkeep")]
    assert left == ["?? inbox/.gauges.md.draft.tmp"], "every page committed"


FIX = """
import sys
from pathlib import Path
from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.health import fix_issue, scan
from mnemex.vault import Vault
with Brain(Vault(sys.argv[1]), embedder=HashingEmbedder()) as brain:
    brain.sync()
    issue = next(
        i for i in scan(brain.vault, brain.backend).issues["broken_links"]
        if i.data.get("target") == "Lady Lovelace"
    )
    fix_issue(brain, issue.id, fix_issue(brain, issue.id)["plan_id"])
"""


def test_a_health_fix_killed_before_its_commit_is_committed_by_the_next_write(
    tmp_path: Path,
) -> None:
    from mnemex.health import fix_issue, scan

    root = make_sick_vault(tmp_path / "vault")
    before = (root / BABBAGE).read_bytes()
    killed_at("commit:1", FIX, str(root))
    assert (root / BABBAGE).read_bytes() != before, "the fix was written"
    assert git(root, "status", "--porcelain", "--", BABBAGE).strip()
    with open_brain(root) as brain:
        brain.sync()
        other = scan(brain.vault, brain.backend).issues["duplicates"][0]
        done = fix_issue(brain, other.id, fix_issue(brain, other.id)["plan_id"])
    assert "committed as" in done["recovered"][0]
    assert git(root, "status", "--porcelain", "--untracked-files=all", "--", "wiki") == ""
    subjects = git(root, "log", "-3", "--format=%s").splitlines()
    assert subjects[0].startswith("mnemex health-fix:")
    assert subjects[1].startswith("mnemex recover:")


def test_the_crash_hook_fires_only_when_confirmed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MNEMEX_TEST_CRASH", "change:1")
    crash_point("change")  # still alive: the confirmation is missing
    monkeypatch.setenv("MNEMEX_TEST_CRASH_CONFIRM", "yes")
    crash_point("change")
