"""What keeps the page to its person: token, cookie, Host, CSRF, headers, read-only."""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

import httpx2 as httpx
import pytest
from starlette.testclient import TestClient
from web_support import BASE, MNEMEX, PORT, client, make_ui_vault, open_brain, running_ui

from mnemex.web.api import UiState
from mnemex.web.app import build_app
from mnemex.web.security import COOKIE, CSP, Sessions


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_ui_vault(tmp_path / "vault")


def _bare(root: Path) -> tuple[TestClient, Sessions]:
    brain = open_brain(root)
    sessions = Sessions()
    app = build_app(UiState(brain), sessions, PORT)
    return TestClient(app, base_url=BASE, follow_redirects=False), sessions


def test_nothing_is_served_without_the_cookie_and_the_token_buys_one(root: Path) -> None:
    http, sessions = _bare(root)
    with http:
        for path in ("/", "/api/session", "/api/search?q=ada", "/static/app.js"):
            assert http.get(path).status_code == 401, path
        assert http.get("/login?token=wrong").status_code == 401
        login = http.get(f"/login?token={sessions.token}")
        assert login.status_code == 303 and login.headers["location"] == "/"
        cookie = login.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
        assert sessions.token not in cookie  # the session is not the token
        http.cookies.set(COOKIE, login.cookies[COOKIE])
        assert http.get("/").status_code == 200
        assert http.get("/api/session").json()["write"] is False


def test_a_rebinding_host_is_refused_before_anything_else(root: Path) -> None:
    http, sessions = _bare(root)
    with http:
        for host in ("evil.example", f"evil.example:{PORT}", "127.0.0.1:1", "localhost"):
            answer = http.get(f"/login?token={sessions.token}", headers={"host": host})
            assert answer.status_code == 421, host
        ok = http.get(f"/login?token={sessions.token}", headers={"host": f"localhost:{PORT}"})
        assert ok.status_code == 303


def test_every_answer_carries_the_security_headers(root: Path) -> None:
    with client(root) as (http, _):
        for path in ("/", "/static/app.js", "/api/session", "/api/page?path=nowhere.md"):
            headers = http.get(path).headers
            assert headers["content-security-policy"] == CSP, path
            assert headers["referrer-policy"] == "no-referrer"
            assert headers["x-content-type-options"] == "nosniff"
            assert headers["x-frame-options"] == "DENY"
    assert "'unsafe-inline'" not in CSP and "script-src 'self'" in CSP


def test_the_page_has_no_inline_script_or_style() -> None:
    from mnemex.web.app import STATIC

    html = (STATIC / "index.html").read_text(encoding="utf-8")
    scripts = html.count("<script")
    assert scripts == html.count('<script src="/static/'), "an inline script"
    assert "style=" not in html and "<style" not in html and " on" not in html.replace(" only", "")


def test_writes_need_the_csrf_token_and_a_same_origin(root: Path) -> None:
    with client(root, write=True) as (http, csrf):
        body = {"id": "orphans-000000000000"}
        assert http.post("/api/health/dismiss", json=body).status_code == 403
        wrong = http.post("/api/health/dismiss", json=body, headers={"x-mnemex-csrf": "x" * 43})
        assert wrong.status_code == 403
        cross = http.post(
            "/api/health/dismiss",
            json=body,
            headers={"x-mnemex-csrf": csrf, "origin": "http://evil.example"},
        )
        assert cross.status_code == 403
        same = http.post(
            "/api/health/dismiss", json=body, headers={"x-mnemex-csrf": csrf, "origin": BASE}
        )
        assert same.status_code == 400  # past the guard: no such issue
        assert "no current issue" in same.json()["error"]


def test_a_read_only_page_refuses_every_write(root: Path) -> None:
    before = subprocess.run(
        ["git", "status", "--porcelain"], cwd=root, capture_output=True, text=True, check=True
    ).stdout
    with client(root) as (http, csrf):
        headers = {"x-mnemex-csrf": csrf}
        for path, body in (
            ("/api/health/fix", {"id": "orphans-000000000000"}),
            ("/api/health/dismiss", {"id": "orphans-000000000000"}),
            ("/api/health/record", {}),
            ("/api/undo", {}),
            ("/api/forget", {"path": "memories/orbit/2026-11-20-cutover.md"}),
            ("/api/facts/change", {"action": "retract", "id": "0123456789"}),
            ("/api/foundation/approve", {"project": "orbit", "slug": "x"}),
            ("/api/ingest", {"path": "inbox/x.md"}),
        ):
            answer = http.post(path, json=body, headers=headers)
            assert answer.status_code == 403, path
            assert "--write" in answer.json()["error"]
        upload = http.post(
            "/api/ingest/upload", content=b"# x\n", headers={**headers, "x-filename": "x.md"}
        )
        assert upload.status_code == 403
    after = subprocess.run(
        ["git", "status", "--porcelain"], cwd=root, capture_output=True, text=True, check=True
    ).stdout
    assert after == before
    assert not (root / "inbox" / "x.md").exists()


def test_the_real_command_prints_a_link_and_a_taken_port_is_a_clear_error(root: Path) -> None:
    with running_ui(root) as link:
        port = int(link.split(":")[2].split("/")[0])
        base = f"http://127.0.0.1:{port}"
        assert httpx.get(base + "/api/session").status_code == 401
        with httpx.Client(base_url=base, follow_redirects=False) as http:
            login = http.get(link)
            assert login.status_code == 303
            http.cookies.set(COOKIE, login.cookies[COOKIE])
            assert http.get("/api/search", params={"q": "engine"}).json()["hits"]
        taken = subprocess.run(
            [*MNEMEX, "--vault", str(root), "ui", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert taken.returncode == 1
        assert f"port {port} on 127.0.0.1 is taken" in taken.stderr
        assert "Traceback" not in taken.stderr


def test_it_listens_on_loopback_only(root: Path) -> None:
    with running_ui(root) as link:
        port = int(link.split(":")[2].split("/")[0])
        addresses = {
            info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        } - {"127.0.0.1", "127.0.1.1"}
        for address in addresses:
            with pytest.raises(OSError, match=r"refused|unreachable|timed out"):
                socket.create_connection((address, port), timeout=2).close()


def test_without_a_browser_the_page_tests_skip_unless_a_browser_is_required(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from browser_support import need_browser

    monkeypatch.setenv("MNEMEX_CHROMIUM", str(tmp_path / "no-chromium"))
    monkeypatch.delenv("MNEMEX_REQUIRE_BROWSER", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no browser to test the page in"):
        need_browser()
    monkeypatch.setenv("MNEMEX_REQUIRE_BROWSER", "1")
    with pytest.raises(pytest.fail.Exception, match="MNEMEX_REQUIRE_BROWSER=1"):
        need_browser()
