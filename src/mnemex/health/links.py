"""Link checks: broken links (with a suggested target), loose links, orphans, missing backlinks.

They read the links the index resolved with Obsidian's rule
(:class:`~mnemex.vault.LinkResolver`). A link that resolves to no note and no
attachment (any other file of the vault) is broken; its suggestion is the page a
tolerant match finds (case, hyphens, plurals, honorifics, a wrong folder prefix, a
title or an alias), or for an attachment the one file of that name in another folder
or with spaces, hyphens and underscores folded, and only when exactly one matches: an
ambiguous or absent match suggests nothing. A link the index follows only by folding
hyphens and spaces, which Obsidian does not do, is loose. Links in templates and
template placeholders (``[[{{date}}]]``) are not checked.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from mnemex.health.ids import Issue
from mnemex.health.names import name_keys
from mnemex.health.scan import (
    HUB_STEMS,
    ScanContext,
    is_knowledge,
    link_source_checked,
    register_checker,
)
from mnemex.health.view import CheckedNote
from mnemex.vault.links import LinkResolver, attachment_paths, strip_note_suffix
from mnemex.vault.markdown import is_placeholder
from mnemex.vault.vault import NOTE_SUFFIXES

_FOLD_RE = re.compile(r"[\s_\-]+")


class TolerantNames:
    """Every note under the names a link might use for it, compared by :func:`name_key`."""

    def __init__(self, notes: dict[str, CheckedNote]) -> None:
        self.by_key: dict[str, set[str]] = defaultdict(set)
        self.notes = notes
        for note in notes.values():
            if note.kind in ("health",) or note.folder == "sources":
                continue
            for name in (note.stem, note.title, *note.aliases):
                for key in name_keys(name):
                    self.by_key[key].add(note.path)

    def match(self, target: str, source: CheckedNote | None) -> tuple[str | None, list[str]]:
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


def templates_folders(root: Path) -> list[str]:
    """The folders Obsidian's Templates (``.obsidian/templates.json`` ``folder``) and the
    Templater plugin (``templates_folder``) take templates from, vault-relative."""
    folders = []
    for rel, key in (
        (".obsidian/templates.json", "folder"),
        (".obsidian/plugins/templater-obsidian/data.json", "templates_folder"),
    ):
        try:
            data = json.loads((root / rel).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        folder = data.get(key) if isinstance(data, dict) else None
        if isinstance(folder, str) and folder.strip().strip("/"):
            folders.append(folder.strip().strip("/"))
    return folders


def links_checked(ctx: ScanContext) -> Callable[[CheckedNote], bool]:
    """Whose links are checked: :func:`link_source_checked`, and not a template (a template's
    links name notes it will create, ``[[{{date}}]]``)."""
    prefixes = tuple(f.lower() + "/" for f in templates_folders(ctx.vault.root))

    def checked(note: CheckedNote) -> bool:
        return link_source_checked(note) and not note.path.lower().startswith(prefixes or ("\0",))

    return checked


def _folded_file_name(path: str) -> str:
    """A file name with case, spaces, hyphens and underscores folded: only for suggestions,
    Obsidian itself does not fold them."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return _FOLD_RE.sub("-", name)


def _is_attachment_target(target: str) -> bool:
    name = target.rsplit("/", 1)[-1]
    if "." not in name:
        return False
    ext = name.rsplit(".", 1)[-1].lower()
    return 1 <= len(ext) <= 5 and ext.isalnum() and f".{ext}" not in NOTE_SUFFIXES


def exactly_named(target: str, dest: CheckedNote, source: str | None = None) -> bool:
    """Whether a link names its page as Obsidian would find it: its path from the vault's
    root or from the linking note's folder, a path suffix, its file name, or its title, in
    any case (Obsidian compares names case-insensitively).

    The index also follows a link that differs from every name of its page by hyphens and
    spaces (``[[grace-hopper]]`` for ``Grace Hopper.md``), so that search and the graph see
    it; Obsidian does not, so such a link is reported (``loose_links``) with the exact name
    as its suggestion. A page's title counts as exact: mnemex names its pages by slug and
    links them by title (``[[Priya Raman]]`` for ``priya-raman.md`` titled "Priya Raman").
    """
    bare = strip_note_suffix(target.strip().replace("\\", "/")).lower()
    if not bare:
        return True  # [[#Heading]]: this page
    path = strip_note_suffix(dest.path).lower()
    if source is not None and "/" in bare:
        relative = posixpath.normpath(posixpath.join(posixpath.dirname(source.lower()), bare))
        if relative == path:
            return True
    bare = bare.lstrip("/")
    if path == bare or path.endswith("/" + bare):
        return True
    folder, _, last = bare.rpartition("/")
    if last != dest.title.lower():
        return False
    return not folder or PurePosixPath(path).parent.as_posix().endswith(folder)


@register_checker("loose_links", "folded")
def loose_links(ctx: ScanContext) -> list[Issue]:
    """Links the index follows only by folding hyphens or spaces: one issue per (page, target)."""
    notes = ctx.view.notes
    checked = links_checked(ctx)
    grouped: dict[tuple[str, str, str], list[int]] = defaultdict(list)
    for link in ctx.view.links:
        source = notes.get(link.src)
        dest = notes.get(link.dst) if link.dst is not None else None
        if dest is None or source is None or not checked(source):
            continue
        if not exactly_named(link.target, dest, link.src):
            grouped[(link.src, link.target, dest.path)].append(link.line)
    issues = []
    for (src, target, dest_path), lines in sorted(grouped.items()):
        where = "line " + ", ".join(str(n) for n in sorted(set(lines))[:5])
        dest = notes[dest_path]
        issues.append(
            Issue(
                "loose_links",
                [src],
                f"[[{target}]] ({where}) names no file exactly: {dest_path} is called "
                f"{dest.stem!r} (title {dest.title!r}); mnemex follows it by folding hyphens "
                "and spaces, Obsidian does not",
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
    """Links that resolve to no note and no attachment, one issue per (page, target)."""
    notes = ctx.view.notes
    checked = links_checked(ctx)
    grouped: dict[tuple[str, str], list[int]] = defaultdict(list)
    for link in ctx.view.links:
        source = notes.get(link.src)
        if link.dst is not None or source is None or not checked(source):
            continue
        if is_placeholder(link.target):
            continue
        grouped[(link.src, link.target)].append(link.line)
    if not grouped:
        return []
    # The index may not know attachments: resolve again with them, as Obsidian does.
    attachments = attachment_paths(ctx.vault.root)
    resolver = LinkResolver(notes, attachments)
    by_name: dict[str, list[str]] = defaultdict(list)
    by_folded: dict[str, list[str]] = defaultdict(list)
    for rel in attachments:
        by_name[rel.rsplit("/", 1)[-1].lower()].append(rel)
        by_folded[_folded_file_name(rel)].append(rel)
    names = TolerantNames(notes)
    issues = []
    for (src, target), lines in sorted(grouped.items()):
        if resolver.resolve(target, src) is not None:
            continue
        where = "line " + ", ".join(str(n) for n in sorted(set(lines))[:5])
        data: dict[str, object] = {"target": target, "lines": sorted(set(lines))}
        suggestion = None
        if _is_attachment_target(target):
            detail = f"[[{target}]] ({where}) points to no file"
            found = by_name.get(target.replace("\\", "/").rsplit("/", 1)[-1].lower(), [])
            if not found:  # a file named with spaces for hyphens (or the reverse)
                found = by_folded.get(_folded_file_name(target), [])
            if len(found) == 1:
                suggestion = f"re-point it to {found[0]}"
            elif found:
                detail += f"; several files could be meant: {', '.join(found[:5])}"
            issues.append(Issue("broken_links", [src], detail, target, suggestion, data=data))
            continue
        best, candidates = names.match(target, notes[src])
        detail = f"[[{target}]] ({where}) points to no page"
        if best is not None:
            suggestion = f"re-point it to {best} ({_link_text(target, best)})"
            data["suggested"] = best
        elif candidates:
            detail += f"; several pages could be meant: {', '.join(candidates[:5])}"
        issues.append(Issue("broken_links", [src], detail, target, suggestion, data=data))
    return issues


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


__all__ = [
    "TolerantNames",
    "attachment_paths",
    "broken_links",
    "exactly_named",
    "links_checked",
    "loose_links",
    "missing_backlinks",
    "orphans",
    "templates_folders",
]
