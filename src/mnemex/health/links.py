"""Link checks: broken links (with a suggested target), orphans, missing backlinks.

They read the links the index resolved with Obsidian's rule
(:class:`~mnemex.vault.LinkResolver`). A link the resolver could not place is
broken; its suggestion is the page a tolerant match finds (case, hyphens,
plurals, honorifics, a wrong folder prefix, a title or an alias), and only when
exactly one page matches: an ambiguous or absent match suggests nothing.
"""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import PurePosixPath
from urllib.parse import unquote

from mnemex.health.ids import Issue
from mnemex.health.names import name_keys
from mnemex.health.scan import (
    HUB_STEMS,
    ScanContext,
    is_knowledge,
    link_source_checked,
    register_checker,
)
from mnemex.health.view import NoteRow
from mnemex.vault.layout import IGNORED_FOLDERS
from mnemex.vault.links import strip_note_suffix
from mnemex.vault.vault import NOTE_SUFFIXES


class TolerantNames:
    """Every note under the names a link might use for it, compared by :func:`name_key`."""

    def __init__(self, notes: dict[str, NoteRow]) -> None:
        self.by_key: dict[str, set[str]] = defaultdict(set)
        self.notes = notes
        for note in notes.values():
            if note.kind in ("health",) or note.folder == "sources":
                continue
            for name in (note.stem, note.title, *note.aliases):
                for key in name_keys(name):
                    self.by_key[key].add(note.path)

    def match(self, target: str, source: NoteRow | None) -> tuple[str | None, list[str]]:
        """``(the single best page, every candidate)`` for a link target that resolved nowhere."""
        bare = strip_note_suffix(target.strip().replace("\\", "/"))
        last = bare.rsplit("/", 1)[-1]
        found: set[str] = set()
        for key in name_keys(last):
            found |= self.by_key.get(key, set())
        candidates = sorted(found)
        if source is not None:
            candidates = [c for c in candidates if c != source.path]
        if len(candidates) == 1:
            return candidates[0], candidates
        if len(candidates) > 1 and source is not None:
            local = [c for c in candidates if self.notes[c].domain == source.domain]
            if len(local) == 1 and source.domain is not None:
                return local[0], candidates
        return None, candidates


def _link_text(target: str, dest: str) -> str:
    stem = PurePosixPath(dest).stem
    return f"[[{stem}]]" if target.lower() != stem.lower() else f"[[{dest}]]"


def _attachment_names(ctx: ScanContext) -> set[str]:
    """Lower-case names of every non-note file, for embeds like ``![[diagram.png]]``."""
    names: set[str] = set()
    for folder, dirs, files in os.walk(ctx.vault.root):
        dirs[:] = [d for d in dirs if d not in IGNORED_FOLDERS]
        for name in files:
            if not name.lower().endswith(NOTE_SUFFIXES):
                rel = os.path.relpath(os.path.join(folder, name), ctx.vault.root)
                names.add(name.lower())
                names.add(rel.replace(os.sep, "/").lower())
    return names


def _is_attachment_target(target: str) -> bool:
    name = target.rsplit("/", 1)[-1]
    if "." not in name:
        return False
    ext = name.rsplit(".", 1)[-1].lower()
    return 1 <= len(ext) <= 5 and ext.isalnum() and f".{ext}" not in NOTE_SUFFIXES


def exactly_named(target: str, dest: NoteRow) -> bool:
    """Whether a link names its page exactly: its path (or a path suffix), file name or title.

    The index also follows a link that differs from every name of its page only by case or
    by hyphens and spaces (``[[priya raman]]``, ``[[Priya-Raman]]`` for ``Priya Raman.md``),
    so that search and the graph see it; but another markdown tool may not, so such a link
    is reported with the exact name as its suggestion. A page's title counts as exact: mnemex
    names its pages by slug and links them by title (``[[Priya Raman]]`` for
    ``priya-raman.md`` titled "Priya Raman").
    """
    bare = strip_note_suffix(unquote(target.strip().replace("\\", "/")).lstrip("/"))
    path = strip_note_suffix(dest.path)
    if path == bare or path.endswith("/" + bare):
        return True
    folder, _, last = bare.rpartition("/")
    if last != dest.title:
        return False
    return not folder or PurePosixPath(path).parent.as_posix().endswith(folder)


def _loose_links(ctx: ScanContext) -> list[Issue]:
    """Links the index follows only by folding case or hyphens: one issue per (page, target)."""
    notes = ctx.view.notes
    grouped: dict[tuple[str, str, str], list[int]] = defaultdict(list)
    for link in ctx.view.links:
        source = notes.get(link.src)
        dest = notes.get(link.dst) if link.dst is not None else None
        if dest is None or source is None or not link_source_checked(source):
            continue
        if not exactly_named(link.target, dest):
            grouped[(link.src, link.target, dest.path)].append(link.line)
    issues = []
    for (src, target, dest_path), lines in sorted(grouped.items()):
        where = "line " + ", ".join(str(n) for n in sorted(set(lines))[:5])
        dest = notes[dest_path]
        issues.append(
            Issue(
                "broken_links",
                [src],
                f"[[{target}]] ({where}) names no page exactly: {dest_path} is called "
                f"{dest.stem!r} (title {dest.title!r}); mnemex follows it, other markdown "
                "tools may not",
                target,
                f"re-point it to {dest_path} ({_link_text(target, dest_path)})",
                data={
                    "target": target,
                    "lines": sorted(set(lines)),
                    "suggested": dest_path,
                    "loose": True,
                },
            )
        )
    return issues


@register_checker("broken_links", "unresolved")
def broken_links(ctx: ScanContext) -> list[Issue]:
    """Links that resolve to no note (or only loosely), one issue per (page, target)."""
    notes = ctx.view.notes
    grouped: dict[tuple[str, str], list[int]] = defaultdict(list)
    for link in ctx.view.links:
        source = notes.get(link.src)
        if link.dst is not None or source is None or not link_source_checked(source):
            continue
        grouped[(link.src, link.target)].append(link.line)
    loose = _loose_links(ctx)
    if not grouped:
        return loose
    names = TolerantNames(notes)
    attachments: set[str] | None = None
    issues = []
    for (src, target), lines in sorted(grouped.items()):
        if _is_attachment_target(target):
            if attachments is None:
                attachments = _attachment_names(ctx)
            clean = target.strip().lstrip("/").lower()
            if clean in attachments or clean.rsplit("/", 1)[-1] in attachments:
                continue
        best, candidates = names.match(target, notes[src])
        where = "line " + ", ".join(str(n) for n in sorted(set(lines))[:5])
        detail = f"[[{target}]] ({where}) points to no page"
        suggestion = None
        data: dict[str, object] = {"target": target, "lines": sorted(set(lines))}
        if best is not None:
            suggestion = f"re-point it to {best} ({_link_text(target, best)})"
            data["suggested"] = best
        elif candidates:
            detail += f"; several pages could be meant: {', '.join(candidates[:5])}"
        issues.append(Issue("broken_links", [src], detail, target, suggestion, data=data))
    return issues + loose


@register_checker("orphans", "no_incoming_links")
def orphans(ctx: ScanContext) -> list[Issue]:
    """Entity and concept pages that no other note links to."""
    incoming = ctx.view.incoming()
    issues = []
    for note in ctx.view.notes.values():
        if not is_knowledge(note) or note.stem.lower() in HUB_STEMS:
            continue
        if incoming.get(note.path):
            continue
        sources = [
            s["path"]
            for s in note.frontmatter.get("sources") or []
            if isinstance(s, dict) and isinstance(s.get("path"), str)
        ]
        known = [s for s in sources if s in ctx.view.notes]
        suggestion = (
            f"link it from {known[0]}, the summary it cites as its source"
            if known
            else "link it from a related page, or delete it if it is not needed"
        )
        issues.append(
            Issue(
                "orphans",
                [note.path],
                f"{note.title!r} has no links from any other note",
                suggestion=suggestion,
                data={"cited_by": known} if known else {},
            )
        )
    return issues


@register_checker("missing_backlinks", "summary_entities")
def missing_backlinks(ctx: ScanContext) -> list[Issue]:
    """A summary links to an entity or concept whose page does not link back to it."""
    notes = ctx.view.notes
    outgoing = ctx.view.outgoing()
    issues = []
    for note in notes.values():
        if note.kind != "knowledge" or note.folder != "summaries":
            continue
        for dest in sorted(outgoing.get(note.path, ())):
            page = notes.get(dest)
            if page is None or page.folder not in ("entities", "concepts"):
                continue
            if note.path in outgoing.get(dest, ()):
                continue
            issues.append(
                Issue(
                    "missing_backlinks",
                    [dest, note.path],
                    f"{note.path} links to {dest}, which does not link back to it",
                    suggestion=f"add a link to {note.path} under ## Sources of {dest}",
                    data={"page": dest, "summary": note.path},
                )
            )
    return issues


__all__ = ["TolerantNames", "broken_links", "exactly_named", "missing_backlinks", "orphans"]
