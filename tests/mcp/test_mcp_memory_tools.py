from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_support import call, error, make_vault, ok, run_with_client, state_for

from memory_fixtures import seed_memories
from mnemex.mcp.state import ServerState

TOKENIZER = "memories/mnemex/2026-12/2026-12-02-5d1e2f-61e8d3f4.md"
SESSION = "5d1e2f9a-aaaa-bbbb-cccc-0c2b61e8d3f4"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = make_vault(tmp_path / "vault")
    seed_memories(root)
    return root


@pytest.fixture
def state(root: Path) -> ServerState:
    return state_for(root, cwd=root)


def test_search_memories_finds_the_digest_with_its_session_and_bullet(state: ServerState) -> None:
    data = ok(call(state, "search_memories", query="sqlite-icu wheel failed", project="mnemex"))
    top = data["hits"][0]
    assert top["path"] == TOKENIZER
    assert top["session"] == SESSION and top["harness"] == "claude-code"
    assert "sqlite-icu" in top["snippet"]
    assert all(h["project"] == "mnemex" for h in data["hits"])


def test_search_memories_hides_private_projects_and_refuses_naming_them(
    state: ServerState,
) -> None:
    data = ok(call(state, "search_memories", query="secret deploy plan"))
    assert all("secret-project" not in h["path"] for h in data["hits"])
    message = error(call(state, "search_memories", query="plan", project="secret-project"))
    assert "private and not served" in message


def test_search_memories_rejects_a_bad_date_with_a_precise_error(state: ServerState) -> None:
    assert "not a date" in error(call(state, "search_memories", query="x", since="soonish"))


def test_get_digest_reads_a_whole_digest_by_session_or_path(state: ServerState) -> None:
    by_session = ok(call(state, "get_digest", session=SESSION))
    assert by_session["path"] == TOKENIZER
    assert "## Left open" in by_session["content"]
    assert ok(call(state, "get_digest", path=TOKENIZER))["hash"] == by_session["hash"]


def test_get_digest_gives_precise_errors_for_bad_arguments(state: ServerState) -> None:
    assert "no memory of session 'nope'" in error(call(state, "get_digest", session="nope"))
    assert "not a memory" in error(call(state, "get_digest", path="notes/deploy.md"))
    assert "absolute paths are refused" in error(call(state, "get_digest", path="/etc/passwd"))
    assert "either path or session" in error(call(state, "get_digest"))
    private = "memories/secret-project/2026-12/2026-12-01-plan-1a2b3c4d.md"
    assert "private" in error(call(state, "get_digest", path=private))


def test_forget_memory_plans_first_then_deletes_with_the_plan_id(
    state: ServerState, root: Path
) -> None:
    async def body(client: Client) -> tuple[Any, Any, Any]:
        plan = await client.call_tool("forget_memory", {"session": SESSION})
        plan_id = plan.structured_content["plan_id"]  # type: ignore[index]
        done = await client.call_tool("forget_memory", {"session": SESSION, "plan_id": plan_id})
        after = await client.call_tool("search_memories", {"query": "sqlite-icu wheel"})
        return plan, done, after

    plan, done, after = run_with_client(state, body)
    assert ok(plan)["delete"] == [TOKENIZER]
    assert ok(done)["deleted"] == [TOKENIZER]
    assert not (root / TOKENIZER).exists()
    assert TOKENIZER not in [h["path"] for h in ok(after)["hits"]]


def test_forget_memory_is_destructive_and_refuses_bad_arguments(state: ServerState) -> None:
    async def body(client: Client) -> Any:
        return (await client.list_tools()).tools

    tools = {t.name: t for t in run_with_client(state, body)}
    assert tools["forget_memory"].annotations is None  # the defaults: it writes and destroys
    assert tools["search_memories"].annotations.read_only_hint is True
    assert "not a memory" in error(call(state, "forget_memory", path="notes/deploy.md"))
    assert "no memory of session" in error(call(state, "forget_memory", session="nope"))
    stale = error(call(state, "forget_memory", path=TOKENIZER, plan_id="0123456789abcdef"))
    assert "no plan 0123456789abcdef" in stale
    private = "memories/secret-project/2026-12/2026-12-01-plan-1a2b3c4d.md"
    assert "private project" in error(call(state, "forget_memory", path=private))
