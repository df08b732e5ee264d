"""Resolving links to files, the way Obsidian does.

A link names a note without its ``.md`` (``[[Ada]]``, ``[[Ada.md]]`` and ``[t](Ada.md)`` are the
same link), and any other file by its full name (``[[diagram.png]]``), case-insensitively.
When several files share that name the one with the shortest path wins (ties:
alphabetical). A link with a folder part (``[[projects/alpha]]``) names the path from the
vault's root, or from the linking note's folder, or else the end of a path.

One addition to Obsidian's rule: when no note has the name, a link whose slug matches a
note's slug resolves to it, because mnemex names its own pages by slug: ``[[Priya Raman]]``
finds ``priya-raman.md`` (health reports such a link as ``loose_links``). Failing that,
accents and case are ignored (:func:`~mnemex.vault.layout.slug_key`): ``[[Café]]`` finds
``cafe.md``, a page named before slugs kept accents.
"""

from __future__ import annotations

import os
import posixpath
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

from mnemex.vault.layout import IGNORED_FOLDERS, slug_key, slugify
from mnemex.vault.vault import NOTE_SUFFIXES


def _stem(rel: str) -> str:
    name = rel.rsplit("/", 1)[-1]
    lower = name.lower()
    for suffix in NOTE_SUFFIXES:
        if lower.endswith(suffix):
            return name[: -len(suffix)]
    return name


def strip_note_suffix(rel: str) -> str:
    """``rel`` without its note suffix (``.md``, ``.markdown``), in any case."""
    lower = rel.lower()
    for suffix in NOTE_SUFFIXES:
        if lower.endswith(suffix):
            return rel[: -len(suffix)]
    return rel


def attachment_paths(root: Path) -> list[str]:
    """Every file a link may name besides notes: images, PDFs, audio, video, canvases...

    Vault-relative paths; dot-folders and dot-files (``.obsidian``, ``.git``, ``.trash``)
    and ``node_modules`` are left out, as Obsidian leaves them out.
    """
    found: list[str] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in IGNORED_FOLDERS and not d.startswith(".")]
        for name in files:
            if name.startswith(".") or name.lower().endswith(NOTE_SUFFIXES):
                continue
            rel = os.path.relpath(os.path.join(folder, name), root)
            found.append(rel.replace(os.sep, "/"))
    return found


class LinkResolver:
    """Maps link targets to vault-relative paths of notes (and attachments, when given).

    Args:
        paths: the notes (``.md``/``.markdown``).
        attachments: every other file a link may name (images, PDFs, audio, canvases...);
            a link resolves to one only by its full name with the extension.
    """

    def __init__(self, paths: Iterable[str], attachments: Iterable[str] = ()) -> None:
        by_name: dict[str, list[str]] = defaultdict(list)
        for rel in paths:
            by_name[_stem(rel).lower()].append(rel)
        notes = set(by_name)
        for rel in attachments:
            by_name[rel.rsplit("/", 1)[-1].lower()].append(rel)
        self._by_name = {
            name: sorted(rels, key=lambda r: (r.count("/"), len(r), r))
            for name, rels in by_name.items()
        }
        self._exact: dict[str, str] = {}
        for rels in self._by_name.values():
            for rel in rels:
                self._exact.setdefault(strip_note_suffix(rel).lower(), rel)
        self._by_slug: dict[str, str] = {}
        self._by_key: dict[str, str] = {}
        for name in sorted(notes, key=lambda n: self._by_name[n][0]):
            self._by_slug.setdefault(slugify(name), self._by_name[name][0])
            self._by_key.setdefault(slug_key(name), self._by_name[name][0])

    def resolve(self, target: str, source: str | None = None) -> str | None:
        """The path a link target points to, or None when it points nowhere."""
        t = target.strip().replace("\\", "/")
        if not t:
            return source  # [[#Heading]] links to the note itself
        t = strip_note_suffix(t).lstrip("/")
        if "/" in t:
            relative = None
            if source is not None:
                relative = posixpath.normpath(posixpath.join(posixpath.dirname(source), t))
            if t.startswith(("./", "../")) and relative is not None:
                t = relative
            hit = self._exact.get(t.lower())
            if hit is None and relative is not None:
                hit = self._exact.get(relative.lower())
            if hit is not None:
                return hit
            suffix = "/" + t.lower()
            candidates = self._by_name.get(t.rsplit("/", 1)[-1].lower(), [])
            for rel in candidates:
                if strip_note_suffix(rel).lower().endswith(suffix):
                    return rel
            return None
        named = self._by_name.get(t.lower())
        if named:
            return named[0]
        return self._by_slug.get(slugify(t)) or self._by_key.get(slug_key(t))

    def shortest_target(self, intended: str, source: str) -> str:
        """The shortest wikilink target that resolves to ``intended`` from ``source``."""
        parts = strip_note_suffix(intended).split("/")
        for i in range(len(parts) - 1, -1, -1):
            candidate = "/".join(parts[i:])
            if self.resolve(candidate, source) == intended:
                return candidate
        return "/".join(parts)


__all__ = ["LinkResolver", "attachment_paths", "strip_note_suffix"]
