"""Handoffs: ``state/<project>/handoffs/<machine>/current.md``, one per machine (§6).

**Supersedes**: each save replaces that machine's file whole (history in git),
re-read and replaced under the vault's history lock, so two processes of one
machine cannot interleave and two machines never write the same file. Every
field is sanitised on the way in; the whole file again on the way out.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

from mnemex.errors import NoteNotFound, VaultError
from mnemex.report import Report
from mnemex.state.common import (
    MAX_HEADLINE,
    StateRefused,
    Trimmed,
    bullets,
    check_shrink,
    clean_block,
    clean_line,
    content_size,
    cut,
    parse_bullets,
    section_key,
    split_sections,
    trim_list,
)
from mnemex.state.projects import require_project
from mnemex.text.dates import utc_iso
from mnemex.text.sanitise import sanitise
from mnemex.vault import Vault, check_name, parse_note, render_note, slugify
from mnemex.vault.history import CommitResult, commit_change, recording
from mnemex.vault.journal import append_entry
from mnemex.vault.machine import machine_name

#: field -> section heading, in the order the spec gives them.
HANDOFF_SECTIONS: dict[str, str] = {
    "state": "Where things stand",
    "decisions": "Firm decisions — do not re-litigate",
    "traps": "Traps and dead ends",
    "next_steps": "Next steps",
    "observations": "Observations",
    "open_questions": "Open questions",
    "foundations_read": "Foundations read",
}
_FIELD_BY_KEY = {section_key(h): f for f, h in HANDOFF_SECTIONS.items()}
_SHA_RE = re.compile(r"^[0-9a-f]{64}$")

Observation = str | dict[str, Any]


def handoff_path(project: str, machine: str) -> str:
    return f"state/{project}/handoffs/{machine}/current.md"


@dataclass
class Saved:
    """What a brief or handoff save did."""

    outcome: str  # created | updated | unchanged
    path: str
    project: str
    machine: str
    sha256: str
    journal: str
    trimmed: dict[str, list[str]] = field(default_factory=dict)
    commit: CommitResult | None = None

    def to_dict(self) -> dict[str, Any]:
        report = Report()
        report.add(self.outcome, self.path)
        for section, items in self.trimmed.items():
            report.warn(
                self.path,
                f"{section}: {len(items)} item(s) over the limits trimmed; kept in {self.journal}",
            )
        out: dict[str, Any] = {
            **report.to_dict(),
            "path": self.path,
            "project": self.project,
            "machine": self.machine,
            "sha256": self.sha256,
            "journal": self.journal,
            "trimmed": {k: len(v) for k, v in self.trimmed.items()},
        }
        if self.commit is not None:
            out["commit"] = self.commit.to_dict()
        return out


def _time(value: Any, what: str) -> str:
    try:
        when = dt.datetime.fromisoformat(str(value).strip().replace("Z", "+00:00"))
    except ValueError:
        raise StateRefused(
            f"{what}: {str(value)[:40]!r} is not an ISO 8601 time (e.g. 2026-12-02T11:20:00+00:00)"
        ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return utc_iso(when)


def _observation(item: Observation, stamp: str) -> str:
    if isinstance(item, str):
        statement, observed, recheck = item, stamp, None
    elif isinstance(item, dict):
        statement = str(item.get("statement") or "")
        observed = _time(item["observed_at"], "observed_at") if item.get("observed_at") else stamp
        recheck = item.get("recheck")
    else:
        raise StateRefused("an observation is a string or {statement, observed_at, recheck}")
    text = clean_line(statement)
    if not text:
        return ""
    tail = f"observed {observed}"
    if recheck:
        command = clean_line(str(recheck)).replace("`", "'")
        if command:
            tail += f", recheck: `{command}`"
    return f"{text} ({tail})"


def _foundations(value: Any) -> list[str]:
    pairs: list[tuple[Any, Any]]
    if value is None:
        return []
    if isinstance(value, dict):
        pairs = list(value.items())
    else:
        pairs = []
        for item in value:
            if isinstance(item, dict):
                pairs.append((item.get("slug"), item.get("sha256")))
            else:
                slug, _, sha = str(item).replace("—", " ").partition(" ")
                pairs.append((slug, sha))
    out = []
    for slug, sha in pairs:
        name, digest = str(slug or "").strip(), str(sha or "").strip().lower()
        if not name or slugify(name) != name or not _SHA_RE.match(digest):
            raise StateRefused(
                f"foundations_read: {name!r} — {digest[:16]!r} is not a foundation slug with its "
                "64-hex sha256 (as get_context or get_foundation returned them)"
            )
        out.append(f"{name} — {digest}")
    return out


def _items(values: list[str] | None) -> list[str]:
    return [v for v in (clean_block(str(x)) for x in values or []) if v]


def save_handoff(
    vault: Vault,
    project: str,
    headline: str,
    *,
    state: list[str] | None = None,
    decisions: list[str] | None = None,
    traps: list[str] | None = None,
    next_steps: list[str] | None = None,
    observations: list[Observation] | None = None,
    open_questions: list[str] | None = None,
    foundations_read: Any = None,
    harness: str | None = None,
    model: str | None = None,
    session: str | None = None,
    create: bool = False,
    replace: bool = False,
    now: dt.datetime | None = None,
    hidden: tuple[str, ...] = (),
) -> Saved:
    """Save this machine's handoff for ``project``, replacing its last one, and commit it.

    Raises:
        StateRefused: empty headline, unknown project (without ``create``), a save
            that would shrink a substantial handoff to a sliver (without ``replace``),
            a malformed observation time or foundation hash.
        VaultError: the project name holds ``..``, a slash or is not a slug.
    """
    check_name(project, "project")
    title = clean_line(headline)
    if not title:
        raise StateRefused(
            "headline is empty: give one line saying where things stand "
            "(e.g. 'Index rebuild is green; FTS tokenizer still open')"
        )
    require_project(vault, project, create=create, hidden=hidden)
    title, whole_title = cut(title, MAX_HEADLINE)
    stamp = utc_iso(now)
    machine = machine_name(vault)
    trimmed = Trimmed()
    if whole_title is not None:
        trimmed.add("Headline", [whole_title])
    raw: dict[str, list[str]] = {
        "state": _items(state),
        "decisions": _items(decisions),
        "traps": _items(traps),
        "next_steps": _items(next_steps),
        "observations": [o for o in (_observation(x, stamp) for x in observations or []) if o],
        "open_questions": _items(open_questions),
        "foundations_read": _foundations(foundations_read),
    }
    parts = [f"# {title}", _provenance(machine, stamp, harness, model)]
    for name, heading in HANDOFF_SECTIONS.items():
        kept, omitted = trim_list(heading, raw[name], trimmed)
        if kept:
            parts.append(f"## {heading}\n{bullets(kept, omitted)}")
    body = "\n".join(parts) + "\n"
    rel = handoff_path(project, machine)
    with recording(vault):
        try:
            current = vault.read_note(rel)
        except NoteNotFound:
            current = None
        created = stamp
        if current is not None:
            old = read_handoff_text(current.text, rel)
            check_shrink("handoff", rel, content_size(old["sections"]), content_size(raw), replace)
            created = str(old["frontmatter"].get("created") or stamp)
        fm: dict[str, Any] = {"type": "handoff", "title": title, "project": project}
        fm["machine"] = machine
        if harness:
            fm["harness"] = clean_line(harness)
        if model:
            fm["model"] = clean_line(model)
        if session:
            fm["session"] = clean_line(session)
        fm.update({"created": created, "updated": stamp})
        outcome, digest = vault.write_note(
            rel,
            render_note(fm, body),
            current.hash if current else None,
            protected_ok=True,
        )
        entry: dict[str, Any] = {
            "ts": stamp,
            "machine": machine,
            "event": "handoff_saved",
            "headline": title,
            "trimmed": trimmed.to_dict(),
            "path": rel,
            "sha256": digest,
        }
        for key, value in (("harness", harness), ("model", model), ("session", session)):
            if value:
                entry[key] = clean_line(value)
        journal = append_entry(vault, project, machine, entry)
        commit = commit_change(vault, [rel, journal], "save_handoff", f"{project}: {title}")
    return Saved(outcome, rel, project, machine, digest, journal, trimmed.to_dict(), commit)


def _provenance(machine: str, stamp: str, harness: str | None, model: str | None) -> str:
    parts = [f"machine {machine}", stamp]
    if harness and clean_line(harness):
        parts.append(f"harness {clean_line(harness)}")
    if model and clean_line(model):
        parts.append(f"model {clean_line(model)}")
    return "Provenance: " + " · ".join(parts)


def read_handoff_text(text: str, rel: str) -> dict[str, Any]:
    """A handoff file as data: sanitised whole, then split into its sections."""
    clean = sanitise(text)
    parsed = parse_note(clean, rel)
    title, preamble, sections = split_sections(parsed.body)
    fields: dict[str, list[str]] = {}
    extra: dict[str, list[str]] = {}
    for key, value in sections.items():
        name = _FIELD_BY_KEY.get(key)
        items = [i for i in parse_bullets(value) if not re.fullmatch(r"_\d+ more omitted_", i)]
        if name:
            fields[name] = items
        else:
            extra[key] = items
    provenance = next((ln for ln in preamble if ln.startswith("Provenance:")), None)
    fm = parsed.frontmatter
    return {
        "path": rel,
        "headline": title or str(fm.get("title") or ""),
        "machine": str(fm.get("machine") or (rel.split("/")[-2:-1] or [""])[0]),
        "harness": fm.get("harness"),
        "model": fm.get("model"),
        "updated": str(fm.get("updated") or ""),
        "provenance": provenance,
        "sections": fields,
        "other_sections": extra,
        "frontmatter": fm,
        "text": parsed.body.strip(),
    }


def list_handoffs(vault: Vault, project: str) -> list[dict[str, Any]]:
    """Every machine's current handoff of ``project``, newest first."""
    check_name(project, "project")
    folder = vault.root / "state" / project / "handoffs"
    out = []
    if folder.is_dir():
        for path in sorted(folder.glob("*/current.md")):
            rel = path.relative_to(vault.root).as_posix()
            try:
                note = vault.read_note(rel)
            except (VaultError, OSError):  # gone, or not UTF-8: skipped, never fatal
                continue
            item = read_handoff_text(note.text, rel)
            item["sha256"] = note.hash
            out.append(item)
    out.sort(key=lambda h: h["updated"], reverse=True)
    return out


def get_handoff(vault: Vault, project: str, machine: str | None = None) -> dict[str, Any]:
    """One handoff: this ``machine``'s, else the newest of any machine.

    Raises:
        NoteNotFound: there is none.
    """
    handoffs = list_handoffs(vault, project)
    if machine is not None:
        handoffs = [h for h in handoffs if h["machine"] == machine]
    if not handoffs:
        where = f" from machine {machine}" if machine else ""
        raise NoteNotFound(
            f"no handoff for project {project!r}{where} yet; save one with save_handoff"
        )
    return handoffs[0]


__all__ = [
    "HANDOFF_SECTIONS",
    "Saved",
    "get_handoff",
    "handoff_path",
    "list_handoffs",
    "read_handoff_text",
    "save_handoff",
]
