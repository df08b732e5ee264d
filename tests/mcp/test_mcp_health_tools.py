"""The health tools through MCP: scan, fix with a plan id, dismiss, and no private file."""

from __future__ import annotations

from pathlib import Path

from mcp_support import call, error, make_vault, ok, state_for

from health_support import BABBAGE
from mnemex.health import scan


def test_the_mcp_tools_scan_fix_and_dismiss(sick: Path) -> None:
    state = state_for(sick)
    state.brain.sync()
    scanned = ok(call(state, "scan_health", kinds=["broken_links", "stale"], max_per_kind=1))
    assert len(scanned["broken_links"]) == 1 and scanned["truncated"]["broken_links"] == 3
    full = ok(call(state, "scan_health", kinds=["broken_links"]))
    issue = next(i for i in full["broken_links"] if i["data"].get("suggested"))
    plan = ok(call(state, "fix_health_issue", id=issue["id"]))
    assert plan["plan_id"] and plan["files_changed"] == [BABBAGE]
    done = ok(call(state, "fix_health_issue", id=issue["id"], plan_id=plan["plan_id"]))
    assert done["updated"] == 1
    assert "no current issue" in error(call(state, "fix_health_issue", id=issue["id"]))
    stale = ok(call(state, "scan_health", kinds=["stale"]))["stale"][0]
    ok(call(state, "dismiss_health_issue", id=stale["id"], reason="historic"))
    assert ok(call(state, "scan_health", kinds=["stale"]))["stale"] == []


def test_scan_health_leaves_out_private_files(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v")
    state = state_for(root)
    state.brain.sync()
    data = ok(call(state, "scan_health"))
    files = [
        f for kind in ("orphans", "stale", "broken_links") for i in data[kind] for f in i["files"]
    ]
    assert not [f for f in files if "private" in f or "secret-project" in f]
    direct = scan(state.brain.vault, state.brain.backend)
    assert "wiki/private/entities/diary.md" in [i.files[0] for i in direct.issues["orphans"]]
