"""A vault for the web page's tests (the sick vault of health_support.py, plus hostile
notes, an image, a fact file, a handoff, a memory and a private note) and the page served
from it: in process through Starlette's test client, or as the real ``mnemex ui``."""

from __future__ import annotations

import base64
import datetime as dt
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from starlette.testclient import TestClient

from health_support import git, make_sick_vault
from helpers import write
from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.facts.record import add_fact
from mnemex.vault import Vault
from mnemex.web.api import UiState
from mnemex.web.app import build_app
from mnemex.web.security import COOKIE, Sessions

PORT = 8799
BASE = f"http://127.0.0.1:{PORT}"
#: One pixel, so an embed has a real image to show.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)
#: Each of these sets window.__pwned (or opens a dialog) if the page ever runs it.
HOSTILE = (
    "# Hostile\n"
    "<script>window.__pwned = 1</script>\n\n"
    '<img src=x onerror="window.__pwned = 2">\n\n'
    "[click me](javascript:window.__pwned=3) and [again](JaVaScRiPt:alert(1))\n\n"
    '[[javascript:alert(1)|a wikilink]] and ![[x.png|200" onerror="window.__pwned=4]]\n\n'
    '<svg onload="window.__pwned=5"></svg> <iframe src="javascript:alert(2)"></iframe>\n\n'
    "| a | b |\n|---|---|\n| <b onmouseover=alert(3)>x</b> | [[Ada Lovelace\\|Ada]] |\n\n"
    "See [[ada-lovelace]], ![[pixel.png]], [the site](https://example.org) and #hostile-tag.\n"
)
PRIVATE_NOTE = "wiki/private/diary.md"  # the private domain: never served unless included


def make_ui_vault(root: Path) -> Path:
    """The sick vault with what every view of the page needs, committed."""
    make_sick_vault(root)
    write(root, "notes/hostile <odd> name.md", HOSTILE)
    (root / "assets").mkdir()
    (root / "assets" / "pixel.png").write_bytes(PNG)
    write(root, PRIVATE_NOTE, "# Diary\nThe divorce lawyer's number, near [[ada-lovelace]].\n")
    write(
        root,
        "memories/orbit/2026-11-20-cutover.md",
        "---\ntype: digest\nproject: orbit\nsession: s-1\nstarted: 2026-11-20\n---\n"
        "# Cut over to green\n## Decisions\n- Flip writes on Tuesday.\n",
    )
    write(
        root,
        "state/orbit/handoffs/laptop/current.md",
        "# Cutover half done\n"
        "Provenance: machine laptop · 2026-11-21T10:00:00+00:00 · harness cli\n"
        "## Where things stand\n- green is live for reads\n",
    )
    git(root, "add", "-A")
    git(root, "commit", "-qm", "ui fixtures")
    return root


def open_brain(root: Path) -> Brain:
    return Brain(Vault(root), embedder=HashingEmbedder())


def add_ui_facts(root: Path) -> dict[str, str]:
    """Orbit's facts: one a person stated, two sources disputing its hosting, and one not
    confirmed for two years (stale). Returns the statement of each kind."""
    from fact_support import project_claim, record_one

    with open_brain(root) as brain:
        brain.sync()
        add_fact(brain, "Orbit uses PostgreSQL.")
        fly = project_claim("hosting", "Fly.io", "orbit", valid_from=dt.date(2026, 2, 1))
        heroku = project_claim(
            "hosting",
            "Heroku",
            "orbit",
            valid_from=dt.date(2026, 2, 1),
            valid_until=dt.date(2026, 3, 1),
        )
        record_one(brain, fly, dt.date(2026, 2, 2), "source")
        record_one(brain, heroku, dt.date(2026, 2, 26), "source")
        old = project_claim("queue", "RabbitMQ", "orbit")
        record_one(brain, old, dt.date(2024, 6, 1), "person")
    return {
        "person": "Orbit uses PostgreSQL.",
        "disputed": fly.statement,
        "stale": old.statement,
    }


@contextmanager
def client(
    root: Path, *, write: bool = False, include_private: tuple[str, ...] = ()
) -> Iterator[tuple[TestClient, str]]:
    """A logged-in test client of the page and its CSRF token."""
    with open_brain(root) as brain:
        state = UiState(brain, write=write, include_private=include_private, refresh_seconds=0)
        sessions = Sessions()
        app = build_app(state, sessions, PORT)
        with TestClient(app, base_url=BASE, follow_redirects=False) as http:
            login = http.get(f"/login?token={sessions.token}")
            assert login.status_code == 303, login.text
            cookie = login.cookies.get(COOKIE)
            assert cookie
            http.cookies.set(COOKIE, cookie)
            csrf = http.get("/api/session").json()["csrf"]
            yield http, csrf


MNEMEX = [sys.executable, "-m", "mnemex"]
LINK = re.compile(r"http://127\.0\.0\.1:(\d+)/login\?token=[\w-]+")


@contextmanager
def running_ui(root: Path, *args: str) -> Iterator[str]:
    """The real ``mnemex ui`` in a subprocess; yields the login link it printed."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [*MNEMEX, "--vault", str(root), "ui", "--port", "0", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stderr is not None
        seen = []
        deadline = time.monotonic() + 60
        link = None
        while link is None and time.monotonic() < deadline:
            line = proc.stderr.readline()
            if not line and proc.poll() is not None:
                raise AssertionError("mnemex ui exited: " + "".join(seen))
            seen.append(line)
            found = LINK.search(line)
            link = found.group(0) if found else None
        assert link is not None, "".join(seen)
        yield link
    finally:
        proc.terminate()
        try:
            _, err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
    assert "Traceback" not in (err or ""), err
