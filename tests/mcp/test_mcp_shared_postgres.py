"""Many machines, one PostgreSQL index: real ``mnemex serve`` processes on clones of one vault
that sync through a bare repository, each writing memories through a real MCP client over
stdio, all indexing into one schema.

What is measured: every note a server acknowledged is in the index once (none lost, none
twice), the index ends at the shared branch's newest commit with exactly its notes, a
machine that fell behind writes nothing until it has pulled and then catches up, and
nothing deadlocks (every wait is bounded; a hang fails the test, no time is asserted).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import anyio
import psycopg
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_support import MNEMEX, make_vault, ok

from mnemex.embed.hashing import HashingEmbedder
from mnemex.index.postgres.store import PostgresIndex
from mnemex.index.sync import BUSY, Indexer
from mnemex.vault import Vault
from postgres_support import dsn, fresh_schema

MACHINES = ("ash", "birch", "cedar")
LAGGARD = "cedar"
#: Memories each machine writes while the others write too (more: MNEMEX_SHARED_ROUNDS).
ROUNDS = int(os.environ.get("MNEMEX_SHARED_ROUNDS", "4"))
#: Generous bounds: a run that needs more is stuck, not slow.
CALL_TIMEOUT = 120
CONVERGE_PASSES = 6
_LETTERS = "bcdfghjklm"


def _marker(machine: str, n: int) -> str:
    """A word no tokenizer splits and no other note holds."""
    return f"zq{machine}{_LETTERS[n // 10]}{_LETTERS[n % 10]}x"


def _env() -> dict[str, str]:
    """The environment of every process: the shared index, and a git identity."""
    return {
        **os.environ,
        "MNEMEX_INDEX_DSN": dsn(),
        "GIT_AUTHOR_NAME": "Ada",
        "GIT_AUTHOR_EMAIL": "ada@example.org",
        "GIT_COMMITTER_NAME": "Ada",
        "GIT_COMMITTER_EMAIL": "ada@example.org",
    }


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, capture_output=True, text=True, check=True
    ).stdout.strip()


def _own_schema(root: Path) -> str:
    """Give the vault an id no other test's has (their first commits may be alike); the
    name of its schema."""
    vault_id = fresh_schema("mw").replace("_", "")[-32:]
    settings = root / "mnemex.toml"
    settings.write_text(
        settings.read_text(encoding="utf-8") + f'\n[index]\nvault_id = "{vault_id}"\n',
        encoding="utf-8",
    )
    _git(root, "-c", "user.name=Ada", "-c", "user.email=ada@example.org", "commit", "-qam", "id")
    return f"mnemex_{vault_id}"


def _shared_vault(tmp: Path) -> tuple[Path, dict[str, Path], str]:
    """A vault pushed to a bare repository and one clone per machine; its schema name."""
    seed = make_vault(tmp / "seed")
    schema = _own_schema(seed)
    origin = tmp / "origin.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(seed), str(origin)], check=True)
    clones = {}
    for machine in MACHINES:
        clones[machine] = tmp / machine
        subprocess.run(["git", "clone", "-q", str(origin), str(clones[machine])], check=True)
    return origin, clones, schema


def _server(root: Path, env: dict[str, str]) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "mnemex", "--vault", str(root), "serve", "--refresh", "0"],
        env=env,
        cwd=str(root),
    )


async def _git_sync(root: Path, env: dict[str, str]) -> bool:
    """``mnemex sync`` (commit, pull, push), as a scheduled job runs it; whether it pushed."""
    done = await anyio.run_process(
        [*MNEMEX, "--vault", str(root), "sync", "--json"], env=env, check=False
    )
    return done.returncode == 0


def _indexed(schema: str) -> tuple[Counter[str], str | None]:
    """How many notes of the index hold each marker, and the commit it was written from."""
    with psycopg.connect(dsn(), autocommit=True) as db:
        rows = db.execute(
            f'SELECT n.path, c.text FROM "{schema}".chunks c'
            f' JOIN "{schema}".notes n ON n.id = c.note_id WHERE c.text LIKE %s',
            ("%zq%",),
        ).fetchall()
        commit = db.execute(
            f"SELECT value FROM \"{schema}\".meta WHERE key = 'vault_commit'"
        ).fetchone()
    seen: dict[str, set[str]] = {}
    for path, text in rows:
        for word in text.split():
            word = word.strip(".,")
            if word.startswith("zq"):
                seen.setdefault(word, set()).add(path)
    return Counter({m: len(paths) for m, paths in seen.items()}), commit[0] if commit else None


class Run:
    """What the writers acknowledged, and what the laggard saw."""

    def __init__(self) -> None:
        self.acknowledged: dict[str, str] = {}  # marker -> the path the server answered
        self.others_pushed = anyio.Event()
        self.writers_done = 0
        self.laggard_before_pull: Counter[str] = Counter()
        self.laggard_caught_up = False


async def _write(client: Client, machine: str, n: int, run: Run) -> None:
    marker = _marker(machine, n)
    text = f"Note {n} from {machine}\nThe word {marker} marks this memory."
    with anyio.fail_after(CALL_TIMEOUT):
        answer = ok(await client.call_tool("remember", {"text": text, "project": "team"}))
    run.acknowledged[marker] = answer["path"]


async def _read_other(client: Client, machine: str, run: Run) -> None:
    others = [m for m in run.acknowledged if not m.startswith(f"zq{machine}")]
    if others:
        with anyio.fail_after(CALL_TIMEOUT):
            ok(await client.call_tool("search", {"query": others[-1]}))


async def _machine(machine: str, root: Path, env: dict[str, str], schema: str, run: Run) -> None:
    async with Client(_server(root, env)) as client:
        if machine == LAGGARD:
            with anyio.fail_after(CALL_TIMEOUT * 4):
                await run.others_pushed.wait()
            for n in range(ROUNDS):  # behind the index from the start: acknowledged, not indexed
                await _write(client, machine, n, run)
            run.laggard_before_pull = _indexed(schema)[0]
            for _ in range(CONVERGE_PASSES):  # pull (and push), then any read catches up
                await _git_sync(root, env)
                await _read_other(client, machine, run)
                counts = _indexed(schema)[0]
                if all(counts[_marker(machine, n)] for n in range(ROUNDS)):
                    run.laggard_caught_up = True
                    break
            return
        for n in range(ROUNDS):
            await _write(client, machine, n, run)
            await _read_other(client, machine, run)
            await _git_sync(root, env)
        # a push can lose a race with another machine's: sync until this machine's commits are
        # on the shared branch, so the commit the index was last written from can be pulled
        for _ in range(CONVERGE_PASSES):
            if await _git_sync(root, env):
                break
        run.writers_done += 1
        if run.writers_done == len(MACHINES) - 1:
            run.others_pushed.set()


def test_several_servers_on_clones_keep_one_index_right(tmp_path: Path) -> None:
    origin, clones, schema = _shared_vault(tmp_path)
    env = _env()
    run = Run()

    async def go() -> None:
        async with anyio.create_task_group() as group:
            for machine in MACHINES:
                group.start_soon(_machine, machine, clones[machine], env, schema, run)

    anyio.run(go)

    # the laggard wrote while behind: acknowledged, and nothing of it in the shared index
    laggard = [_marker(LAGGARD, n) for n in range(ROUNDS)]
    assert all(m in run.acknowledged for m in laggard)
    assert not any(run.laggard_before_pull[m] for m in laggard)
    assert run.laggard_caught_up

    # every machine pulls until all are at the shared branch's newest commit
    for _ in range(CONVERGE_PASSES):
        for machine in MACHINES:
            anyio.run(_git_sync, clones[machine], env)
        heads = {_git(clones[m], "rev-parse", "HEAD") for m in MACHINES}
        if heads == {_git(origin, "rev-parse", "HEAD")}:
            break
    newest = _git(origin, "rev-parse", "HEAD")
    assert heads == {newest}
    # the next read of any server brings the index to that commit
    subprocess.run(
        [*MNEMEX, "--vault", str(clones["ash"]), "search", "zqashbbx"], env=env, check=True,
        capture_output=True,
    )  # fmt: skip

    counts, commit = _indexed(schema)
    assert commit == newest
    assert len(run.acknowledged) == ROUNDS * len(MACHINES)
    lost = sorted(m for m in run.acknowledged if not counts[m])
    twice = sorted(m for m, c in counts.items() if c > 1)
    assert (lost, twice) == ([], [])
    assert set(counts) == set(run.acknowledged)  # nothing in the index nobody acknowledged
    # and the index holds exactly the notes of that commit: a SQLite index of a clone agrees
    shared = PostgresIndex(dsn(), schema)
    try:
        paths = set(shared.note_paths())
    finally:
        shared.close()
    assert set(run.acknowledged.values()) <= paths
    assert paths == set(_tracked_notes(clones["birch"]))


def _tracked_notes(root: Path) -> list[str]:
    return [p for p in _git(root, "ls-files").splitlines() if p.endswith(".md")]


def test_one_sync_writes_a_shared_index_at_a_time(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "vault")
    schema = fresh_schema("lock")
    first = PostgresIndex(dsn(), schema)
    second = PostgresIndex(dsn(), schema)
    try:
        with first.writer(0) as held:
            assert held
            with second.writer(0.3) as waited:  # bounded: gives up, says so
                assert not waited
            result = Indexer(Vault(root), second, HashingEmbedder).sync()
            assert (result.deferred, second.note_paths()) == (BUSY, [])
        with second.writer(0) as held:  # released at the end of the block
            assert held
        with first.writer(0):
            first.close()  # a writer whose connection drops releases the lock with it
        with second.writer(5) as held:
            assert held
        assert Indexer(Vault(root), second, HashingEmbedder).sync().deferred is None
        assert "notes/deploy.md" in second.note_paths()
    finally:
        second.close()


def test_a_sync_someone_asked_for_says_it_was_deferred(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "vault")
    _own_schema(root)
    env = _env()
    done = subprocess.run(
        [*MNEMEX, "--vault", str(root), "index", "--json"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    first = _git(root, "rev-parse", "HEAD")
    (root / "notes" / "later.md").write_text("# Later\nA later note.\n", encoding="utf-8")
    _git(root, "add", "-A")
    _git(root, "-c", "user.name=A", "-c", "user.email=a@example.org", "commit", "-qm", "later")
    assert subprocess.run([*MNEMEX, "--vault", str(root), "index"], env=env).returncode == 0
    _git(root, "reset", "-q", "--hard", first)  # this machine is now behind the index
    done = subprocess.run(
        [*MNEMEX, "--vault", str(root), "index"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 1
    assert "pull (`mnemex sync`) first; nothing was written" in done.stderr
    assert "Traceback" not in done.stderr
