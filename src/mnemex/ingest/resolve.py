"""Resolving a planned page against the pages a domain already has.

A source about something the wiki knows must deepen that page, not sit beside
it as a near-duplicate; two things that merely share a name must stay apart.
The resolver decides, for each :class:`~mnemex.ingest.records.PlannedPage`:

- ``merge``: the same thing (exact slug, alias, normalised name, a unique
  surname/initials/acronym form, or a close fuzzy name confirmed by type),
- ``grey``: maybe the same thing (a fuzzy name in the grey zone, or the same
  name for an entity and a concept): a new page is made and the pair is
  recorded in ``health/possible-duplicates.json`` for a person to decide,
- ``new``: nothing like it.

Planning must stay fast on a 10,000-page wiki, so the resolver never reads page
bodies: it works from a :class:`NameTable` (title, aliases, type of every
entity and concept page), built from the index and cached machine-locally by
content hash, and compares a planned name only with the entries that share a
word with it (fuzzy matching by :mod:`difflib` over that small block).
"""

from __future__ import annotations

import difflib
import json
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import yaml

try:  # the C loader is ~10x faster: a cold name table reads every page's frontmatter once
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

from mnemex.brain import Brain
from mnemex.index.backend import IndexBackend, Scope
from mnemex.ingest.extract.words import PRODUCT_SUFFIXES
from mnemex.ingest.records import PlannedPage
from mnemex.vault import Vault, atomic_write, fold_name, word_runs
from mnemex.vault.markdown import split_frontmatter

#: Fuzzy name ratio at or above which a same-kind, same-type page is merged into.
MERGE_RATIO = 0.92
#: Fuzzy name ratio from which a pair is recorded as a possible duplicate.
GREY_RATIO = 0.8
#: Cosine between a planned page and a grey-zone candidate that makes the pair one page.
EMBED_MERGE = 0.85

Decision = Literal["merge", "grey", "new"]

_HONORIFICS = frozenset(
    {"dr", "prof", "professor", "mr", "mrs", "ms", "miss", "sir", "dame", "lady", "lord", "st"}
)
_COMPANY_SUFFIXES = frozenset(
    {"inc", "incorporated", "ltd", "limited", "llc", "corp", "corporation", "co", "plc", "gmbh"}
)
_LEADING = frozenset({"the", "a", "an"})
#: Small words an acronym leaves out ("Northgate Institute of Technology" is NIT).
_ACRONYM_SKIPS = frozenset({"of", "and", "for", "the", "in", "on", "de", "at"})
_NUMBER_RE = re.compile(r"\d+")
#: "Curator App", "Curator MCP": a product's interface is the product (lower case, as compared).
_INTERFACES = frozenset(w.lower() for w in PRODUCT_SUFFIXES)
#: Entity types that say nothing: compatible with any specific type.
VAGUE_TYPES = frozenset({"", "thing", "other"})


def _singular(word: str) -> str:
    if len(word) <= 3 or word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


def name_words(name: str) -> list[str]:
    """The words of a name as compared: folded, lower-case, no honorifics, no company suffix.

    ``"Dr. Priya Raman"`` -> ``["priya", "raman"]``; ``"Lovelace Labs, Inc."`` ->
    ``["lovelace", "lab"]``; hyphens, underscores and punctuation separate words and
    plurals are singular, so ``"vector-databases"`` equals ``"Vector Database"``. Accents
    and case are folded (:func:`~mnemex.vault.fold_name`), so ``"Jose Muller"`` is
    ``"José Müller"``; letters of every script are kept (``"東京"``, ``"Москва"``).
    """
    words = word_runs(fold_name(re.sub(r"['’]s\b", "", name, flags=re.IGNORECASE)))
    while words and words[0] in _HONORIFICS | _LEADING:
        words = words[1:]
    while len(words) > 1 and words[-1] in _COMPANY_SUFFIXES:
        words = words[:-1]
    return [_singular(w) for w in words]


def _compact(key: str) -> str:
    """A normalised key without spaces, so "Kestrel DB" finds "KestrelDB"."""
    return "~" + key.replace(" ", "")


def normalise_name(name: str) -> str:
    """The key two names share when they are the same name (see :func:`name_words`)."""
    return " ".join(name_words(name))


def types_compatible(a: str, b: str) -> bool:
    """Entity types that may be the same thing: equal, or one of them unknown."""
    return a == b or a in VAGUE_TYPES or b in VAGUE_TYPES


@dataclass
class NameEntry:
    """One existing (or planned-in-this-run) entity or concept page, as the resolver sees it."""

    path: str
    kind: str  # "entity" | "concept"
    title: str
    entity_type: str = ""
    aliases: list[str] = field(default_factory=list)
    #: written by mnemex (a knowledge ``type`` in its frontmatter); hand-made pages are linked,
    #: never rewritten
    mnemex: bool = True
    hash: str = ""

    def names(self) -> list[str]:
        stem = self.path.rsplit("/", 1)[-1].removesuffix(".md")
        return [self.title, *self.aliases, stem]

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "title": self.title,
            "entity_type": self.entity_type,
            "aliases": self.aliases,
            "mnemex": self.mnemex,
            "hash": self.hash,
        }


@dataclass
class Match:
    """What the resolver decided for one planned page."""

    decision: Decision
    entry: NameEntry | None = None
    score: float = 0.0
    reason: str = ""
    #: a grey match that only a closer look may upgrade: same kind and type, fuzzy name
    confirmable: bool = False


class NameTable:
    """Every entity and concept page of a domain, keyed by normalised name, word and acronym."""

    def __init__(self, entries: Iterable[NameEntry] = ()) -> None:
        self.entries: dict[str, NameEntry] = {}
        # each index maps a key to the paths filed under it; _filed remembers where each
        # path was filed, so replacing an entry is O(its names), not O(the table)
        self._index: dict[str, dict[str, list[str]]] = {
            "key": defaultdict(list),
            "word": defaultdict(list),
            "acronym": defaultdict(list),
        }
        self._filed: dict[str, list[tuple[str, str]]] = {}
        for entry in entries:
            self.add(entry)

    def add(self, entry: NameEntry) -> None:
        """Add (or replace) an entry; later lookups in the same run see it."""
        if entry.path in self.entries:
            self._drop(entry.path)
        self.entries[entry.path] = entry
        filed: set[tuple[str, str]] = set()
        for key, words in self._keys(entry):
            filed |= {("key", key), ("key", _compact(key))}
            filed |= {("word", word) for word in words}
            initials = [w[0] for w in words if w not in _ACRONYM_SKIPS]
            if len(initials) >= 2:
                filed.add(("acronym", "".join(initials)))
        for index, key in filed:
            self._index[index][key].append(entry.path)
        self._filed[entry.path] = sorted(filed)

    def _drop(self, path: str) -> None:
        for index, key in self._filed.pop(path, []):
            bucket = self._index[index][key]
            bucket.remove(path)

    @staticmethod
    def _keys(entry: NameEntry) -> list[tuple[str, list[str]]]:
        out: list[tuple[str, list[str]]] = []
        seen: set[str] = set()
        for name in entry.names():
            words = name_words(name)
            key = " ".join(words)
            if key and key not in seen:
                seen.add(key)
                out.append((key, words))
        return out

    def _lookup(self, index: str, key: str) -> list[NameEntry]:
        return [self.entries[p] for p in self._index[index].get(key, [])]

    def by_key(self, key: str) -> list[NameEntry]:
        return self._lookup("key", key)

    def by_word(self, word: str) -> list[NameEntry]:
        return self._lookup("word", word)

    def by_acronym(self, acronym: str) -> list[NameEntry]:
        return self._lookup("acronym", acronym)

    def taken(self, path: str) -> bool:
        return path in self.entries


def _unique(entries: list[NameEntry]) -> list[NameEntry]:
    seen: dict[str, NameEntry] = {}
    for entry in entries:
        seen.setdefault(entry.path, entry)
    return list(seen.values())


def _kind_of(page: PlannedPage) -> str:
    return "entity" if page.kind == "entity" else "concept"


def _same_type(page: PlannedPage, entry: NameEntry) -> bool:
    if _is_acronym(page.name):
        # an acronym says nothing of what it names: "BfG" is no tool for its capitals, and
        # "RAG" may be a concept's ("retrieval-augmented generation")
        return True
    if _kind_of(page) != entry.kind:
        # a name with no type of its own ("dict", a "thing") and a concept of that very
        # name are one topic, found by one source as a name and by another as an idea
        vague = page.type if _kind_of(page) == "entity" else entry.entity_type
        return vague in VAGUE_TYPES
    return entry.kind == "concept" or types_compatible(page.type, entry.entity_type)


def _is_acronym(name: str) -> bool:
    return " " not in name and len(name) <= 8 and sum(c.isupper() for c in name) >= 2


def resolve_page(page: PlannedPage, table: NameTable) -> Match:
    """Decide whether ``page`` is an existing page of ``table``, maybe one, or new."""
    keys = [k for k in dict.fromkeys(normalise_name(n) for n in [page.name, *page.aliases]) if k]
    if not keys:
        return Match("new")
    grey: Match | None = None
    for key in [*keys, *(_compact(k) for k in keys)]:
        for entry in table.by_key(key):
            if _same_type(page, entry):
                return Match("merge", entry, 1.0, f"same name {key!r}")
            if _kind_of(page) != entry.kind and grey is None:
                grey = Match(
                    "grey", entry, 0.9, f"same name {key!r}, {_kind_of(page)} vs {entry.kind}"
                )
    variant = _variant_match(page, keys[0], table)
    if variant is not None:
        return variant
    fuzzy = _fuzzy_match(page, keys, table)
    if fuzzy is not None and (fuzzy.decision == "merge" or grey is None):
        return fuzzy
    return grey or Match("new")


def _variant_match(page: PlannedPage, key: str, table: NameTable) -> Match | None:
    """A surname alone, initials plus surname, an acronym, or a product's interface ("X App")
    naming exactly one page."""
    words = key.split()
    found: list[NameEntry] = []
    how = ""
    if len(words) == 1 and page.kind == "entity":
        word = words[0]
        persons = [
            e
            for e in table.by_word(word)
            if e.kind == "entity"
            and e.entity_type == "person"
            and page.type in ("person", *VAGUE_TYPES)
            and name_words(e.title)[-1:] == [word]
            and len(name_words(e.title)) > 1
        ]
        if persons:
            found, how = persons, "surname"
        elif len(word) >= 2 and page.name.isupper():
            found = [e for e in table.by_acronym(word) if _same_type(page, e)]
            how = "acronym"
    elif len(words) >= 2 and words[-1] in _INTERFACES and page.kind == "entity":
        # "Curator App" or "Curator MCP" when the wiki knows "Curator": the product itself
        stem = " ".join(words[:-1])
        found = [
            e
            for e in table.by_key(stem)
            if e.kind == "entity" and e.entity_type not in ("person", "place", "event")
        ]
        how = "interface"
    elif len(words) >= 2 and all(len(w) == 1 for w in words[:-1]) and page.kind == "entity":
        found = [
            e
            for e in table.by_word(words[-1])
            if _same_type(page, e)
            and len(name_words(e.title)) >= 2
            and name_words(e.title)[-1] == words[-1]
            and name_words(e.title)[0][0] == words[0]
        ]
        how = "initials"
    found = _unique(found)
    if len(found) == 1:
        return Match("merge", found[0], 0.95, f"{how} of {found[0].title!r}")
    if len(found) > 1:
        return Match("grey", found[0], 0.7, f"{how} fits {len(found)} pages")
    return None


def _fuzzy_match(page: PlannedPage, keys: list[str], table: NameTable) -> Match | None:
    """The closest name among the pages sharing a word with the planned page's names."""
    block: dict[str, NameEntry] = {}
    for key in keys:
        for word in key.split():
            if len(word) >= 3:
                for entry in table.by_word(word):
                    block.setdefault(entry.path, entry)
    best: tuple[float, NameEntry | None, str, str] = (0.0, None, "", "")
    for entry in block.values():
        for name in entry.names():
            other = normalise_name(name)
            for key in keys:
                matcher = difflib.SequenceMatcher(None, key, other)
                if matcher.real_quick_ratio() < GREY_RATIO or matcher.quick_ratio() < GREY_RATIO:
                    continue
                ratio = matcher.ratio()
                if ratio > best[0]:
                    best = (ratio, entry, key, other)
    ratio, found, key, other = best
    if found is None or ratio < GREY_RATIO:
        return None
    why = f"fuzzy name {ratio:.2f}"
    if _NUMBER_RE.findall(key) != _NUMBER_RE.findall(other):
        # "Kestrel 1.0" and "Kestrel 2.0", "Rust 2018" and "Rust 2021": close names, two things
        return Match("grey", found, round(ratio, 3), f"{why}, different numbers")
    same = _same_type(page, found)
    if ratio >= MERGE_RATIO and same:
        return Match("merge", found, round(ratio, 3), why)
    why += "" if same else ", different type"
    return Match("grey", found, round(ratio, 3), why, confirmable=same)


def confirm_by_embedding(
    brain: Brain, page: PlannedPage, match: Match, threshold: float = EMBED_MERGE
) -> Match:
    """Upgrade a same-type fuzzy grey match to a merge when the texts agree too.

    Compares the planned page (name, description, first facts) with the mean of
    the candidate page's existing chunk vectors in the index: one embedding and
    one small slice of the vector table, only for the rare grey-zone pages.
    """
    if not match.confirmable or match.entry is None:
        return match
    note = brain.backend.note_by_path(match.entry.path)
    if note is None:
        return match
    embedder = brain.embedder
    rows = brain.backend.vectors_of(embedder.identity, [note.id]).matrix
    if not len(rows):
        return match
    mean = rows.mean(axis=0)
    norm = float(np.linalg.norm(mean))
    text = ". ".join([page.name, page.description, *(f.text for f in page.facts[:3])])
    vector = embedder.embed_documents([text])[0]
    cosine = float(vector @ mean) / norm if norm else 0.0
    if cosine >= threshold:
        reason = f"{match.reason}, embedding {cosine:.2f}"
        return Match("merge", match.entry, round(cosine, 3), reason)
    match.reason = f"{match.reason}, embedding {cosine:.2f}"
    return match


# -- the name table of a domain ------------------------------------------------

_CACHE = "ingest/names-{domain}.json"


def _read_entry(
    vault: Vault, path: str, title: str, note_type: str | None, digest: str
) -> NameEntry:
    """Read one page's frontmatter (only the part before the body) into an entry."""
    kind = "entity" if "/entities/" in path else "concept"
    entry = NameEntry(path, kind, title, hash=digest, mnemex=note_type in ("entity", "concept"))
    try:
        with (vault.root / path).open(encoding="utf-8") as fh:
            head = fh.read(8192)
    except (OSError, UnicodeDecodeError):
        return entry
    fm_text, _, _ = split_frontmatter(head)
    if not fm_text:
        return entry
    meta = _quick_meta(fm_text)
    if meta is None:
        try:
            loaded = yaml.load(fm_text, Loader=_Loader)
        except yaml.YAMLError:
            loaded = None
        meta = loaded if isinstance(loaded, dict) else {}
    aliases = meta.get("aliases", meta.get("alias")) or []
    entry.aliases = [aliases] if isinstance(aliases, str) else [str(a) for a in aliases]
    etype = meta.get("entity_type") or ""
    entry.entity_type = str(etype[0] if isinstance(etype, list) and etype else etype)
    return entry


_NOT_PLAIN = tuple("'\"[]{}&*!|>%@`#")


def _quick_meta(fm_text: str) -> dict[str, Any] | None:
    """``aliases`` and ``entity_type`` of frontmatter as mnemex writes it, without YAML.

    A cold name table reads every page of the domain; YAML costs ~0.2 ms a page,
    this ~0.01 ms. Anything but top-level plain keys and block lists of plain
    scalars gives ``None``, and the caller parses it as YAML.
    """
    meta: dict[str, Any] = {}
    current = ""
    for line in fm_text.splitlines():
        if line.startswith(("- ", "  ")) or not line.strip():
            if current in ("aliases", "alias", "entity_type") and line.startswith("- "):
                value = line[2:].strip()
                if value.startswith(_NOT_PLAIN) or ": " in value or value.endswith(":"):
                    return None
                meta.setdefault(current, []).append(value)
            continue
        key, sep, value = line.partition(":")
        if not sep or key != key.strip():
            return None
        current, value = key, value.strip()
        if current in ("aliases", "alias", "entity_type"):
            if value in ("", "[]"):
                meta[current] = []
            elif value.startswith(_NOT_PLAIN) or ": " in value:
                return None
            else:
                meta[current] = value
    return meta


def load_name_table(vault: Vault, backend: IndexBackend, domain: str) -> NameTable:
    """The entity and concept pages of ``domain``, from the (synced) index.

    Titles, types and hashes come from the index; aliases and entity types from
    each page's frontmatter, read once and cached in ``.mnemex/`` by content
    hash, so a warm planning run reads no page at all.
    """
    folders = (f"wiki/{domain}/entities", f"wiki/{domain}/concepts")
    ids = backend.notes_in_scope(Scope(folders=folders, exclude_private=()))
    notes = backend.notes_by_id(ids or ())
    cache_path = vault.local_dir / _CACHE.format(domain=domain)
    try:
        cached: dict[str, Any] = json.loads(cache_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        cached = {}
    entries: list[NameEntry] = []
    changed = False
    for note in notes.values():
        path = note.path
        hit = cached.get(path)
        if isinstance(hit, dict) and hit.get("hash") == note.hash:
            entries.append(NameEntry(path=path, **hit))
            continue
        entries.append(_read_entry(vault, path, note.title, note.type, note.hash))
        changed = True
    if changed or len(cached) != len(entries):
        cache_path.parent.mkdir(parents=True, exist_ok=True)
        data = {e.path: e.to_json() for e in entries}
        atomic_write(cache_path, json.dumps(data, ensure_ascii=False).encode())
    return NameTable(entries)


__all__ = [
    "EMBED_MERGE",
    "GREY_RATIO",
    "MERGE_RATIO",
    "Match",
    "NameEntry",
    "NameTable",
    "confirm_by_embedding",
    "load_name_table",
    "name_words",
    "normalise_name",
    "resolve_page",
    "types_compatible",
]
