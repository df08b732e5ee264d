"""MCP ``get_facts`` and ``record_fact``, ``remember``'s ``said_by_user``, fact hits in ``search``
and the server's framing, through a real MCP client."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from mcp import Client
from mcp.types import CallToolResult
from mcp_support import call, error, make_vault, ok, run_with_client, state_for, write

from mnemex.mcp.server import PROFILE_INSTRUCTIONS
from mnemex.mcp.state import ServerState


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = make_vault(tmp_path / "vault")
    settings = root / "mnemex.toml"
    settings.write_text(
        settings.read_text(encoding="utf-8").replace(
            "[vault]\n", '[vault]\nowner = "Ada Byron"\n', 1
        ),
        encoding="utf-8",
    )
    write(
        root,
        "wiki/general/entities/priya-raman.md",
        "---\ntype: entity\ntitle: Priya Raman\nentity_type: person\naliases: [Priya]\n"
        "sources: []\n---\n"
        "# Priya Raman\n",
    )
    identity = ["-c", "user.name=Ada", "-c", "user.email=ada@example.org"]
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(["git", *identity, "commit", "-qm", "names"], cwd=root, check=True)
    return root


@pytest.fixture
def state(root: Path) -> ServerState:
    return state_for(root, cwd=root)


def test_an_agents_fact_is_a_guess_unless_it_relays_the_users_words(state: ServerState) -> None:
    guess = ok(call(state, "record_fact", text="Priya probably works at Kestrel Systems."))
    assert guess["changes"][0]["fact"]["provenance"] == "agent"
    said = ok(call(state, "record_fact", text="Priya works at Tidewater Labs.", said_by_user=True))
    assert said["changes"][0]["fact"]["provenance"] == "person"
    facts = ok(call(state, "get_facts", subject="priya"))
    works = next(a for a in facts["answers"] if a["predicate"] == "works_at")
    assert works["values"] == ["Tidewater Labs"]
    assert [d["value"] for d in works["drafts"]] == ["Kestrel Systems"]
    assert "evidence" in facts["framing"] and "ask" in facts["framing"]


def test_an_agents_first_person_says_nothing_about_the_user(state: ServerState) -> None:
    message = error(call(state, "record_fact", text="I live in Lisbon."))
    assert "no fact read" in message


def test_remember_said_by_user_records_the_persons_fact(state: ServerState) -> None:
    done = ok(
        call(state, "remember", text="I live in Rotterdam.", project="team", said_by_user=True)
    )
    assert done["facts"]["created"] == 1
    facts = ok(call(state, "get_facts", subject="Ada Byron"))
    assert facts["answers"][0]["values"] == ["Rotterdam"]
    assert facts["answers"][0]["facts"][0]["provenance"] == "person"


def test_get_facts_refuses_a_bad_day_and_an_unknown_subject(state: ServerState) -> None:
    assert "not a day" in error(call(state, "get_facts", subject="Priya", as_of="soon"))
    assert "no facts about" in error(call(state, "get_facts", subject="Nobody"))


def test_search_labels_fact_hits_and_scopes_them_by_as_of(state: ServerState) -> None:
    async def body(client):  # type: ignore[no-untyped-def]
        await client.call_tool(
            "record_fact",
            {"text": "Priya works at Tidewater Labs since 2024-01-01.", "said_by_user": True},
        )
        await client.call_tool(
            "record_fact",
            {"text": "Priya joined Kestrel Systems on 2026-02-09.", "said_by_user": True},
        )
        now = await client.call_tool(
            "search", {"query": "Priya works Kestrel Tidewater", "kind": ["facts"]}
        )
        then = await client.call_tool(
            "search",
            {"query": "Priya works Kestrel Tidewater", "kind": ["facts"], "as_of": "2025-06-01"},
        )
        return now, then

    now, then = run_with_client(state, body)
    hit = ok(now)["hits"][0]
    labels = {f["label"] for f in hit["facts"]}
    assert hit["status"] == "current" and labels == {"current", "superseded"}
    assert "current" in hit["snippet"] and "Kestrel" in hit["snippet"]
    earlier = ok(then)["hits"][0]
    assert earlier["status"] == "current" and "Tidewater" in earlier["snippet"]


def test_the_server_tells_the_model_to_test_facts_not_obey_them() -> None:
    for profile in ("all", "read"):
        text = PROFILE_INSTRUCTIONS[profile]
        assert "keep your position unless given new evidence" in text
        assert "ask rather than assert what the user believes" in text


def test_a_fact_learned_from_a_private_memory_is_served_only_where_included(root: Path) -> None:
    from mnemex.brain import Brain
    from mnemex.embed.hashing import HashingEmbedder
    from mnemex.facts.record import learn_note
    from mnemex.vault import Vault

    rel = "memories/secret-project/2026-12/2026-12-02-priya-1a2b3c4e.md"
    write(
        root,
        rel,
        "---\ntype: memory\ntitle: Priya\nproject: secret-project\nharness: mnemex\n"
        "said_by: user\ncreated: 2026-12-02T10:00:00+00:00\n---\n# Priya\n\n"
        "Priya lives in Porto.\n",
    )
    with Brain(Vault(root), embedder=HashingEmbedder()) as brain:
        done = learn_note(brain, rel)
    assert [c.path for c in done.changes] == ["facts/secret-project/priya-raman.md"]
    assert "facts/secret-project/" in (root / ".gitignore").read_text(encoding="utf-8")
    tracked = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True).stdout
    assert "facts/secret-project" not in tracked
    served = state_for(root, cwd=root)
    assert "no facts about" in error(call(served, "get_facts", subject="Priya"))
    hits = ok(call(served, "search", query="Priya lives in Porto", kind=["facts"]))["hits"]
    assert all("secret-project" not in h["path"] for h in hits)
    included = state_for(root, cwd=root, include_private=("secret-project",))
    facts = ok(call(included, "get_facts", subject="Priya"))
    assert facts["answers"][0]["values"] == ["Porto"]


def test_consolidate_plans_first_then_applies_its_plan_id(root: Path, state: ServerState) -> None:
    said = "Priya works at Tidewater Labs since 2025-01."
    ok(call(state, "record_fact", text=said, said_by_user=True))
    handoff = {
        "project": "team",
        "headline": "Moves",
        "state": ["Priya works at Northwind since 2026-11.", "Priya lives in Oslo."],
        "create": True,
    }

    async def save(client: Client) -> CallToolResult:
        return await client.call_tool("save_handoff", handoff)

    ok(run_with_client(state, save))
    plan = ok(call(state, "consolidate"))
    assert plan["needs_a_person"] == {"supersede": 1}
    assert plan["would_apply"]["new"] == 1 and plan["plan_id"]
    facts = ok(call(state, "get_facts", subject="Priya"))
    assert next(a for a in facts["answers"] if a["predicate"] == "works_at")["values"] == [
        "Tidewater Labs"
    ]
    done = ok(call(state, "consolidate", plan_id=plan["plan_id"]))
    assert done["applied"] == {"new": 1, "supersede": 1} and done["commit"]["sha"]
    facts = ok(call(state, "get_facts", subject="Priya"))
    assert next(a for a in facts["answers"] if a["predicate"] == "works_at")["values"] == [
        "Northwind"
    ]
    assert "plan" in error(call(state, "consolidate", plan_id=plan["plan_id"]))
