"""The standing brief: ``state/<project>/brief.md`` (§6).

**Supersedes**: each save replaces it whole (history in git), and only as a
person's decision; the interfaces make sure of that (the MCP tool requires
``confirmed_by_user=True``, the CLI is a person). Sections in a fixed order:
standing brief, firm decisions — do not re-litigate, working model, pointers.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from mnemex.errors import NoteNotFound
from mnemex.state.common import (
    MAX_HEADLINE,
    MAX_PROSE_CHARS,
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
from mnemex.state.handoff import Saved
from mnemex.state.projects import require_project
from mnemex.text.dates import utc_iso
from mnemex.text.sanitise import sanitise
from mnemex.vault import Vault, check_name, parse_note, render_note
from mnemex.vault.history import commit_change, recording
from mnemex.vault.journal import append_entry
from mnemex.vault.machine import machine_name

#: field -> section heading, in the fixed order.
BRIEF_SECTIONS: dict[str, str] = {
    "standing": "Standing brief",
    "decisions": "Firm decisions — do not re-litigate",
    "working_model": "Working model",
    "pointers": "Pointers",
}
_PROSE = ("standing", "working_model")
_FIELD_BY_KEY = {section_key(h): f for f, h in BRIEF_SECTIONS.items()}
#: The line :func:`bullets` ends a trimmed list with: a note, not a decision.
_OMITTED_RE = re.compile(r"_\d+ more omitted_")


def brief_path(project: str) -> str:
    return f"state/{project}/brief.md"


def save_brief(
    vault: Vault,
    project: str,
    *,
    standing: str | None = None,
    decisions: list[str] | None = None,
    working_model: str | None = None,
    pointers: list[str] | None = None,
    title: str | None = None,
    author: str = "user",
    create: bool = False,
    replace: bool = False,
    now: dt.datetime | None = None,
    hidden: tuple[str, ...] = (),
) -> Saved:
    """Replace the project's standing brief whole, and commit it.

    Args:
        author: ``user`` (a person, from the CLI) or ``<harness>@<machine>`` for
            an agent's save the person confirmed.

    Raises:
        StateRefused: nothing to save, unknown project (without ``create``), a save
            that would shrink a substantial brief to a sliver or drop a firm decision
            (either without ``replace``).
    """
    check_name(project, "project")
    require_project(vault, project, create=create, hidden=hidden)
    stamp = utc_iso(now)
    machine = machine_name(vault)
    trimmed = Trimmed()
    values: dict[str, Any] = {}
    prose = {"standing": standing, "working_model": working_model}
    for name in _PROSE:
        text = clean_block(prose[name] or "")
        text, whole = cut(text, MAX_PROSE_CHARS)
        if whole is not None:
            trimmed.add(BRIEF_SECTIONS[name], [whole])
        values[name] = text
    values["decisions"] = [v for v in (clean_block(str(x)) for x in decisions or []) if v]
    values["pointers"] = [v for v in (clean_block(str(x)) for x in pointers or []) if v]
    if not content_size(values):
        raise StateRefused(
            "the brief is empty: give at least one of standing, decisions, working_model, pointers"
        )
    heading, whole_title = cut(clean_line(title or f"Standing brief: {project}"), MAX_HEADLINE)
    if whole_title is not None:
        trimmed.add("Title", [whole_title])
    parts = [f"# {heading}"]
    kept_decisions: list[str] = []
    for name, section in BRIEF_SECTIONS.items():
        if name in _PROSE:
            if values[name]:
                parts.append(f"## {section}\n{values[name]}")
            continue
        kept, omitted = trim_list(section, values[name], trimmed)
        if name == "decisions":
            kept_decisions = kept
        if kept:
            parts.append(f"## {section}\n{bullets(kept, omitted)}")
    body = "\n".join(parts) + "\n"
    rel = brief_path(project)
    with recording(vault):
        try:
            current = vault.read_note(rel)
        except NoteNotFound:
            current = None
        created = stamp
        if current is not None:
            old = read_brief_text(current.text, rel)
            check_shrink("brief", rel, content_size(old["sections"]), content_size(values), replace)
            _check_decisions_kept(
                rel, old["sections"].get("decisions") or [], kept_decisions, replace
            )
            created = str(old["frontmatter"].get("created") or stamp)
        fm: dict[str, Any] = {
            "type": "brief",
            "title": heading,
            "project": project,
            "author": clean_line(author) or "user",
            "machine": machine,
            "created": created,
            "updated": stamp,
        }
        outcome, digest = vault.write_note(
            rel, render_note(fm, body), current.hash if current else None, protected_ok=True
        )
        entry: dict[str, Any] = {
            "ts": stamp,
            "machine": machine,
            "event": "brief_saved",
            "headline": heading,
            "trimmed": trimmed.to_dict(),
            "path": rel,
            "sha256": digest,
            "author": fm["author"],
        }
        journal = append_entry(vault, project, machine, entry)
        commit = commit_change(vault, [rel, journal], "save_brief", f"{project}: {heading}")
    return Saved(outcome, rel, project, machine, digest, journal, trimmed.to_dict(), commit)


def _normalised(text: str) -> str:
    return " ".join(text.casefold().split())


def _check_decisions_kept(rel: str, old: list[str], new: list[str], replace: bool) -> None:
    """Refuse a save after which a firm decision's text is gone from the brief.

    The shrink guard only weighs sizes, and not at all below a substantial brief, so a short
    brief lost its decisions silently; a decision is settled by a person and leaves only on
    purpose. A decision counts as kept when its text (case and spacing aside) is still within
    one of the new decisions, so rewording around it, or adding to it, is fine.

    Raises:
        StateRefused: unless ``replace``.
    """
    if replace:
        return
    kept = [_normalised(item) for item in new]
    gone = [
        item
        for item in old
        if not _OMITTED_RE.fullmatch(item.strip())
        and not any(_normalised(item) in have for have in kept)
    ]
    if gone:
        listed = "; ".join(repr(item) for item in gone)
        raise StateRefused(
            f"refused: this brief would drop {len(gone)} firm decision"
            f"{'' if len(gone) == 1 else 's'} from {rel}: {listed}. Carry forward every decision "
            "that still holds; to drop them on purpose, save again with replace=True "
            "(--replace on the command line)"
        )


def read_brief_text(text: str, rel: str) -> dict[str, Any]:
    """A brief file as data: sanitised whole, then split into its sections."""
    parsed = parse_note(sanitise(text), rel)
    title, _preamble, sections = split_sections(parsed.body)
    fields: dict[str, Any] = {}
    for key, value in sections.items():
        name = _FIELD_BY_KEY.get(key)
        if name is None:
            continue
        fields[name] = value if name in _PROSE else parse_bullets(value)
    fm = parsed.frontmatter
    return {
        "path": rel,
        "title": title or str(fm.get("title") or ""),
        "author": str(fm.get("author") or "unknown (not written by mnemex)"),
        "machine": fm.get("machine"),
        "updated": str(fm.get("updated") or ""),
        "sections": fields,
        "frontmatter": fm,
        "text": parsed.body.strip(),
    }


def get_brief(vault: Vault, project: str) -> dict[str, Any] | None:
    """The project's brief as data, or None when it has none yet."""
    check_name(project, "project")
    rel = brief_path(project)
    try:
        note = vault.read_note(rel)
    except NoteNotFound:
        return None
    out = read_brief_text(note.text, rel)
    out["sha256"] = note.hash
    return out


__all__ = ["BRIEF_SECTIONS", "brief_path", "get_brief", "read_brief_text", "save_brief"]
