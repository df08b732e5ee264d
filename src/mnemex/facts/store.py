"""``facts/<subject-slug>.md``: one human-readable block per fact, read back exactly.

A fact file is a note (frontmatter ``type: facts``) whose body holds one ``## `` block
per fact. The block's ``- key: value`` lines are the fact; its heading is rendered from
them. :func:`render_facts` and :func:`parse_facts` are exact inverses on what mnemex
writes, so a file read and written back without a change is byte-identical. A person
may edit a value (a date, a status, a statement): the next read takes it as the truth.
A block mnemex cannot read (an unknown key, a bad date, a missing id) makes the whole
file unreadable as facts: :class:`~mnemex.errors.FactError` names the line, and every
write to that subject is refused until it is mended, so nothing a person wrote is
overwritten by a guess.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import re
from dataclasses import dataclass, field
from typing import Any, cast

from mnemex.errors import FactError
from mnemex.facts.model import (
    LAYERS,
    PROVENANCES,
    STATUSES,
    Evidence,
    Fact,
    Layer,
    Provenance,
    Revision,
    Status,
    When,
)
from mnemex.text.dates import utc_iso
from mnemex.vault import parse_note, render_note

FACTS_TYPE = "facts"
_NOTE = (
    "%% Written by mnemex: one block per fact. The `- key: value` lines are the fact and are "
    "read back; the headings are rendered from them. See docs/vault-format.md §8. %%"
)
_LINE = re.compile(r"^- ([a-z_]+):(?: (.*))?$")
_EVIDENCE = re.compile(
    r"^(?:\[\[(?P<link>[^\]]+)\]\]|(?P<ref>\S+)) \((?P<date>\d{4}-\d{2}-\d{2})\)"
    r"(?: · (?P<obs>\S+))?$"
)
_REVISED = re.compile(
    r"^(?P<at>\S+) (?P<field>[a-z_]+) (?P<old>\"(?:[^\"\\]|\\.)*\") → "
    r"(?P<new>\"(?:[^\"\\]|\\.)*\")(?: by (?P<because>\S+))?$"
)
_SCALARS = (
    "statement",
    "predicate",
    "kind",
    "key",
    "value",
    "condition",
    "valid_from",
    "valid_until",
    "time_note",
    "time_resolved",
    "planned",
    "hedged",
    "recorded_at",
    "expired_at",
    "provenance",
    "status",
    "layer",
    "superseded_by",
    "disputes",
)


@dataclass
class FactFile:
    """The facts about one subject, as held in one file."""

    subject: str
    facts: list[Fact] = field(default_factory=list)
    page: str | None = None  # the subject's wiki page, linked from the file
    aliases: list[str] = field(default_factory=list)
    updated: dt.datetime | None = None

    def by_id(self, fact_id: str) -> Fact | None:
        return next((f for f in self.facts if f.id == fact_id), None)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def heading(fact: Fact) -> str:
    """The block's heading: what it says at a glance, rendered from the fields."""
    if fact.predicate and fact.value:
        what = fact.predicate.replace("_", " ")
        if fact.aspect:
            what = f"{what} ({fact.aspect})"
        text = f"{what}: {fact.value}"
        if fact.condition:
            text += f", {fact.condition}"
    else:
        text = fact.statement if len(fact.statement) <= 70 else fact.statement[:69] + "…"
    marks: list[str] = [fact.status]
    if fact.provenance == "agent":
        marks.append("agent's")
    if fact.pending:
        marks.append("date unresolved")
    return f"## {text} · {', '.join(marks)}"


def _render_fact(fact: Fact) -> list[str]:
    lines = [heading(fact), f"- id: {fact.id}"]
    for name in _SCALARS:
        value: Any = getattr(fact, name)
        if name in ("time_resolved",):
            if value:
                continue
            value = "false"
        elif name in ("planned", "hedged"):
            if not value:
                continue
            value = "true"
        elif name == "disputes":
            if not value:
                continue
            value = ", ".join(value)
        elif isinstance(value, dt.datetime):
            value = utc_iso(value)
        if value is None or value == "":
            continue
        lines.append(f"- {name}: {_one_line(str(value))}")
    lines.extend(f"- evidence: {e}" for e in fact.evidence)
    for rev in fact.revisions:
        by = f" by {rev.because}" if rev.because else ""
        old, new = json.dumps(rev.old, ensure_ascii=False), json.dumps(rev.new, ensure_ascii=False)
        lines.append(f"- revised: {utc_iso(rev.at)} {rev.field} {old} → {new}{by}")
    return lines


def render_facts(file: FactFile) -> str:
    """The file's text; :func:`parse_facts` reads it back to an equal :class:`FactFile`."""
    fm: dict[str, Any] = {"type": FACTS_TYPE, "subject": file.subject, "title": file.subject}
    if file.aliases:
        fm["aliases"] = list(file.aliases)
    if file.page:
        fm["page"] = f"[[{file.page}]]"
    if file.updated is not None:
        fm["updated"] = utc_iso(file.updated)
    parts = [f"# {file.subject}", "", _NOTE, ""]
    for fact in file.facts:
        parts.extend(_render_fact(fact))
        parts.append("")
    return render_note(fm, "\n".join(parts))


def _datetime(text: str, where: str) -> dt.datetime:
    try:
        value = dt.datetime.fromisoformat(text)
    except ValueError as exc:
        raise FactError(f"{where}: {text!r} is not a time (YYYY-MM-DDTHH:MM:SS+00:00)") from exc
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)


def _when(text: str, where: str) -> When:
    try:
        return When.parse(text)
    except ValueError as exc:
        raise FactError(f"{where}: {exc}") from exc


def _bool(text: str, where: str) -> bool:
    if text in ("true", "false"):
        return text == "true"
    raise FactError(f"{where}: {text!r} is not true or false")


def _choice(text: str, allowed: tuple[str, ...], where: str) -> str:
    if text not in allowed:
        raise FactError(f"{where}: {text!r} is not one of {', '.join(allowed)}")
    return text


def _build(
    fields: dict[str, str], evidence: list[Evidence], revisions: list[Revision], where: str
) -> Fact:
    for required in ("id", "statement", "recorded_at", "provenance"):
        if not fields.get(required):
            raise FactError(f"{where}: the fact has no {required}")
    fact = Fact(
        id=fields["id"],
        subject="",
        statement=fields["statement"],
        predicate=fields.get("predicate") or None,
        value=fields.get("value") or None,
        recorded_at=_datetime(fields["recorded_at"], where),
        provenance=cast(Provenance, _choice(fields["provenance"], PROVENANCES, where)),
        evidence=evidence,
        kind=fields.get("kind") or None,
        key=fields.get("key") or None,
        condition=fields.get("condition") or None,
        valid_from=_when(fields["valid_from"], where) if fields.get("valid_from") else None,
        valid_until=_when(fields["valid_until"], where) if fields.get("valid_until") else None,
        time_note=fields.get("time_note") or None,
        time_resolved=_bool(fields.get("time_resolved", "true"), where),
        planned=_bool(fields.get("planned", "false"), where),
        hedged=_bool(fields.get("hedged", "false"), where),
        expired_at=_datetime(fields["expired_at"], where) if fields.get("expired_at") else None,
        status=cast(Status, _choice(fields.get("status", "active"), STATUSES, where)),
        layer=cast(Layer, _choice(fields.get("layer", "dynamic"), LAYERS, where)),
        superseded_by=fields.get("superseded_by") or None,
        disputes=[d.strip() for d in fields.get("disputes", "").split(",") if d.strip()],
        revisions=revisions,
    )
    return fact


def parse_facts(text: str, path: str = "") -> FactFile:
    """Read a fact file written by :func:`render_facts` (or edited by a person).

    Raises:
        FactError: the file is not a fact file, or a block cannot be read (the message
            names the line).
    """
    note = parse_note(text, path)
    fm = note.frontmatter
    if fm.get("type") != FACTS_TYPE or not isinstance(fm.get("subject"), str):
        raise FactError(f"{path}: not a fact file (frontmatter needs type: facts and a subject)")
    subject = str(fm["subject"])
    page = fm.get("page")
    page_path = (
        page[2:-2]
        if isinstance(page, str) and page.startswith("[[") and page.endswith("]]")
        else None
    )
    aliases = [str(a) for a in fm.get("aliases") or [] if isinstance(a, str)]
    updated = fm.get("updated")
    out = FactFile(
        subject,
        page=page_path,
        aliases=aliases,
        updated=_datetime(str(updated), f"{path}: updated") if updated else None,
    )
    fields: dict[str, str] | None = None
    evidence: list[Evidence] = []
    revisions: list[Revision] = []
    start = 0
    seen: set[str] = set()

    def close() -> None:
        if fields is None:
            return
        fact = _build(fields, evidence, revisions, f"{path}:{start}")
        if fact.id in seen:
            raise FactError(f"{path}:{start}: a second fact with id {fact.id}")
        seen.add(fact.id)
        fact.subject = subject
        out.facts.append(fact)

    for offset, raw in enumerate(note.body.splitlines()):
        number = note.body_line + offset
        where = f"{path}:{number}"
        line = raw.rstrip()
        if line.startswith("## "):
            close()
            fields, evidence, revisions, start = {}, [], [], number
            continue
        if fields is None or not line:
            continue
        match = _LINE.match(line)
        if match is None:
            raise FactError(f"{where}: not a '- key: value' line of a fact: {line[:60]!r}")
        name, value = match.group(1), (match.group(2) or "").strip()
        if name == "evidence":
            ev = _EVIDENCE.match(value)
            if ev is None:
                raise FactError(
                    f"{where}: evidence must read '[[path]] (YYYY-MM-DD)' or 'user (YYYY-MM-DD)'"
                )
            ref = ev.group("link") or ev.group("ref") or ""
            evidence.append(
                Evidence(ref, dt.date.fromisoformat(ev.group("date")), ev.group("obs") or "")
            )
        elif name == "revised":
            rv = _REVISED.match(value)
            if rv is None:
                raise FactError(f'{where}: revised must read \'<time> <field> "old" → "new"\'')
            revisions.append(
                Revision(
                    _datetime(rv.group("at"), where),
                    rv.group("field"),
                    str(json.loads(rv.group("old"))),
                    str(json.loads(rv.group("new"))),
                    rv.group("because") or "",
                )
            )
        elif name == "id" or name in _SCALARS:
            if name in fields:
                raise FactError(f"{where}: {name} is given twice")
            fields[name] = value
        else:
            raise FactError(f"{where}: unknown key {name!r} in a fact")
    close()
    return out


def _merge_fact(ours: Fact, theirs: Fact) -> Fact:
    """One fact as two machines wrote it: the evidence of both, the earliest record time,
    and the history of the one that saw more (the other's extra revisions kept too)."""
    base, other = (theirs, ours) if len(theirs.revisions) > len(ours.revisions) else (ours, theirs)
    merged = copy.deepcopy(base)
    merged.recorded_at = min(ours.recorded_at, theirs.recorded_at)
    merged.evidence = list(dict.fromkeys([*ours.evidence, *theirs.evidence]))
    if [r[1:] for r in _rev_keys(base)] == [r[1:] for r in _rev_keys(other)]:
        # the same changes, made at different times on two machines: the earlier of each
        merged.revisions = [
            Revision(min(a.at, b.at), a.field, a.old, a.new, a.because)
            for a, b in zip(base.revisions, other.revisions, strict=True)
        ]
    else:
        known = {(r.field, r.old, r.new, r.because) for r in merged.revisions}
        extra = [r for r in other.revisions if (r.field, r.old, r.new, r.because) not in known]
        merged.revisions = sorted([*merged.revisions, *extra], key=lambda r: r.at)
    if other.layer == "stable":
        merged.layer = "stable"
    if merged.expired_at is None and other.expired_at is not None:
        merged.expired_at, merged.status = other.expired_at, other.status
    return merged


def _rev_keys(fact: Fact) -> list[tuple[dt.datetime, str, str, str, str]]:
    return [(r.at, r.field, r.old, r.new, r.because) for r in fact.revisions]


def merge_fact_files(ours: str, theirs: str, path: str) -> str:
    """The fact file two machines both changed, merged by fact id (for ``mnemex sync``).

    Facts only one side has are kept; a fact both have keeps the evidence of both (see
    :func:`_merge_fact`). Fact ids derive from evidence, so two machines that learned the
    same thing hold the same ids, and the merge converges.

    Raises:
        FactError: either side cannot be read as facts (sync then keeps both copies).
    """
    a, b = parse_facts(ours, path), parse_facts(theirs, path)
    theirs_by_id = {f.id: f for f in b.facts}
    ours_ids = {f.id for f in a.facts}
    facts = [_merge_fact(f, theirs_by_id[f.id]) if f.id in theirs_by_id else f for f in a.facts]
    facts.extend(f for f in b.facts if f.id not in ours_ids)
    updated = max((u for u in (a.updated, b.updated) if u is not None), default=None)
    merged = FactFile(
        a.subject,
        aliases=list(dict.fromkeys([*a.aliases, *b.aliases])),
        page=a.page or b.page,
        updated=updated,
        facts=facts,
    )
    return render_facts(merged)


def values_of(text: str, predicate: str) -> list[str]:
    """The values of ``predicate``'s blocks in a fact file's text, without reading the file
    whole: :func:`render_facts` writes ``- predicate:`` before ``- value:``, so a block a
    person reordered by hand is not seen here (:func:`parse_facts` reads it as ever)."""
    pattern = rf"^- predicate: {re.escape(predicate)}\n(?:- (?!value:)[^\n]*\n)*?- value: ([^\n]+)$"
    return re.findall(pattern, text, re.M)


__all__ = [
    "FACTS_TYPE",
    "FactFile",
    "heading",
    "merge_fact_files",
    "parse_facts",
    "render_facts",
    "values_of",
]
