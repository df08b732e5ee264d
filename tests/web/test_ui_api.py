"""Each view's data comes from the core functions, through the page's real app and a real
vault (files, git, SQLite); each write shows its plan first and can be undone."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from web_support import PNG, PRIVATE_NOTE, add_ui_facts, client, make_ui_vault

import mnemex.web.api as api
from health_support import BABBAGE, NOTES, git
from mnemex.errors import VaultError
from mnemex.web.api import UPLOAD_LIMIT, safe_upload_name

MEMORY = "memories/orbit/2026-11-20-cutover.md"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_ui_vault(tmp_path / "vault")


def _status(root: Path) -> str:
    return subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_search_filters_and_explains_each_hit(root: Path) -> None:
    with client(root) as (http, _):
        data = http.get("/api/search", params={"q": "engine"}).json()
        assert data["hits"]
        for hit in data["hits"]:
            assert {"path", "title", "kind", "snippet", "why"} <= set(hit)
            assert "age_days" in hit or "date" in hit
        kinds = {h["kind"] for h in data["hits"]}
        assert "knowledge" in kinds
        only = http.get("/api/search", params={"q": "engine", "kind": "notes"}).json()
        assert {h["kind"] for h in only["hits"]} <= {"notes"}
        bad = http.get("/api/search", params={"q": "engine", "since": "someday"})
        assert bad.status_code == 400 and "not a date" in bad.json()["error"]
        junk = http.get("/api/search", params={"q": "engine", "k": "many"})
        assert junk.status_code == 400 and "not a whole number" in junk.json()["error"]
        assert http.get("/api/search", params={"q": " "}).status_code == 400


def test_a_private_note_is_served_only_when_included(root: Path) -> None:
    with client(root) as (http, _):
        hits = http.get("/api/search", params={"q": "divorce lawyer"}).json()["hits"]
        assert PRIVATE_NOTE not in {h["path"] for h in hits}
        assert http.get("/api/page", params={"path": PRIVATE_NOTE}).status_code == 400
        nodes = http.get("/api/graph").json()["nodes"]
        assert PRIVATE_NOTE not in {n["path"] for n in nodes}
        assert http.get("/api/file", params={"path": PRIVATE_NOTE}).status_code == 400
        backlinks = http.get("/api/page", params={"path": "wiki/general/entities/ada-lovelace.md"})
        assert PRIVATE_NOTE not in backlinks.text
    with client(root, include_private=("private",)) as (http, _):
        page = http.get("/api/page", params={"path": PRIVATE_NOTE})
        assert page.status_code == 200 and "divorce lawyer" in page.json()["html"]


def test_a_page_is_rendered_with_its_links_backlinks_history_and_sources(root: Path) -> None:
    with client(root) as (http, _):
        data = http.get("/api/page", params={"path": "wiki/general/entities/ada-lovelace.md"})
        page = data.json()
        assert page["title"] == "Ada Lovelace"
        assert ["title", "Ada Lovelace"] in page["frontmatter"]
        assert page["history"] and page["history"][0]["subject"]
        assert page["obsidian"].startswith("obsidian://open?vault=")
        assert any(b["path"] == NOTES for b in page["backlinks"])
        assert page["neighbours"]
        assert page["sources"] == [] or all("ref" in s for s in page["sources"])
        assert 'href="#/page/wiki/general/summaries/notes-on-the-engine.md"' in page["html"]
        missing = http.get("/api/page", params={"path": "notes/nowhere.md"})
        assert missing.status_code == 404


def test_a_hostile_note_renders_as_text(root: Path) -> None:
    with client(root) as (http, _):
        page = http.get("/api/page", params={"path": "notes/hostile <odd> name.md"}).json()
    html = page["html"]
    assert "<script" not in html and "<svg" not in html and "<iframe" not in html
    assert "javascript:" not in html.replace("&quot;", '"').split("href=")[0] or all(
        not part.lower().startswith(('"javascript', "'javascript", "javascript"))
        for part in html.split("href=")[1:]
    )
    assert "onerror=" not in html.replace("onerror=&quot;", "")
    assert '<img src="/api/file?path=assets/pixel.png"' in html
    assert 'href="#/page/wiki/general/entities/ada-lovelace.md"' in html
    assert 'rel="noopener noreferrer"' in html


def test_attachments_are_served_as_images_or_downloads_never_vault_internals(root: Path) -> None:
    (root / "assets" / "drawing.svg").write_text("<svg onload='alert(1)'/>", encoding="utf-8")
    with client(root) as (http, _):
        image = http.get("/api/file", params={"path": "assets/pixel.png"})
        assert image.status_code == 200 and image.content == PNG
        assert image.headers["content-type"] == "image/png"
        svg = http.get("/api/file", params={"path": "assets/drawing.svg"})
        assert svg.headers["content-type"] == "application/octet-stream"
        assert svg.headers["content-disposition"].startswith("attachment;")
        for path in (".git/config", ".mnemex/index.sqlite", "../outside", "/etc/passwd"):
            assert http.get("/api/file", params={"path": path}).status_code in (400, 404), path


def test_the_graph_is_the_brain_or_a_neighbourhood_capped_at_its_limit(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with client(root) as (http, _):
        whole = http.get("/api/graph").json()
        paths = [n["path"] for n in whole["nodes"]]
        assert BABBAGE in paths and whole["orphans"] >= 1
        assert all(0 <= a < len(paths) and 0 <= b < len(paths) for a, b in whole["edges"])
        degrees = [n["degree"] for n in whole["nodes"]]
        assert degrees == sorted(degrees, reverse=True)  # hubs first
        around = http.get("/api/graph", params={"focus": BABBAGE, "depth": 1}).json()
        assert around["nodes"][0]["path"] == BABBAGE
        assert len(around["nodes"]) < len(whole["nodes"])
        monkeypatch.setattr(api, "GRAPH_LIMIT", 3)
        capped = http.get("/api/graph").json()
        assert len(capped["nodes"]) == 3 and capped["truncated"] is True
        assert capped["total_nodes"] == whole["total_nodes"]


def test_a_health_fix_is_planned_applied_and_undone(root: Path) -> None:
    before = (root / BABBAGE).read_bytes()
    with client(root, write=True) as (http, csrf):
        headers = {"x-mnemex-csrf": csrf}
        report = http.get("/api/health").json()
        issue = next(
            i for i in report["broken_links"] if i.get("data", {}).get("target") == "Lady Lovelace"
        )
        plan = http.post("/api/health/fix", json={"id": issue["id"]}, headers=headers).json()
        assert plan["diff"] and plan["plan_id"]
        assert (root / BABBAGE).read_bytes() == before  # a plan writes nothing
        done = http.post(
            "/api/health/fix", json={"id": issue["id"], "plan_id": plan["plan_id"]}, headers=headers
        ).json()
        assert done["updated"] == 1
        assert (root / BABBAGE).read_bytes() != before
        after = http.get("/api/health").json()
        assert issue["id"] not in {i["id"] for i in after["broken_links"]}
        undo = http.post("/api/undo", json={}, headers=headers).json()
        assert undo["plan_id"]
        http.post("/api/undo", json={"plan_id": undo["plan_id"]}, headers=headers)
    assert (root / BABBAGE).read_bytes() == before


def test_dismiss_with_a_reason_and_record_the_score(root: Path) -> None:
    with client(root, write=True) as (http, csrf):
        headers = {"x-mnemex-csrf": csrf}
        report = http.get("/api/health").json()
        orphan = report["orphans"][0]
        done = http.post(
            "/api/health/dismiss",
            json={"id": orphan["id"], "reason": "a stub on purpose"},
            headers=headers,
        )
        assert done.status_code == 200, done.text
        again = http.get("/api/health").json()
        assert orphan["id"] not in {i["id"] for i in again["orphans"]}
        assert again["dismissed"] == report["dismissed"] + 1
        http.post("/api/health/record", json={}, headers=headers).raise_for_status()
        scans = http.get("/api/health").json()["history"]["scans"]
        assert len(scans) == 1 and isinstance(scans[0]["score"], int)


def test_memories_timeline_digest_and_forget_with_a_plan(root: Path) -> None:
    with client(root, write=True) as (http, csrf):
        headers = {"x-mnemex-csrf": csrf}
        groups = http.get("/api/memories").json()["projects"]
        orbit = next(g for g in groups if g["project"] == "orbit")
        assert orbit["memories"][0]["path"] == MEMORY
        digest = http.get("/api/digest", params={"path": MEMORY}).json()
        assert "Flip writes on Tuesday" in str(digest)
        plan = http.post("/api/forget", json={"path": MEMORY}, headers=headers).json()
        assert (root / MEMORY).exists() and plan["plan_id"]
        done = http.post(
            "/api/forget", json={"path": MEMORY, "plan_id": plan["plan_id"]}, headers=headers
        )
        assert done.status_code == 200, done.text
        assert not (root / MEMORY).exists()
        undo = http.post("/api/undo", json={}, headers=headers).json()
        http.post("/api/undo", json={"plan_id": undo["plan_id"]}, headers=headers)
    assert (root / MEMORY).exists()


def test_state_shows_handoffs_and_journal(root: Path) -> None:
    with client(root) as (http, _):
        assert "orbit" in http.get("/api/state").json()["projects"]
        data = http.get("/api/state/project", params={"project": "orbit"}).json()
        assert data["context"]["handoffs"][0]["machine"] == "laptop"
        assert data["drafts"] == [] and data["foundations"] == []


def test_facts_timeline_and_a_persons_confirm_correct_retract(root: Path) -> None:
    said = add_ui_facts(root)
    with client(root, write=True) as (http, csrf):
        headers = {"x-mnemex-csrf": csrf}
        subjects = http.get("/api/facts").json()["subjects"]
        assert subjects == ["orbit"]
        data = http.get("/api/facts/subject", params={"subject": "orbit"}).json()
        status = {f["statement"]: f["status"] for f in data["facts"]}
        assert status[said["disputed"]] == "disputed"
        questions = [f.get("question") for a in data["answers"] for f in a["facts"]]
        assert any(q and said["stale"] in q for q in questions)  # the page flags it stale
        fact = next(f for f in data["facts"] if f["statement"] == said["person"])
        corrected = http.post(
            "/api/facts/change",
            json={"action": "correct", "id": fact["id"], "value": "SQLite"},
            headers=headers,
        )
        assert corrected.status_code == 200, corrected.text
        facts = http.get("/api/facts/subject", params={"subject": "orbit"}).json()
        values = {f["value"]: f["status"] for f in facts["facts"]}
        assert values.get("SQLite") == "active"
        newest = next(f for f in facts["facts"] if f["value"] == "SQLite")
        for action in ("confirm", "retract"):
            answer = http.post(
                "/api/facts/change", json={"action": action, "id": newest["id"]}, headers=headers
            )
            assert answer.status_code == 200, answer.text
        wrong = http.post(
            "/api/facts/change", json={"action": "delete", "id": newest["id"]}, headers=headers
        )
        assert wrong.status_code == 400


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("notes.md", "notes.md"),
        ("../../etc/passwd.md", "passwd.md"),
        ("C:\\Users\\x\\report.PDF", "report.pdf"),
        ("we<ird>|name?.txt", "we-ird-name.txt"),
        ("Zürich Labs.html", "Zürich Labs.html"),
    ],
)
def test_upload_names_are_sanitised(given: str, kept: str) -> None:
    assert safe_upload_name(given) == kept


@pytest.mark.parametrize("given", ["tool.exe", "page.svg", "noext", ".md", "...."])
def test_upload_types_outside_the_allowlist_are_refused(given: str) -> None:
    with pytest.raises(VaultError, match=r"only these types|no usable"):
        safe_upload_name(given)


def test_an_upload_lands_in_the_inbox_never_over_a_file_and_is_ingested_by_plan(
    root: Path,
) -> None:
    (root / "inbox").mkdir(exist_ok=True)
    (root / "inbox" / "source.md").write_text("a person's own file\n", encoding="utf-8")
    text = b"# Difference engines\n\nCharles Babbage designed the Difference Engine in London.\n"
    with client(root, write=True) as (http, csrf):
        headers = {"x-mnemex-csrf": csrf, "x-filename": "source.md"}
        stored = http.post("/api/ingest/upload", content=text, headers=headers).json()
        assert stored == {"path": "inbox/source-2.md", "bytes": len(text)}
        assert (root / "inbox" / "source.md").read_text() == "a person's own file\n"
        big = http.post("/api/ingest/upload", content=b"x" * (UPLOAD_LIMIT + 1), headers=headers)
        assert big.status_code == 413
        refused = http.post(
            "/api/ingest/upload",
            content=b"MZ",
            headers={"x-mnemex-csrf": csrf, "x-filename": "tool.exe"},
        )
        assert refused.status_code == 400
        plan: dict[str, Any] = http.post(
            "/api/ingest", json={"path": stored["path"]}, headers={"x-mnemex-csrf": csrf}
        ).json()
        assert plan["plan_id"]
        done = http.post(
            "/api/ingest",
            json={"path": stored["path"], "plan_id": plan["plan_id"]},
            headers={"x-mnemex-csrf": csrf},
        )
        assert done.status_code == 200, done.text
        outside = http.post(
            "/api/ingest", json={"path": "notes/broken.md"}, headers={"x-mnemex-csrf": csrf}
        )
        assert outside.status_code == 400
    assert git(root, "log", "-1", "--format=%s").startswith("mnemex")
    assert "inbox/source.md" not in _status(root) or (root / "inbox" / "source.md").exists()


def test_a_foundation_draft_is_approved_from_its_diff(root: Path) -> None:
    from mnemex.foundations.store import add_foundation, propose_foundation
    from mnemex.vault import Vault

    spec = root.parent / "spec.md"
    spec.write_text("# Spec\nWrites go to Postgres.\n", encoding="utf-8")
    vault = Vault(root)
    add_foundation(vault, "orbit", spec, "spec")
    propose_foundation(
        vault, "orbit", "spec", "# Spec\nWrites go to SQLite.\n", "we moved", "claude-code", "md"
    )
    with client(root, write=True) as (http, csrf):
        headers = {"x-mnemex-csrf": csrf}
        state = http.get("/api/state/project", params={"project": "orbit"}).json()
        assert [d["slug"] for d in state["drafts"]] == ["spec"]
        assert state["foundations"][0]["slug"] == "spec" and state["foundations"][0]["intact"]
        body = {"project": "orbit", "slug": "spec"}
        plan = http.post("/api/foundation/approve", json=body, headers=headers).json()
        assert "+Writes go to SQLite." in plan["diff"]
        assert "Postgres" in next((root / "foundations").rglob("spec.md")).read_text()
        done = http.post("/api/foundation/approve", json={**body, "apply": True}, headers=headers)
        assert done.status_code == 200, done.text
        after = http.get("/api/state/project", params={"project": "orbit"}).json()
        assert after["drafts"] == []
    assert "SQLite" in next((root / "foundations").rglob("spec.md")).read_text()


def test_an_edit_made_elsewhere_is_seen_without_a_restart(root: Path) -> None:
    with client(root) as (http, _):
        before = http.get("/api/search", params={"q": "zeppelin"}).json()["hits"]
        assert "notes/airship.md" not in {h["path"] for h in before}
        (root / "notes" / "airship.md").write_text(
            "# Airship\nA zeppelin over [[ada-lovelace]].\n", encoding="utf-8"
        )
        hits = http.get("/api/search", params={"q": "zeppelin"}).json()["hits"]
        assert hits[0]["path"] == "notes/airship.md"
        page = http.get("/api/page", params={"path": "wiki/general/entities/ada-lovelace.md"})
        assert "notes/airship.md" in {b["path"] for b in page.json()["backlinks"]}
