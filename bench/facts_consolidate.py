"""The consolidation pass (issue 19), judged on the timeline of ``bench/data/facts_timeline.yaml``.

    python bench/facts_consolidate.py [--phrasing h5|h4|h3|h2|h5a|h5b|...|0|1]
                                      [--show-misses] [--json] [--no-replay]
                                      [--no-compare] [--embedder minilm|hashing]

The timeline, the phrasing sets, the questions and the scoring are those of
``bench/facts_timeline.py`` (issue 18); only the way facts are learned differs. No event
goes through ``mnemex fact add`` or ``learn_note``: each event, in record-time order, is
written as the note its path names, and then :func:`mnemex.facts.consolidate.consolidate`
learns from what arrived:

- ``fact_add`` (the owner's own words): a Claude Code transcript, one JSONL file in a
  temporary folder of its own, in which the user says the phrasing and the assistant
  answers "Noted."; both records are stamped on the event's ``evidence_date`` and the
  file's mtime is set to then. It is harvested by
  :func:`mnemex.harvest.run.harvest_sessions` (that folder only, ``settle_seconds=0``),
  which writes the session's digest under ``memories/``. A digest whose body does not
  hold the user's sentence (whitespace aside) is counted as a digest that lost it;
- ``remember``: :func:`mnemex.memories.remember.remember` (``said_by_user`` when the words
  are the person's), which learns the facts of its note itself, as it does for a user;
- ``handoff``: :func:`mnemex.state.handoff.save_handoff` (headline "Session handoff", the
  phrasing as its state), nothing more;
- ``ingest``: a markdown source dated ``evidence_date``, through
  :func:`mnemex.ingest.run.ingest_path` (offline), nothing more.

Record time is the event's ``recorded_at`` at noon (passed as ``now``). After each event a
``safe`` pass runs. Every fact file is read before and after it: a fact that was in the
stable layer before the pass and whose revisions grew, or whose ``valid_until``,
``status``, ``value`` or ``layer`` changed, is a stable fact changed without a person
(evidence added alone is not a change). When the pass leaves anything waiting, the person
reviews it: an ``all`` pass at the same time; its runs and the proposals it applied are
counted as the person's approvals. Then every question is asked and scored as in
``facts_timeline``:

- as-of accuracy, overall and per scenario;
- stale facts served as current, disputes surfaced, agent drafts counted as the person's
  (must be 0);
- stable facts changed without a person (must be 0; a write by an event that is not the
  person's which changes a stable fact, such as an agent's ``remember``, is listed too),
  proposals the person approved, and digests that lost the user's sentence;
- each event traced to the facts its step created or changed; an event that left no fact
  of its slot with its value is put down to a cause: the digest lost the sentence; a
  digest is read with no speaker (the phrasing states the fact when the owner is its
  speaker, and nothing when no one is); the extractor states the fact from the phrasing
  alone, read with the speaker its path gives, and the step still learned nothing (lost
  on the way); or the extractor states nothing of the slot from this phrasing. A missed
  question takes the causes of its slot's events, or "every event read as labelled";
- unless ``--no-compare``, ``facts_timeline`` on the same phrasing (``fact add`` and
  ``learn_note``), and the questions only one of the two misses.

Replays (unless ``--no-replay``), on the same phrasing. Every event is written as above,
each with its own record time and evidence date, and no pass runs until the end; then ONE
``all`` pass at noon of the day after the last record time. ``order``: the notes written
in a shuffled order (fixed seed) against the notes written in record order; ``clock`` and
``clock-behind``: the record-order notes consolidated by a machine whose clock is two days
ahead or behind, against the same notes consolidated on time. Two vaults agree when every
fact file holds the same facts, each as (subject, predicate, kind/key, value, condition,
valid_from, valid_until, status, layer, fact id). A replay writes the same files as the
other: the same machine name in every vault, and the random part of a remembered note's
file name drawn from the event's id (otherwise two vaults that remember the same words
hold two different notes). A handoff save replaces the machine's last one, so a vault
written before any pass holds only the handoff written last: the report names it for
each replay.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import hashlib
import json
import os
import random
import sys
import tempfile
import time
import types
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

if str(Path(__file__).resolve().parent) not in sys.path:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parent))

import mnemex.memories.remember as remember_module
from facts_timeline import (
    LATER,
    PROJECT,
    SETS,
    _phrasing,
    _slot,
    ask,
    load,
    make_vault,
    score,
)
from facts_timeline import run as learn_directly
from mnemex.brain import Brain
from mnemex.facts.claims import fold
from mnemex.facts.consolidate import Proposal, consolidate
from mnemex.facts.model import Fact
from mnemex.facts.record import claims_from_text, fact_files, name_book
from mnemex.harvest.digest import digest_id
from mnemex.harvest.run import harvest_sessions
from mnemex.ingest.run import ingest_path
from mnemex.memories.remember import remember
from mnemex.state.handoff import save_handoff
from mnemex.vault import parse_note
from mnemex.vault.machine import MACHINE_ID_FILE

#: The seed of the shuffled replay.
SEED = 19
#: How far off the skewed machine's clock runs (ahead, then behind).
SKEW = dt.timedelta(days=2)
#: The machine every vault is written by (a replay writes the same files).
MACHINE = "bench-laptop-0c0a5019"
#: The working folder the transcripts name (its name is the project).
CWD = f"/nonexistent/work/{PROJECT}"
_CHANGES = ("valid_until", "status", "value", "layer")


def _day(value: Any) -> dt.date:
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))


def _noon(day: dt.date) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, 12, 0, tzinfo=dt.UTC)


def _flat(text: str) -> str:
    return " ".join(text.split())


# ---------------------------------------------------------------- writing the inputs


@contextlib.contextmanager
def _note_names_from(event_id: str) -> Iterator[None]:
    """``remember`` names its note with a random token: here, one drawn from the event."""
    digest = hashlib.sha256(event_id.encode("utf-8")).hexdigest()
    module: Any = remember_module
    real = module.secrets
    module.secrets = types.SimpleNamespace(token_hex=lambda n=4: digest[: 2 * n])
    try:
        yield
    finally:
        module.secrets = real


def transcript(folder: Path, event: dict[str, Any], text: str) -> tuple[Path, str]:
    """A Claude Code transcript in which the user says ``text`` on the evidence date."""
    session = str(uuid.uuid5(uuid.NAMESPACE_URL, f"mnemex-bench:{event['id']}"))
    day = _day(event["evidence_date"])
    said = dt.datetime(day.year, day.month, day.day, 9, 0, tzinfo=dt.UTC)
    common = {
        "sessionId": session,
        "cwd": CWD,
        "gitBranch": "main",
        "isSidechain": False,
        "userType": "external",
        "version": "1.0.98",
    }
    records = [
        {
            "type": "user",
            "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"{session}:user")),
            "parentUuid": None,
            "timestamp": said.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
            **common,
            "message": {"role": "user", "content": text},
        },
        {
            "type": "assistant",
            "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"{session}:assistant")),
            "parentUuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"{session}:user")),
            "timestamp": (said + dt.timedelta(seconds=4)).strftime("%Y-%m-%dT%H:%M:%S.000Z"),
            **common,
            "message": {
                "id": f"msg_{event['id']}",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [{"type": "text", "text": "Noted."}],
                "stop_reason": "end_turn",
            },
        },
    ]
    project = folder / "projects" / CWD.replace("/", "-")
    project.mkdir(parents=True, exist_ok=True)
    path = project / f"{session}.jsonl"
    lines = [json.dumps(r, ensure_ascii=False) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    stamp = (said + dt.timedelta(seconds=5)).timestamp()
    os.utime(path, (stamp, stamp))
    return path, session


def _harvest(
    brain: Brain, event: dict[str, Any], text: str, work: Path, now: dt.datetime
) -> dict[str, Any]:
    folder = work / f"claude-{event['id']}"
    _, session = transcript(folder, event, text)
    report = harvest_sessions(brain.vault, {"claude-code": [folder]}, settle_seconds=0, now=now)
    brain.sync()
    key = digest_id("claude-code", session)
    found = sorted((brain.vault.root / "memories").rglob(f"*-{key}.md"))
    if not found:
        problems = report.to_dict()["problems"]
        return {"note": None, "kept_sentence": False, "why": f"no digest written: {problems}"}
    rel = found[0].relative_to(brain.vault.root).as_posix()
    body = parse_note(found[0].read_text(encoding="utf-8"), rel).body
    return {"note": rel, "kept_sentence": _flat(text) in _flat(body)}


def write_event(
    brain: Brain, event: dict[str, Any], text: str, work: Path, now: dt.datetime
) -> dict[str, Any]:
    """Write one event as the note its path names; learn nothing from it (but see remember)."""
    path = event["path"]
    person = event["provenance"] == "person"
    evidence_day = _day(event["evidence_date"])
    if path == "fact_add":
        return _harvest(brain, event, text, work, now)
    if path == "remember":
        with _note_names_from(event["id"]):
            kept = remember(brain, text, project=PROJECT, now=now, said_by_user=person)
        return {"note": kept.path}
    if path == "handoff":
        saved = save_handoff(brain.vault, PROJECT, "Session handoff", state=[text], now=now)
        return {"note": saved.path}
    if path == "ingest":
        sources = work / "sources"
        sources.mkdir(exist_ok=True)
        source = sources / f"{event['id']}.md"
        title = f"{event.get('source_kind', 'document')} {event['id']}"
        fm = {"title": title, "date": evidence_day.isoformat()}
        source.write_text(f"---\n{yaml.safe_dump(fm)}---\n# {title}\n\n{text}\n", encoding="utf-8")
        ingest_path(brain, source, apply=True, offline=True)
        return {"note": source.name}
    raise ValueError(f"unknown path {path!r}")


def fresh_vault(root: Path, data: dict[str, Any], embedder: str) -> Brain:
    brain = make_vault(root, data, embedder)
    (brain.vault.local_dir / MACHINE_ID_FILE).write_text(MACHINE + "\n", encoding="utf-8")
    return brain


# ---------------------------------------------------------------- reading the facts


def facts_by_id(brain: Brain) -> dict[str, tuple[str, Fact]]:
    """Every fact of the vault: id -> (its file, the fact)."""
    return {f.id: (rel, f) for rel, file in fact_files(brain.vault) for f in file.facts}


def _described(fact: Fact) -> dict[str, Any]:
    return {
        "id": fact.id,
        "subject": fact.subject,
        "predicate": fact.predicate,
        "aspect": fact.aspect,
        "value": fact.value,
        "condition": fact.condition,
        "valid_from": str(fact.valid_from) if fact.valid_from else None,
        "valid_until": str(fact.valid_until) if fact.valid_until else None,
        "status": fact.status,
        "layer": fact.layer,
        "provenance": fact.provenance,
    }


def stable_changes(
    before: dict[str, tuple[str, Fact]], after: dict[str, tuple[str, Fact]]
) -> list[dict[str, Any]]:
    """Stable facts of ``before`` that ``after`` changed (evidence added alone is no change)."""
    out = []
    for fid, (_, old) in before.items():
        if old.layer != "stable":
            continue
        new = after.get(fid, (None, None))[1]
        if new is None:
            changed = ["gone"]
        else:
            changed = [n for n in _CHANGES if str(getattr(old, n)) != str(getattr(new, n))]
            if len(new.revisions) > len(old.revisions):
                changed.append("revisions")
        if changed:
            out.append({"fact": fid, "statement": old.statement, "changed": changed})
    return out


def step_facts(
    before: dict[str, tuple[str, Fact]], after: dict[str, tuple[str, Fact]]
) -> list[dict[str, Any]]:
    """The facts one step created or changed, as they stand after it."""
    out = []
    for fid, (_, fact) in after.items():
        old = before.get(fid, (None, None))[1]
        if old is None or _described(old) != _described(fact) or old.evidence != fact.evidence:
            out.append(_described(fact) | {"outcome": "new" if old is None else "changed"})
    return out


def fact_set(brain: Brain) -> dict[str, set[tuple[Any, ...]]]:
    """Per fact file: its facts as (subject, predicate, kind/key, value, condition,
    valid_from, valid_until, status, layer, fact id)."""
    out: dict[str, set[tuple[Any, ...]]] = {}
    for rel, file in fact_files(brain.vault):
        out[rel] = {
            (
                f.subject,
                f.predicate,
                f.aspect,
                f.value,
                f.condition,
                str(f.valid_from) if f.valid_from else None,
                str(f.valid_until) if f.valid_until else None,
                f.status,
                f.layer,
                f.id,
            )
            for f in file.facts
        }
    return out


def compare(
    a: dict[str, set[tuple[Any, ...]]], b: dict[str, set[tuple[Any, ...]]]
) -> dict[str, Any]:
    """Whether two vaults hold the same facts, and where they differ."""
    diffs: list[dict[str, Any]] = []
    for rel in sorted(set(a) | set(b)):
        only_a = sorted(a.get(rel, set()) - b.get(rel, set()), key=str)
        only_b = sorted(b.get(rel, set()) - a.get(rel, set()), key=str)
        if only_a or only_b:
            diffs.append({"file": rel, "only_first": only_a, "only_second": only_b})
    return {"equal": not diffs, "facts": sum(len(v) for v in a.values()), "differences": diffs}


# ---------------------------------------------------------------- the run


def _kinds(proposals: list[Proposal]) -> dict[str, int]:
    return dict(Counter(p.kind for p in proposals))


def run(
    data: dict[str, Any],
    which: str,
    embedder: str = "minilm",
    events: list[dict[str, Any]] | None = None,
    questions: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Feed the timeline as notes, a safe pass after each event, and score the answers."""
    chosen = events if events is not None else data["events"]
    ordered = sorted(chosen, key=lambda e: (str(e["recorded_at"]), e["id"]))
    asked = questions if questions is not None else data["questions"]
    fed: dict[str, Any] = {}
    changed_alone: list[dict[str, Any]] = []
    changed_by_write: list[dict[str, Any]] = []
    reviews, approved = 0, Counter[str]()
    lost: list[str] = []
    with tempfile.TemporaryDirectory(prefix="mnemex-consolidate-") as tmp:
        work = Path(tmp)
        brain = fresh_vault(work / "vault", data, embedder)
        try:
            for event in ordered:
                now = _noon(_day(event["recorded_at"]))
                text = _phrasing(event, which)
                start = facts_by_id(brain)
                wrote = write_event(brain, event, text, work, now)
                if event["path"] == "fact_add" and not wrote.get("kept_sentence"):
                    lost.append(event["id"])
                written = facts_by_id(brain)
                if event["provenance"] != "person":
                    for item in stable_changes(start, written):
                        changed_by_write.append({"event": event["id"], **item})
                safe = consolidate(brain, "safe", now=now)
                after_safe = facts_by_id(brain)
                for item in stable_changes(written, after_safe):
                    changed_alone.append({"event": event["id"], **item})
                step: dict[str, Any] = {
                    "path": event["path"],
                    "text": text,
                    "note": wrote.get("note"),
                    "safe": {
                        "read": safe.read,
                        "applied": _kinds(safe.applied),
                        "waiting": _kinds(safe.waiting),
                        "problems": safe.report.to_dict()["problems"],
                    },
                }
                if "kept_sentence" in wrote:
                    step["digest_kept_sentence"] = wrote["kept_sentence"]
                if safe.waiting:
                    review = consolidate(brain, "all", now=now)
                    reviews += 1
                    approved.update(p.kind for p in review.waiting)
                    step["approved"] = [
                        {"kind": p.kind, "statement": p.fact.statement, "layer": p.fact.layer}
                        for p in review.waiting
                    ]
                step["facts"] = step_facts(start, facts_by_id(brain))
                step["extractor_reads"] = extractor_reads(brain, event, text)
                fed[event["id"]] = step
            answers = {q["id"]: ask(brain, q) for q in asked}
        finally:
            brain.close()
    out = score({**data, "events": chosen, "questions": asked}, answers)
    out["phrasing"] = which
    out["stable_changed_without_a_person"] = changed_alone
    out["stable_changed_by_a_write_path"] = changed_by_write
    out["approved_by_the_person"] = {
        "reviews": reviews,
        "proposals": sum(approved.values()),
        "kinds": dict(approved),
    }
    out["digests_missing_the_sentence"] = lost
    out["fed"] = fed
    out["miss_causes"] = miss_causes(ordered, asked, out["misses"], fed)
    out["events_not_read"] = _not_read(ordered, fed)
    return out


def _read_as_labelled(event: dict[str, Any], step: dict[str, Any]) -> bool:
    """Whether the event's step left a fact of its slot with its value."""
    want = _slot(event)
    return any(
        (fold(f["subject"]), f["predicate"] or "", fold(f["aspect"] or "")) == want
        and fold(f["value"] or "") == fold(event["value"])
        for f in step["facts"]
    )


def extractor_reads(brain: Brain, event: dict[str, Any], text: str) -> dict[str, bool]:
    """Whether the phrasing alone, read by the extractor, states the labelled fact: with
    the owner as its speaker (``as_person``) and with none (``as_nobody``, how an agent's
    note, a digest, a handoff or a source is read)."""
    book = name_book(brain)
    want = _slot(event)
    out = {}
    for name, speaker in (("as_person", book.owner), ("as_nobody", None)):
        claims, _ = claims_from_text(
            text, evidence_date=_day(event["evidence_date"]), book=book, speaker=speaker
        )
        out[name] = any(c.slot == want and fold(c.value) == fold(event["value"]) for c in claims)
    return out


def _why_not_read(event: dict[str, Any], step: dict[str, Any]) -> str | None:
    """Why an event's step learned nothing of its slot (None when it did)."""
    if step.get("digest_kept_sentence") is False:
        return "harvest: the digest lost the user's sentence"
    if _read_as_labelled(event, step):
        return None
    reads = step["extractor_reads"]
    path = event["path"]
    speaker = "as_person" if path == "remember" and event["provenance"] == "person" else "as_nobody"
    if path == "fact_add" and reads["as_person"] and not reads["as_nobody"]:
        return "harvest: a digest is read with no speaker, so the owner's 'I' names nobody"
    if reads[speaker]:
        return f"{path}: the extractor reads it from the phrasing, but the step learned nothing"
    return f"{path}: the extractor reads nothing of the slot from this phrasing"


def _not_read(events: list[dict[str, Any]], fed: dict[str, Any]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    for event in events:
        why = _why_not_read(event, fed[event["id"]])
        if why is not None:
            out[why].append(event["id"])
    return dict(out)


def miss_causes(
    events: list[dict[str, Any]],
    questions: list[dict[str, Any]],
    misses: list[dict[str, Any]],
    fed: dict[str, Any],
) -> dict[str, list[str]]:
    """Each missed question under the causes found among its slot's events."""
    by_slot: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for event in events:
        by_slot[_slot(event)].append(event)
    out: dict[str, list[str]] = defaultdict(list)
    by_id = {q["id"]: q for q in questions}
    for miss in misses:
        question = by_id[miss["id"]]
        slot = by_slot.get(_slot(question), [])
        causes = {w for e in slot if (w := _why_not_read(e, fed[e["id"]])) is not None}
        if not causes:
            causes.add("every event of the slot read as labelled; the answer is still wrong")
        for cause in sorted(causes):
            out[cause].append(question["id"])
    return dict(out)


# ---------------------------------------------------------------- replays


def replay(
    data: dict[str, Any],
    which: str,
    *,
    shuffled: bool = False,
    skew: dt.timedelta = dt.timedelta(0),
    embedder: str = "minilm",
    events: list[dict[str, Any]] | None = None,
    questions: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Write every event first (shuffled, or in record order), then ONE ``all`` pass."""
    chosen = events if events is not None else data["events"]
    ordered = sorted(chosen, key=lambda e: (str(e["recorded_at"]), e["id"]))
    if shuffled:
        random.Random(SEED).shuffle(ordered)
    asked = questions if questions is not None else data["questions"]
    last = max(_day(e["recorded_at"]) for e in chosen)
    at = _noon(last + dt.timedelta(days=1)) + skew
    with tempfile.TemporaryDirectory(prefix="mnemex-consolidate-replay-") as tmp:
        work = Path(tmp)
        brain = fresh_vault(work / "vault", data, embedder)
        try:
            for event in ordered:
                now = _noon(_day(event["recorded_at"]))
                write_event(brain, event, _phrasing(event, which), work, now)
            done = consolidate(brain, "all", now=at)
            facts = fact_set(brain)
            answers = {q["id"]: ask(brain, q) for q in asked}
        finally:
            brain.close()
    scored = score({**data, "events": chosen, "questions": asked}, answers)
    return {
        "order": [e["id"] for e in ordered],
        "last_handoff": next((e["id"] for e in reversed(ordered) if e["path"] == "handoff"), None),
        "consolidated_at": at.isoformat(),
        "read": done.read,
        "applied": _kinds(done.applied),
        "problems": done.report.to_dict()["problems"],
        "accuracy": scored["accuracy"],
        "facts": facts,
    }


def replays(
    data: dict[str, Any],
    which: str,
    embedder: str = "minilm",
    events: list[dict[str, Any]] | None = None,
    questions: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """``order``: shuffled against record order; ``clock`` and ``clock-behind``: record
    order, consolidated with the clock two days ahead or behind."""
    kw: dict[str, Any] = {"embedder": embedder, "events": events, "questions": questions}
    in_order = replay(data, which, **kw)
    shuffled = replay(data, which, shuffled=True, **kw)
    ahead = replay(data, which, skew=SKEW, **kw)
    behind = replay(data, which, skew=-SKEW, **kw)
    out: dict[str, Any] = {}
    for name, other in (("order", shuffled), ("clock", ahead), ("clock-behind", behind)):
        out[name] = compare(in_order["facts"], other["facts"]) | {
            "accuracy": [in_order["accuracy"], other["accuracy"]],
            "read": [in_order["read"], other["read"]],
            "last_handoff": [in_order["last_handoff"], other["last_handoff"]],
            "problems": [in_order["problems"], other["problems"]],
        }
    out["order"]["shuffled"] = shuffled["order"]
    return out


# ---------------------------------------------------------------- the command


def with_phrasings(data: dict[str, Any]) -> dict[str, Any]:
    """The timeline with each later held-out set's phrasings on its events."""
    for key, path in LATER:
        if path.is_file():
            more = {e["id"]: e["phrasings"] for e in load(path)["events"]}
            for event in data["events"]:
                event[key] = more.get(event["id"], [])
    return data


def _print(res: dict[str, Any], show_misses: bool) -> None:
    changed = res["stable_changed_without_a_person"]
    approved = res["approved_by_the_person"]
    print(
        f"phrasing {res['phrasing']}: as-of accuracy {res['accuracy']:.3f} "
        f"({res['right']}/{res['questions']}); "
        f"stale served as current {len(res['stale_served_as_current'])}; "
        f"disputes surfaced {res['disputes_surfaced']}; "
        f"agent drafts counted {len(res['agent_drafts_counted'])}; "
        f"stable facts changed without a person {len(changed)}; "
        f"approved by the person {approved['proposals']} proposal(s) in "
        f"{approved['reviews']} review(s) {approved['kinds']}; "
        f"digests missing the user's sentence {len(res['digests_missing_the_sentence'])}"
        f"; {res['seconds']:.1f} s"
    )
    print("  per scenario: " + ", ".join(f"{k} {v}" for k, v in res["per_scenario"].items()))
    if res["digests_missing_the_sentence"]:
        print(f"  WARNING digests missing the sentence: {res['digests_missing_the_sentence']}")
    if changed or res["stable_changed_by_a_write_path"]:
        print(f"  stable changed in a safe pass: {changed}")
        print(f"  stable changed by a non-person write: {res['stable_changed_by_a_write_path']}")
    if "direct" in res:
        direct = res["direct"]
        print(
            f"  facts_timeline on the same phrasing (fact add, learn_note): accuracy "
            f"{direct['accuracy']:.3f}; missed here only {direct['missed_here_only']}; "
            f"missed there only {direct['missed_there_only']}"
        )
    for why, ids in sorted(res["events_not_read"].items()):
        print(f"  event not read: {why}: {ids}")
    for cause, ids in sorted(res["miss_causes"].items(), key=lambda kv: -len(kv[1])):
        print(f"  miss cause: {cause}: {len(ids)} {ids}")
    for name, check in res.get("replays", {}).items():
        print(
            f"  replay {name}: {'equal' if check['equal'] else 'DIFFERENT'} "
            f"({check['facts']} facts; accuracy {check['accuracy'][0]:.3f} vs "
            f"{check['accuracy'][1]:.3f}; {len(check['differences'])} file(s) differ; "
            f"the handoff left standing: {check['last_handoff'][0]} vs {check['last_handoff'][1]})"
        )
        for diff in check["differences"]:
            print(f"    {diff['file']}")
            for item in diff["only_first"]:
                print(f"      only in record order: {item}")
            for item in diff["only_second"]:
                print(f"      only in the {name} replay: {item}")
    if show_misses:
        for miss in res["misses"]:
            print(
                f"  miss {miss['id']}: {miss['q']}\n    want {miss['want']}\n    got  {miss['got']}"
            )
        for eid, item in res["fed"].items():
            facts = [
                {k: f[k] for k in ("value", "valid_from", "valid_until", "status", "layer")}
                | {"slot": f"{f['subject']}/{f['predicate']}/{f['aspect']}", "o": f["outcome"]}
                for f in item["facts"]
            ]
            kept = item.get("digest_kept_sentence")
            print(
                f"  {eid} [{item['path']}{'' if kept is None else f', digest kept: {kept}'}]: "
                f"{item['text']}\n    safe {item['safe']['applied']} waiting "
                f"{item['safe']['waiting']}\n    facts {facts}"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--phrasing",
        default="h3",
        choices=[*SETS, *(h for halves in SETS.values() for h in halves), "0", "1"],
    )
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-replay", action="store_true")
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument(
        "--no-compare",
        action="store_true",
        help="do not run facts_timeline (fact add and learn_note) on the same phrasing",
    )
    args = parser.parse_args(argv)
    data = with_phrasings(load())
    sets = SETS.get(args.phrasing, [args.phrasing])
    results = []
    for which in sets:
        started = time.monotonic()
        res = run(data, which, args.embedder)
        res["seconds"] = round(time.monotonic() - started, 1)
        if not args.no_compare:
            direct = learn_directly(data, which, False, args.embedder)
            here = {m["id"] for m in res["misses"]}
            there = {m["id"] for m in direct["misses"]}
            res["direct"] = {
                "accuracy": direct["accuracy"],
                "missed_here_only": sorted(here - there),
                "missed_there_only": sorted(there - here),
            }
        if not args.no_replay:
            started = time.monotonic()
            res["replays"] = replays(data, which, args.embedder)
            res["replay_seconds"] = round(time.monotonic() - started, 1)
        results.append(res)
        if not args.json:
            _print(res, args.show_misses)
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
