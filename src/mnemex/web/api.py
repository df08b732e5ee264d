"""The page's JSON API: each route one call of a core function the CLI and the MCP tools
already use (search, read, graph, health, memories, state, facts, ingest), never a copy of
their logic.

Reads are GET; writes are POST with a JSON body, refused unless ``mnemex ui --write``.
Privacy is the server's, as ``mnemex serve`` has it: a private domain or project is
served only when it was included when the page was started.
"""

from __future__ import annotations

import datetime as dt
import json
import mimetypes
import posixpath
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from mnemex import __version__
from mnemex.brain import Brain
from mnemex.errors import MnemexError, NoteNotFound, VaultError
from mnemex.facts.record import confirm_fact, correct_fact, retract_fact
from mnemex.facts.serve import facts_about
from mnemex.foundations.store import approve_foundation, list_drafts, list_foundations
from mnemex.health import dismiss_issue, fix_issue, read_history, record_scan, scan
from mnemex.health.served import served_issue_report, visible_report
from mnemex.index.backend import Scope
from mnemex.ingest.run import mcp_ingest_file
from mnemex.memories.forget import apply_forget, plan_forget
from mnemex.memories.recall import get_digest
from mnemex.retrieve.catalogue import list_domains, served_backlinks, served_connected
from mnemex.retrieve.served import ServedBrain, served_page, served_search
from mnemex.state import get_context
from mnemex.vault.history import run_git
from mnemex.vault.links import LinkResolver, attachment_paths
from mnemex.vault.projects import known_projects
from mnemex.vault.undo import undo
from mnemex.web.markdown import frontmatter_rows, render_markdown

#: The whole-brain graph shows at most this many notes (the best linked); past it, the
#: page says how many were left out. bench/web_graph.py measures the view at this size.
GRAPH_LIMIT = 3000
#: A page is served whole up to this many tokens (the MCP tools cut far sooner).
PAGE_TOKENS = 200_000
#: Uploads into inbox/: at most this size, of these types.
UPLOAD_LIMIT = 20 * 1024 * 1024
UPLOAD_TYPES = frozenset({".md", ".markdown", ".txt", ".html", ".htm", ".pdf", ".rst"})
_IMAGE_TYPES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".avif"})
_UNSAFE_NAME = re.compile(r"[^\w.\- ]+")


class UiState(ServedBrain):
    """The brain one ``mnemex ui`` process serves, and whether it may write."""

    def __init__(
        self,
        brain: Brain,
        *,
        write: bool = False,
        include_private: tuple[str, ...] = (),
        refresh_seconds: float = 1.0,
    ) -> None:
        super().__init__(brain, include_private, refresh_seconds)
        self.write = write
        self.include_private = include_private
        self._resolver: tuple[int, LinkResolver] | None = None

    def resolver(self) -> LinkResolver:
        """Obsidian's link resolution over the notes and attachments (cached per index
        generation, so a new file is seen after the next sync)."""
        generation = self.brain.backend.generation()
        if self._resolver is None or self._resolver[0] != generation:
            root = self.brain.vault.root
            resolver = LinkResolver(self.brain.backend.note_paths(), attachment_paths(root))
            self._resolver = (generation, resolver)
        return self._resolver[1]


Handler = Callable[[UiState, Request, dict[str, Any]], dict[str, Any]]


def _arg(params: dict[str, Any], name: str, required: bool = True) -> Any:
    value = params.get(name)
    if required and (value is None or value == ""):
        raise VaultError(f"{name} is required")
    return value


def endpoint(method: str, path: str, *, writes: bool = False) -> Callable[[Handler], Route]:
    """A route running ``handler`` in a worker thread under the brain's lock.

    A library error is a 400 (404 for a missing note) with its message, as the CLI prints
    it; a write on a read-only page is a 403.
    """

    def wrap(handler: Handler) -> Route:
        async def run(request: Request) -> Response:
            state: UiState = request.app.state.ui
            if writes and not state.write:
                return JSONResponse(
                    {"error": "this page is read-only: start it with `mnemex ui --write`"}, 403
                )
            params: dict[str, Any] = dict(request.query_params)
            if method == "POST":
                try:
                    body = json.loads(await request.body() or b"{}")
                except ValueError:
                    return JSONResponse({"error": "the body is not JSON"}, 400)
                if not isinstance(body, dict):
                    return JSONResponse({"error": "the body must be a JSON object"}, 400)
                params.update(body)

            def call() -> dict[str, Any]:
                with state.lock:
                    return handler(state, request, params)

            try:
                return JSONResponse(await run_in_threadpool(call))
            except NoteNotFound as exc:
                return JSONResponse({"error": str(exc)}, 404)
            except MnemexError as exc:
                return JSONResponse({"error": str(exc)}, 400)

        return Route(path, run, methods=[method])

    return wrap


def _int(params: dict[str, Any], name: str, default: int, low: int, high: int) -> int:
    """A whole-number parameter, clamped to ``low``..``high``.

    Raises:
        VaultError: it is not a whole number.
    """
    value = params.get(name)
    if value is None or value == "":
        return default
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise VaultError(f"{name}={value!r} is not a whole number") from None
    return min(high, max(low, number))


def _age_days(iso: str | None, today: dt.date) -> int | None:
    if not iso:
        return None
    try:
        return (today - dt.date.fromisoformat(iso[:10])).days
    except ValueError:
        return None


# -- reading -------------------------------------------------------------------------


@endpoint("GET", "/api/session")
def session(state: UiState, request: Request, params: dict[str, Any]) -> dict[str, Any]:
    vault = state.brain.vault
    return {
        "csrf": request.scope["state"]["csrf"],
        "write": state.write,
        "vault": str(vault.root),
        "vault_name": vault.root.name,
        "include_private": list(state.include_private),
        "version": __version__,
        "kinds": ["knowledge", "notes", "memories", "state", "foundations", "facts"],
    }


@endpoint("GET", "/api/domains")
def domains(state: UiState, request: Request, params: dict[str, Any]) -> dict[str, Any]:
    brain = state.fresh()
    out = list_domains(brain, state.privacy)
    out["tags"] = [
        {"tag": t, "count": n} for t, n in brain.backend.tag_counts(state.privacy.scope(Scope()))
    ][:200]
    return out


@endpoint("GET", "/api/search")
def search(state: UiState, request: Request, params: dict[str, Any]) -> dict[str, Any]:
    query = str(_arg(params, "q")).strip()
    if not query:
        raise VaultError("q is required")
    scope = Scope(
        kinds=tuple(k for k in str(params.get("kind") or "").split(",") if k),
        domains=(params["domain"],) if params.get("domain") else (),
        projects=(params["project"],) if params.get("project") else (),
        tags=tuple(t.lstrip("#") for t in str(params.get("tag") or "").split(",") if t),
        since=params.get("since") or None,
        until=params.get("until") or None,
    )
    k = _int(params, "k", 20, 1, 50)
    return served_search(state.fresh(), state.privacy, query, scope, k, 20_000)


def _history(state: UiState, rel: str, limit: int = 20) -> list[dict[str, str]]:
    done = run_git(
        state.brain.vault,
        "log",
        f"-n{limit}",
        "--follow",
        "--format=%H%x1f%aI%x1f%an%x1f%s",
        "--",
        rel,
    )
    if done.returncode != 0:
        return []
    rows = []
    for line in done.stdout.splitlines():
        parts = line.split("\x1f")
        if len(parts) == 4:
            rows.append(
                {"commit": parts[0][:12], "date": parts[1], "author": parts[2], "subject": parts[3]}
            )
    return rows


def _resolver_for(state: UiState, rel: str) -> Callable[[str], str | None]:
    """Obsidian's resolution of a link written in ``rel``; a private target is no target."""
    resolver = state.resolver()
    hides = state.privacy.hides_path

    def resolve(target: str) -> str | None:
        found = resolver.resolve(target, rel)
        return None if found is None or hides(found) else found

    return resolve


@endpoint("GET", "/api/page")
def page(state: UiState, request: Request, params: dict[str, Any]) -> dict[str, Any]:
    brain = state.fresh()
    data = served_page(brain, state.privacy, str(_arg(params, "path")), PAGE_TOKENS)
    rel = data["path"]
    resolve = _resolver_for(state, rel)

    backlinks = served_backlinks(brain, state.privacy, rel, 20_000)
    neighbours = served_connected(brain, state.privacy, rel, 20_000, depth=2, limit=40)
    sources = []
    for ref in data["frontmatter"].get("sources") or []:
        # a wiki page's sources: [[links]] as written, or {path, sha256} of a kept source
        written = str(ref.get("path") or "") if isinstance(ref, dict) else str(ref)
        target = written.strip().removeprefix("[[").removesuffix("]]").split("|")[0]
        found = resolve(target) if target else None
        note = found is not None and found.endswith((".md", ".markdown"))
        sources.append({"ref": written, "path": found, "note": note})
    vault = brain.vault
    return {
        "path": rel,
        "title": data["title"],
        "kind": data["kind"],
        "hash": data["hash"],
        "frontmatter": frontmatter_rows(data["frontmatter"]),
        "tags": data["tags"],
        "html": render_markdown(data["content"], resolve),
        "warnings": data.get("warnings", []),
        "backlinks": backlinks["backlinks"],
        "neighbours": neighbours["nodes"],
        "sources": sources,
        "history": _history(state, rel),
        "file": str(vault.root / rel),
        "obsidian": f"obsidian://open?vault={quote(vault.root.name)}&file={quote(rel)}",
    }


async def file_route(request: Request) -> Response:
    """An attachment of the vault (an image shown inline; anything else downloaded)."""
    state: UiState = request.app.state.ui
    rel_given = request.query_params.get("path", "")

    def locate() -> Path:
        root = state.brain.vault.root
        rel = posixpath.normpath(rel_given.replace("\\", "/"))
        if rel.startswith(("/", "..")) or any(p.startswith(".") for p in rel.split("/")):
            raise VaultError(f"{rel_given!r} is not a file of the vault served here")
        if state.privacy.hides_path(rel):
            raise VaultError(f"{rel} is in a private domain or project and is not served here")
        path = root / rel
        if path.is_symlink() or not path.is_file():
            raise NoteNotFound(f"no file {rel}")
        return path

    try:
        path = await run_in_threadpool(locate)
    except NoteNotFound as exc:
        return JSONResponse({"error": str(exc)}, 404)
    except MnemexError as exc:
        return JSONResponse({"error": str(exc)}, 400)
    suffix = path.suffix.lower()
    data = await run_in_threadpool(path.read_bytes)
    if suffix in _IMAGE_TYPES:
        media = mimetypes.types_map.get(suffix, "application/octet-stream")
        return Response(data, media_type=media)
    # anything else (svg included: it can carry script) is a download, never rendered here
    name = quote(path.name)
    return Response(
        data,
        media_type="application/octet-stream",
        headers={"content-disposition": f"attachment; filename*=UTF-8''{name}"},
    )


@endpoint("GET", "/api/graph")
def graph(state: UiState, request: Request, params: dict[str, Any]) -> dict[str, Any]:
    """Nodes and edges for the graph view: the whole brain (its best-linked notes, at most
    ``GRAPH_LIMIT``) or one page's neighbourhood (``focus``, ``depth`` hops)."""
    brain = state.fresh()
    backend = brain.backend
    allowed = backend.notes_in_scope(state.privacy.scope(Scope()))
    ids = [s.id for s in backend.note_states().values()]
    if allowed is not None:
        ids = [i for i in ids if i in allowed]
    rows = backend.notes_by_id(ids)
    rows = {i: r for i, r in rows.items() if not state.privacy.hides_path(r.path, r.project)}
    edges = [(a, b) for a, b in backend.edges() if a in rows and b in rows]
    degree: dict[int, int] = dict.fromkeys(rows, 0)
    for a, b in edges:
        degree[a] += 1
        degree[b] += 1
    focus = params.get("focus")
    limit = _int(params, "limit", GRAPH_LIMIT, 1, GRAPH_LIMIT)
    if focus:
        detail = backend.note_by_path(brain.vault.rel_path(str(focus)))
        if detail is None or detail.id not in rows:
            raise NoteNotFound(f"no page {focus} to centre the graph on")
        depth = _int(params, "depth", 2, 1, 3)
        near = {detail.id}
        adjacent: dict[int, set[int]] = {i: set() for i in rows}
        for a, b in edges:
            adjacent[a].add(b)
            adjacent[b].add(a)
        frontier = {detail.id}
        for _ in range(depth):
            frontier = {n for f in frontier for n in adjacent[f]} - near
            near |= frontier
        keep = sorted(near, key=lambda i: (i != detail.id, -degree[i]))[:limit]
    else:
        keep = sorted(rows, key=lambda i: (-degree[i], rows[i].path))[:limit]
    index = {note_id: n for n, note_id in enumerate(keep)}
    nodes = [
        {
            "id": index[i],
            "path": rows[i].path,
            "title": rows[i].title,
            "kind": rows[i].kind,
            "domain": rows[i].domain or rows[i].project or "",
            "degree": degree[i],
        }
        for i in keep
    ]
    shown = [[index[a], index[b]] for a, b in edges if a in index and b in index]
    return {
        "nodes": nodes,
        "edges": shown,
        "truncated": len(keep) < (len(near) if focus else len(rows)),
        "total_nodes": len(rows),
        "total_edges": len(edges),
        "orphans": sum(1 for i in rows if degree[i] == 0),
        "focus": focus or None,
    }


# -- health --------------------------------------------------------------------------


@endpoint("GET", "/api/health")
def health(state: UiState, request: Request, params: dict[str, Any]) -> dict[str, Any]:
    report = visible_report(state.fresh(), state.privacy)
    data: dict[str, Any] = report.to_dict()
    data["history"] = read_history(state.brain.vault, 60)
    return data


@endpoint("POST", "/api/health/fix", writes=True)
def health_fix(state: UiState, request: Request, params: dict[str, Any]) -> dict[str, Any]:
    """Without ``plan_id``: the plan (its diff). With it: applied, one commit."""
    issue_id = str(_arg(params, "id"))
    served_issue_report(state.fresh(), state.privacy, issue_id)
    plan_id = params.get("plan_id") or None
    result = fix_issue(state.brain, issue_id, plan_id)
    if plan_id:
        state.brain.sync()
        state.wrote()
    return result


@endpoint("POST", "/api/health/record", writes=True)
def health_record(state: UiState, request: Request, params: dict[str, Any]) -> dict[str, Any]:
    """Append today's score to ``health/history`` (one commit), as ``health --record`` does."""
    brain = state.fresh()
    return record_scan(brain.vault, scan(brain.vault, brain.backend))


@endpoint("POST", "/api/health/dismiss", writes=True)
def health_dismiss(state: UiState, request: Request, params: dict[str, Any]) -> dict[str, Any]:
    issue_id = str(_arg(params, "id"))
    report = served_issue_report(state.fresh(), state.privacy, issue_id)
    reason = params.get("reason") or None
    return dismiss_issue(state.brain.vault, report, issue_id, reason)


@endpoint("POST", "/api/undo", writes=True)
def undo_last(state: UiState, request: Request, params: dict[str, Any]) -> dict[str, Any]:
    """Without ``plan_id``: what the last mnemex commit did. With it: reverted."""
    vault = state.brain.vault
    plan_id = params.get("plan_id") or None
    result = undo(vault, None, plan_id)
    if plan_id:
        state.brain.sync()
        state.wrote()
    return result


# -- memories ------------------------------------------------------------------------


@endpoint("GET", "/api/memories")
def memories(state: UiState, request: Request, params: dict[str, Any]) -> dict[str, Any]:
    """Sessions and remembered notes, newest first, grouped by project."""
    brain = state.fresh()
    scope = state.privacy.scope(Scope(kinds=("memories",)))
    ids = brain.backend.notes_in_scope(scope) or set()
    rows = [
        r
        for r in brain.backend.notes_by_id(ids).values()
        if not state.privacy.hides_path(r.path, r.project)
    ]
    project = params.get("project") or None
    if project:
        rows = [r for r in rows if r.project == project]
    rows.sort(key=lambda r: (r.date, r.path), reverse=True)
    today = dt.datetime.now(dt.UTC).date()
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in rows[:500]:
        groups.setdefault(r.project or "(no project)", []).append(
            {
                "path": r.path,
                "title": r.title,
                "date": r.date,
                "age_days": _age_days(r.date, today),
                "type": r.type,
                "status": r.status,
            }
        )
    return {
        "projects": [{"project": p, "memories": items} for p, items in sorted(groups.items())],
        "total": len(rows),
    }


@endpoint("GET", "/api/digest")
def digest(state: UiState, request: Request, params: dict[str, Any]) -> dict[str, Any]:
    out = get_digest(
        state.fresh(), path=str(_arg(params, "path")), max_tokens=PAGE_TOKENS, privacy=state.privacy
    )
    out["html"] = render_markdown(out["content"], _resolver_for(state, out["path"]))
    out["frontmatter"] = frontmatter_rows(out["frontmatter"])
    return out


@endpoint("POST", "/api/forget", writes=True)
def forget(state: UiState, request: Request, params: dict[str, Any]) -> dict[str, Any]:
    """Without ``plan_id``: what would go. With it: gone, one commit (undoable)."""
    path = str(_arg(params, "path"))
    served_page(state.fresh(), state.privacy, path, 100)  # refuses a private memory
    plan_id = params.get("plan_id") or None
    if plan_id is None:
        return plan_forget(state.brain, path=path)
    result = apply_forget(state.brain, plan_id, path=path)
    state.wrote()
    return result


# -- working state and foundations ---------------------------------------------------


@endpoint("GET", "/api/state")
def projects(state: UiState, request: Request, params: dict[str, Any]) -> dict[str, Any]:
    vault = state.fresh().vault
    names = [p for p in known_projects(vault) if not state.privacy.hides(p)]
    return {"projects": names}


@endpoint("GET", "/api/state/project")
def project_state(state: UiState, request: Request, params: dict[str, Any]) -> dict[str, Any]:
    name = str(_arg(params, "project"))
    if state.privacy.hides(name):
        raise VaultError(f"{name} is private and not served here")
    brain = state.fresh()
    context = get_context(brain, name, 20_000, None, hidden=state.privacy.hidden)
    vault = brain.vault
    try:
        foundations = list_foundations(vault, name)
        drafts = list_drafts(vault, name)
    except MnemexError:
        foundations, drafts = [], []
    return {"project": name, "context": context, "foundations": foundations, "drafts": drafts}


@endpoint("POST", "/api/foundation/approve", writes=True)
def foundation_approve(state: UiState, request: Request, params: dict[str, Any]) -> dict[str, Any]:
    """``apply`` false: the draft's diff against the current document. True: in place."""
    name = str(_arg(params, "project"))
    if state.privacy.hides(name):
        raise VaultError(f"{name} is private and not served here")
    result = approve_foundation(
        state.brain.vault, name, str(_arg(params, "slug")), apply=bool(params.get("apply"))
    )
    if params.get("apply"):
        state.brain.sync()
        state.wrote()
    return result


# -- facts ---------------------------------------------------------------------------


@endpoint("GET", "/api/facts")
def fact_subjects(state: UiState, request: Request, params: dict[str, Any]) -> dict[str, Any]:
    root = state.fresh().vault.root / "facts"
    subjects = sorted(p.stem for p in root.glob("*.md")) if root.is_dir() else []
    return {"subjects": [s for s in subjects if not state.privacy.hides(s)]}


@endpoint("GET", "/api/facts/subject")
def facts(state: UiState, request: Request, params: dict[str, Any]) -> dict[str, Any]:
    return facts_about(
        state.fresh(),
        str(_arg(params, "subject")),
        include_all=True,
        include_private=state.include_private,
    )


@endpoint("POST", "/api/facts/change", writes=True)
def fact_change(state: UiState, request: Request, params: dict[str, Any]) -> dict[str, Any]:
    """A person's word on a fact: ``confirm``, ``correct`` (with ``value``) or ``retract``."""
    action = _arg(params, "action")
    fact_id = str(_arg(params, "id"))
    brain = state.brain
    if action == "confirm":
        done = confirm_fact(brain, fact_id)
    elif action == "retract":
        done = retract_fact(brain, fact_id)
    elif action == "correct":
        done = correct_fact(
            brain, fact_id, str(_arg(params, "value")), valid_from=params.get("valid_from")
        )
    else:
        raise VaultError(f"action must be confirm, correct or retract, not {action!r}")
    brain.sync()
    state.wrote()
    return done.to_dict()


# -- ingest --------------------------------------------------------------------------


def safe_upload_name(name: str) -> str:
    """A file name fit for ``inbox/``: no folders, no control or odd characters.

    Raises:
        VaultError: nothing usable is left, or its type is not one ingest reads.
    """
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    stem, dot, ext = base.rpartition(".")
    if not dot:
        stem, ext = base, ""
    clean = _UNSAFE_NAME.sub("-", stem).strip(" .-")[:120]
    suffix = "." + ext.lower() if ext else ""
    if suffix not in UPLOAD_TYPES:
        allowed = ", ".join(sorted(UPLOAD_TYPES))
        raise VaultError(f"{base!r}: only these types can be ingested: {allowed}")
    if not clean:
        raise VaultError(f"{base!r} leaves no usable file name")
    return clean + suffix


async def upload_route(request: Request) -> Response:
    """Store an uploaded file (the raw body, its name in ``X-Filename``) in ``inbox/``."""
    state: UiState = request.app.state.ui
    if not state.write:
        return JSONResponse(
            {"error": "this page is read-only: start it with `mnemex ui --write`"}, 403
        )
    declared = int(request.headers.get("content-length") or 0)
    if declared > UPLOAD_LIMIT:
        return JSONResponse({"error": f"larger than {UPLOAD_LIMIT // 2**20} MiB"}, 413)
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > UPLOAD_LIMIT:
            return JSONResponse({"error": f"larger than {UPLOAD_LIMIT // 2**20} MiB"}, 413)
    try:
        name = safe_upload_name(request.headers.get("x-filename", ""))
    except MnemexError as exc:
        return JSONResponse({"error": str(exc)}, 400)

    def store() -> dict[str, Any]:
        with state.lock:
            inbox = state.brain.vault.root / "inbox"
            inbox.mkdir(exist_ok=True)
            target = inbox / name
            stem, suffix = target.stem, target.suffix
            n = 1
            while target.exists():  # never over a file that is there
                n += 1
                target = inbox / f"{stem}-{n}{suffix}"
            with open(target, "xb") as fh:
                fh.write(data)
            return {"path": f"inbox/{target.name}", "bytes": len(data)}

    return JSONResponse(await run_in_threadpool(store))


@endpoint("POST", "/api/ingest", writes=True)
def ingest(state: UiState, request: Request, params: dict[str, Any]) -> dict[str, Any]:
    """An inbox file's ingest plan (no ``plan_id``), or the plan applied."""
    path = str(_arg(params, "path"))
    if not path.startswith("inbox/"):
        raise VaultError("the page ingests files of inbox/ only (upload one first)")
    plan_id = params.get("plan_id") or None
    result = mcp_ingest_file(state.brain, path, params.get("domain") or None, plan_id)
    if plan_id:
        state.brain.sync()
        state.wrote()
    return result


ROUTES: list[Route] = [
    session,
    domains,
    search,
    page,
    Route("/api/file", file_route, methods=["GET"]),
    graph,
    health,
    health_fix,
    health_record,
    health_dismiss,
    undo_last,
    memories,
    digest,
    forget,
    projects,
    project_state,
    foundation_approve,
    fact_subjects,
    facts,
    fact_change,
    Route("/api/ingest/upload", upload_route, methods=["POST"]),
    ingest,
]

__all__ = [
    "GRAPH_LIMIT",
    "ROUTES",
    "UPLOAD_LIMIT",
    "UPLOAD_TYPES",
    "UiState",
    "safe_upload_name",
]
