"""The consolidation pass: what arrived since the last pass, proposed as fact changes.

It reads the notes it has not read yet, digests and remembered notes (``memories/``),
handoffs, briefs and the journal (``state/``), and ingested sources (their summaries in
``wiki/*/summaries/``), and proposes what they state as fact changes, each with its
evidence: **new** facts, **confirmations** (evidence added), **promotions** to the stable
layer, **supersessions**, **disputes**, and **revisions** or **expiries** of a fact's valid
time. What was read is a set of ``(path, sha256)`` in ``.mnemex/consolidate.json``,
never a time: a skewed clock drops nothing, and an edited note is read again (reading a
note twice changes nothing, since a fact's id derives from its evidence).

Nothing runs in the background: the pass runs when asked (``mnemex consolidate``, MCP
``consolidate``, ``mnemex harvest --consolidate``, or a schedule the user sets up).

Rules that keep a self-updating profile from drifting:

- **Only what cannot lose anything applies by itself**: new facts and confirmations
  (``[consolidate] auto_apply``, default ``["new", "confirm"]``; ``"supersede"`` and
  ``"dispute"`` may be added for dynamic facts). Anything that supersedes, disputes,
  revises or ends a **stable** fact always waits for a person (``--yes`` in the CLI, the
  ``plan_id`` of MCP ``consolidate``); a note with a waiting change is read again by
  every pass until a person applies it.
- **Evidence before promotion**: a fact learned from sessions or sources stays in the
  dynamic layer until ``[consolidate] promote_after`` (default 3) independent
  observations hold it, or a person confirms it. Two digests of one session, or a
  handoff and the journal line of the same save, are one observation
  (:attr:`~mnemex.facts.model.Evidence.event`).
- **Provenance-weighted learning**: an agent's words (its ``remember`` without
  ``said_by_user``, pages it wrote) are kept as the agent's facts and are never evidence
  about the person.
- **Contradictions are kept**, disputed, not overwritten (:mod:`mnemex.facts.rule`).

Notes are read in the order of their date, then path, so two machines, or two replays
of the same notes in another order, derive the same facts with the same ids.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from mnemex.brain import Brain
from mnemex.errors import ConfigError, FactError, MnemexError
from mnemex.facts.claims import NameBook
from mnemex.facts.model import Evidence, Fact
from mnemex.facts.model_reader import ModelReader
from mnemex.facts.record import (
    NoteClaims,
    claims_from_text,
    fact_from_claim,
    log_dropped,
    name_book,
    read_fact_file,
    read_note_claims,
    subject_path,
)
from mnemex.facts.rule import Applied, apply_fact
from mnemex.facts.store import FactFile, render_facts
from mnemex.llm import ModelClient
from mnemex.report import Report
from mnemex.text.dates import utc_iso
from mnemex.vault import Vault, atomic_write
from mnemex.vault.heartbeat import read_heartbeat, write_heartbeat
from mnemex.vault.history import CommitResult, commit_change, is_repository, recording, run_git
from mnemex.vault.plans import create_plan, discard_plan, take_plan

JOB = "consolidate"
LEDGER = "consolidate.json"
DEFAULT_PROMOTE_AFTER = 3
DEFAULT_AUTO_APPLY = ("new", "confirm")
AUTO_KINDS = ("new", "confirm", "supersede", "dispute")
#: Proposals listed in a result at most (the counts are always whole).
MAX_LISTED = 200

#: ``preview``: what ``safe`` would do; ``plan``: what ``all`` would do (nothing written).
Mode = Literal["preview", "plan", "safe", "all"]


@dataclass(frozen=True)
class ConsolidateSettings:
    promote_after: int = DEFAULT_PROMOTE_AFTER
    auto_apply: tuple[str, ...] = DEFAULT_AUTO_APPLY


def consolidate_settings(vault: Vault) -> ConsolidateSettings:
    """``[consolidate]`` of ``mnemex.toml``.

    Raises:
        ConfigError: a value of the wrong kind.
    """
    table = vault.settings.consolidate
    promote = table.get("promote_after", DEFAULT_PROMOTE_AFTER)
    if isinstance(promote, bool) or not isinstance(promote, int) or promote < 1:
        raise ConfigError("[consolidate] promote_after must be a whole number, 1 or more")
    auto = table.get("auto_apply", list(DEFAULT_AUTO_APPLY))
    if not isinstance(auto, list) or any(a not in AUTO_KINDS for a in auto):
        raise ConfigError(
            f"[consolidate] auto_apply must be a list of {', '.join(map(repr, AUTO_KINDS))}"
        )
    return ConsolidateSettings(promote, tuple(auto))


# ---------------------------------------------------------------- what to read


@dataclass(frozen=True)
class Source:
    """One observation to read: a note, or one line of a journal."""

    rel: str  # the note, or the journal file
    sha256: str  # of the file
    line: int = 0  # a journal line's number, from 1
    text: str | None = None  # a journal line (JSON)
    body: str | None = None  # an earlier version of a handoff, from git

    @property
    def key(self) -> str:
        """What the ledger keeps it under: the file, or ``<file>@<sha256>`` for an earlier
        version of a handoff (the file itself holds only the last save)."""
        return f"{self.rel}@{self.sha256}" if self.body is not None else self.rel

    @property
    def where(self) -> str:
        """How the report names it: the note, ``<journal>#<line>``, or
        ``<handoff>@<sha12>`` for an earlier save."""
        if self.body is not None:
            return f"{self.rel}@{self.sha256[:12]}"
        return f"{self.rel}#{self.line}" if self.line else self.rel


def _candidates(root: Path) -> Iterator[Path]:
    memories = root / "memories"
    if memories.is_dir():
        yield from (p for p in memories.rglob("*.md") if not _hidden(p, root))
    state = root / "state"
    if state.is_dir():
        yield from state.glob("*/handoffs/*/current.md")
        yield from state.glob("*/brief.md")
        yield from state.glob("*/journal/*.jsonl")
    wiki = root / "wiki"
    if wiki.is_dir():
        yield from wiki.glob("*/summaries/*.md")


def _hidden(path: Path, root: Path) -> bool:
    return any(part.startswith(".") for part in path.relative_to(root).parts)


@dataclass
class Ledger:
    """What the pass has read (``path -> sha256``) and a stat cache of the hashes."""

    read: dict[str, str] = field(default_factory=dict)
    stat: dict[str, list[Any]] = field(default_factory=dict)

    @classmethod
    def load(cls, vault: Vault) -> Ledger:
        try:
            data = json.loads((vault.local_dir / LEDGER).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(data, dict):
            return cls()
        read = data.get("read") if isinstance(data.get("read"), dict) else {}
        stat = data.get("stat") if isinstance(data.get("stat"), dict) else {}
        return cls(dict(read or {}), dict(stat or {}))

    def save(self, vault: Vault) -> None:
        data = {"version": 1, "read": self.read, "stat": self.stat}
        atomic_write(vault.local_dir / LEDGER, json.dumps(data, sort_keys=True).encode("utf-8"))

    def sha256(self, path: Path, rel: str) -> str | None:
        """The file's hash, from the stat cache when its size and mtime did not move."""
        try:
            st = path.stat()
        except OSError:
            return None
        cached = self.stat.get(rel)
        if cached and cached[0] == st.st_mtime_ns and cached[1] == st.st_size:
            return str(cached[2])
        try:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            return None
        self.stat[rel] = [st.st_mtime_ns, st.st_size, digest]
        return digest


def _journal_sources(path: Path, rel: str, sha: str) -> list[Source]:
    """The saves a journal records, each an observation of its own (its headline)."""
    out: list[Source] = []
    try:
        raw = path.read_bytes()
    except OSError:
        return out
    for number, line in enumerate(raw.split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            continue  # the journal's own reader counts malformed lines
        if not isinstance(entry, dict) or not isinstance(entry.get("headline"), str):
            continue
        out.append(Source(rel, sha, number, json.dumps(entry, ensure_ascii=False)))
    return out


def _handoff_saves(vault: Vault, rel: str, current: str, ledger: Ledger) -> list[Source]:
    """The saves of a handoff that a later save replaced before any pass read them, from
    the vault's git history, newest first back to the save read last: each save replaces
    ``current.md``, so without them two saves between passes would leave one."""
    if not is_repository(vault):
        return []
    log = run_git(vault, "log", "--format=%H", "--", rel)
    if log.returncode != 0:
        return []
    last = ledger.read.get(rel)
    out: list[Source] = []
    for commit in log.stdout.split():
        shown = subprocess.run(  # bytes, as the file was written: its sha256 is the file's
            ["git", "show", f"{commit}:{rel}"], cwd=vault.root, capture_output=True, check=False
        )
        if shown.returncode != 0:
            continue  # the commit removed it
        sha = hashlib.sha256(shown.stdout).hexdigest()
        if sha == last:
            break  # read by an earlier pass, and so is everything before it
        if sha == current or f"{rel}@{sha}" in ledger.read or any(o.sha256 == sha for o in out):
            continue
        out.append(Source(rel, sha, body=shown.stdout.decode("utf-8", errors="replace")))
    return out


def unread(vault: Vault, ledger: Ledger) -> list[Source]:
    """The observations not read yet, by path and line (the pass orders them by date once
    it has read each one's evidence date)."""
    root = vault.root
    seen: set[str] = set()
    out: list[Source] = []
    for path in _candidates(root):
        rel = path.relative_to(root).as_posix()
        seen.add(rel)
        sha = ledger.sha256(path, rel)
        if sha is None or ledger.read.get(rel) == sha:
            continue
        if rel.endswith(".jsonl"):
            out.extend(_journal_sources(path, rel, sha))
        else:
            out.append(Source(rel, sha))
            if rel.endswith("/current.md") and "/handoffs/" in rel:
                out.extend(_handoff_saves(vault, rel, sha, ledger))
    for gone in set(ledger.stat) - seen:
        ledger.stat.pop(gone, None)
        ledger.read.pop(gone, None)
    out.sort(key=lambda s: (s.rel, s.line, s.key))
    return out


# ---------------------------------------------------------------- proposals


@dataclass
class Proposal:
    """One fact change the pass proposes, with its evidence."""

    kind: str  # new | confirm | promote | supersede | dispute | revise | expire
    fact: Fact
    path: str  # the fact file
    note: str  # where it was read (a journal line is ``<file>#<line>``)
    evidence: Evidence | None
    waits: bool = False  # for a person
    targets: list[str] = field(default_factory=list)  # facts it changes

    def to_dict(self) -> dict[str, Any]:
        f = self.fact
        out: dict[str, Any] = {
            "kind": self.kind,
            "fact_id": f.id,
            "subject": f.subject,
            "statement": f.statement,
            "layer": f.layer,
            "provenance": f.provenance,
            "path": self.path,
            "note": self.note,
        }
        if f.valid_from is not None:
            out["valid_from"] = str(f.valid_from)
        if f.valid_until is not None:
            out["valid_until"] = str(f.valid_until)
        if self.evidence is not None:
            out["evidence"] = str(self.evidence)
        if self.targets:
            out["changes"] = self.targets
        if self.waits:
            out["waits_for_a_person"] = True
        return out


def _classify(
    applied: Applied, before: dict[str, Fact], new: Fact, auto: tuple[str, ...]
) -> tuple[str, bool, list[str]]:
    """(kind, whether it waits for a person, the held facts it changes)."""
    if applied.outcome == "created":
        changed = [*applied.superseded, *applied.disputed]
        if changed:
            # a claim that both supersedes one fact and disputes another is shown as both
            stable = any(before[i].layer == "stable" for i in changed if i in before)
            kinds = [
                k
                for k, ids in (("supersede", applied.superseded), ("dispute", applied.disputed))
                if ids
            ]
            waits = stable or any(k not in auto for k in kinds)
            return "+".join(kinds), waits, changed
        return "new", "new" not in auto, []
    revised = [i for i in applied.revised if i in before]
    if revised:
        ended = new.valid_until is not None
        if any(before[i].layer == "stable" for i in revised):
            return ("expire" if ended else "revise"), True, revised
        return ("expire" if ended else "revise"), "confirm" not in auto, revised
    return "confirm", "confirm" not in auto, [applied.fact.id]


def observations(fact: Fact) -> int:
    """The independent observations a fact's evidence holds (a person's word aside)."""
    return len({e.event for e in fact.evidence if e.ref != "user"})


@dataclass
class Consolidated:
    """What a pass read, proposed, applied and left waiting."""

    mode: Mode
    report: Report = field(default_factory=Report)
    read: int = 0  # observations read
    proposals: list[Proposal] = field(default_factory=list)
    commit: CommitResult | None = None
    plan: dict[str, Any] | None = None
    sources: dict[str, str] = field(default_factory=dict)  # file -> sha256 read

    @property
    def approved(self) -> bool:
        """Whether what waits for a person is applied too (``all``, or a ``plan`` of it)."""
        return self.mode in ("all", "plan")

    @property
    def applied(self) -> list[Proposal]:
        return [p for p in self.proposals if not p.waits or self.approved]

    @property
    def waiting(self) -> list[Proposal]:
        """What waits for a person: left waiting, or (in a plan) applied only on their word."""
        return [p for p in self.proposals if p.waits]

    def kinds(self, proposals: list[Proposal]) -> dict[str, int]:
        out: dict[str, int] = {}
        for p in proposals:
            out[p.kind] = out.get(p.kind, 0) + 1
        return out

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"mode": self.mode, "read": self.read, **self.report.to_dict()}
        applied, waiting = self.applied, self.waiting
        key = "would_apply" if self.mode in ("preview", "plan") else "applied"
        out[key] = self.kinds(applied)
        out["needs_a_person" if self.approved else "waiting"] = self.kinds(waiting)
        shown = self.proposals[:MAX_LISTED]
        out["proposals"] = [p.to_dict() for p in shown]
        if len(self.proposals) > len(shown):
            out["proposals_omitted"] = len(self.proposals) - len(shown)
        if self.commit is not None:
            out["commit"] = self.commit.to_dict()
        if self.plan is not None:
            out.update(self.plan)
        return out


@dataclass
class _Pass:
    """One pass's working state: the fact files as they will be written."""

    brain: Brain
    at: dt.datetime
    settings: ConsolidateSettings
    approve_all: bool
    book: NameBook
    files: dict[str, FactFile] = field(default_factory=dict)
    proposals: list[Proposal] = field(default_factory=list)
    touched: dict[str, set[str]] = field(default_factory=dict)
    dropped: list[dict[str, str]] = field(default_factory=list)
    reader: ModelReader | None = None

    def file(self, rel: str, subject: str) -> FactFile:
        if rel not in self.files:
            self.files[rel] = read_fact_file(self.brain.vault, rel) or FactFile(subject)
        return self.files[rel]

    def read(self, source: Source) -> NoteClaims:
        if source.text is None:
            return read_note_claims(
                self.brain,
                source.rel,
                text=source.body,
                book=self.book,
                sha256=source.sha256,
                reader=self.reader,
            )
        entry = json.loads(source.text)
        day = dt.date.fromisoformat(str(entry.get("ts"))[:10])
        sha = str(entry.get("sha256") or "")
        claims, dropped = claims_from_text(
            str(entry["headline"]), evidence_date=day, book=self.book, speaker=None
        )
        observation = f"save:{sha[:12]}" if sha else ""
        return NoteClaims(
            source.rel,
            claims,
            "session",
            Evidence(source.rel, day, observation),
            None,
            [{"note": source.where, **d} for d in dropped],
        )

    def take(self, source: Source, note: NoteClaims) -> tuple[int, int]:
        """Apply what one note states; (its proposals, how many of them wait)."""
        proposed = waited = 0
        for claim in note.claims:
            rel = subject_path(claim.subject, note.private)
            file = self.file(rel, claim.subject)
            known = self.book.lookup(claim.subject)
            if known is not None and known.page and not file.page:
                file.page = known.page
            new = fact_from_claim(claim, note.provenance, note.evidence, self.at)
            before = {f.id: f for f in file.facts}
            trial = [f.copy() for f in file.facts]
            applied = apply_fact(trial, new, self.at)
            if applied.outcome == "unchanged":
                continue
            kind, waits, targets = _classify(applied, before, new, self.settings.auto_apply)
            proposal = Proposal(
                kind, applied.fact, rel, source.where, note.evidence, waits, targets
            )
            self.proposals.append(proposal)
            proposed += 1
            if waits and not self.approve_all:
                waited += 1
                continue
            file.facts[:] = trial
            self.touched.setdefault(rel, set()).add(applied.fact.id)
        return proposed, waited

    def promote(self) -> None:
        """Facts that now hold enough independent observations enter the stable layer."""
        need = self.settings.promote_after
        for rel, ids in self.touched.items():
            for fact in self.files[rel].facts:
                if (
                    fact.id in ids
                    and fact.layer == "dynamic"
                    and fact.provenance != "agent"
                    and fact.status == "active"
                    and fact.expired_at is None
                    and not fact.pending
                    and not fact.hedged
                    and observations(fact) >= need
                ):
                    fact.revise(self.at, "layer", "stable", f"evidence:{observations(fact)}")
                    self.proposals.append(Proposal("promote", fact, rel, "", None))


def consolidate(
    brain: Brain,
    mode: Mode = "safe",
    *,
    now: dt.datetime | None = None,
    only: dict[str, str] | None = None,
    model: ModelClient | None = None,
    confirmed: bool = False,
    cache_only: bool = False,
) -> Consolidated:
    """Read what arrived since the last pass and propose, or apply, what it teaches.

    ``safe`` applies what cannot lose anything and leaves the rest waiting; ``all`` (a
    person asked: ``--yes``) applies every proposal; ``preview`` and ``plan`` show what
    those two would do and change nothing. ``only`` limits the pass to these files (and
    hashes): what a plan showed. ``model`` reads the notes instead of the offline reader
    (:mod:`mnemex.facts.model_reader`), within ``[model] confirm_above_usd`` unless
    ``confirmed``; a note it cannot read is read offline, with a warning.

    Raises:
        ConfigError: ``[consolidate]`` is malformed.
    """
    at = (now or dt.datetime.now(dt.UTC)).astimezone(dt.UTC).replace(microsecond=0)
    settings = consolidate_settings(brain.vault)
    started = time.time()
    done = Consolidated(mode)
    try:
        reader = (
            ModelReader(model, brain.vault.local_dir, confirmed=confirmed, cache_only=cache_only)
            if model
            else None
        )
        _run(brain, done, settings, at, only, reader)
    except Exception as exc:
        if mode in ("safe", "all"):
            _beat(brain.vault, at, done, started, f"{type(exc).__name__}: {exc}")
        raise
    if mode in ("safe", "all"):
        _beat(brain.vault, at, done, started, None)
    return done


def _run(
    brain: Brain,
    done: Consolidated,
    settings: ConsolidateSettings,
    at: dt.datetime,
    only: dict[str, str] | None,
    reader: ModelReader | None,
) -> None:
    vault = brain.vault
    writes = done.mode in ("safe", "all")
    written: list[str] = []
    with recording(vault):
        ledger = Ledger.load(vault)
        sources = unread(vault, ledger)
        if only is not None:
            sources = [s for s in sources if only.get(s.key) == s.sha256]
        done.read = len(sources)
        if not sources:
            if writes:
                ledger.save(vault)
            return
        work = _Pass(brain, at, settings, done.approved, name_book(brain), reader=reader)
        complete: dict[str, bool] = {}  # file -> every observation in it was taken
        read: list[tuple[Source, NoteClaims]] = []
        for source in sources:
            try:
                read.append((source, work.read(source)))
            except (MnemexError, OSError, UnicodeDecodeError, ValueError) as exc:
                done.report.add("failed", source.where, str(exc)[:300])
                complete[source.key] = False
        # in the order of each note's own evidence date (record.py's rule), then path
        read.sort(key=lambda item: (item[1].evidence.date, item[0].rel, item[0].line))
        for source, note in read:
            work.dropped.extend(note.dropped)
            if note.warning:
                done.report.warn(source.where, note.warning)
            try:
                proposed, waited = work.take(source, note)
            except FactError as exc:  # a fact file that cannot be read: nothing from this note
                done.report.add("refused", source.where, str(exc)[:300])
                complete[source.key] = False
                continue
            if waited:
                done.report.add("skipped", source.where, f"{waited} change(s) wait for a person")
            elif not proposed:
                done.report.add("unchanged", source.where)
            complete[source.key] = complete.get(source.key, True) and not waited
        work.promote()
        done.proposals = work.proposals
        done.sources = {s.key: s.sha256 for s in sources}
        if not writes:
            return
        for rel in sorted(work.touched):
            work.files[rel].updated = at
            text = render_facts(work.files[rel])
            outcome, _ = vault.write_note(rel, text, overwrite=True, protected_ok=True)
            done.report.add(outcome, rel)
            if outcome != "unchanged":
                written.append(rel)
        if written:
            counts = done.kinds(done.applied)
            summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "facts"
            done.commit = commit_change(vault, written, "consolidate", summary)
        for source in sources:
            if complete.get(source.key, True):
                ledger.read[source.key] = source.sha256
        ledger.save(vault)
        log_dropped(brain, work.dropped, at)
    if written:
        brain.sync()


def _beat(
    vault: Vault, at: dt.datetime, done: Consolidated, started: float, error: str | None
) -> None:
    data: dict[str, Any] = {
        "last_run": utc_iso(at),
        "seconds": round(time.time() - started, 3),
        "read": done.read,
        "counts": done.report.counts(),
        "applied": done.kinds(done.applied),
        "waiting": len(done.waiting),
    }
    if error:
        data["error"] = error
    else:
        data["last_success"] = utc_iso(at)
    write_heartbeat(vault, JOB, data)


# ---------------------------------------------------------------- plans (MCP)


def plan_consolidation(
    brain: Brain, *, now: dt.datetime | None = None, model: ModelClient | None = None
) -> Consolidated:
    """Everything the pass would do if a person agreed, as a plan to apply by its id."""
    done = consolidate(brain, "plan", now=now, model=model)
    vault = brain.vault
    # a journal is checked by its hash when applied (``only``): a plan checks notes
    # (an earlier save of a handoff, ``<file>@<sha256>``, is a git blob: it cannot change)
    reads: dict[str, str | None] = {r: h for r, h in done.sources.items() if r.endswith(".md")}
    for p in done.proposals:
        reads[p.path] = vault.current_hash(p.path)
    details: dict[str, Any] = {
        "sources": done.sources,
        "note": "nothing is applied yet: show the person what needs them, then call "
        "consolidate again with this plan_id (CLI: mnemex consolidate --yes)",
    }
    plan = create_plan(vault, JOB, {}, reads, details)
    done.plan = {k: v for k, v in plan.to_dict().items() if k != "sources"}
    return done


def apply_plan(
    brain: Brain,
    plan_id: str,
    *,
    now: dt.datetime | None = None,
    model: ModelClient | None = None,
) -> Consolidated:
    """Apply a plan from :func:`plan_consolidation`: the notes it showed, and only them.

    Raises:
        PlanRefused: unknown, used or expired plan, or a file it read has changed.
    """
    plan = take_plan(brain.vault, plan_id, JOB, {})
    shown = {str(rel): str(sha) for rel, sha in dict(plan.details.get("sources") or {}).items()}
    done = consolidate(brain, "all", now=now, only=shown, model=model, cache_only=True)
    discard_plan(brain.vault, plan_id)
    return done


def consolidate_check(vault: Vault) -> dict[str, str]:
    """``mnemex doctor``'s check: when the pass last ran, and whether it failed."""
    try:
        consolidate_settings(vault)
    except ConfigError as exc:
        return {"name": "consolidate", "status": "fail", "detail": f"every run will fail: {exc}"}
    beat = read_heartbeat(vault, JOB)
    if beat is None:
        return {
            "name": "consolidate",
            "status": "ok",
            "detail": "never run: `mnemex consolidate` turns sessions and sources into facts",
        }
    if beat.get("error"):
        return {
            "name": "consolidate",
            "status": "fail",
            "detail": f"the last run ({beat.get('last_run')}) FAILED: {beat['error']}; "
            f"last success {beat.get('last_success') or 'never'}",
        }
    waiting = int(beat.get("waiting") or 0)
    detail = f"last run {beat.get('last_run')}: read {beat.get('read', 0)}"
    applied = beat.get("applied") or {}
    if applied:
        detail += ", " + ", ".join(f"{n} {k}" for k, n in sorted(applied.items()))
    if waiting:
        detail += f"; {waiting} change(s) wait for a person (`mnemex consolidate --preview`)"
    failed = (beat.get("counts") or {}).get("failed", 0)
    status = "warn" if failed or waiting else "ok"
    return {"name": "consolidate", "status": status, "detail": detail}


__all__ = [
    "DEFAULT_PROMOTE_AFTER",
    "JOB",
    "LEDGER",
    "ConsolidateSettings",
    "Consolidated",
    "Ledger",
    "Proposal",
    "Source",
    "apply_plan",
    "consolidate",
    "consolidate_check",
    "consolidate_settings",
    "observations",
    "plan_consolidation",
    "unread",
]
