"""Adding notes: the generic page operations on knowledge and a person's own notes.

Foundations, state, memories, health and facts have write rules of their own
and their own functions; these refuse them (see :data:`mnemex.vault.PROTECTED_FOLDERS`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mnemex.brain import Brain
from mnemex.errors import VaultError, WriteConflict
from mnemex.text.dates import utc_iso
from mnemex.vault import check_name, parse_note, render_note, slugify

#: note kind -> folder (``{domain}`` is filled in); "note" is the user's own notes.
NOTE_KINDS = {
    "note": "notes",
    "entity": "wiki/{domain}/entities",
    "concept": "wiki/{domain}/concepts",
    "summary": "wiki/{domain}/summaries",
}


@dataclass
class AddedNote:
    path: str
    outcome: str  # created | updated | unchanged
    hash: str

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "outcome": self.outcome, "hash": self.hash}


def add_note(
    brain: Brain,
    body: str,
    *,
    kind: str = "note",
    title: str | None = None,
    tags: list[str] | None = None,
    domain: str | None = None,
    path: str | None = None,
) -> AddedNote:
    """Write a new note with frontmatter; never replaces an existing file.

    Raises:
        VaultError: unknown kind or domain, or a file already exists at the path.
    """
    if kind not in NOTE_KINDS:
        raise VaultError(
            f"unknown kind {kind!r}: note add writes {', '.join(NOTE_KINDS)}; "
            "memories, state, foundations and facts have their own commands"
        )
    parsed = parse_note(body)
    title = (title or "").strip() or (parsed.title if parsed.title != "untitled" else "")
    if not title:
        first = next((ln.strip() for ln in body.splitlines() if ln.strip()), "untitled")
        title = first[:60]
    domain = domain or brain.vault.settings.domains[0]
    check_name(domain, "domain")
    if kind != "note" and domain not in brain.vault.settings.domains:
        raise VaultError(
            f"unknown domain {domain!r}; the vault's domains are "
            f"{', '.join(brain.vault.settings.domains)} (add it to mnemex.toml)"
        )
    rel = path or f"{NOTE_KINDS[kind].format(domain=domain)}/{slugify(title)}.md"
    stamp = utc_iso()
    frontmatter: dict[str, Any] = {**parsed.frontmatter}
    frontmatter.setdefault("type", kind)
    frontmatter.setdefault("title", title)
    all_tags = [*(frontmatter.get("tags") or []), *(tags or [])]
    if all_tags:
        frontmatter["tags"] = list(dict.fromkeys(t.lstrip("#") for t in all_tags))
    frontmatter.setdefault("created", stamp)
    frontmatter.setdefault("updated", stamp)
    text = render_note(frontmatter, parsed.body if parsed.frontmatter else body)
    if not text.endswith("\n"):
        text += "\n"
    clean = brain.vault.rel_path(rel)
    try:
        outcome, digest = brain.vault.write_note(clean, text)
    except WriteConflict:
        raise VaultError(
            f"a note already exists at {clean}; choose another --title or --path "
            "(note add never replaces a note)"
        ) from None
    return AddedNote(clean, outcome, digest)


__all__ = ["NOTE_KINDS", "AddedNote", "add_note"]
