"""A small git vault with one planted problem of each kind, for the health tests and the
undo and crash tests that need a vault worth fixing (the ``sick`` and ``sick_brain``
fixtures in conftest.py build it)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from helpers import write
from mnemex.brain import Brain
from mnemex.config import settings_template
from mnemex.embed.hashing import HashingEmbedder
from mnemex.vault import Vault, init_vault

IDENTITY = ["-c", "user.name=Ada", "-c", "user.email=ada@example.org"]

ADA = "wiki/general/entities/ada-lovelace.md"
ADAS = "wiki/general/entities/ada-lovelaces.md"
BABBAGE = "wiki/general/entities/charles-babbage.md"
ENGINE = "wiki/general/concepts/analytical-engine.md"
EMPTY = "wiki/general/concepts/difference-engine.md"
LONELY = "wiki/general/concepts/punched-cards.md"
NOTES = "wiki/general/summaries/notes-on-the-engine.md"
BAD = "notes/broken.md"


def git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *IDENTITY, *args], cwd=root, capture_output=True, text=True, check=True
    )
    return done.stdout


def page(kind: str, title: str, body: str, updated: str = "2026-11-01", extra: str = "") -> str:
    return (
        f"---\ntype: {kind}\ntitle: {title}\n{extra}created: 2026-10-01\nupdated: {updated}\n"
        f"sources: []\n---\n# {title}\n{body}"
    )


def make_sick_vault(root: Path) -> Path:
    """Every kind once: a broken link with a suggestion and one without, duplicate names,
    an orphan, a stale page, a missing backlink, broken frontmatter, an empty page."""
    root.mkdir(parents=True)
    (root / "mnemex.toml").write_text(
        settings_template("sick").replace('name = "minilm"', 'name = "hashing"'), encoding="utf-8"
    )
    init_vault(root, git=True)
    write(
        root,
        ADA,
        page(
            "entity",
            "Ada Lovelace",
            "Mathematician who wrote the first program.\n## Key points\n- Translated Menabrea.\n"
            "## Sources\n- [[summaries/notes-on-the-engine]]\n",
            extra="aliases: [Lady Lovelace]\n",
        ),
    )
    write(
        root,
        ADAS,
        page(
            "entity",
            "Ada Lovelaces",
            "Countess and writer on the engine.\n## Key points\n- Wrote Note G.\n",
        ),
    )
    write(
        root,
        BABBAGE,
        page(
            "entity",
            "Charles Babbage",
            "Inventor. Worked with [[Lady Lovelace]] on the [[analytical-engines]]; "
            "see [[no-such-page]] and [[ada-lovelaces]].\n## Sources\n"
            "- [[summaries/notes-on-the-engine]]\n",
        ),
    )
    write(
        root,
        ENGINE,
        page("concept", "Analytical Engine", "A general mechanical computer.\n", "2020-01-01"),
    )
    write(root, EMPTY, page("concept", "Difference Engine", "## Key points\n\n## Sources\n"))
    write(root, LONELY, page("concept", "Punched Cards", "Cards with holes that program a loom.\n"))
    write(
        root,
        NOTES,
        page(
            "summary",
            "Notes on the Engine",
            "## Summary\nLovelace's notes.\n## Entities\n- [[ada-lovelace]]\n"
            "- [[charles-babbage]]\n"
            "## Concepts\n- [[analytical-engine]]\n- [[difference-engine]]\n",
        ),
    )
    write(root, BAD, "---\ntitle: [unclosed\n---\nA note about [[charles-babbage]].\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    return root


def open_brain(root: Path) -> Brain:
    return Brain(Vault(root), embedder=HashingEmbedder())
