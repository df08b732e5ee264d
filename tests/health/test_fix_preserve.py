"""A health fix keeps what it does not own: a note's mode, BOM, line endings, final
newline and untouched bytes, and the text each re-pointed link shows."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from health_support import ADA, ADAS, BABBAGE, ENGINE, git, make_sick_vault, open_brain
from helpers import write
from mnemex.brain import Brain
from mnemex.config import settings_template
from mnemex.health import Issue, fix_issue, scan
from mnemex.vault import init_vault

HOST = "notes/host.md"


def _issue(brain: Brain, kind: str, **match: object) -> Issue:
    brain.sync()
    for issue in scan(brain.vault, brain.backend).issues[kind]:
        if all(issue.data.get(k) == v for k, v in match.items()):
            return issue
    raise AssertionError(f"no {kind} issue matching {match}")


def _fix(brain: Brain, issue: Issue) -> None:
    fix_issue(brain, issue.id, fix_issue(brain, issue.id)["plan_id"])


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _git_vault(tmp_path: Path) -> Path:
    """An empty git vault with the hashing embedder."""
    root = tmp_path / "v"
    root.mkdir()
    (root / "mnemex.toml").write_text(
        settings_template("t").replace('name = "minilm"', 'name = "hashing"'), encoding="utf-8"
    )
    init_vault(root, git=True)
    return root


@pytest.fixture
def formulas(tmp_path: Path) -> Path:
    """A vault with `notes/Euler Formulas.md`, linked loosely as `[[euler-formulas]]` from a
    note that has a BOM, CRLF endings and no final newline."""
    root = _git_vault(tmp_path)
    write(root, "notes/Euler Formulas.md", "# Euler Formulas\n## Intro\nEuler.\n")
    (root / HOST).write_bytes(
        "\ufeff# Host\r\n"
        "See [[euler-formulas]], [[euler-formulas#Intro]], [[euler-formulas|the formulas]], "
        "![[euler-formulas]].\r\n"
        "| link | note |\r\n|---|---|\r\n| [[euler-formulas]] | cell |\r\n"
        "Also [the list](notes/Euler%20Formulas.md).\r\n"
        "End.".encode()
    )
    git(root, "add", "-A")
    git(root, "commit", "-qm", "seed")
    return root


def test_a_relink_keeps_the_text_each_link_shows_and_every_other_byte(formulas: Path) -> None:
    with open_brain(formulas) as brain:
        _fix(brain, _issue(brain, "loose_links", target="euler-formulas"))
    assert (formulas / HOST).read_bytes() == (
        "\ufeff# Host\r\n"
        "See [[Euler Formulas|euler-formulas]], [[Euler Formulas#Intro|euler-formulas > Intro]], "
        "[[Euler Formulas|the formulas]], ![[Euler Formulas]].\r\n"
        "| link | note |\r\n|---|---|\r\n| [[Euler Formulas\\|euler-formulas]] | cell |\r\n"
        "Also [the list](notes/Euler%20Formulas.md).\r\n"
        "End."
    ).encode()


@pytest.mark.parametrize("existing", [0o644, 0o640, 0o755])
def test_a_relink_keeps_the_notes_mode(formulas: Path, umask: int, existing: int) -> None:
    (formulas / HOST).chmod(existing)
    with open_brain(formulas) as brain:
        _fix(brain, _issue(brain, "loose_links", target="euler-formulas"))
    assert "[[Euler Formulas|euler-formulas]]" in (formulas / HOST).read_text(encoding="utf-8")
    assert _mode(formulas / HOST) == existing


ENGINE_CRLF = (
    b"---\r\ntype: concept\r\ntitle: Analytical Engine\r\ncreated: 2026-10-01\r\n"
    b"updated: 2026-11-01\r\nsources: []  # none yet\r\n---\r\n# Analytical Engine\r\n"
    b"A general mechanical computer.\r\n## Sources\r\n- a talk\r\n\r\n## Notes\r\nMine."
)


def test_an_added_backlink_goes_under_sources_and_leaves_every_other_byte(
    tmp_path: Path, umask: int
) -> None:
    root = make_sick_vault(tmp_path / "v")
    (root / ENGINE).write_bytes(ENGINE_CRLF)
    (root / ENGINE).chmod(0o644)
    with open_brain(root) as brain:
        _fix(brain, _issue(brain, "missing_backlinks", page=ENGINE))
    assert (root / ENGINE).read_bytes() == ENGINE_CRLF.replace(
        b"- a talk\r\n", b"- a talk\r\n- [[notes-on-the-engine]]\r\n"
    )
    assert _mode(root / ENGINE) == 0o644


def test_a_merge_keeps_the_kept_pages_style_and_body_bytes(tmp_path: Path, umask: int) -> None:
    root = make_sick_vault(tmp_path / "v")
    kept = root / ADA
    text = kept.read_text(encoding="utf-8").replace("## Sources", "\n## Sources")
    kept.write_bytes(text.rstrip("\n").replace("\n", "\r\n").encode())
    kept.chmod(0o640)
    with open_brain(root) as brain:
        _fix(brain, _issue(brain, "duplicates"))
    assert not (root / ADAS).exists()
    data = kept.read_bytes()
    assert data.endswith(
        b"---\r\n# Ada Lovelace\r\nMathematician who wrote the first program.\r\n"
        b"## Key points\r\n- Translated Menabrea.\r\n- Wrote Note G.\r\n\r\n"
        b"## Sources\r\n- [[summaries/notes-on-the-engine]]\r\n\r\n"
        b"## Merged from Ada Lovelaces\r\nCountess and writer on the engine."
    )
    assert b"\n" not in data.replace(b"\r\n", b"")  # every line CRLF, the frontmatter's too
    assert _mode(kept) == 0o640
    assert "[[ada-lovelace|ada-lovelaces]]" in (root / BABBAGE).read_text(encoding="utf-8")


def test_merging_two_of_a_persons_notes_keeps_every_line_and_undo_gives_both_back(
    tmp_path: Path,
) -> None:
    from mnemex.vault.undo import undo

    root = _git_vault(tmp_path)  # the notes below are never committed: a person's own files
    long = write(
        root,
        "notes/Sync changes.md",
        "---\ntags: [sync]\n---\n# Sync changes\nThe worker retries three times.\n"
        "- owner: Priya\n- next: measure the queue depth\n",
    )
    short = write(root, "notes/sync-changes.md", "Short version: a queue worker, not cron.\n")
    write(root, "notes/groceries.md", "# Groceries\n- oat milk\n- lemons\n")
    write(root, "notes/reading.md", "# Reading\nTwo chapters on consensus.\n")
    long.chmod(0o640)
    before = {p: (p.read_bytes(), _mode(p)) for p in (long, short)}
    with open_brain(root) as brain:
        issue = _issue(brain, "duplicates")
        assert sorted(issue.files) == ["notes/Sync changes.md", "notes/sync-changes.md"]
        _fix(brain, issue)
    kept = [p for p in (long, short) if p.exists()]
    assert len(kept) == 1
    merged = kept[0].read_text(encoding="utf-8")
    for data, _ in before.values():
        for line in data.decode().splitlines():
            if line.strip() and line != "---":
                assert line in merged, line  # nothing of either note is lost
    with open_brain(root) as brain:
        undo(brain.vault, plan_id=undo(brain.vault)["plan_id"])
    assert {p: (p.read_bytes(), _mode(p)) for p in (long, short)} == before
