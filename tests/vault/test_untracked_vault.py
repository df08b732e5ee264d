"""A person's vault whose notes git never held: every mnemex write, then undo, gives back
every byte (the baseline rule, vault format §12), and undo says what it removed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from health_support import ADA, ADAS, BABBAGE, make_sick_vault, open_brain
from mnemex.brain import Brain
from mnemex.errors import VaultError
from mnemex.health import fix_issue, scan
from mnemex.pages.edit import append_to_page, delete_page, move_page, write_page
from mnemex.vault import Vault, init_vault
from mnemex.vault.history import commit_change
from mnemex.vault.privacy import is_private
from mnemex.vault.undo import undo

HOPPER = "notes/Grace Hopper — été.md"
LINKER = "notes/kept as is.md"
SECRET = "attachments/api key.txt"
HOPPER_BYTES = (
    b"---\r\ntitle: Grace Hopper\r\n---\r\n# Grace Hopper\r\n\r\n"
    b"She found a moth in the relay. See [[charles-babbage]].\r\n"
)


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, capture_output=True, text=True, check=True
    ).stdout


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file a person has (git's and mnemex's own folders aside): bytes and mode."""
    out: dict[str, tuple[bytes, int]] = {}
    for path in root.rglob("*"):
        rel = path.relative_to(root)
        if path.is_file() and rel.parts[0] not in (".git", ".mnemex"):
            out[rel.as_posix()] = (path.read_bytes(), path.stat().st_mode & 0o777)
    return out


def person_vault(tmp_path: Path) -> Path:
    """The sick vault's notes as a person has them: `init` on a folder, nothing committed."""
    made = make_sick_vault(tmp_path / "made")
    root = tmp_path / "vault"
    shutil.copytree(made, root, ignore=shutil.ignore_patterns(".git", ".mnemex"))
    (root / HOPPER).write_bytes(HOPPER_BYTES)
    (root / LINKER).write_bytes(b"Links to [[Grace Hopper \xe2\x80\x94 \xc3\xa9t\xc3\xa9]].\n")
    (root / SECRET).parent.mkdir()
    (root / SECRET).write_bytes(b"sk-not-for-git\n")
    for path in root.rglob("*"):
        if path.is_file():
            path.chmod(0o644)
    init_vault(root, git=True)
    assert git(root, "rev-list", "--all").strip() == "", "init commits none of the notes"
    return root


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return person_vault(tmp_path)


@pytest.fixture
def brain(root: Path) -> Iterator[Brain]:
    with open_brain(root) as opened:
        opened.sync()
        yield opened


def undo_last(vault: Vault) -> dict[str, object]:
    plan = undo(vault)
    return undo(vault, None, str(plan["plan_id"]))


def committed_files(root: Path, rev: str = "HEAD") -> list[str]:
    return git(root, "show", "--name-only", "--format=", rev).split("\n")[:-1]


def test_undoing_a_link_fix_on_a_never_committed_vault_restores_every_byte(
    root: Path, brain: Brain
) -> None:
    before = snapshot(root)
    issue = next(
        i
        for i in scan(brain.vault, brain.backend).issues["broken_links"]
        if i.data.get("target") == "Lady Lovelace"
    )
    fix_issue(brain, issue.id, fix_issue(brain, issue.id)["plan_id"])
    assert git(root, "log", "-1", "--skip=1", "--format=%s").startswith("mnemex baseline:")
    assert committed_files(root, "HEAD~1") == [BABBAGE], "the baseline holds only that note"
    done = undo_last(brain.vault)
    assert (done["deleted"], done["updated"]) == (0, 1)
    assert done["files"] == [{"path": BABBAGE, "effect": "changed back"}]
    assert snapshot(root) == before


def test_undoing_a_merge_on_a_never_committed_vault_restores_both_pages(
    root: Path, brain: Brain
) -> None:
    before = snapshot(root)
    issue = scan(brain.vault, brain.backend).issues["duplicates"][0]
    done = fix_issue(brain, issue.id, fix_issue(brain, issue.id)["plan_id"])
    assert done["deleted"] == 1 and not (root / ADAS).exists()
    undone = undo_last(brain.vault)
    assert undone["deleted"] == 0 and {f["path"] for f in undone["files"]} >= {ADA, ADAS}
    assert snapshot(root) == before


def test_undoing_write_page_over_a_never_committed_note_gives_back_its_bytes(
    root: Path, brain: Brain
) -> None:
    before = snapshot(root)
    current = brain.vault.read_note(HOPPER)
    write_page(brain, HOPPER, "# Grace Hopper\n\nReplaced.\n", current.hash)
    assert undo_last(brain.vault)["deleted"] == 0
    assert snapshot(root) == before


def test_undoing_an_append_to_a_never_committed_crlf_note_gives_back_its_bytes(
    root: Path, brain: Brain
) -> None:
    before = snapshot(root)
    append_to_page(brain, HOPPER, "- Coined 'debugging'.", section="Facts")
    assert (root / HOPPER).read_bytes() != HOPPER_BYTES
    undo_last(brain.vault)
    assert (root / HOPPER).read_bytes() == HOPPER_BYTES
    assert snapshot(root) == before


def test_undoing_a_move_of_a_never_committed_note_puts_it_and_its_linkers_back(
    root: Path, brain: Brain
) -> None:
    before = snapshot(root)
    plan = move_page(brain, HOPPER, "notes/people/Hopper.md")
    done = move_page(brain, HOPPER, "notes/people/Hopper.md", plan["plan_id"])
    assert done["deleted"] == 1 and LINKER in done["paths"]
    undone = undo_last(brain.vault)
    assert undone["deleted"] == 1, "the moved copy is removed, and counted"
    assert snapshot(root) == before


def test_undoing_delete_page_of_a_never_committed_note_brings_it_back(
    root: Path, brain: Brain
) -> None:
    before = snapshot(root)
    done = delete_page(brain, HOPPER, delete_page(brain, HOPPER)["plan_id"])
    assert done["deleted"] == 1 and not (root / HOPPER).exists()
    undone = undo_last(brain.vault)
    assert undone["files"] == [{"path": HOPPER, "effect": "restored"}]
    assert snapshot(root) == before


def test_undo_keeps_a_persons_uncommitted_edit_to_a_tracked_note(root: Path, brain: Brain) -> None:
    git(root, "add", "--", HOPPER)
    git(root, "-c", "user.name=P", "-c", "user.email=p@x", "commit", "-qm", "mine")
    edited = HOPPER_BYTES + b"An edit not yet committed.\r\n"
    (root / HOPPER).write_bytes(edited)
    before = snapshot(root)
    append_to_page(brain, HOPPER, "- Rear admiral.")
    undo_last(brain.vault)
    assert (root / HOPPER).read_bytes() == edited, "undo gives back the edit, not the commit"
    assert snapshot(root) == before


def test_undoing_an_ingest_into_a_never_committed_page_restores_it_and_the_inbox_file(
    tmp_path: Path,
) -> None:
    from mnemex.ingest.apply import apply_plan
    from mnemex.ingest.readers import read_sources
    from mnemex.ingest.run import plan_docs

    root = tmp_path / "vault"
    init_vault(root, git=False)
    settings = root / "mnemex.toml"
    settings.write_text(settings.read_text().replace('name = "minilm"', 'name = "hashing"'))
    first = root / "inbox" / "first.md"
    first.write_text("# First\n\nPriya Raman built the Tidewater gauge in Lisbon.\n")
    with open_brain(root) as brain:
        apply_plan(brain.vault, plan_docs(brain, read_sources(root / "inbox"), "general"))
    init_vault(root, git=True)  # the person turns git on later: nothing is committed
    (root / "inbox" / "second.md").write_text(
        "# Second\n\nPriya Raman later moved the Tidewater gauge to Porto.\n"
    )
    before = snapshot(root)
    with open_brain(root) as brain:
        brain.sync()
        plan = plan_docs(brain, read_sources(root / "inbox"), "general")
        updated = [c.path for c in plan.changes if c.action == "update"]
        assert updated, "the second source adds to a page the first one wrote"
        assert "inbox/second.md" in [c.path for c in plan.changes if c.action == "delete"]
        apply_plan(brain.vault, plan)
        assert not (root / "inbox" / "second.md").exists()
        undone = undo_last(brain.vault)
    assert undone["deleted"] >= 1, "the pages the ingest created are removed, and counted"
    # bytes only: the first ingest, not the person, chose these files' modes
    assert {k: v[0] for k, v in snapshot(root).items()} == {k: v[0] for k, v in before.items()}


def test_a_baseline_holds_only_the_files_mnemex_changes_never_ignored_or_private_ones(
    root: Path, brain: Brain
) -> None:
    (root / ".gitignore").write_text((root / ".gitignore").read_text() + "ignored/\n")
    (root / "ignored").mkdir()
    (root / "ignored" / "note.md").write_text("ignored\n")
    private = root / "wiki" / "private" / "entities" / "p.md"
    private.parent.mkdir(parents=True)
    private.write_text("private\n")
    vault = Vault(root)
    assert is_private(vault.settings, "private")
    from mnemex.vault.history import baseline

    done = baseline(vault, [HOPPER, "ignored/note.md", "wiki/private/entities/p.md"])
    assert done is not None and done.paths == (HOPPER,)
    assert SECRET not in git(root, "ls-files")
    assert "Mnemex-Operation: baseline" in git(root, "log", "-1", "--format=%B")
    assert baseline(Vault(root), [HOPPER]) is None, "a committed file needs no baseline"


def test_undoing_a_baseline_commit_is_refused_and_plain_undo_passes_over_it(
    root: Path, brain: Brain
) -> None:
    from mnemex.vault.history import baseline

    append_to_page(brain, HOPPER, "- One more fact.")
    fix_sha = git(root, "rev-parse", "HEAD").strip()
    base = git(root, "rev-parse", "HEAD~1").strip()
    with pytest.raises(VaultError, match="baseline commit"):
        undo(brain.vault, base)
    baseline(brain.vault, [LINKER])  # a later baseline is not "the last change"
    assert undo(brain.vault)["commit"] == fix_sha


def test_undo_refuses_to_delete_what_an_old_commit_recorded_as_added(root: Path) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "m", "GIT_AUTHOR_EMAIL": "m@x"}
    env.update({"GIT_COMMITTER_NAME": "m", "GIT_COMMITTER_EMAIL": "m@x"})
    (root / HOPPER).write_bytes(HOPPER_BYTES + b"changed by an older mnemex\r\n")
    subprocess.run(["git", "add", "--", HOPPER], cwd=root, check=True, env=env)
    message = "mnemex append_to_page: x\n\nMnemex-Operation: append_to_page\nMnemex-Machine: m"
    subprocess.run(["git", "commit", "-qm", message], cwd=root, check=True, env=env)
    with pytest.raises(VaultError, match="may have been yours"):
        undo(Vault(root))
    assert (root / HOPPER).exists()
    forced = undo(Vault(root), force=True)
    assert forced["files"] == [{"path": HOPPER, "effect": "deleted"}]


def test_undo_counts_a_page_it_removes_as_deleted(root: Path, brain: Brain) -> None:
    write_page(brain, "notes/new page.md", "# New\n\nA page mnemex made.\n")
    done = undo_last(brain.vault)
    assert (done["created"], done["updated"], done["deleted"]) == (0, 0, 1)
    assert done["files"] == [{"path": "notes/new page.md", "effect": "deleted"}]
    assert not (root / "notes/new page.md").exists()


def test_the_cli_init_fix_undo_round_trip_keeps_a_persons_note(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from mnemex.cli import cli

    made = make_sick_vault(tmp_path / "made")
    root = tmp_path / "vault"
    shutil.copytree(made, root, ignore=shutil.ignore_patterns(".git", ".mnemex", ".gitignore"))
    before = snapshot(root)
    runner = CliRunner()
    run = lambda *args: runner.invoke(cli, ["--vault", str(root), *args])  # noqa: E731
    assert run("init", str(root)).exit_code == 0, "init on an existing folder"
    before[".gitignore"] = snapshot(root)[".gitignore"]
    assert run("index").exit_code == 0
    scanned = run("health", "--json")
    assert scanned.exit_code == 0, scanned.output
    issues = json.loads(scanned.output)["broken_links"]
    issue = next(i["id"] for i in issues if i["data"].get("target") == "Lady Lovelace")
    fixed = run("health", "fix", issue, "--yes")
    assert fixed.exit_code == 0, fixed.output
    undone = run("undo", "--yes")
    assert undone.exit_code == 0, undone.output
    assert "0 deleted" in undone.output and "1 updated" in undone.output
    assert snapshot(root) == before
    assert (root / BABBAGE).read_bytes() == before[BABBAGE][0]


def test_a_commit_outside_baselines_still_names_only_its_paths(root: Path) -> None:
    vault = Vault(root)
    (root / "notes" / "made.md").write_text("made by mnemex\n")
    done = commit_change(vault, ["notes/made.md"], "write_page", "made")
    assert done.paths == ("notes/made.md",)
    assert "Mnemex-Baseline: checked" in git(root, "log", "-1", "--format=%B")
    assert committed_files(root) == ["notes/made.md"]


def test_undo_gives_back_a_notes_mode_that_git_does_not_record(root: Path, brain: Brain) -> None:
    (root / HOPPER).chmod(0o640)
    (root / LINKER).chmod(0o600)
    before = snapshot(root)
    current = brain.vault.read_note(HOPPER)
    write_page(brain, HOPPER, "# Grace Hopper\n\nRewritten.\n", current.hash)
    append_to_page(brain, LINKER, "One more line.")
    assert (root / HOPPER).stat().st_mode & 0o777 == 0o640
    undo_last(brain.vault)
    undo_last(brain.vault)
    assert snapshot(root) == before


def test_undo_again_walks_further_back_and_undoing_an_undo_redoes_it(
    root: Path, brain: Brain
) -> None:
    before = snapshot(root)
    append_to_page(brain, HOPPER, "First addition.")
    after_first = snapshot(root)
    append_to_page(brain, LINKER, "Second addition.")
    undone = undo_last(brain.vault)
    assert [f["path"] for f in undone["files"]] == [LINKER]
    assert snapshot(root) == after_first
    undone_again = undo_last(brain.vault)
    assert [f["path"] for f in undone_again["files"]] == [HOPPER], "not the undo of the undo"
    assert snapshot(root) == before
    redo = undo(brain.vault, str(undone_again["commit"]["sha"]))
    undo(brain.vault, str(undone_again["commit"]["sha"]), str(redo["plan_id"]))
    assert snapshot(root) == after_first
    assert [f["path"] for f in undo_last(brain.vault)["files"]] == [HOPPER]
    assert snapshot(root) == before
    with pytest.raises(VaultError, match="no mnemex change left to undo"):
        undo(brain.vault)


def test_undoing_a_handoff_save_keeps_a_journal_that_git_never_held(root: Path) -> None:
    from mnemex.state.handoff import save_handoff
    from mnemex.vault.machine import machine_name

    vault = Vault(root)
    journal = root / "state" / "garden" / "journal" / f"{machine_name(vault)}.jsonl"
    journal.parent.mkdir(parents=True)
    journal.write_bytes(b'{"event": "written by hand", "ts": "2026-01-01T00:00:00+00:00"}\n')
    journal.chmod(0o640)
    before = snapshot(root)
    save_handoff(vault, "garden", "Beds are dug", state=["compost turned"])
    assert git(root, "log", "-1", "--skip=1", "--format=%s").startswith("mnemex baseline:")
    undo_last(vault)
    assert snapshot(root) == before


def test_undoing_a_dismissal_keeps_a_dismissed_file_that_git_never_held(root: Path) -> None:
    from mnemex.health.records import DISMISSED_DIR, append_record
    from mnemex.vault.machine import machine_name

    vault = Vault(root)
    kept = root / DISMISSED_DIR / f"{machine_name(vault)}.jsonl"
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.write_bytes(b'{"id": "orphans-0123456789ab", "action": "dismiss"}\n')
    before = snapshot(root)
    append_record(vault, DISMISSED_DIR, {"id": "x", "action": "dismiss"}, "dismiss", "x")
    undo_last(vault)
    assert snapshot(root) == before
