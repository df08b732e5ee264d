"""A contribution to a team brain: its file format, its checks, and folding a stream.

A contribution is one JSON file in the shared repository,
``contributions/<member>/<machine>/<seq>.json``: a *delta* of one member's opted-in pages on
one machine (a *stream*), numbered by a logical sequence, never by a clock. What a stream has
contributed is the fold of its valid contributions in sequence order; the collective wiki is
a function of every stream's fold (:mod:`mnemex.team.synthesise`), so a member whose clock is
days off loses nothing, and two machines computing it get the same bytes.

Pages are named by their titles, never by their paths: a path such as
``notes/divorce-lawyer.md`` is itself data and never leaves the member's machine.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

FORMAT = 1
#: A contribution larger than this is quarantined unread.
MAX_CONTRIBUTION_BYTES = 1_000_000
CONTRIBUTIONS = "contributions"
_SEQ_RE = re.compile(r"^(\d{8})\.json$")
_ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")
_PAGE_TYPES = frozenset({"entity", "concept", "summary", "page"})
_MAX_TEXT = 2_000
_SPACE_RE = re.compile(r"\s+")


def fact_key(text: str) -> str:
    """Two statements with this key are the same statement (case, spacing, end stop)."""
    return _SPACE_RE.sub(" ", text).strip().rstrip(".;:").casefold()


def name_key(name: str) -> str:
    """Two page names with this key name one page (case, accents and spacing aside)."""
    from mnemex.vault.layout import fold_name

    return fold_name(name)


def canonical(data: Any) -> bytes:
    """The one byte form of JSON data: sorted keys, no spaces, UTF-8."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def digest(data: Any) -> str:
    return "sha256:" + hashlib.sha256(canonical(data)).hexdigest()


def valid_id(value: str) -> bool:
    """A member id or a machine id: lower-case letters, digits and ``-``."""
    return bool(_ID_RE.match(value))


@dataclass
class Fact:
    """A statement from a page, with the source it cites (title or URL, and date)."""

    text: str
    title: str | None = None
    url: str | None = None
    date: str | None = None

    def to_dict(self) -> dict[str, Any]:
        cite = (("title", self.title), ("url", self.url), ("date", self.date))
        return {"text": self.text, "cite": {k: v for k, v in cite if v}}


@dataclass
class PageState:
    """What one stream says about one page: its name, kind, aliases, facts and links."""

    name: str
    type: str = "page"
    aliases: set[str] = field(default_factory=set)
    facts: dict[str, Fact] = field(default_factory=dict)  # fact_key -> fact
    links: set[str] = field(default_factory=set)  # names of other opted-in pages

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.type,
            "aliases": sorted(self.aliases),
            "facts": [self.facts[k].to_dict() for k in sorted(self.facts)],
            "links": sorted(self.links),
        }


State = dict[str, PageState]  # name_key -> page


def state_digest(state: State) -> str:
    """The content hash of a stream's whole state: what a contribution summarises."""
    return digest([state[k].to_dict() for k in sorted(state)])


def delta(old: State, new: State) -> list[dict[str, Any]]:
    """The page changes that turn ``old`` into ``new``, in name order."""
    changes: list[dict[str, Any]] = []
    for key in sorted(old.keys() | new.keys()):
        before, after = old.get(key), new.get(key)
        if after is None:
            assert before is not None
            changes.append({"name": before.name, "gone": True})
            continue
        if before is not None and before.to_dict() == after.to_dict():
            continue
        b = before or PageState(after.name, after.type)
        change: dict[str, Any] = {"name": after.name, "type": after.type}
        for part, was, now in (
            ("aliases", b.aliases, after.aliases),
            ("links", b.links, after.links),
        ):
            if now - was:
                change[f"{part}_added"] = sorted(now - was)
            if was - now:
                change[f"{part}_removed"] = sorted(was - now)
        added = [after.facts[k].to_dict() for k in sorted(after.facts) if _changed(b, after, k)]
        if added:
            change["facts_added"] = added
        removed = [b.facts[k].text for k in sorted(b.facts) if k not in after.facts]
        if removed:
            change["facts_removed"] = removed
        changes.append(change)
    return changes


def _changed(before: PageState, after: PageState, key: str) -> bool:
    was = before.facts.get(key)
    return was is None or was.to_dict() != after.facts[key].to_dict()


@dataclass
class Contribution:
    """One valid contribution file, read."""

    path: str
    member: str
    machine: str
    seq: int
    covers: str
    pages: list[dict[str, Any]]

    @property
    def stream(self) -> str:
        return f"{self.member}/{self.machine}"


class Malformed(ValueError):
    """A contribution that cannot be used; quarantined with this reason, never fatal."""


def contribution_path(member: str, machine: str, seq: int) -> str:
    return f"{CONTRIBUTIONS}/{member}/{machine}/{seq:08d}.json"


def read_contribution(path: str, data: bytes, team: str) -> Contribution:
    """Check and read one contribution file (``path`` relative to the shared repository).

    Raises:
        Malformed: too large, not JSON, the wrong shape, or not what its path says.
    """
    if len(data) > MAX_CONTRIBUTION_BYTES:
        raise Malformed(f"{len(data):,} bytes, over the {MAX_CONTRIBUTION_BYTES:,}-byte limit")
    parts = path.split("/")
    match = _SEQ_RE.match(parts[-1]) if len(parts) == 4 else None
    if match is None or parts[0] != CONTRIBUTIONS:
        raise Malformed("not named contributions/<member>/<machine>/<8-digit seq>.json")
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise Malformed(f"not JSON: {exc}") from None
    if not isinstance(doc, dict):
        raise Malformed("not a JSON object")
    if doc.get("format") != FORMAT:
        raise Malformed(f"format {doc.get('format')!r}, expected {FORMAT}")
    if doc.get("team") != team:
        raise Malformed(f"for team {doc.get('team')!r}, not {team!r}")
    member, machine, seq = doc.get("member"), doc.get("machine"), doc.get("seq")
    if (member, machine, seq) != (parts[1], parts[2], int(match[1])):
        raise Malformed("member, machine or seq differ from the file's path")
    if not (isinstance(member, str) and valid_id(member) and isinstance(machine, str)):
        raise Malformed("member or machine is not an id")
    if not valid_id(machine) or not isinstance(seq, int) or seq < 1:
        raise Malformed("machine is not an id or seq is not a positive number")
    covers, pages = doc.get("covers"), doc.get("pages")
    if not isinstance(covers, str) or not isinstance(pages, list):
        raise Malformed("covers must be a string and pages a list")
    for page in pages:
        _check_page(page)
    return Contribution(path, member, machine, seq, covers, pages)


def _check_page(page: Any) -> None:
    if not isinstance(page, dict):
        raise Malformed("a page change is not an object")
    name = page.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 300:
        raise Malformed("a page change has no name (or one over 300 characters)")
    if page.get("type", "page") not in _PAGE_TYPES:
        raise Malformed(f"page {name!r}: unknown type {page.get('type')!r}")
    for part in ("aliases_added", "aliases_removed", "links_added", "links_removed"):
        values = page.get(part, [])
        if not isinstance(values, list) or not all(_short(v) for v in values):
            raise Malformed(f"page {name!r}: {part} must be a list of names")
    removed = page.get("facts_removed", [])
    if not isinstance(removed, list) or not all(_text(v) for v in removed):
        raise Malformed(f"page {name!r}: facts_removed must be a list of statements")
    added = page.get("facts_added", [])
    if not isinstance(added, list):
        raise Malformed(f"page {name!r}: facts_added must be a list")
    for fact in added:
        if not isinstance(fact, dict) or not _text(fact.get("text")):
            raise Malformed(f"page {name!r}: a fact has no text (or is over {_MAX_TEXT})")
        cite = fact.get("cite", {})
        if not isinstance(cite, dict) or not all(
            k in ("title", "url", "date") and _short(v) for k, v in cite.items()
        ):
            raise Malformed(f"page {name!r}: a fact's cite must hold title, url and date")


def _short(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 500


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip()) and len(value) <= _MAX_TEXT


def chunk_pages(pages: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Page changes cut into files well under the size limit (a big first contribution)."""
    limit = MAX_CONTRIBUTION_BYTES * 3 // 4
    chunks: list[list[dict[str, Any]]] = [[]]
    size = 0
    for page in pages:
        n = len(canonical(page)) + 8
        if chunks[-1] and size + n > limit:
            chunks.append([])
            size = 0
        chunks[-1].append(page)
        size += n
    return chunks


def apply(state: State, pages: list[dict[str, Any]]) -> None:
    """Fold one contribution's page changes into a stream's state."""
    for page in pages:
        key = name_key(page["name"])
        if page.get("gone"):
            state.pop(key, None)
            continue
        current = state.setdefault(key, PageState(page["name"]))
        current.name = page["name"]
        current.type = page.get("type", current.type)
        current.aliases |= set(page.get("aliases_added", []))
        current.aliases -= set(page.get("aliases_removed", []))
        current.links |= set(page.get("links_added", []))
        current.links -= set(page.get("links_removed", []))
        for text in page.get("facts_removed", []):
            current.facts.pop(fact_key(text), None)
        for fact in page.get("facts_added", []):
            cite = fact.get("cite", {})
            current.facts[fact_key(fact["text"])] = Fact(
                fact["text"], cite.get("title"), cite.get("url"), cite.get("date")
            )


def fold(contributions: list[Contribution]) -> State:
    """A stream's state: its contributions applied in sequence order."""
    state: State = {}
    for item in sorted(contributions, key=lambda c: c.seq):
        apply(state, item.pages)
    return state


__all__ = [
    "CONTRIBUTIONS",
    "FORMAT",
    "MAX_CONTRIBUTION_BYTES",
    "Contribution",
    "Fact",
    "Malformed",
    "PageState",
    "State",
    "apply",
    "canonical",
    "chunk_pages",
    "contribution_path",
    "delta",
    "digest",
    "fact_key",
    "fold",
    "name_key",
    "read_contribution",
    "state_digest",
    "valid_id",
]
