"""Planning an ingest: what each source will create, merge into, skip and flag.

A :class:`Planner` takes sources one at a time (a folder is a batch), resolves
each extraction's pages against the domain's :class:`~mnemex.ingest.resolve.NameTable`
and renders every file the batch will write, in memory: nothing touches the
vault until :func:`mnemex.ingest.apply.apply_plan`. Later sources of a batch
see the pages earlier ones planned, so a batch is the same as ingesting its
files one by one. Planning is deterministic for a given ``now``: a plan
previewed over MCP is re-planned identically when applied, and refused if
the result would differ.
"""

from __future__ import annotations

import datetime as dt
import difflib
import json
import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, Literal

from mnemex.brain import Brain
from mnemex.ingest.records import Extraction, PlannedPage, SourceDoc
from mnemex.ingest.render import (
    clean_text,
    dump_frontmatter,
    merge_body,
    new_body,
    split_page,
    union,
)
from mnemex.ingest.resolve import (
    VAGUE_TYPES,
    NameEntry,
    NameTable,
    confirm_by_embedding,
    load_name_table,
    normalise_name,
    resolve_page,
)
from mnemex.report import Problem, Report
from mnemex.text.dates import utc_iso
from mnemex.vault import check_name, sha256_bytes, slugify
from mnemex.vault.layout import MIRROR_PREFIX

Action = Literal["create", "update", "unchanged", "skipped", "delete"]

#: The shared file of grey-zone pairs the health scan reads (vault format §4).
DUPLICATES_FILE = "health/possible-duplicates.json"
#: How many diff lines a preview shows per file.
DIFF_LINES = 80

_ISO_DAY_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
_EXTENSIONS = {"markdown": "md", "text": "txt", "html": "html", "pdf": "pdf"}


@dataclass
class FileChange:
    """One file of the plan: its bytes before (``None``: new) and after (``None``: removed).

    A ``delete`` is an inbox file the ingest moves into the wiki: ``moved_to`` names
    the kept original it became (or already was, for a source ingested before).
    """

    path: str
    action: Action
    before: bytes | None
    after: bytes | None
    reason: str = ""
    moved_to: str = ""

    def diff(self, limit: int = DIFF_LINES) -> tuple[str, int]:
        """A unified diff (text files) and how many of its lines were left out."""
        if self.action != "update" or self.before is None or self.after is None:
            return "", 0
        try:
            old = self.before.decode("utf-8").splitlines(keepends=True)
            new = self.after.decode("utf-8").splitlines(keepends=True)
        except UnicodeDecodeError:
            return "(binary)\n", 0
        lines = list(difflib.unified_diff(old, new, f"a/{self.path}", f"b/{self.path}"))
        return "".join(lines[:limit]), max(0, len(lines) - limit)


@dataclass
class SourcePlan:
    """What one source contributes: its summary, and each page it touches."""

    source: str
    title: str
    sha256: str
    summary: str
    extractor: str
    status: Literal["new", "unchanged"] = "new"
    pages: dict[str, str] = field(default_factory=dict)  # path -> created|updated|linked
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "title": self.title,
            "sha256": self.sha256,
            "summary": self.summary,
            "extractor": self.extractor,
            "status": self.status,
            "pages": self.pages,
            "warnings": self.warnings,
        }


@dataclass
class IngestPlan:
    """A batch's plan: the files it writes, the duplicates it flags, the sources that failed."""

    domain: str
    now: str
    sources: list[SourcePlan]
    changes: list[FileChange]
    duplicates: list[dict[str, Any]]
    failed: list[Problem]

    def reads(self) -> dict[str, str | None]:
        """The sha256 of every page the plan read (``None``: must still not exist).

        Only notes: the other files (originals, the duplicates file) are covered by
        re-planning, which must reproduce :meth:`writes`; an inbox file the plan moves
        is also covered by the sha256 of the source in the plan's arguments.
        """
        return {
            c.path: (sha256_bytes(c.before) if c.before is not None else None)
            for c in self.changes
            if c.path.endswith(".md")
        }

    def writes(self) -> dict[str, str]:
        """The sha256 each changed file will have (``deleted``: removed): what apply must redo."""
        out = {
            c.path: sha256_bytes(c.after)
            for c in self.changes
            if c.after is not None and c.action in ("create", "update")
        }
        out.update({c.path: "deleted" for c in self.changes if c.action == "delete"})
        return out

    def report(self) -> Report:
        report = Report()
        outcome = {"create": "created", "update": "updated", "unchanged": "unchanged"}
        for change in self.changes:
            if change.action == "skipped":
                report.add("skipped", change.path, change.reason)
            elif change.action != "delete":  # a move: its kept original is counted created
                report.add(outcome[change.action], change.path)
        for source in self.sources:
            if source.status == "unchanged":
                report.add("unchanged", source.summary)
        for problem in self.failed:
            report.add("failed", problem.path, problem.reason)
        for source in self.sources:
            for warning in source.warnings:
                report.warn(source.source, warning)
        return report

    def to_dict(self, diffs: bool = True) -> dict[str, Any]:
        """The preview: sources, files to create, files to update (with diffs), duplicates.

        The counts, ``problems`` and ``warnings`` are at the top level, as every
        changing command reports them (the skipped files and their reasons are in
        ``problems["skipped"]``), and again under ``report``.
        """
        report = self.report().to_dict()
        updates = []
        for change in self.changes:
            if change.action != "update":
                continue
            item: dict[str, Any] = {"path": change.path}
            if diffs:
                text, omitted = change.diff()
                item["diff"] = text
                if omitted:
                    item["diff_omitted_lines"] = omitted
            updates.append(item)
        return {
            **report,
            "domain": self.domain,
            "sources": [s.to_dict() for s in self.sources],
            "create": [c.path for c in self.changes if c.action == "create"],
            "update": updates,
            "move": [
                {"from": c.path, "to": c.moved_to, "reason": c.reason}
                for c in self.changes
                if c.action == "delete"
            ],
            "possible_duplicates": self.duplicates,
            "cost": {"extractor": _extractors(self.sources), "estimated_usd": 0.0},
            "report": report,
        }


def _extractors(sources: list[SourcePlan]) -> list[str]:
    return sorted({s.extractor for s in sources})


class Planner:
    """Plans a batch of sources into one domain (see the module docstring)."""

    def __init__(self, brain: Brain, domain: str, now: dt.datetime | None = None) -> None:
        check_name(domain, "domain")
        self.brain = brain
        self.vault = brain.vault
        self.domain = domain
        self.moment = now or dt.datetime.now(dt.UTC).replace(microsecond=0)
        self.now = utc_iso(self.moment)
        self.base = f"wiki/{domain}"
        # apply writes with atomic_write, past Vault.write_note's check: a team's mirror
        # (wiki/shared-<team>/) is refused here, before anything is planned into it. Only
        # this domain's pages are merge targets, so a mirror page never is one.
        self.vault.check_writable(f"{self.base}/summaries/")
        self._mirror_pages: dict[str, list[tuple[str, str]]] | None = None
        self.table: NameTable = load_name_table(self.vault, brain.backend, domain)
        self._before: dict[str, bytes | None] = {}
        self._after: dict[str, bytes] = {}
        self._skipped: dict[str, str] = {}
        self._moved: dict[str, tuple[str, str]] = {}  # inbox file -> (kept original, why)
        self._by_sha: dict[str, str] = {}
        self.sources: list[SourcePlan] = []
        self.failed: list[Problem] = []
        self.duplicates: list[dict[str, Any]] = []

    # -- files as they will be -------------------------------------------------

    def read(self, rel: str) -> bytes | None:
        """A file as the batch leaves it so far (planned bytes first, else the disk)."""
        if rel in self._after:
            return self._after[rel]
        if rel not in self._before:
            try:
                self._before[rel] = (self.vault.root / rel).read_bytes()
            except (FileNotFoundError, IsADirectoryError):
                self._before[rel] = None
        return self._before[rel]

    def _write(self, rel: str, data: bytes) -> None:
        self.read(rel)
        self._after[rel] = data

    def _exists(self, rel: str) -> bool:
        return self.read(rel) is not None

    # -- one source -------------------------------------------------------------

    def add(self, doc: SourceDoc, extraction: Extraction, inbox: str | None = None) -> SourcePlan:
        """Plan one source; a source whose sha256 the domain already has changes nothing.

        ``inbox`` is the vault-relative path of the source when it lies in ``inbox/``:
        the ingest moves it (its original is kept under ``sources/`` and the inbox
        file removed, in the same commit). A copy of a source already ingested is
        removed from the inbox too, with a warning, so the inbox always empties.
        """
        known = self._known_summary(doc.sha256)
        title = clean_text(extraction.title or doc.title) or "Untitled source"
        if known is not None:
            plan = SourcePlan(doc.path, title, doc.sha256, known, extraction.extractor, "unchanged")
            if inbox is not None:
                kept = self._kept_original(known)
                why = f"already ingested as {known} (same sha256): the inbox copy is removed"
                self._move(inbox, kept, why)
                plan.warnings.append(why)
            self.sources.append(plan)
            return plan
        slug = slugify(title)
        summary = f"{self.base}/summaries/{slug}.md"
        if self._exists(summary) or summary in self._by_sha.values():
            slug = f"{slug}-{doc.sha256[:8]}"
            summary = f"{self.base}/summaries/{slug}.md"
        plan = SourcePlan(doc.path, title, doc.sha256, summary, extraction.extractor)
        plan.warnings = [*doc.warnings, *extraction.warnings]
        self._by_sha[doc.sha256] = summary
        cite = f"[[summaries/{slug}]]"
        targets = self._place_pages(extraction.pages, plan)
        for page, entry in targets:
            self._write_page(page, entry, targets, extraction, plan, cite, doc)
        original, text_path = self._write_source(doc, slug)
        if inbox is not None:
            self._move(inbox, original, f"moved to {original}")
        self._write_summary(doc, extraction, plan, slug, title, original, text_path, targets)
        self.sources.append(plan)
        return plan

    def _move(self, inbox: str, kept: str, reason: str) -> None:
        """Plan the removal of an inbox file whose bytes the wiki keeps at ``kept``."""
        if self.read(inbox) is not None:
            self._moved[inbox] = (kept, reason)

    def _kept_original(self, summary: str) -> str:
        """The kept original a summary page names (its ``source``), else the summary."""
        data = self.read(summary)
        meta = split_page(data.decode("utf-8", errors="replace"))[0] if data else {}
        return str(meta.get("source") or summary)

    def _known_summary(self, sha256: str) -> str | None:
        if sha256 in self._by_sha:
            return self._by_sha[sha256]
        prefix = f"{self.base}/summaries/"
        for path in self.brain.backend.paths_with_field("sha256", sha256, kind="knowledge"):
            if path.startswith(prefix) and self._exists(path):
                return path
        return None

    def _place_pages(
        self, pages: list[PlannedPage], plan: SourcePlan
    ) -> list[tuple[PlannedPage, NameEntry]]:
        """Each planned page (deduplicated within the source) and the page it lands on."""
        local = NameTable()
        merged: list[PlannedPage] = []
        for page in pages:
            if not normalise_name(page.name):
                continue
            hit = resolve_page(page, local)
            if hit.decision == "merge" and hit.entry is not None:
                _absorb(merged[int(hit.entry.path.lstrip("#"))], page)
                continue
            local.add(
                NameEntry(f"#{len(merged)}", _kind(page), page.name, page.type, list(page.aliases))
            )
            merged.append(page)
        placed: list[tuple[PlannedPage, NameEntry]] = []
        for page in merged:
            match = resolve_page(page, self.table)
            if match.confirmable and match.entry is not None and match.entry.hash:
                match = confirm_by_embedding(self.brain, page, match)
            if match.decision == "merge" and match.entry is not None:
                placed.append((page, match.entry))
                continue
            entry = self._new_entry(page)
            if match.decision == "grey" and match.entry is not None:
                self._flag(entry.path, match.entry.path, match.score, match.reason, plan.summary)
            self.table.add(entry)
            placed.append((page, entry))
        return placed

    def _new_entry(self, page: PlannedPage) -> NameEntry:
        kind = _kind(page)
        folder = f"{self.base}/{'entities' if kind == 'entity' else 'concepts'}"
        slug = slugify(page.name)
        candidates = [slug]
        if kind == "entity" and page.type:
            candidates.append(f"{slug}-{slugify(page.type)}")
        candidates += [f"{candidates[-1]}-{n}" for n in range(2, 100)]
        for candidate in candidates:
            path = f"{folder}/{candidate}.md"
            if not self.table.taken(path) and not self._exists(path):
                return NameEntry(
                    path, kind, clean_text(page.name), page.type if kind == "entity" else ""
                )
        raise ValueError(f"no free file name for {page.name!r} in {folder}")  # pragma: no cover

    def _flag(self, a: str, b: str, score: float, reason: str, source: str) -> None:
        first, second = sorted((a, b))
        self.duplicates.append(
            {
                "a": first,
                "b": second,
                "score": round(score, 3),
                "reason": reason,
                "source": source,
                "recorded": self.now,
            }
        )

    def _write_page(
        self,
        page: PlannedPage,
        entry: NameEntry,
        targets: list[tuple[PlannedPage, NameEntry]],
        extraction: Extraction,
        plan: SourcePlan,
        cite: str,
        doc: SourceDoc,
    ) -> None:
        if not entry.mnemex:
            self._skipped[entry.path] = (
                "written by hand (no mnemex type): linked from the summary, never rewritten"
            )
            plan.pages[entry.path] = "linked"
            return
        dated = f"{cite}, {self._source_date(doc)}"
        facts = [
            f"{text} ({dated})"
            for text in (clean_text(f.text) for f in sorted(page.facts, key=lambda f: f.position))
            if text
        ]
        sections = {
            "Key points": list(dict.fromkeys(facts)),
            "Related": self._related(page, targets, extraction, cite) + self._team_links(page),
            "Sources": [cite],
        }
        ref = {"path": plan.summary, "sha256": doc.sha256}
        names = [clean_text(n) for n in [page.name, *page.aliases]]
        lead = clean_text(page.description)
        existing = self.read(entry.path)
        if existing is None:
            meta: dict[str, Any] = {"type": entry.kind, "title": entry.title}
            if entry.kind == "entity":
                meta["entity_type"] = page.type or "thing"
            aliases = [n for n in dict.fromkeys(names) if n.casefold() != entry.title.casefold()]
            meta.update(aliases=aliases, tags=[], created=self.now, updated=self.now, sources=[ref])
            body = new_body(entry.title, lead, sections)
            plan.pages[entry.path] = "created"
        else:
            meta, old_body = split_page(existing.decode("utf-8"))
            title = str(meta.get("title") or entry.title)
            new_aliases = [n for n in names if n.casefold() != title.casefold()]
            meta["aliases"] = union(meta.get("aliases"), new_aliases)
            # one type per page: a specific type replaces "thing", never another type
            vague = meta.get("entity_type") in (None, "", [], *VAGUE_TYPES)
            if entry.kind == "entity" and page.type not in VAGUE_TYPES and vague:
                meta["entity_type"] = page.type
            meta["sources"] = union(meta.get("sources"), [ref])
            body = merge_body(old_body, lead, sections)
            if body == old_body and meta == split_page(existing.decode("utf-8"))[0]:
                return
            meta["updated"] = self.now
            plan.pages[entry.path] = plan.pages.get(entry.path, "updated")
        self._write(entry.path, (dump_frontmatter(meta) + body).encode("utf-8"))
        self.table.add(_entry_as_written(entry, meta))

    def _team_links(self, page: PlannedPage) -> list[str]:
        """Links to the pages of the same name in the team mirrors (``wiki/shared-<team>/
        <slug>--<team>.md``): linked, never merged into (they are other people's pages)."""
        if self._mirror_pages is None:
            self._mirror_pages = {}
            wiki = self.vault.root / "wiki"
            for folder in sorted(wiki.glob(f"{MIRROR_PREFIX}*")) if wiki.is_dir() else []:
                team = folder.name[len(MIRROR_PREFIX) :]
                for path in sorted(folder.glob(f"*--{team}.md")):
                    slug = path.name[: -len(f"--{team}.md")]
                    link = f"{folder.name}/{path.stem}"
                    self._mirror_pages.setdefault(slug, []).append((team, link))
        found = self._mirror_pages.get(slugify(page.name), [])
        name = clean_text(page.name)
        return [f"[[{link}|{name}]]: the team {team}'s page" for team, link in found]

    def _source_date(self, doc: SourceDoc) -> str:
        """The date a fact line carries: the document's own, else the ingestion day.

        Two sources that disagree are both kept (never overwritten), and the dates on
        their lines show which said what when.
        """
        match = _ISO_DAY_RE.match(doc.date or "")
        return match.group(0) if match else self.moment.date().isoformat()

    def _related(
        self,
        page: PlannedPage,
        targets: list[tuple[PlannedPage, NameEntry]],
        extraction: Extraction,
        cite: str,
    ) -> list[str]:
        by_name: dict[str, NameEntry] = {}
        for other, entry in targets:
            for name in [other.name, *other.aliases]:
                by_name.setdefault(normalise_name(name), entry)
        mine = {normalise_name(n) for n in [page.name, *page.aliases]}
        pairs: list[tuple[str, str]] = []
        for a, relation, b in extraction.relations:
            if normalise_name(a) in mine:
                pairs.append((b, relation))
            elif normalise_name(b) in mine:
                pairs.append((a, relation))
        pairs += [(name, "related") for name in page.related]
        own = by_name.get(normalise_name(page.name))
        per_target: dict[str, tuple[NameEntry, list[str]]] = {}
        for name, relation in pairs:
            other_entry = by_name.get(normalise_name(name))
            text = clean_text(relation)
            if other_entry is None or other_entry is own or not text:
                continue
            entry_relations = per_target.setdefault(other_entry.path, (other_entry, []))[1]
            if text not in entry_relations:
                entry_relations.append(text)
        return [
            f"{_link(entry)}: {_most_specific(relations)} ({cite})"
            for entry, relations in per_target.values()
        ]

    def _write_source(self, doc: SourceDoc, slug: str) -> tuple[str, str]:
        """Keep the original bytes (and the extracted text, when the original is not text)."""
        ext = PurePosixPath(doc.path).suffix.lower().lstrip(".") or _EXTENSIONS.get(
            doc.format, "txt"
        )
        name = f"{slug}.source.md" if ext in ("md", "markdown") else f"{slug}.{slugify(ext)}"
        original = f"{self.base}/sources/{name}"
        self._write(original, doc.raw)
        if ext in ("md", "markdown", "txt"):
            return original, original
        text_path = f"{self.base}/sources/{slug}.txt"
        self._write(text_path, doc.text.encode("utf-8"))
        return original, text_path

    def _write_summary(
        self,
        doc: SourceDoc,
        extraction: Extraction,
        plan: SourcePlan,
        slug: str,
        title: str,
        original: str,
        text_path: str,
        targets: list[tuple[PlannedPage, NameEntry]],
    ) -> None:
        meta: dict[str, Any] = {"type": "summary", "title": title, "source": original}
        if text_path != original:
            meta["text"] = text_path
        meta["sha256"] = doc.sha256
        for key in ("author", "date", "url"):
            value = getattr(doc, key)
            if value:
                meta[key] = value if key == "url" else clean_text(value)
        meta.update(
            extractor=extraction.extractor,
            aliases=[],
            tags=[],
            created=self.now,
            updated=self.now,
            sources=[{"path": original, "sha256": doc.sha256}],
        )
        entities = sorted({_link(e) for _, e in targets if e.kind == "entity"})
        concepts = sorted({_link(e) for _, e in targets if e.kind == "concept"})
        sections = {
            "Key points": [clean_text(p) for p in extraction.key_points if clean_text(p)],
            "Entities": entities,
            "Concepts": concepts,
            "Source": [f"`{original}` (sha256 {doc.sha256[:12]}…, {len(doc.raw)} bytes)"],
        }
        prose = " ".join(clean_text(s) for s in extraction.summary if clean_text(s))
        body = new_body(title, "", {"Summary": prose, **sections})
        self._write(plan.summary, (dump_frontmatter(meta) + body).encode("utf-8"))

    # -- the batch ------------------------------------------------------------

    def fail(self, path: str, reason: str) -> None:
        """Count a source that could not be read or extracted; the batch goes on."""
        self.failed.append(Problem(path, reason))

    def finish(self) -> IngestPlan:
        """The plan: every file the batch writes, plus the possible-duplicates file."""
        if self.duplicates:
            self._write(DUPLICATES_FILE, self._duplicates_file())
        changes: list[FileChange] = []
        for rel in sorted(self._after):
            before, after = self._before.get(rel), self._after[rel]
            action: Action = (
                "create" if before is None else ("unchanged" if before == after else "update")
            )
            changes.append(FileChange(rel, action, before, after))
        for rel, reason in sorted(self._skipped.items()):
            changes.append(FileChange(rel, "skipped", self._before.get(rel), None, reason))
        for rel, (kept, reason) in sorted(self._moved.items()):
            changes.append(FileChange(rel, "delete", self._before.get(rel), None, reason, kept))
        return IngestPlan(
            self.domain, self.now, self.sources, changes, self.duplicates, self.failed
        )

    def _duplicates_file(self) -> bytes:
        existing = self.read(DUPLICATES_FILE)
        pairs: dict[tuple[str, str], dict[str, Any]] = {}
        if existing is not None:
            try:
                loaded = json.loads(existing)
                for pair in loaded.get("pairs", []):
                    pairs[(str(pair["a"]), str(pair["b"]))] = pair
            except (ValueError, KeyError, TypeError, AttributeError):
                pass  # an unreadable file is replaced by a valid one holding this run's pairs
        for pair in self.duplicates:
            pairs.setdefault((pair["a"], pair["b"]), pair)
        ordered = [pairs[k] for k in sorted(pairs)]
        text = json.dumps({"version": 1, "pairs": ordered}, indent=2, ensure_ascii=False)
        return (text + "\n").encode("utf-8")


#: Relations that say only that two pages are linked, least specific last.
_VAGUE_RELATIONS = ("co-occurs with", "related")


def _most_specific(relations: list[str]) -> str:
    """The one relation a ``## Related`` line shows for a target of one source.

    A source often relates two pages twice (an explicit relation, the co-occurrence the
    extractor counted, the page's ``related`` list): one line per target and source,
    so the named relations win (joined when there are several), then the vaguer ones.
    """
    named = [r for r in relations if r.casefold() not in _VAGUE_RELATIONS]
    if named:
        return "; ".join(named)
    return min(relations, key=lambda r: _VAGUE_RELATIONS.index(r.casefold()))


def _kind(page: PlannedPage) -> str:
    return "entity" if page.kind == "entity" else "concept"


def _link(entry: NameEntry) -> str:
    folder, stem = entry.path.split("/")[-2], entry.path.rsplit("/", 1)[-1].removesuffix(".md")
    return f"[[{folder}/{stem}|{entry.title}]]"


def _entry_as_written(entry: NameEntry, meta: dict[str, Any]) -> NameEntry:
    """The name-table entry of a page as just planned: what a later run would read from disk.

    Later sources of the batch resolve against this entry, so it must carry the
    aliases and type the frontmatter will have (a created page's aliases too);
    otherwise a batch makes duplicates that file-by-file runs do not. No index
    hash yet: there are no vectors to confirm a grey match with.
    """
    etype = meta.get("entity_type") or ""
    entry.title = str(meta.get("title") or entry.title)
    entry.aliases = [str(a) for a in meta.get("aliases") or []]
    entry.entity_type = str(etype[0] if isinstance(etype, list) and etype else etype)
    entry.hash = ""
    return entry


def _absorb(into: PlannedPage, page: PlannedPage) -> None:
    """Fold a second mention of the same thing (within one source) into the first."""
    into.aliases = list(dict.fromkeys([*into.aliases, page.name, *page.aliases]))
    into.facts = [*into.facts, *page.facts]
    into.related = list(dict.fromkeys([*into.related, *page.related]))
    into.mentions += page.mentions
    if not into.description:
        into.description = page.description
    if into.type in ("", "thing"):
        into.type = page.type


__all__ = ["DUPLICATES_FILE", "FileChange", "IngestPlan", "Planner", "SourcePlan"]
