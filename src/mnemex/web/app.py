"""``mnemex ui``: the ASGI app (static page + JSON API behind :class:`UiGuard`) and the
server that runs it on 127.0.0.1."""

from __future__ import annotations

import errno
import socket
import webbrowser
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from mnemex.errors import ConfigError
from mnemex.web.api import ROUTES, UiState
from mnemex.web.security import Sessions, UiGuard

STATIC = Path(str(files("mnemex.web") / "static"))
DEFAULT_PORT = 8766


async def _index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")


def build_app(state: UiState, sessions: Sessions, port: int) -> UiGuard:
    """The page and its API for ``state``, answering only on 127.0.0.1:``port``."""
    app = Starlette(
        routes=[
            Route("/", _index, methods=["GET"]),
            *ROUTES,
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]
    )
    app.state.ui = state
    return UiGuard(app, sessions, port)


def bind(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1:``port`` (0: any free port).

    Raises:
        ConfigError: the port is taken.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ConfigError(
                f"port {port} on 127.0.0.1 is taken (another `mnemex ui`?): pass --port N "
                "for another, or --port 0 for any free one"
            ) from None
        raise ConfigError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror}") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def serve_ui(
    state: UiState,
    port: int = DEFAULT_PORT,
    *,
    open_browser: bool = False,
    announce: Callable[[str], None] = print,
) -> None:
    """Serve the page until interrupted; ``announce`` gets the login link, once."""
    sock = bind(port)
    port = sock.getsockname()[1]
    sessions = Sessions()
    app = build_app(state, sessions, port)
    link = f"http://127.0.0.1:{port}/login?token={sessions.token}"
    announce(link)
    if open_browser:
        webbrowser.open(link)
    config = uvicorn.Config(app, log_level="warning", lifespan="off")
    uvicorn.Server(config).run(sockets=[sock])


__all__ = ["DEFAULT_PORT", "STATIC", "bind", "build_app", "serve_ui"]
