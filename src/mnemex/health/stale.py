"""Stale content: old pages, handoffs behind their project, foundations behind their source.

Each is a ``stale`` checker of its own, and says which in ``data["what"]``. Facts
not confirmed for a while are their own kind, ``stale_facts`` (:mod:`mnemex.health.facts`).

A project's newest commit is the newest git commit touching its folders in the
vault (``memories/``, ``foundations/``, ``state/`` other than its handoffs) and,
when ``[health] repos`` names its code repository, that repository's HEAD.
"""

from __future__ import annotations

import datetime as dt
import subprocess
from pathlib import Path

from mnemex.errors import VaultError
from mnemex.foundations.store import list_foundations
from mnemex.health.ids import Issue
from mnemex.health.scan import ScanContext, register_checker, when_of
from mnemex.vault.projects import known_projects


@register_checker("stale", "pages")
def stale_pages(ctx: ScanContext) -> list[Issue]:
    """Wiki pages whose ``updated`` (else ``created``, else the file time) is older than
    ``[health] stale_days``."""
    limit = ctx.now - dt.timedelta(days=ctx.settings.stale_days)
    issues = []
    for note in ctx.view.notes.values():
        # knowledge is what should be kept current; a person's notes and daily pages are
        # records of their day, never stale
        if note.kind != "knowledge" or note.folder == "sources":
            continue
        fm = note.frontmatter
        when = when_of(fm.get("updated")) or when_of(fm.get("created"))
        if when is None:
            when = dt.datetime.fromtimestamp(note.mtime_ns / 1e9, dt.UTC)
        if when < limit:
            days = (ctx.now - when).days
            issues.append(
                Issue(
                    "stale",
                    [note.path],
                    f"{note.title!r} was last updated {when.date().isoformat()} ({days} days ago; "
                    f"stale after {ctx.settings.stale_days})",
                    suggestion="re-ingest its sources or review it, then update it",
                    data={"what": "page", "updated": when.isoformat(timespec="seconds")},
                )
            )
    return issues


def _git(cwd: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def _project_head(ctx: ScanContext, project: str, handoff: str) -> tuple[dt.datetime, str] | None:
    """The newest commit on ``project`` made after ``handoff`` was committed, and where.

    Only commits after the handoff's own count: a vault committed in one go (the
    handoff with the work it describes) has no work newer than its handoff.
    """
    found: list[tuple[dt.datetime, str]] = []
    root = ctx.vault.root
    if (root / ".git").exists():
        since = _git(root, "log", "-1", "--format=%H", "--", handoff)
        span = [f"{since}..HEAD"] if since else []
        when = when_of(
            _git(
                root,
                "log",
                "-1",
                "--format=%cI",
                *span,
                "--",
                f"memories/{project}",
                f"foundations/{project}",
                f":(glob)state/{project}/*",
            )
        )
        if when is not None:
            found.append((when, "the vault"))
    repo = ctx.settings.repos.get(project)
    if repo:
        when = when_of(_git(Path(repo).expanduser(), "log", "-1", "--format=%cI"))
        if when is not None:
            found.append((when, repo))
    return max(found) if found else None


@register_checker("stale", "handoffs")
def stale_handoffs(ctx: ScanContext) -> list[Issue]:
    """A machine's handoff older than the newest commit on its project."""
    issues = []
    for project in known_projects(ctx.vault):
        folder = ctx.vault.root / "state" / project / "handoffs"
        if not folder.is_dir():
            continue
        handoffs = []
        for path in sorted(folder.glob("*/current.md")):
            rel = path.relative_to(ctx.vault.root).as_posix()
            note = ctx.view.notes.get(rel)
            updated = when_of(note.frontmatter.get("updated")) if note else None
            if updated is not None:
                handoffs.append((rel, updated))
        if not handoffs:
            continue
        for rel, updated in handoffs:
            head = _project_head(ctx, project, rel)
            if head is None:
                continue
            newest, where = head
            if updated < newest:
                issues.append(
                    Issue(
                        "stale",
                        [rel],
                        f"handoff of {project} saved {updated.isoformat(timespec='minutes')}, "
                        "before the project's newest commit "
                        f"({newest.isoformat(timespec='minutes')} in {where})",
                        data={"what": "handoff", "newest_commit": newest.isoformat()},
                        suggestion="save a new handoff from that machine (`mnemex handoff save`)",
                    )
                )
    return issues


@register_checker("stale", "foundations")
def stale_foundations(ctx: ScanContext) -> list[Issue]:
    """Foundations whose source file's sha256 no longer matches the recorded one,
    or whose bytes in the vault were changed outside mnemex."""
    base = ctx.vault.root / "foundations"
    if not base.is_dir():
        return []
    issues = []
    for folder in sorted(p for p in base.iterdir() if p.is_dir() and not p.name.startswith(".")):
        try:
            docs = list_foundations(ctx.vault, folder.name)
        except VaultError:
            continue  # a broken manifest: doctor's foundations check says so
        for doc in docs:
            rel = f"foundations/{folder.name}/{doc.get('file')}"
            if doc.get("fresh") is False:
                issues.append(
                    Issue(
                        "stale",
                        [rel],
                        f"foundation {folder.name}/{doc.get('slug')}: its source "
                        f"{doc.get('source')} changed since it was added (sha256 differs)",
                        data={"what": "foundation"},
                        suggestion=f"re-add it: `mnemex foundation add {folder.name} "
                        f"{doc.get('source')}`",
                    )
                )
            elif doc.get("intact") is False:
                issues.append(
                    Issue(
                        "stale",
                        [rel],
                        f"foundation {folder.name}/{doc.get('slug')} was changed in the vault "
                        "outside mnemex (bytes differ from manifest.json)",
                        data={"what": "foundation-bytes"},
                        suggestion="restore it from git, or re-add it with `mnemex foundation add`",
                    )
                )
    return issues


__all__ = ["stale_foundations", "stale_handoffs", "stale_pages"]
