"""What stands between the web page and everything else on this machine.

The page serves a person's brain on 127.0.0.1, where any local process and any web page
the person has open can reach it. So:

- **A token of its own** (never the MCP token), made fresh for each ``mnemex ui`` run and
  printed once as a link. ``/login?token=...`` trades it for an HttpOnly, SameSite=Strict
  session cookie and redirects to a URL without it, so the token stays out of the history
  and of ``Referer``. Every other request without the cookie gets 401.
- **A Host check** against DNS rebinding: a request whose ``Host`` is not this server's
  loopback address and port is refused (421) before anything else is read.
- **CSRF**: every request that is not GET or HEAD must carry ``X-Mnemex-CSRF`` with the
  session's own CSRF token (which only a same-origin script can read, from
  ``/api/session``), and an ``Origin``, when sent, must be this server's.
- **Headers on every answer**: a Content-Security-Policy with no inline script or style,
  ``Referrer-Policy: no-referrer``, ``X-Content-Type-Options: nosniff``, no framing, and
  ``Cache-Control: no-store``.
"""

from __future__ import annotations

import hmac
import json
import secrets
from dataclasses import dataclass, field
from urllib.parse import parse_qs

from starlette.types import ASGIApp, Message, Receive, Scope, Send

COOKIE = "mnemex_ui"
CSRF_HEADER = "x-mnemex-csrf"
LOGIN_PATH = "/login"

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
)
_SAFE_METHODS = frozenset({"GET", "HEAD"})


@dataclass
class Sessions:
    """The UI token of this run and the sessions it opened (in memory: a restart logs out)."""

    token: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    _csrf: dict[str, str] = field(default_factory=dict)

    def open(self, given: str) -> str | None:
        """A new session id when ``given`` is this run's token, else None."""
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            return None
        session = secrets.token_urlsafe(32)
        self._csrf[session] = secrets.token_urlsafe(32)
        return session

    def csrf(self, session: str | None) -> str | None:
        """The CSRF token of a session, or None for no such session."""
        if not session:
            return None
        for known, csrf in self._csrf.items():
            if hmac.compare_digest(known.encode(), session.encode()):
                return csrf
        return None


def allowed_hosts(port: int) -> frozenset[bytes]:
    """The ``Host`` values a browser sends to this server on loopback."""
    return frozenset(f"{name}:{port}".encode() for name in ("127.0.0.1", "localhost", "[::1]"))


def _cookie(headers: dict[bytes, bytes]) -> str | None:
    for part in headers.get(b"cookie", b"").decode("latin-1").split(";"):
        name, _, value = part.strip().partition("=")
        if name == COOKIE:
            return value
    return None


class UiGuard:
    """ASGI middleware: Host check, login by token, session cookie, CSRF, headers."""

    def __init__(self, app: ASGIApp, sessions: Sessions, port: int) -> None:
        self.app = app
        self.sessions = sessions
        self.port = port

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        host = headers.get(b"host", b"")
        if host not in allowed_hosts(self.port):
            await _plain(send, 421, "this page answers only on 127.0.0.1 (Host refused)")
            return
        if scope["path"] == LOGIN_PATH:
            await self._login(scope, send)
            return
        session = _cookie(headers)
        csrf = self.sessions.csrf(session)
        if csrf is None:
            await _plain(
                send,
                401,
                "not logged in: open the link `mnemex ui` printed (it holds this run's token)",
            )
            return
        if scope["method"] not in _SAFE_METHODS:
            origin = headers.get(b"origin")
            if origin is not None and origin not in {
                b"http://" + h for h in allowed_hosts(self.port)
            }:
                await _plain(send, 403, "cross-origin write refused")
                return
            given = headers.get(CSRF_HEADER.encode(), b"")
            if not hmac.compare_digest(given, csrf.encode()):
                await _plain(send, 403, "write refused: missing or wrong CSRF token")
                return
        scope.setdefault("state", {})["csrf"] = csrf

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)

    async def _login(self, scope: Scope, send: Send) -> None:
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        session = self.sessions.open((query.get("token") or [""])[0])
        if session is None:
            await _plain(send, 401, "wrong or missing token: use the link `mnemex ui` printed")
            return
        cookie = f"{COOKIE}={session}; HttpOnly; SameSite=Strict; Path=/"
        await send(
            {
                "type": "http.response.start",
                "status": 303,
                "headers": [
                    (b"location", b"/"),
                    (b"set-cookie", cookie.encode()),
                    (b"content-length", b"0"),
                    *HEADERS,
                ],
            }
        )
        await send({"type": "http.response.body", "body": b""})


async def _plain(send: Send, status: int, error: str) -> None:
    body = json.dumps({"error": error}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


__all__ = ["COOKIE", "CSP", "CSRF_HEADER", "LOGIN_PATH", "Sessions", "UiGuard", "allowed_hosts"]
