"""The ingest operations the CLI and the MCP tools call: preview, apply, read back.

``ingest_path`` reads a file or a folder (each file one source, in order, one
commit for the batch), ``ingest_text`` takes text handed over directly. Both
preview by default and apply when asked. Over MCP a preview is recorded as a
plan (:mod:`mnemex.vault.plans`) holding the hash of every file it read and of every
file it would write; applying re-plans at the plan's own time and is refused
when anything differs, so what is applied is exactly what was shown.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mnemex.brain import Brain
from mnemex.errors import MnemexError, NoteNotFound, PathOutsideVault, PlanRefused, VaultError
from mnemex.ingest.apply import apply_plan
from mnemex.ingest.plan import IngestPlan, Planner
from mnemex.ingest.readers import (
    SUPPORTED_FORMATS,
    ReadFailure,
    read_bytes,
    read_sources,
    read_text_source,
)
from mnemex.ingest.records import Extraction, SourceDoc
from mnemex.ingest.render import split_page
from mnemex.retrieve.budget import cut_with_note
from mnemex.retrieve.served import UNTRUSTED
from mnemex.text.sanitise import escape, strip
from mnemex.vault import LOCAL_DIR, Vault, check_name
from mnemex.vault.plans import create_plan, discard_plan, take_plan

if TYPE_CHECKING:
    from mnemex.index.sync import ProgressFactory
    from mnemex.llm import ModelClient

Extractor = Callable[[SourceDoc], Extraction]


def offline_extractor(doc: SourceDoc) -> Extraction:
    """The default extractor: deterministic, no model, no key."""
    from mnemex.ingest.extract import extract_offline

    return extract_offline(doc)


def pick_domain(vault: Vault, domain: str | None) -> str:
    """The domain to ingest into: the one named, else the vault's first."""
    name = domain or (vault.settings.domains[0] if vault.settings.domains else "general")
    return check_name(name, "domain")


def inbox_file(vault: Vault, path: Path) -> str | None:
    """The vault-relative path of ``path`` when it is a regular file in the vault's ``inbox/``.

    Only such a file is moved (removed once its original is kept in the wiki); a
    symlink, or any file outside the inbox (and every file outside the vault the
    CLI is given), is never touched. The last component is not resolved, so a
    link in the inbox is seen as the link it is.
    """
    try:
        target = path.parent.resolve() / path.name
        rel = target.relative_to(vault.root.resolve() / "inbox")
    except (OSError, ValueError):
        return None
    if target.is_symlink() or not target.is_file():
        return None
    return f"inbox/{rel.as_posix()}"


def plan_docs(
    brain: Brain,
    docs: Iterable[SourceDoc | ReadFailure],
    domain: str,
    extractor: Extractor | None = None,
    now: dt.datetime | None = None,
    root: Path | None = None,
    progress: ProgressFactory | None = None,
) -> IngestPlan:
    """Plan a batch: each source in order; one that fails to read or extract is counted failed.

    A source read from the vault's ``inbox/`` is moved into the wiki (see
    :meth:`Planner.add`). Relative source paths are taken from ``root`` (the vault,
    for MCP) or else from the working directory (the CLI). ``progress(total, label)``
    returns a ``tick(n)`` callback: the index sync ticks through it, then each source.
    """
    brain.sync(progress)
    extract = extractor or offline_extractor
    planner = Planner(brain, domain, now)
    tick = None
    if progress is not None:
        docs = list(docs)
        tick = progress(len(docs), "extracting")
    for doc in docs:
        _plan_doc(brain, planner, doc, extract, root)
        if tick is not None:
            tick(1)
    return planner.finish()


def _plan_doc(
    brain: Brain,
    planner: Planner,
    doc: SourceDoc | ReadFailure,
    extract: Extractor,
    root: Path | None,
) -> None:
    if isinstance(doc, ReadFailure):
        planner.fail(doc.path, doc.reason)
        return
    try:
        extraction = extract(doc)
    except MnemexError as exc:
        planner.fail(doc.path, f"extraction failed: {exc}")
        return
    where = Path(doc.path) if root is None else root / doc.path
    planner.add(doc, extraction, inbox_file(brain.vault, where))


def run(brain: Brain, plan: IngestPlan, apply: bool, diffs: bool = True) -> dict[str, Any]:
    """Preview ``plan`` or apply it; the result carries the counts under ``report``."""
    if not apply:
        out = plan.to_dict(diffs=diffs)
        out["applied"] = False
        return out
    return apply_plan(brain.vault, plan)


def ingest_path(
    brain: Brain,
    path: Path,
    domain: str | None = None,
    apply: bool = False,
    extractor: Extractor | None = None,
    confirmed: bool = False,
    offline: bool = False,
    progress: ProgressFactory | None = None,
) -> dict[str, Any]:
    """Ingest a file, or every source file of a folder (the CLI reads any path the user names).

    With a ``[model]`` in ``mnemex.toml`` (and not ``offline``) the sources are extracted by
    the model: the run's cost is estimated first and refused above ``confirm_above_usd``
    unless ``confirmed``. A preview with a model runs the model too (that is what it shows).
    ``progress(total, label)`` returns a ``tick(n)`` callback, ticked once per file read and
    once per file extracted (and by the index sync before planning).

    Raises:
        CostConfirmationRequired: a model run above the limit, not confirmed.
    """
    name = pick_domain(brain.vault, domain)
    docs = list(read_sources(path.expanduser(), progress=progress))
    cost: dict[str, Any] = {"extractor": ["offline"], "estimated_usd": 0.0}
    if extractor is None and not offline:
        extractor, cost = _model_extractor(brain.vault, docs, confirmed)
    plan = plan_docs(brain, docs, name, extractor, progress=progress)
    result = run(brain, plan, apply)
    if extractor is not None:
        result["cost"] = {**cost, "extractor": result["cost"]["extractor"]}
    return result


def _model_extractor(
    vault: Vault, docs: list[SourceDoc | ReadFailure], confirmed: bool
) -> tuple[Extractor | None, dict[str, Any]]:
    """The configured model as the extractor, after estimating and gating the run's cost.

    A source whose extraction by this model is cached (:mod:`mnemex.ingest.cache`: a
    preview stored it) is planned from the cache: no call, nothing in the estimate.
    """
    from mnemex.llm import Estimate, check_budget, load_model

    offline_cost: dict[str, Any] = {"extractor": ["offline"], "estimated_usd": 0.0}
    client = load_model(vault)
    if client is None:
        return None, offline_cost
    from mnemex.ingest.llm_extract import estimate_ingest_cost

    hits, notes = _cached(vault, docs, client)
    estimate = Estimate(0, 0, 0.0, 0)
    for doc in docs:
        if isinstance(doc, SourceDoc) and doc.sha256 not in hits:
            estimate = estimate + estimate_ingest_cost(doc, client)
    check_budget(client, estimate, confirmed)
    described = estimate.describe() if estimate.calls else "no model call"
    if hits:
        described += f"; {len(hits)} source(s) cached from an earlier run"
    cost = {
        "model": client.identity,
        "estimated_usd": estimate.usd,
        "estimate": described,
        "cached": len(hits),
    }
    return (lambda doc: _extract_and_keep(vault, doc, client, hits, notes)), cost


def _cached(
    vault: Vault, docs: Iterable[SourceDoc | ReadFailure], client: ModelClient
) -> tuple[dict[str, Extraction], dict[str, str]]:
    """The cached model extractions of ``docs`` by sha256, and a warning per corrupt file."""
    from mnemex.ingest import cache

    hits: dict[str, Extraction] = {}
    notes: dict[str, str] = {}
    for doc in docs:
        if not isinstance(doc, SourceDoc):
            continue
        found, warning = cache.load(cache.cache_path(vault, doc, client))
        if found is not None:
            hits[doc.sha256] = found
        elif warning is not None:
            notes[doc.sha256] = warning
    return hits, notes


def _extract_and_keep(
    vault: Vault,
    doc: SourceDoc,
    client: ModelClient,
    hits: dict[str, Extraction],
    notes: dict[str, str],
) -> Extraction:
    """The cached extraction of ``doc``, else the model's, kept for the next run.

    An extraction that fell back to offline as a whole is not kept: the next run asks
    the model again rather than reusing a stand-in.
    """
    from mnemex.ingest import cache
    from mnemex.ingest.llm_extract import extract_with_model

    hit = hits.get(doc.sha256)
    if hit is not None:
        return hit
    extraction = extract_with_model(doc, client)
    if extraction.extractor.startswith("model:"):
        try:
            cache.store(cache.cache_path(vault, doc, client), extraction)
        except OSError as exc:
            extraction.warnings.append(f"the extraction could not be cached ({exc})")
    if doc.sha256 in notes:
        extraction.warnings.append(notes[doc.sha256])
    return extraction


# -- MCP: preview -> plan_id -> apply -----------------------------------------


def vault_source(vault: Vault, path: str) -> SourceDoc:
    """Read a source file that lies inside the vault (MCP ``ingest_file``); nothing else.

    Raises:
        PathOutsideVault: absolute, ``~``, ``..``, a symlink out, or machine-local.
        NoteNotFound: no such file.
    """
    if path.strip().startswith("~"):
        raise PathOutsideVault(f"{path}: home paths are refused; drop the file into inbox/ first")
    rel = vault.rel_path(path, note=False)
    if rel.split("/")[0] in (LOCAL_DIR, ".git"):
        raise PathOutsideVault(f"{rel}: machine-local files are never ingested")
    target = vault.root / rel
    if not target.is_file():
        raise NoteNotFound(f"{rel}: no such file in the vault (drop it into inbox/ first)")
    suffix = target.suffix.lower()
    if suffix not in SUPPORTED_FORMATS:
        raise VaultError(f"{rel}: unsupported file type {suffix!r}")
    return read_bytes(target.read_bytes(), path=rel, format=SUPPORTED_FORMATS[suffix])


def previewed(
    brain: Brain,
    operation: str,
    args: dict[str, Any],
    doc: SourceDoc,
    plan_id: str | None,
    extractor: Extractor | None = None,
) -> dict[str, Any]:
    """Without ``plan_id``: plan, record it and return the preview with its ``plan_id``.

    With it: re-plan at the recorded time and apply, refusing a plan whose files
    moved or whose result would differ from what was previewed.

    Raises:
        PlanRefused: unknown, expired or stale plan, or a different result.
    """
    domain = str(args["domain"])
    root = brain.vault.root
    if plan_id is None:
        plan = plan_docs(brain, [doc], domain, extractor, root=root)
        preview = run(brain, plan, apply=False)
        made = create_plan(
            brain.vault, operation, args, plan.reads(), {"now": plan.now, "writes": plan.writes()}
        )
        preview["plan_id"] = made.id
        preview["note"] = f"nothing written: call {operation} again with plan_id={made.id!r}"
        return preview
    recorded = take_plan(brain.vault, plan_id, operation, args)
    when = dt.datetime.fromisoformat(str(recorded.details["now"]))
    plan = plan_docs(brain, [doc], domain, extractor, now=when, root=root)
    if plan.writes() != recorded.details.get("writes"):
        raise PlanRefused(
            f"plan {plan_id} no longer gives the same pages (the wiki changed since the preview); "
            f"call {operation} again without plan_id for a fresh plan"
        )
    result = apply_plan(brain.vault, plan)
    discard_plan(brain.vault, plan_id)
    result["plan_id"] = plan_id
    return result


def cached_extractor(vault: Vault, doc: SourceDoc) -> Extractor | None:
    """The configured model's cached extraction of ``doc`` as an extractor, if there is one.

    MCP never calls a model (an agent's tool call must not spend money unasked), but a
    model extraction already paid for (``mnemex ingest X --preview``) is reused: read
    from the same file at preview and at apply, it re-plans identically. Without a
    cache file, or with a ``[model]`` table that does not load, it is ``None`` (the
    offline extractor). A cache file that appears or goes between preview and apply
    changes the plan, which apply then refuses.
    """
    from mnemex.llm import load_model

    try:
        client = load_model(vault)
    except MnemexError:
        return None
    if client is None:
        return None
    hit = _cached(vault, [doc], client)[0].get(doc.sha256)
    return None if hit is None else (lambda _doc: hit)


def mcp_ingest_text(
    brain: Brain, text: str, title: str, domain: str | None, plan_id: str | None
) -> dict[str, Any]:
    doc = read_text_source(text, title=title, path="<ingest_text>")
    args = {"title": title, "domain": pick_domain(brain.vault, domain), "sha256": doc.sha256}
    return previewed(brain, "ingest_text", args, doc, plan_id, cached_extractor(brain.vault, doc))


def mcp_ingest_file(
    brain: Brain, path: str, domain: str | None, plan_id: str | None
) -> dict[str, Any]:
    doc = vault_source(brain.vault, path)
    args = {"path": doc.path, "domain": pick_domain(brain.vault, domain), "sha256": doc.sha256}
    return previewed(brain, "ingest_file", args, doc, plan_id, cached_extractor(brain.vault, doc))


# -- reading back ----------------------------------------------------------------


def find_summary(vault: Vault, brain: Brain, source: str) -> str:
    """The summary page of a source, given the summary's path or the original's path.

    Raises:
        NoteNotFound: no summary for it.
    """
    rel = vault.rel_path(source, note=False)
    parts = rel.split("/")
    if len(parts) >= 4 and parts[0] == "wiki" and parts[2] == "summaries":
        summary = vault.rel_path(rel)
        if (vault.root / summary).is_file():
            return summary
    brain.sync()
    for path in brain.backend.paths_with_field("source", rel, kind="knowledge"):
        return path
    for path in brain.backend.paths_with_field("text", rel, kind="knowledge"):
        return path
    raise NoteNotFound(f"{source}: no ingested source or summary by that path")


def get_source(brain: Brain, source: str, max_tokens: int) -> dict[str, Any]:
    """The text of an ingested source (stripped, escaped, cut to ``max_tokens``), framed."""
    vault = brain.vault
    summary = find_summary(vault, brain, source)
    meta, _ = split_page(vault.read_note(summary).text)
    text_path = str(meta.get("text") or meta.get("source") or "")
    try:
        raw = vault.abs_path(text_path, note=False).read_bytes()
    except (OSError, PathOutsideVault) as exc:
        raise NoteNotFound(f"{summary}: its source text {text_path!r} is missing ({exc})") from None
    out: dict[str, Any] = {
        "summary": summary,
        "source": meta.get("source"),
        "sha256": meta.get("sha256"),
        "title": escape(strip(str(meta.get("title") or ""))),
    }
    full = escape(strip(raw.decode("utf-8", errors="replace")))
    return _framed(out, full, max(50, max_tokens - 150), "text")


def get_summary(brain: Brain, source: str, max_tokens: int) -> dict[str, Any]:
    """The summary page of an ingested source (by its original's or its summary's path)."""
    vault = brain.vault
    summary = find_summary(vault, brain, source)
    full = escape(strip(vault.read_note(summary).text))
    return _framed({"path": summary}, full, max(50, max_tokens - 100), "page")


def _framed(out: dict[str, Any], full: str, budget: int, what: str) -> dict[str, Any]:
    """``out`` with ``full`` as its ``content``, cut to ``budget`` tokens, framed as data."""
    content, cut = cut_with_note(full, budget, what)
    out["content"] = content
    out.update(cut)
    out["untrusted"] = UNTRUSTED
    return out


__all__ = [
    "Extractor",
    "cached_extractor",
    "get_source",
    "get_summary",
    "ingest_path",
    "mcp_ingest_file",
    "mcp_ingest_text",
    "offline_extractor",
    "pick_domain",
    "plan_docs",
    "run",
    "vault_source",
]
