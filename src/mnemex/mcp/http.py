"""Streamable HTTP, on this machine only unless explicitly told, behind a bearer token.

The token is generated once per vault and kept machine-locally in
``.mnemex/mcp-token`` (mode 0600); every request must carry
``Authorization: Bearer <token>`` or is refused with 401, on 127.0.0.1 too (any
local process or web page could otherwise reach the brain). Binding to another
address needs an explicit ``allow_remote``.
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
import stat
from pathlib import Path
from typing import Any

import uvicorn
from starlette.types import ASGIApp, Receive, Scope, Send

from mnemex.errors import ConfigError
from mnemex.mcp.server import build_server
from mnemex.mcp.state import ServerState
from mnemex.vault import Vault

TOKEN_FILE = "mcp-token"
LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})
DEFAULT_PORT = 8765
MCP_PATH = "/mcp"


def token_path(vault: Vault) -> Path:
    return vault.local_dir / TOKEN_FILE


def load_or_create_token(vault: Vault) -> str:
    """The vault's HTTP bearer token, generated on first use (readable by this user only)."""
    path = token_path(vault)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        if stat.S_IMODE(path.stat().st_mode) & 0o077:
            path.chmod(0o600)  # a copy or an umask widened it; the token is a secret
        token = path.read_text(encoding="utf-8").strip()
        if len(token) < 32:
            raise ConfigError(
                f"{path} holds no usable token; delete it and mnemex makes a new one"
            ) from None
        return token
    token = secrets.token_urlsafe(32)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(token + "\n")
    return token


class BearerTokenAuth:
    """ASGI middleware refusing every HTTP request without the bearer token (401)."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self._expected):
                body = json.dumps(
                    {
                        "error": "unauthorized: send Authorization: Bearer <token>, "
                        "the token being in the vault's .mnemex/mcp-token"
                    }
                ).encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"www-authenticate", b'Bearer realm="mnemex"'),
                            (b"content-length", str(len(body)).encode()),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def check_host(host: str, allow_remote: bool) -> None:
    """Refuse a non-loopback address unless the caller said so explicitly.

    Raises:
        ConfigError: ``host`` is not loopback and ``allow_remote`` is false.
    """
    if host not in LOOPBACK and not allow_remote:
        raise ConfigError(
            f"--host {host} would serve the brain beyond this machine; pass --allow-remote as "
            "well if that is what you want (requests still need the bearer token)"
        )


def http_app(state: ServerState, token: str, host: str = "127.0.0.1") -> Any:
    """The ASGI app: the MCP endpoint at ``/mcp`` behind the token check."""
    server = build_server(state)
    return BearerTokenAuth(
        server.streamable_http_app(streamable_http_path=MCP_PATH, host=host), token
    )


def run_http(
    state: ServerState,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    allow_remote: bool = False,
) -> None:
    """Serve streamable HTTP until interrupted."""
    check_host(host, allow_remote)
    token = load_or_create_token(state.brain.vault)
    app = http_app(state, token, host)
    uvicorn.run(app, host=host, port=port, log_level="warning", lifespan="on")


__all__ = [
    "DEFAULT_PORT",
    "MCP_PATH",
    "TOKEN_FILE",
    "BearerTokenAuth",
    "check_host",
    "http_app",
    "load_or_create_token",
    "run_http",
    "token_path",
]
