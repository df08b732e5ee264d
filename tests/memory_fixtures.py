"""Memory notes written directly as fixtures: session digests and a remembered note (§7)."""

from __future__ import annotations

from pathlib import Path

from helpers import write

DIGEST = """---
type: memory
title: {title}
project: {project}
domain: {domain}
importance: {importance}
session: {session}
harness: {harness}
started: {date}T09:10:00+00:00
ended: {date}T11:37:00+00:00
tags: [{tags}]
created: {date}T12:05:00+00:00
updated: {date}T12:05:00+00:00
---
# {title}
Session {session} · {harness} · {date}T09:10:00+00:00 → {date}T11:37:00+00:00
## Summary
{summary}
## Decisions
- {decision}
## Dead ends and failed attempts
- {dead_end}
## Left open
- {left_open}
## Files touched
- `src/app.py`
"""


def write_digest(
    root: Path,
    *,
    project: str,
    session: str,
    title: str,
    summary: str,
    decision: str = "Kept the default settings.",
    dead_end: str = "Nothing failed.",
    left_open: str = "Nothing.",
    domain: str = "general",
    date: str = "2026-12-02",
    harness: str = "claude-code",
    importance: float = 0.7,
    tags: str = "",
) -> str:
    rel = f"memories/{project}/{date[:7]}/{date}-{session[:6]}-{session[-8:]}.md"
    write(
        root,
        rel,
        DIGEST.format(
            project=project,
            session=session,
            title=title,
            summary=summary,
            decision=decision,
            dead_end=dead_end,
            left_open=left_open,
            domain=domain,
            date=date,
            harness=harness,
            importance=importance,
            tags=tags,
        ),
    )
    return rel


def seed_memories(root: Path) -> dict[str, str]:
    """Three digests across two projects, two domains and two months."""
    return {
        "tokenizer": write_digest(
            root,
            project="mnemex",
            session="5d1e2f9a-aaaa-bbbb-cccc-0c2b61e8d3f4",
            title="Fix FTS5 tokenizer for CJK search",
            summary="Switched the FTS5 tokenizer to trigram so CJK queries match.",
            dead_end="pip install sqlite-icu failed: no wheel for Python 3.13.",
            left_open="Benchmark the trigram index size.",
            tags="search, sqlite",
        ),
        "deploy": write_digest(
            root,
            project="webshop",
            session="77aa11bb-1111-2222-3333-444455556666",
            title="Blue green deploy of the webshop",
            summary="Moved the webshop deploy to blue green switches.",
            dead_end="Rolling deploy with sqlite locks failed under load.",
            domain="work",
            date="2026-11-15",
            harness="codex",
            tags="ops",
        ),
        "cache": write_digest(
            root,
            project="mnemex",
            session="99cc88dd-0000-1111-2222-333344445555",
            title="Cache the vector table",
            summary="Cached the sqlite vector table between searches.",
            dead_end="Memory mapping the sqlite file failed on macOS.",
            date="2026-10-03",
            tags="search",
        ),
    }
