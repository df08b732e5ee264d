"""Who says a digest's lines: the person's requests are the owner's words, the rest no one's.

A session's digest speaks for the session, whose "I" is nobody. The requests an offline
digest lists under "What was worked on" are the words of the person who ran it, the
vault's owner: "moved to Zed as my editor" there is the owner's fact. Tested through a
real Claude Code transcript harvested into a real vault and consolidated; the split
itself on digests written as harvest writes them.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from fact_support import at, owned_vault
from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.facts.consolidate import consolidate
from mnemex.facts.record import REQUESTS_HEADING, fact_files, voices
from mnemex.harvest.digest import SECTIONS
from mnemex.harvest.run import harvest_sessions
from mnemex.vault import Vault

OWNER = "Maren Okafor"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return owned_vault(tmp_path / "vault", OWNER)


@pytest.fixture
def brain(root: Path) -> Iterator[Brain]:
    with Brain(Vault(root), embedder=HashingEmbedder()) as opened:
        yield opened


def transcript(folder: Path, session: str, said: str, answer: str, day: str) -> Path:
    """A Claude Code transcript (one JSON record a line) of one request and its answer."""
    when = dt.datetime.fromisoformat(f"{day}T09:00:00+00:00")
    common = {
        "sessionId": session,
        "cwd": "/home/maren/src/team",
        "gitBranch": "main",
        "isSidechain": False,
        "userType": "external",
        "version": "1.0.98",
    }
    records = [
        {
            "type": "user",
            "uuid": f"{session}-u",
            "parentUuid": None,
            "timestamp": when.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
            **common,
            "message": {"role": "user", "content": said},
        },
        {
            "type": "assistant",
            "uuid": f"{session}-a",
            "parentUuid": f"{session}-u",
            "timestamp": (when + dt.timedelta(seconds=3)).strftime("%Y-%m-%dT%H:%M:%S.000Z"),
            **common,
            "message": {
                "id": f"msg_{session}",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [{"type": "text", "text": answer}],
                "stop_reason": "end_turn",
            },
        },
    ]
    path = folder / "projects" / "-home-maren-src-team" / f"{session}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    stamp = (when + dt.timedelta(seconds=5)).timestamp()
    os.utime(path, (stamp, stamp))
    return path


def owner_facts(brain: Brain) -> list[tuple[str, str | None, str | None]]:
    return sorted(
        (f.subject, f.predicate, f.value)
        for _, file in fact_files(brain.vault)
        for f in file.facts
        if f.subject == OWNER
    )


def digest_text(requests: list[str], decisions: list[str], extractor: str = "offline") -> str:
    fm = (
        "---\ntype: memory\ntitle: t\nproject: team\nsession: s-1\nharness: claude-code\n"
        f"extractor: {extractor}\nstarted: 2026-03-05T09:00:00+00:00\n"
        "created: 2026-03-05T10:00:00+00:00\nupdated: 2026-03-05T10:00:00+00:00\n---\n"
    )
    body = ["# t", "Session s-1 · claude-code", "## Summary", "Noted.", f"## {REQUESTS_HEADING}"]
    body += [f"- {r}" for r in requests]
    body += ["## Decisions", *(f"- {d}" for d in decisions)]
    return fm + "\n".join(body) + "\n"


def write_digest(root: Path, text: str, name: str = "d") -> str:
    rel = f"memories/team/2026-03/2026-03-05-{name}.md"
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text(text, encoding="utf-8")
    return rel


def test_the_heading_read_is_the_one_harvest_writes() -> None:
    assert REQUESTS_HEADING in SECTIONS


def test_a_harvested_request_in_the_first_person_is_the_owners_fact(
    brain: Brain, root: Path, tmp_path: Path
) -> None:
    claude = tmp_path / "claude"
    transcript(claude, "s-zed", "moved to Zed as my editor this month", "Noted.", "2026-03-05")
    done = harvest_sessions(
        brain.vault, {"claude-code": [claude]}, settle_seconds=0, now=at("2026-03-05")
    )
    assert done.created == 1
    consolidate(brain, now=at("2026-03-06"))
    assert owner_facts(brain) == [(OWNER, "uses", "Zed")]
    (fact,) = [f for _, file in fact_files(brain.vault) for f in file.facts]
    assert fact.provenance == "session" and fact.layer == "dynamic"  # one observation
    assert fact.evidence[0].date == dt.date(2026, 3, 5)


def test_the_assistants_first_person_names_nobody(brain: Brain, root: Path, tmp_path: Path) -> None:
    claude = tmp_path / "claude"
    transcript(claude, "s-vim", "tidy the README", "Done. I use Neovim as my editor.", "2026-03-05")
    harvest_sessions(brain.vault, {"claude-code": [claude]}, settle_seconds=0, now=at("2026-03-05"))
    consolidate(brain, now=at("2026-03-06"))
    assert owner_facts(brain) == []


def test_only_the_requests_of_an_offline_digest_speak_for_the_owner(
    brain: Brain, root: Path
) -> None:
    write_digest(root, digest_text(["I live in Lisbon now."], ["I use Neovim as my editor."]))
    consolidate(brain, now=at("2026-03-06"))
    assert owner_facts(brain) == [(OWNER, "lives_in", "Lisbon")]


def test_a_model_digest_rewrites_the_requests_so_they_speak_for_no_one(
    brain: Brain, root: Path
) -> None:
    write_digest(root, digest_text(["I live in Lisbon now."], [], extractor="anthropic/claude"))
    consolidate(brain, now=at("2026-03-06"))
    assert owner_facts(brain) == []


def test_voices_split_a_digest_and_leave_other_notes_whole() -> None:
    fm = {"type": "memory", "harness": "codex", "extractor": "offline"}
    body = f"# t\n## Summary\nDone.\n## {REQUESTS_HEADING}\n- I use fish.\n## Left open\n- x\n"
    (rest, nobody), (theirs, owner) = voices(fm, body, "session", OWNER)
    assert nobody is None and "I use fish" not in rest and "## Left open" in rest
    assert owner == OWNER and theirs.strip() == "- I use fish."
    assert voices(fm, body, "session", None) == [(body, None)]  # no owner: nobody's
    assert voices(fm, body, "person", OWNER) == [(body, OWNER)]
    remembered = {"type": "memory", "harness": "mnemex", "extractor": "offline"}
    assert voices(remembered, body, "agent", OWNER) == [(body, None)]
    no_requests = "# t\n## Summary\nDone.\n"
    assert voices(fm, no_requests, "session", OWNER) == [(no_requests, None)]
