"""``mnemex doctor``: is the brain healthy enough to trust?

Checks that the vault is found (and how), the settings parse, the index exists
and is fresh against the files, every chunk text has a vector, the embedder loads and
answers, that ``mnemex serve`` answers an agent client within its start-up limit, and
lists files that could not be indexed, and that every agent client mnemex was installed
into starts a working MCP server. :func:`diagnose_secrets` (``--secrets``) scans the
vault and its git history for secrets. Each check is ``ok``, ``warn`` or ``fail``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mnemex.brain import Brain
from mnemex.clients.install import (
    CODEX_STARTUP_TIMEOUT_SEC,
    check_installed_clients,
)
from mnemex.errors import MnemexError
from mnemex.foundations.store import foundation_checks
from mnemex.harvest.run import harvest_check
from mnemex.vault.gitsync import sync_checks

#: Seconds a client waits for a stdio server's first answers by default (Codex: 10 s).
SERVE_LIMIT = 10.0
#: A server that has not answered after this long is broken, not slow: `mnemex install codex`
#: asks Codex for this much.
SERVE_GIVE_UP = float(CODEX_STARTUP_TIMEOUT_SEC)


@dataclass
class Check:
    name: str
    status: str  # ok | warn | fail
    detail: str

    def to_dict(self) -> dict[str, str]:
        return {"name": self.name, "status": self.status, "detail": self.detail}


def diagnose(
    brain: Brain,
    load_embedder: bool = True,
    probe_clients: bool = True,
    serve_check: Callable[[Path], Check] | None = None,
) -> dict[str, Any]:
    """Run every check; never raises for a problem it can describe.

    ``probe_clients`` starts MCP servers and asks them for their tools: this vault's
    (``mnemex serve``, timed against :data:`SERVE_LIMIT`) and the one each installed client
    configuration names (off: no server is started, only the paths are checked).
    ``serve_check`` is how this vault's server is started and timed; the interface that
    has an MCP client passes it (:func:`mnemex.mcp.probe.serve_check`), since the core
    imports no MCP client.
    """
    checks: list[Check] = []
    vault = brain.vault
    checks.append(Check("vault", "ok", f"{vault.root} ({brain.location.source})"))
    checks.append(
        Check(
            "settings",
            "ok",
            f"format {vault.settings.format}, domains "
            f"{', '.join(vault.settings.domains)}, embedder {vault.settings.embedder_name}",
        )
    )
    backend = brain.backend
    stats = backend.stats()
    stats["unresolved_links"] = brain.links_to_nowhere(limit=0)[0]
    states = backend.note_states()
    # a file sync refused (unreadable, too big) is never in the index: not drift
    problems = backend.problems()
    refused = {p for p, reason in problems if not reason.startswith("warning:")}
    unindexable = sum(1 for _, reason in problems if not reason.startswith("warning:"))
    stale = 0
    files = 0
    for entry in vault.iter_files():
        files += 1
        state = states.pop(entry.rel, None)
        if entry.rel in refused and state is None:
            continue
        if state is None or state.mtime_ns != entry.mtime_ns or state.size != entry.size:
            stale += 1
    stale += len(states)  # indexed notes whose files are gone
    if stats["notes"] == 0 and files:
        checks.append(
            Check("index", "fail", f"empty, but the vault has {files} notes: run `mnemex index`")
        )
    elif stale:
        checks.append(
            Check(
                "index", "warn", f"{stale} file(s) changed since the last sync: run `mnemex index`"
            )
        )
    else:
        checks.append(
            Check(
                "index",
                "ok",
                f"fresh: {stats['notes']} notes, {stats['chunks']} chunks, "
                f"last sync {stats['last_sync'] or 'never'}",
            )
        )
    missing = _chunks_without_vectors(brain, stats)
    if missing:
        checks.append(Check("vectors", "warn", missing))
    if load_embedder:
        try:
            started = time.perf_counter()
            vec = brain.embedder.embed_query("mnemex doctor")
            ms = (time.perf_counter() - started) * 1000
            checks.append(
                Check(
                    "embedder",
                    "ok",
                    f"{brain.embedder.identity}, {len(vec)} dimensions, "
                    f"loaded and answered in {ms:.0f} ms",
                )
            )
            if stats["embedder"] and stats["embedder"] != brain.embedder.identity:
                checks.append(
                    Check(
                        "embedder",
                        "warn",
                        f"index was embedded with {stats['embedder']}; `mnemex index` re-embeds",
                    )
                )
        except MnemexError as exc:
            checks.append(Check("embedder", "fail", str(exc)))
    if probe_clients and serve_check is not None:
        checks.append(serve_check(vault.root))
    checks += [Check(**c) for c in check_installed_clients(probe=probe_clients)]
    checks += [Check(**c) for c in sync_checks(vault)]  # conflict copies, private files tracked
    checks += [Check(**c) for c in foundation_checks(vault)]  # changed outside mnemex, unlisted
    checks.append(Check(**harvest_check(vault)))  # heartbeat: stopped or failed
    if unindexable:
        checks.append(
            Check("files", "warn", f"{unindexable} file(s) could not be indexed (listed below)")
        )
    warned = len(problems) - unindexable
    if warned:
        checks.append(
            Check("frontmatter", "warn", f"{warned} note(s) read with warnings (listed below)")
        )
    worst = (
        "fail"
        if any(c.status == "fail" for c in checks)
        else ("warn" if any(c.status == "warn" for c in checks) else "ok")
    )
    return {
        "status": worst,
        "checks": [c.to_dict() for c in checks],
        "counts": {k: stats[k] for k in ("notes", "chunks", "links", "unresolved_links", "tags")},
        "problems": [{"path": p, "reason": r} for p, r in problems],
    }


def _chunks_without_vectors(brain: Brain, stats: dict[str, Any]) -> str | None:
    """What the vectors lack, or None. Vectors are stored once per distinct chunk text, so
    identical chunks (a repeated boilerplate paragraph) share one: compare texts, not rows."""
    if not stats["chunks"]:
        return None
    embedder = stats["embedder"]
    if not embedder:
        vectors = sum(stats["vectors"].values()) if stats["vectors"] else 0
        return None if vectors else f"no vectors for {stats['chunks']} chunks: run `mnemex index`"
    missing = len(brain.backend.chunks_missing_vectors(embedder))
    if not missing:
        return None
    return f"{missing} distinct chunk text(s) have no {embedder} vector: run `mnemex index`"


def diagnose_secrets(vault_root: Path) -> dict[str, Any]:
    """``mnemex doctor --secrets``: secret patterns in the vault's files and git history.

    ``fail`` when any is found; each finding names the kind, path, commit (short sha,
    ``None`` for the working tree) and line, never the secret. ``purge`` says how to
    remove one from history (vault format §13).
    """
    from mnemex.text.redact import PURGE_RECIPE, scan_vault_history

    findings = scan_vault_history(vault_root)
    commits = sorted({f["commit"] for f in findings if f["commit"]})
    in_history = sum(1 for f in findings if f["commit"])
    if findings:
        check = Check(
            "secrets",
            "fail",
            f"{len(findings)} secret(s) found: {len(findings) - in_history} in the files, "
            f"{in_history} in {len(commits)} commit(s) of the git history"
            ": rotate them, then purge the history",
        )
    else:
        check = Check("secrets", "ok", "no secret patterns in the files or the git history")
    return {
        "status": check.status,
        "checks": [check.to_dict()],
        "findings": findings,
        "commits": commits,
        "purge": PURGE_RECIPE if findings else "",
    }


__all__ = ["SERVE_GIVE_UP", "SERVE_LIMIT", "Check", "diagnose", "diagnose_secrets"]
