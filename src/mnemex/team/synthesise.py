"""The collective wiki: a deterministic function of the team's valid contributions.

Every stream's contributions are folded in sequence order (:func:`mnemex.team.model.fold`);
pages of all streams that share a name or an alias become one page (the same name rule
ingestion uses to keep one page per thing); on each page:

- statements are unioned: an exact repeat (case, spacing and end stop aside) is one statement
  backed by each member who made it; a near-identical formulation (the same words in any order,
  or a few more, at most one in ten, no number and no negation among them) is merged into
  the first;
- two members' statements that say the same thing but for one or two words (a number, a
  date, a name, a "not") are *differing statements*: both kept, side by side, each with who
  said it;
- links name pages; a link to a page no member contributed is dropped, never left broken;
- a *Provenance* section names every contributor (or an anonymous id, as the team sets).

Nothing here reads a clock, a path of a member's vault, or the order files were found in: the
same set of contributions gives the same bytes on every machine, so two syntheses at once
agree and the second push is a no-op.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

import yaml

from mnemex.ingest.resolve import normalise_name
from mnemex.team.model import Contribution, Fact, PageState, State, fact_key, fold, name_key
from mnemex.vault.layout import slugify

WIKI = "wiki"
#: A synthesis that would delete more than this share of the wiki's pages is refused.
SHRINK_LIMIT = 0.5
#: Below this many pages, shrinking is not judged by share (an empty result still is).
SHRINK_FLOOR = 4
_WORD_RE = re.compile(r"[^\W_]+", re.UNICODE)
_NUMBER_RE = re.compile(r"\d")
#: Words that turn a statement around; the ``t`` of ``isn't`` and ``don't`` among them.
_NEGATIONS = frozenset({"not", "no", "never", "none", "cannot", "without", "nor", "t"})


@dataclass
class Statement:
    text: str
    fact: Fact
    by: set[str] = field(default_factory=set)  # contributor labels


@dataclass
class Page:
    """One page of the collective wiki, before it is rendered."""

    slug: str
    name: str
    type: str
    aliases: list[str]
    statements: list[Statement]
    differing: list[tuple[Statement, Statement]]
    links: list[str]  # names
    contributors: Counter[str]


@functools.lru_cache(maxsize=65_536)
def page_keys(name: str) -> frozenset[str]:
    """The keys under which a name finds its page: ingestion's name rule (folded, no
    honorific or company suffix, plurals singular), and the same without spaces, so "Kestrel
    DB" is "KestrelDB"; a name that rule empties keeps its folded form."""
    key = normalise_name(name) or name_key(name)
    return frozenset({key, "~" + key.replace(" ", "")}) if key else frozenset()


def contributor_label(member: str, team: str, attribution: str) -> str:
    """How a member is named on the wiki: the member id, or a stable anonymous id."""
    if attribution == "anonymous":
        return "member-" + hashlib.sha256(f"{team}\0{member}".encode()).hexdigest()[:8]
    return member


def streams(contributions: list[Contribution]) -> dict[str, State]:
    """Each stream's state, by stream name."""
    by_stream: dict[str, list[Contribution]] = defaultdict(list)
    for item in contributions:
        by_stream[item.stream].append(item)
    return {name: fold(items) for name, items in sorted(by_stream.items())}


def build(
    contributions: list[Contribution], team: str, attribution: str = "named"
) -> dict[str, bytes]:
    """The collective wiki's files (``wiki/<slug>.md`` -> bytes) for these contributions."""
    states = streams(contributions)
    groups = _group(states)
    pages = [_page(group, team, attribution) for group in groups]
    _assign_slugs(pages)
    by_name: dict[str, Page] = {}
    for page in pages:
        for name in (page.name, *page.aliases):
            for key in sorted(page_keys(name)):
                by_name.setdefault(key, page)
    return {f"{WIKI}/{page.slug}.md": _render(page, by_name).encode() for page in pages}


def _group(states: dict[str, State]) -> list[list[tuple[str, PageState]]]:
    """Pages of every stream that share a name or an alias, as groups (union-find)."""
    entries = [
        (stream, page) for stream, state in states.items() for _, page in sorted(state.items())
    ]
    parent = list(range(len(entries)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first: dict[str, int] = {}
    for i, (_, page) in enumerate(entries):
        for key in sorted(set().union(*(page_keys(n) for n in (page.name, *page.aliases)))):
            if key in first:
                a, b = find(first[key]), find(i)
                parent[max(a, b)] = min(a, b)
            else:
                first[key] = i
    grouped: dict[int, list[tuple[str, PageState]]] = defaultdict(list)
    for i, entry in enumerate(entries):
        grouped[find(i)].append(entry)
    return [grouped[k] for k in sorted(grouped)]


def _page(group: list[tuple[str, PageState]], team: str, attribution: str) -> Page:
    names = Counter(page.name for _, page in group)
    name = min(names, key=lambda n: (-names[n], -len(n), n.casefold(), n))  # most said, fullest
    types = Counter(page.type for _, page in group)
    kind = min(types, key=lambda t: (-types[t], t))
    aliases = sorted(
        {a for _, page in group for a in (page.name, *page.aliases)} - {name},
        key=lambda a: (a.casefold(), a),
    )
    exact: dict[str, Statement] = {}
    contributors: Counter[str] = Counter()
    for stream, page in group:
        label = contributor_label(stream.split("/", 1)[0], team, attribution)
        contributors.setdefault(label, 0)
        for key in sorted(page.facts):
            fact = page.facts[key]
            held = exact.setdefault(key, Statement(fact.text, fact))
            if label not in held.by:
                held.by.add(label)
                contributors[label] += 1
    statements, differing = _merge_near(sorted(exact.values(), key=lambda s: fact_key(s.text)))
    links = sorted({link for _, page in group for link in page.links}, key=str.casefold)
    return Page("", name, kind, aliases, statements, differing, links, contributors)


def _words(text: str) -> list[str]:
    return [w.casefold() for w in _WORD_RE.findall(text)]


def _merge_near(
    statements: list[Statement],
) -> tuple[list[Statement], list[tuple[Statement, Statement]]]:
    """Fold near-identical statements into the first; pair up differing ones.

    Candidates are visited in statement order, never in the order of a set (which changes
    with each process's string hashing), so every machine pairs the same statements. Only
    statements sharing at least half of this one's words (and 3) can be near-identical or
    differing (see :func:`_relation`), so only those are compared.
    """
    kept: list[Statement] = []
    differing: list[tuple[Statement, Statement]] = []
    paired: set[int] = set()
    words = [frozenset(_words(s.text)) for s in statements]
    by_word: dict[str, list[int]] = defaultdict(list)
    for i, statement in enumerate(statements):
        shared = Counter(j for word in words[i] for j in by_word.get(word, ()))
        needed = max(3, (len(words[i] - _NEGATIONS) + 1) // 2)
        near = None
        for j in sorted(j for j, count in shared.items() if count >= needed):
            relation = _relation(words[j], words[i])
            if relation == "same":
                near = j
                break
            free = j not in paired and i not in paired
            if relation == "differs" and free and statements[j].by != statement.by:
                differing.append((statements[j], statement))
                paired |= {i, j}
        if near is not None:
            statements[near].by |= statement.by
            continue
        kept.append(statement)
        for word in words[i]:
            by_word[word].append(i)
    differing_ids = {id(s) for pair in differing for s in pair}
    return [s for s in kept if id(s) not in differing_ids], differing


def _relation(a: frozenset[str], b: frozenset[str]) -> str | None:
    """``same`` (near-identical), ``differs`` (one thing said two ways: a number, a date, a
    name, a negation differs), or ``None``."""
    if len(a) < 3 or len(b) < 3:
        return None
    common, only_a, only_b = a & b, a - b, b - a
    if not only_a and not only_b:
        return "same"
    if len(common) < 3 or len(common) * 2 < min(len(a), len(b)):
        return None  # too little in common to be one statement: the usual case, decided fast
    numbers = any(_NUMBER_RE.search(w) for w in only_a | only_b)
    negated = bool((only_a | only_b) & _NEGATIONS)  # "is supported" / "is not supported"
    inserted = not only_a or not only_b  # words added, none replaced
    if negated and len((only_a | only_b) - _NEGATIONS) <= 1 and len(common) >= 3:
        return "differs"
    if inserted and not numbers and len(only_a | only_b) <= max(1, len(a | b) // 10):
        return "same"
    swapped = len(only_a) + len(only_b)
    if only_a and only_b and len(only_a) <= 2 and len(only_b) <= 2 and len(common) >= 2 * swapped:
        return "differs"
    return None


def _assign_slugs(pages: list[Page]) -> None:
    """A file name per page, unique (``-2``, ``-3`` after a clash, in page order)."""
    taken: set[str] = set()
    for page in pages:
        base = slugify(page.name)
        slug, n = base, 2
        while slug.casefold() in taken:
            slug, n = f"{base}-{n}", n + 1
        taken.add(slug.casefold())
        page.slug = slug


def _find(by_name: dict[str, Page], name: str) -> Page | None:
    return next((by_name[k] for k in sorted(page_keys(name)) if k in by_name), None)


def _linked(text: str, by_name: dict[str, Page]) -> str:
    """``[[Name]]`` in a statement pointed at the page of that name, or left as plain text."""

    def link(match: re.Match[str]) -> str:
        target, _, alias = match[1].partition("|")
        page = _find(by_name, target)
        if page is None:
            return alias or target
        return f"[[{page.slug}|{alias or target}]]"

    return re.sub(r"\[\[([^\[\]\n]+?)\]\]", link, text)


def _cite(fact: Fact) -> str:
    parts = [p for p in (fact.title, fact.url, fact.date) if p]
    return f" ({'; '.join(parts)})" if parts else ""


def _said(statement: Statement, by_name: dict[str, Page]) -> str:
    """A statement as a line: linked, cited, and who made it."""
    who = ", ".join(sorted(statement.by))
    return f"{_linked(statement.text, by_name)}{_cite(statement.fact)} — {who}"


def _render(page: Page, by_name: dict[str, Page]) -> str:
    meta: dict[str, Any] = {
        "type": page.type,
        "title": page.name,
        "aliases": page.aliases,
        "contributors": sorted(page.contributors),
    }
    lines = [f"# {page.name}", ""]
    if page.statements:
        lines.append("## Statements")
        lines += [f"- {_said(s, by_name)}" for s in page.statements]
        lines.append("")
    if page.differing:
        lines.append("## Differing statements")
        for first, second in page.differing:
            lines.append(f"- {_said(first, by_name)}")
            lines.append(f"  - differs: {_said(second, by_name)}")
        lines.append("")
    linked = (_find(by_name, n) for n in page.links)
    slugs = {p.slug: p for p in linked if p is not None}
    related = [p for slug, p in slugs.items() if slug != page.slug]
    if related:
        lines.append("## Related")
        lines += [f"- [[{p.slug}|{p.name}]]" for p in related]
        lines.append("")
    lines.append("## Provenance")
    for label in sorted(page.contributors):
        count = page.contributors[label]
        lines.append(f"- {label}: {count} statement{'s' if count != 1 else ''}")
    front = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, default_flow_style=False)
    return f"---\n{front}---\n" + "\n".join(lines) + "\n"


__all__ = ["SHRINK_FLOOR", "SHRINK_LIMIT", "WIKI", "build", "contributor_label", "streams"]
