"""What of a member's vault may leave it: the opted-in pages, read as names, facts and links.

Only pages under ``wiki/<domain>/`` of an opted-in domain are read, never a domain's
``sources/`` (the originals), never a mirror, never a private domain. A page becomes its
title, aliases and kind; each statement on it (its lead, its bullets, the lines of its
sections other than *Related* and *Sources*) becomes a fact with the source it cites (the
summary page's title, URL and date, never its path); links become the titles of the
opted-in pages they point to. A page whose frontmatter names a private project or domain
stays, wherever it is filed. A link to anything else (a private page, a note outside the
opted-in domains) is withheld: its alias text stays, the name it points to does not. Every
statement is stripped of invisible characters, escaped and has its secrets redacted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from mnemex.errors import TeamError
from mnemex.team.model import Fact, PageState, State, fact_key, name_key
from mnemex.text.redact import redact_text
from mnemex.text.sanitise import escape, strip
from mnemex.vault import Vault
from mnemex.vault.layout import MIRROR_PREFIX, mirror_team
from mnemex.vault.links import LinkResolver
from mnemex.vault.markdown import (
    ParsedNote,
    atx_heading,
    fenced_lines,
    parse_note,
    parse_wikilink,
)
from mnemex.vault.privacy import is_private

#: Sections whose lines are links or citations, not statements.
_LINK_SECTIONS = frozenset(
    {"related", "sources", "source", "entities", "concepts", "provenance", "backlinks"}
)
#: A token that looks like a path: words joined by ``/`` (``wiki/general/sources/x.rst``).
_PATHLIKE_RE = re.compile(r"[\w.\-]+(?:/[\w.\-]+)+/?")
#: Statements longer than this are cut; a page with more than this many is cut too.
MAX_FACT_CHARS = 1_500
MAX_FACTS_PER_PAGE = 300
_WIKILINK_RE = re.compile(r"(!?)\[\[([^\[\]\n]+?)\]\]")
_MDLINK_RE = re.compile(r"(!?)\[([^\[\]\n]*)\]\(([^()\s]+)\)")
#: ``([[summaries/x]], 2014-09-29)`` or ``([[summaries/x]])`` at the end of a statement.
_CITE_RE = re.compile(r"\s*\((\[\[[^\[\]\n]+\]\](?:\s*,\s*[^()\n]*)?)\)\s*\.?$")
_DATE_RE = re.compile(r"\b(\d{4}-\d{2}-\d{2}|\d{4}-\d{2}|\d{4})\b")
_BULLET_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")
_SPACE_RE = re.compile(r"\s+")


@dataclass
class DomainCount:
    """What one opted-in domain gave: pages read, statements, links and pages withheld."""

    pages: int = 0
    facts: int = 0
    withheld_links: int = 0
    withheld_pages: int = 0
    problems: list[str] = field(default_factory=list)


def read_state(vault: Vault, domains: Iterable[str]) -> tuple[State, dict[str, DomainCount]]:
    """The opted-in pages of ``vault`` as a stream state, and a count per domain.

    Raises:
        TeamError: a domain is private or is a mirror.
    """
    domains = list(domains)
    for domain in domains:
        if is_private(vault.settings, domain) or domain.startswith(MIRROR_PREFIX):
            raise TeamError(
                f"domain {domain!r} is private or a team mirror: it is never contributed"
            )
    notes = [entry.rel for entry in vault.iter_files()]
    counts = {d: DomainCount() for d in domains}
    # the pages that may leave, read first: only their titles may name a link's target
    parsed: dict[str, ParsedNote] = {}
    for domain in domains:
        count = counts[domain]
        if not (vault.root / "wiki" / domain).is_dir():
            count.problems.append(f"wiki/{domain}/ does not exist: nothing to contribute")
        for rel in (r for r in notes if _in_domain(r, domain)):
            try:
                note = parse_note(vault.read_note(rel).text, rel)
            except (OSError, UnicodeDecodeError, ValueError) as exc:
                count.problems.append(f"a page could not be read (skipped): {exc}")
                continue
            named = (str(note.frontmatter.get(k) or "") for k in ("project", "domain"))
            if any(is_private(vault.settings, name) for name in named):
                count.withheld_pages += 1  # a page of a private project stays, wherever it is
                continue
            parsed[rel] = note
            count.pages += 1
    titles = {rel: _clean(note.title) for rel, note in parsed.items()}
    resolver = LinkResolver([rel for rel in notes if mirror_team(rel) is None])
    tops = {entry.name for entry in vault.root.iterdir()} | {"wiki", "notes", ".mnemex"}
    state: State = {}
    for rel, note in parsed.items():
        page = _page(note, rel, titles, parsed, resolver, counts[rel.split("/")[1]], tops)
        if not page.name:
            continue
        have = state.get(name_key(page.name))
        if have is None:
            state[name_key(page.name)] = page
        else:  # two domains hold a page of the same name: one page leaves
            have.aliases |= page.aliases
            have.links |= page.links
            have.facts.update(page.facts)
    return state, counts


def _in_domain(rel: str, domain: str) -> bool:
    parts = rel.split("/")
    return len(parts) > 2 and parts[0] == "wiki" and parts[1] == domain and parts[2] != "sources"


def _clean(text: str) -> str:
    """Text as it may leave: invisible characters stripped, escaped, secrets redacted."""
    return _SPACE_RE.sub(" ", redact_text(escape(strip(text)))).strip()


def _page(
    note: ParsedNote,
    rel: str,
    titles: dict[str, str],
    parsed: dict[str, ParsedNote],
    resolver: LinkResolver,
    count: DomainCount,
    tops: set[str],
) -> PageState:
    meta = note.frontmatter
    kind = meta.get("type") if meta.get("type") in ("entity", "concept", "summary") else "page"
    page = PageState(titles[rel], str(kind))
    page.aliases = {_clean(a) for a in note.aliases if _clean(a)} - {page.name}
    for link in note.links:
        target = resolver.resolve(link.target, rel)
        if target in titles and target != rel:
            page.links.add(titles[target])
        elif target != rel:
            count.withheld_links += 1
    own_cite = _own_citation(meta)
    for line in _statements(note.body):
        text, cite = _cited(line, rel, titles, parsed, resolver, own_cite)
        text = _inert_links(text, rel, titles, resolver, count)
        text = _clean(_without_paths(text, tops))[:MAX_FACT_CHARS]
        if _only_links(text):
            continue
        if len(text) < 3 or len(page.facts) >= MAX_FACTS_PER_PAGE:
            continue
        page.facts.setdefault(fact_key(text), Fact(text, *cite))
        count.facts += 1
    return page


def _without_paths(text: str, tops: set[str]) -> str:
    """Paths of this vault's files (a token starting at one of its top folders) withheld:
    ``notes/divorce-lawyer.md`` is itself data. Web addresses keep theirs."""

    def path(match: re.Match[str]) -> str:
        before = text[max(0, match.start() - 3) : match.start()]
        if before.endswith("://") or before.endswith("/"):
            return match[0]
        token = match[0].rstrip(".")  # the end of a sentence is not part of the path
        if token.split("/", 1)[0] not in tops:
            return match[0]
        return "[path withheld]" + match[0][len(token) :]

    return _PATHLIKE_RE.sub(path, text)


def _only_links(text: str) -> bool:
    """A line that is nothing but links (a list of pages), not a statement."""
    return not _WIKILINK_RE.sub("", text).strip(" ,;:.-–—`")


def _statements(body: str) -> list[str]:
    """The statement lines of a body: not headings, not code, not the link sections."""
    lines = body.split("\n")
    fenced = fenced_lines(lines)
    out: list[str] = []
    section = ""
    for line, in_code in zip(lines, fenced, strict=True):
        heading = atx_heading(line, empty=True)
        if heading is not None:
            section = heading[1].strip().casefold() if heading[0] >= 2 else ""
            continue
        if in_code or section in _LINK_SECTIONS or not line.strip():
            continue
        text = _BULLET_RE.sub("", line).strip()
        if text and not text.startswith(("|", ">", "<!--", "---")):
            out.append(text)
    return out


def _own_citation(meta: dict[str, Any]) -> tuple[str | None, str | None, str | None]:
    """A summary page cites its own source: the title, its URL, its date."""
    if meta.get("type") != "summary":
        return (None, None, None)
    url = next(
        (str(meta[k]) for k in ("url", "source") if str(meta.get(k, "")).startswith("http")),
        None,
    )
    title = _clean(str(meta.get("title", ""))) or None
    date = str(meta.get("date")) if meta.get("date") else None
    return (title, url, date)


def _cited(
    line: str,
    rel: str,
    titles: dict[str, str],
    parsed: dict[str, ParsedNote],
    resolver: LinkResolver,
    own: tuple[str | None, str | None, str | None],
) -> tuple[str, tuple[str | None, str | None, str | None]]:
    """A statement without its trailing ``([[summaries/x]], date)``, and what that cites."""
    match = _CITE_RE.search(line)
    if match is None:
        return line, own
    inner = match[1]
    link = _WIKILINK_RE.search(inner)
    target = resolver.resolve(parse_wikilink(link[2]).target, rel) if link else None
    date_match = _DATE_RE.search(inner[link.end() :] if link else inner)
    date = date_match[1] if date_match else None
    if target in parsed:
        title, url, own_date = _own_citation(parsed[target].frontmatter)
        return line[: match.start()], (title or titles.get(target), url, date or own_date)
    return line[: match.start()], (None, None, date)  # a source outside the opted-in pages


def _inert_links(
    text: str, rel: str, titles: dict[str, str], resolver: LinkResolver, count: DomainCount
) -> str:
    """Links as names: ``[[Title]]`` for an opted-in page, the alias text (or nothing) for
    anything else, the text of a ``[text](file.md)`` link; web links stay."""

    def wiki(match: re.Match[str]) -> str:
        link = parse_wikilink(match[2])
        target = resolver.resolve(link.target, rel)
        if target in titles:
            return (
                f"[[{titles[target]}]]" if not link.alias else f"[[{titles[target]}|{link.alias}]]"
            )
        return link.alias or ""  # counted once, from the page's links

    def markdown(match: re.Match[str]) -> str:
        if re.match(r"^(https?|mailto):", match[3]):
            return match[0]
        return match[2]

    return _MDLINK_RE.sub(markdown, _WIKILINK_RE.sub(wiki, text))


__all__ = ["MAX_FACTS_PER_PAGE", "MAX_FACT_CHARS", "DomainCount", "read_state"]
