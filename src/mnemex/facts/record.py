"""Writing facts: a person's commands, and learning from a note the vault holds.

Every change is one commit (operation ``fact``), under the history lock, so ``mnemex
undo`` takes it back whole. Facts go to ``facts/<subject-slug>.md``; a fact whose
evidence is private (a note in a private domain or project) goes to
``facts/<private-name>/<subject-slug>.md``, which is git-ignored, never committed and
never served unless that name is included. Statements that name no known subject, or
first-person statements an agent made about itself, are not facts: they are dropped
and logged to ``facts/_log.jsonl`` (private, never committed) with the reason.

Provenance is whose word it is: ``person`` (the owner's own words: ``mnemex fact add``,
or an agent relaying them verbatim with ``said_by_user``), ``source`` (an ingested
document), ``session`` (a digest, handoff, brief or journal) or ``agent`` (an agent's
inference or draft, the default for an agent's write). Only a person's word puts a fact
in the stable layer; the consolidation pass (issue 19) promotes others by evidence.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from mnemex.brain import Brain
from mnemex.errors import FactError, NoteNotFound
from mnemex.facts.claims import PREDICATES, Claim, NameBook, SubjectKind, fold
from mnemex.facts.extract import extract
from mnemex.facts.model import Evidence, Fact, Provenance, When, fact_id
from mnemex.facts.model_reader import ModelReader
from mnemex.facts.rule import Applied, apply_fact
from mnemex.facts.store import FACTS_TYPE, FactFile, parse_facts, render_facts, values_of
from mnemex.report import Report
from mnemex.text.dates import parse_date, utc_iso
from mnemex.text.sanitise import redact_secrets, sanitise
from mnemex.vault import Vault, parse_note, placement, slugify
from mnemex.vault.history import CommitResult, commit_change, recording
from mnemex.vault.layout import FACTS_LOG
from mnemex.vault.markdown import split_frontmatter
from mnemex.vault.privacy import is_private

try:  # the C loader is ~10x faster, and the name book reads every entity page's frontmatter
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

FACTS_DIR = "facts"
# a sentence ends at . ! ? before a capital, but not after an initial ("M. Okafor") or a title
_SENTENCE = re.compile(
    r"(?<=[.!?])(?<!\b[A-Z]\.)(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bSt\.)(?<!\bMrs\.)"
    r"(?<!\bSr\.)(?<!\bJr\.)(?<!\bSnr\.)(?<!\bJnr\.)(?<!\b[Ee]ng\.)(?<!\b[Ee]ff\.)"
    r"\s+(?=[A-Z\"'“(])"
)
_ENTITY_KINDS: dict[str, SubjectKind] = {
    "person": "person",
    "organisation": "organisation",
    "organization": "organisation",
    "place": "place",
}


@dataclass
class FactChange:
    """What one claim did."""

    outcome: str  # created | confirmed | unchanged | refused
    path: str
    fact: Fact | None
    applied: Applied | None = None
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        from mnemex.facts.query import fact_dict

        out: dict[str, Any] = {"outcome": self.outcome, "path": self.path}
        if self.fact is not None:
            out["fact"] = fact_dict(self.fact)
        if self.applied is not None:
            out["superseded"] = self.applied.superseded
            out["disputed"] = self.applied.disputed
        if self.reason:
            out["reason"] = self.reason
        return out


@dataclass
class Recorded:
    """The result of a fact command: counts, each claim's change, the commit."""

    report: Report = field(default_factory=Report)
    changes: list[FactChange] = field(default_factory=list)
    dropped: list[dict[str, str]] = field(default_factory=list)
    commit: CommitResult | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {**self.report.to_dict()}
        out["changes"] = [c.to_dict() for c in self.changes]
        if self.dropped:
            out["dropped"] = self.dropped
        if self.commit is not None:
            out["commit"] = self.commit.to_dict()
        return out


# ---------------------------------------------------------------- names


def _frontmatter_only(text: str) -> dict[str, Any]:
    """A note's frontmatter as a mapping ({} when it has none or it is not YAML)."""
    fm_text, _, _ = split_frontmatter(text)
    if not fm_text:
        return {}
    try:
        loaded = yaml.load(fm_text, Loader=_Loader)
    except yaml.YAMLError:
        return {}
    return loaded if isinstance(loaded, dict) else {}


#: Entity pages read for the name book, per vault: (signature of the files, what they say).
_PAGES: dict[
    str, tuple[tuple[tuple[str, int, int], ...], list[tuple[str, str, tuple[str, ...], str]]]
] = {}


def _entity_pages(root: Path) -> list[tuple[str, str, tuple[str, ...], str]]:
    """(title, entity_type, aliases, page path) of every wiki entity page, read again only
    when a page was added, removed or changed since the last call (one stat per page)."""
    files = sorted((root / "wiki").glob("*/entities/*.md"))
    signature = []
    for path in files:
        try:
            st = path.stat()
        except OSError:
            continue
        signature.append((str(path), st.st_mtime_ns, st.st_size))
    key = str(root)
    cached = _PAGES.get(key)
    if cached is not None and cached[0] == tuple(signature):
        return cached[1]
    pages: list[tuple[str, str, tuple[str, ...], str]] = []
    for path in files:
        try:
            fm = _frontmatter_only(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue
        title = fm.get("title")
        if not isinstance(title, str) or not title.strip():
            continue
        aliases = tuple(a for a in fm.get("aliases") or [] if isinstance(a, str))
        rel = path.relative_to(root).with_suffix("").as_posix()
        pages.append((title, str(fm.get("entity_type", "")), aliases, rel))
    _PAGES[key] = (tuple(signature), pages)
    return pages


def name_book(brain: Brain) -> NameBook:
    """The names a statement may name: the owner, the people, organisations and places of
    the wiki (titles and aliases), projects (their folders, titled by their wiki page when
    there is one), and the subjects of existing fact files. Tools and other things are the
    values of facts, not their subjects, so their pages are left out."""
    root = brain.vault.root
    book = NameBook(owner=brain.vault.settings.owner)
    projects: set[str] = set()
    for top in ("memories", "state", "foundations"):
        folder = root / top
        if folder.is_dir():
            projects.update(
                p.name for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")
            )
    pages: list[tuple[str, SubjectKind, tuple[str, ...], str]] = []
    for title, entity_type, aliases, rel in _entity_pages(root):
        kind: SubjectKind = _ENTITY_KINDS.get(entity_type, "thing")
        if kind == "thing" and slugify(title) in projects:
            kind = "project"
        if kind == "thing":
            continue  # tools, works, events: values of facts, not their subjects
        pages.append((title, kind, aliases, rel))
    if book.owner:  # the owner's first name is theirs in their own vault
        first = book.owner.split()[0]
        book.add(book.owner, "person", (first,) if first != book.owner else ())
    for title, kind, aliases, page in pages:
        book.add(title, kind, aliases, page)
    for project in sorted(projects):
        book.add(project, "project", ())
    places: set[str] = set()
    for path in sorted((root / FACTS_DIR).glob("*.md")):
        try:
            text = path.read_text(encoding="utf-8")
            fm = _frontmatter_only(text)
        except (OSError, UnicodeDecodeError):
            continue
        if fm.get("type") == FACTS_TYPE and isinstance(fm.get("subject"), str):
            aliases = tuple(a for a in fm.get("aliases") or [] if isinstance(a, str))
            book.add(str(fm["subject"]), "thing", aliases)
            places.update(values_of(text, "lives_in"))
    for place in sorted(places):  # where someone lived is a place ("ines -> Porto")
        if book.lookup(place) is None:
            book.add(place, "place")
    return book


# ---------------------------------------------------------------- files


def subject_path(subject: str, private: str | None = None) -> str:
    """``facts/<slug>.md``, or ``facts/<private>/<slug>.md`` for private evidence."""
    slug = slugify(subject)
    return f"{FACTS_DIR}/{private}/{slug}.md" if private else f"{FACTS_DIR}/{slug}.md"


def read_fact_file(vault: Vault, rel: str) -> FactFile | None:
    """The fact file at ``rel``; None when there is none.

    Raises:
        FactError: the file is there but cannot be read as facts.
    """
    path = vault.root / rel
    if not path.is_file():
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise FactError(f"{rel}: cannot be read: {exc}") from exc
    return parse_facts(text, rel)


def fact_files(vault: Vault, include_private: Iterable[str] = ()) -> list[tuple[str, FactFile]]:
    """Every readable fact file, private ones only for included names; unreadable ones skipped."""
    root = vault.root / FACTS_DIR
    if not root.is_dir():
        return []
    included = set(include_private)
    out: list[tuple[str, FactFile]] = []
    for path in sorted(root.rglob("*.md")):
        rel = path.relative_to(vault.root).as_posix()
        where = placement(rel)
        private = where.project is not None and is_private(vault.settings, where.project)
        if private and where.project not in included:
            continue
        try:
            file = read_fact_file(vault, rel)
        except FactError:
            continue
        if file is not None:
            out.append((rel, file))
    return out


def find_fact(
    brain: Brain, fact_id_: str, include_private: Iterable[str] = ()
) -> tuple[str, FactFile, Fact]:
    """The file and fact with this id (a unique prefix of 4+ digits is enough).

    Raises:
        FactError: no fact, or the prefix names more than one.
    """
    wanted = fact_id_.strip().lower()
    if len(wanted) < 4:
        raise FactError(f"{fact_id_!r}: give at least 4 digits of a fact id")
    found = [
        (rel, file, f)
        for rel, file in fact_files(brain.vault, include_private)
        for f in file.facts
        if f.id.startswith(wanted)
    ]
    if not found:
        raise FactError(f"no fact with id {fact_id_!r} (see `mnemex facts SUBJECT --all`)")
    if len(found) > 1:
        raise FactError(f"{fact_id_!r} names {len(found)} facts; give more digits")
    return found[0]


def log_dropped(brain: Brain, dropped: list[dict[str, str]], at: dt.datetime) -> None:
    if not dropped:
        return
    path = brain.vault.root / FACTS_LOG
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as out:
        for entry in dropped:
            out.write(json.dumps({"at": utc_iso(at), **entry}, ensure_ascii=False) + "\n")


# ---------------------------------------------------------------- recording


def fact_from_claim(
    claim: Claim, provenance: Provenance, evidence: Evidence, at: dt.datetime
) -> Fact:
    statement = sanitise(redact_secrets(" ".join(claim.statement.split())))
    new = Fact(
        id=fact_id(claim.subject, statement, evidence.ref),
        subject=claim.subject,
        statement=statement,
        predicate=claim.predicate,
        value=sanitise(claim.value),
        recorded_at=at,
        provenance="agent" if claim.hedged and provenance != "person" else provenance,
        evidence=[evidence],
        kind=claim.kind,
        key=claim.key,
        condition=sanitise(claim.condition) if claim.condition else None,
        valid_from=When(claim.valid_from, claim.from_precision) if claim.valid_from else None,
        valid_until=When(claim.valid_until) if claim.valid_until else None,
        time_note=claim.time_phrase,
        time_resolved=claim.time_resolved,
        planned=claim.planned,
        hedged=claim.hedged,
        layer="stable" if provenance == "person" and not claim.hedged else "dynamic",
    )
    return new


def record_claims(
    brain: Brain,
    claims: Sequence[Claim],
    *,
    provenance: Provenance,
    evidence: Evidence,
    now: dt.datetime | None = None,
    private: str | None = None,
    summary: str = "",
    book: NameBook | None = None,
) -> Recorded:
    """Apply each claim under the write rule and commit the changed files as one commit.

    Raises:
        FactError: a subject's fact file cannot be read (nothing is written then).
    """
    at = (now or dt.datetime.now(dt.UTC)).astimezone(dt.UTC).replace(microsecond=0)
    book = book or name_book(brain)
    done = Recorded()
    with recording(brain.vault):
        files: dict[str, FactFile] = {}
        for claim in claims:
            if claim.predicate not in PREDICATES:
                raise FactError(f"{claim.predicate!r} is not a predicate ({', '.join(PREDICATES)})")
            rel = subject_path(claim.subject, private)
            if rel not in files:
                files[rel] = read_fact_file(brain.vault, rel) or FactFile(claim.subject)
            file = files[rel]
            known = book.lookup(claim.subject)
            if known is not None and known.page and not file.page:
                file.page = known.page
            new = fact_from_claim(claim, provenance, evidence, at)
            applied = apply_fact(file.facts, new, at)
            done.changes.append(FactChange(applied.outcome, rel, applied.fact, applied))
        written: list[str] = []
        for rel, file in files.items():
            file.updated = at
            text = render_facts(file)
            outcome, _ = brain.vault.write_note(rel, text, overwrite=True, protected_ok=True)
            done.report.add(outcome, rel)
            if outcome != "unchanged":
                written.append(rel)
        if written:
            what = summary or ", ".join(sorted({c.fact.subject for c in done.changes if c.fact}))
            done.commit = commit_change(brain.vault, written, "fact", what)
    if written:
        brain.sync()
    return done


def _sentences(text: str) -> list[list[str]]:
    """Prose of a note body, as paragraphs of sentences: headings, code and comments left
    out; a list item is a paragraph of its own, and so is a table's row (its cells joined
    by `` | ``, which the reader takes as a note line: ``Keelhaul | IaC tool | Terraform``)."""
    out: list[list[str]] = []
    in_code = False
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("```") or line.startswith("~~~"):
            in_code = not in_code
            continue
        if in_code or not line or line.startswith(("#", "%%", "<!--")):
            continue
        if line.startswith("|"):  # a table's row is read as its cells, "A | B | C"
            cells = [c.strip() for c in line.strip("|").split("|")]
            if all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c) or len(cells) < 2:
                continue  # the rule under a header, or one cell
            out.append([" | ".join(cells)])
            continue
        line = re.sub(r"^(?:[-*+]|\d+[.)])\s+", "", line)
        line = re.sub(r"^\*\*[^*]+:\*\*\s*", "", line)
        out.append([s.strip() for s in _SENTENCE.split(line) if s.strip()])
    return out


def claims_from_text(
    text: str, *, evidence_date: dt.date, book: NameBook, speaker: str | None
) -> tuple[list[Claim], list[dict[str, str]]]:
    """Claims from each sentence, and the sentences dropped with why (for the log)."""
    claims: list[Claim] = []
    dropped: list[dict[str, str]] = []

    def read(sentence: str) -> list[Claim]:
        return extract(sentence, evidence_date=evidence_date, names=book, speaker=speaker)

    for paragraph in _sentences(text):
        i = 0
        while i < len(paragraph):
            sentence = paragraph[i]
            found = read(sentence)
            # a sentence that states nothing alone may finish the one before it
            # ("Tomasz moves on from Tidewater. Final working day 2026-01-30.")
            if found and i + 1 < len(paragraph) and not read(paragraph[i + 1]):
                joined = read(f"{sentence} {paragraph[i + 1]}")
                if _same_claims(found, joined):
                    found, i = joined, i + 1
            if found:
                claims.extend(found)
            elif _looks_like_claim(sentence):
                dropped.append(
                    {"sentence": sentence[:300], "reason": "no known subject or predicate"}
                )
            i += 1
    return claims, dropped


def _same_claims(alone: list[Claim], joined: list[Claim]) -> bool:
    """Whether the joined reading says the same things, only with more of their time."""
    if len(alone) != len(joined):
        return False
    return all(
        a.slot == b.slot and fold(a.value) == fold(b.value)
        for a, b in zip(alone, joined, strict=True)
    )


_CUES = re.compile(
    r"\b(?:lives?|living|works?|working|employ\w*|joins?|joined|uses?|using|prefers?|moved?|moving|"
    r"relocat\w*|based|title|role|hosted|deployed|database|on leave)\b",
    re.IGNORECASE,
)


def _looks_like_claim(sentence: str) -> bool:
    """Whether a sentence no claim came from reads like one (worth logging as dropped)."""
    return bool(_CUES.search(sentence))


def add_fact(
    brain: Brain,
    text: str,
    *,
    provenance: Provenance = "person",
    subject: str | None = None,
    now: dt.datetime | None = None,
    evidence_ref: str | None = None,
    evidence_date: dt.date | None = None,
) -> Recorded:
    """Record what ``text`` states as fact (``mnemex fact add``, MCP ``record_fact``).

    First person is the vault owner when the provenance is ``person``; for an agent it
    is the agent, and says nothing about anyone.

    Raises:
        FactError: the text is empty, or states nothing the fact layer can hold (the
            message says what it reads: a known subject and one of the predicates).
    """
    text = " ".join(text.split())
    if not text:
        raise FactError("text is empty: say the fact")
    at = (now or dt.datetime.now(dt.UTC)).astimezone(dt.UTC)
    day = evidence_date or at.date()
    book = name_book(brain)
    speaker = book.owner if provenance == "person" else None
    claims, _ = claims_from_text(text, evidence_date=day, book=book, speaker=speaker)
    if subject is not None:
        wanted = book.lookup(subject)
        name = wanted.canonical if wanted else subject
        claims = [c for c in claims if fold(c.subject) == fold(name)]
    if not claims:
        hint = (
            ""
            if book.owner or provenance != "person"
            else " (first person needs [vault] owner in mnemex.toml)"
        )
        raise FactError(
            f"no fact read in {text[:80]!r}: a fact names a known subject (a wiki entity, a "
            f"project, the owner) and says where they work or live, their role, what they use "
            f"or prefer, a project's attribute, or a status{hint}"
        )
    return record_claims(
        brain,
        claims,
        provenance=provenance,
        evidence=Evidence(evidence_ref or ("user" if provenance == "person" else "agent"), day),
        now=at,
        summary=claims[0].statement[:60],
        book=book,
    )


def _note_provenance(fm: dict[str, Any], rel: str) -> Provenance:
    if fm.get("provenance") == "agent":  # a page an agent wrote (write_page)
        return "agent"
    kind = placement(rel).kind
    if kind == "knowledge":
        return "source"
    if kind == "memories":
        if fm.get("harness") == "mnemex":
            return "person" if fm.get("said_by") == "user" else "agent"
        return "session"
    if kind == "state":
        return "session"
    return "person"


def _note_date(fm: dict[str, Any], rel: str, fallback: dt.date) -> dt.date:
    """The day a note speaks for: its ``date``, else (a session's digest) when the session
    ``started``, else ``created``; for working state, which each save replaces, the last
    save (``updated``). A digest harvested days late speaks for its session's day."""
    keys = (
        ("updated", "date", "created")
        if placement(rel).kind == "state"
        else ("date", "started", "created", "updated")
    )
    for key in keys:
        raw = fm.get(key)
        if isinstance(raw, dt.datetime):
            return raw.date()
        if isinstance(raw, dt.date):
            return raw
        if isinstance(raw, str):
            parsed = parse_date(raw)
            if parsed:
                return dt.date.fromisoformat(parsed[:10])
    return fallback


@dataclass
class NoteClaims:
    """What one note states, read and not yet recorded."""

    rel: str
    claims: list[Claim]
    provenance: Provenance
    evidence: Evidence
    private: str | None
    dropped: list[dict[str, str]]
    warning: str | None = None  # a model was to read it and could not: read offline


def observation_of(fm: dict[str, Any], rel: str, sha256: str | None) -> str:
    """The event a note records, when one event leaves several notes (see :class:`Evidence`)."""
    kind = placement(rel).kind
    session = fm.get("session")
    if kind == "memories" and isinstance(session, str) and session.strip():
        return "session:" + re.sub(r"[^\w.:-]", "-", session.strip())[:64]
    if kind == "state" and fm.get("type") == "handoff" and sha256:
        return f"save:{sha256[:12]}"
    return ""


def read_note_claims(
    brain: Brain,
    rel: str,
    *,
    text: str | None = None,
    book: NameBook | None = None,
    provenance: Provenance | None = None,
    fallback_day: dt.date | None = None,
    sha256: str | None = None,
    reader: ModelReader | None = None,
) -> NoteClaims:
    """The claims one vault note states, its provenance, evidence and privacy; writes nothing.

    ``reader`` reads it with a model (:mod:`mnemex.facts.model_reader`); when the model
    cannot, the offline reader does and ``warning`` says why.

    Raises:
        NoteNotFound: no note at ``rel``.
        FactError: ``rel`` is a fact or health file.
    """
    kind = placement(rel).kind
    if kind in ("facts", "health"):
        raise FactError(f"{rel}: facts are learned from notes, not from {kind} files")
    if text is None:
        path = brain.vault.root / rel
        if not path.is_file():
            raise NoteNotFound(f"no note at {rel}")
        text = path.read_text(encoding="utf-8")
    note = parse_note(text, rel)
    fm = note.frontmatter
    body = note.body
    if fm.get("type") == "summary" and isinstance(fm.get("source"), str):
        source = str(fm["source"]).strip("[]")
        base = PurePosixPath(rel).parent.parent
        for candidate in (
            source,
            f"{base}/{source}",
            f"{base}/sources/{PurePosixPath(source).name}",
        ):
            kept = brain.vault.root / candidate
            if kept.is_file() and kept.suffix in (".md", ".txt"):
                body = parse_note(kept.read_text(encoding="utf-8"), candidate).body
                break
    who = provenance or _note_provenance(fm, rel)
    day = _note_date(fm, rel, fallback_day or dt.datetime.now(dt.UTC).date())
    book = book or name_book(brain)
    claims: list[Claim] = []
    dropped: list[dict[str, str]] = []
    warning = None
    for n, (part, speaker) in enumerate(voices(fm, body, who, book.owner)):
        said, left, why = _read_part(part, sha256, n, day, book, speaker, reader)
        claims += said
        dropped += left
        warning = warning or why
    where = placement(rel)
    private = next(
        (
            n
            for n in (where.domain, where.project, fm.get("project"))
            if isinstance(n, str) and is_private(brain.vault.settings, n)
        ),
        None,
    )
    evidence = Evidence(rel.removesuffix(".md"), day, observation_of(fm, rel, sha256))
    dropped_here = [{"note": rel, **d} for d in dropped]
    return NoteClaims(rel, claims, who, evidence, private, dropped_here, warning)


#: The heading under which a digest the offline extractor wrote lists the session's requests,
#: the person's own words (``harvest/digest.py``, vault format §7).
REQUESTS_HEADING = "What was worked on"
_HEADING = re.compile(r"^#{1,6}[ \t]+(.*?)[ \t#]*$")


def voices(
    fm: dict[str, Any], body: str, who: Provenance, owner: str | None
) -> list[tuple[str, str | None]]:
    """A note's text by who says it: ``(text, speaker)``, the speaker being whose "I" it is.

    A person's note is the owner's throughout. A session's digest speaks for no one, but
    for the requests an offline digest lists under :data:`REQUESTS_HEADING`: those are the
    words of the person who ran the session, the vault's owner, and their "I" is the owner
    ("moved to Zed as my editor"). A model's digest rewrites the requests in its own words,
    so all of it is read with no speaker, as is every other note."""
    if who == "person":
        return [(body, owner)]
    digest = fm.get("type") == "memory" and fm.get("harness") not in (None, "mnemex")
    if not (digest and owner and fm.get("extractor") == "offline"):
        return [(body, None)]
    theirs: list[str] = []
    rest: list[str] = []
    into = rest
    for line in body.splitlines():
        heading = _HEADING.match(line)
        if heading:
            into = theirs if heading.group(1).strip() == REQUESTS_HEADING else rest
            rest.append(line)
            continue
        into.append(line)
    if not any(line.strip() for line in theirs):
        return [(body, None)]
    return [("\n".join(rest), None), ("\n".join(theirs), owner)]


def _read_part(
    text: str,
    sha256: str | None,
    n: int,
    day: dt.date,
    book: NameBook,
    speaker: str | None,
    reader: ModelReader | None,
) -> tuple[list[Claim], list[dict[str, str]], str | None]:
    """One voice of a note, read by the model when there is one (each part cached under
    its own key: the note's sha256, then ``:<n>``), else, or when it cannot, offline."""
    if reader is not None and sha256:
        key = sha256 if n == 0 else f"{sha256}:{n}"
        read = reader.read(text, sha256=key, evidence_date=day, book=book, speaker=speaker)
        if read.warning is None:
            return read.claims, read.dropped, None
        claims, dropped = claims_from_text(text, evidence_date=day, book=book, speaker=speaker)
        return claims, dropped, read.warning
    claims, dropped = claims_from_text(text, evidence_date=day, book=book, speaker=speaker)
    return claims, dropped, None


def learn_note(
    brain: Brain,
    rel: str,
    *,
    provenance: Provenance | None = None,
    now: dt.datetime | None = None,
) -> Recorded:
    """Record the facts one vault note states (a remembered note, handoff, source, ...).

    The note's date is the evidence date (a summary's document date for an ingested
    source, whose kept text is what is read). Private notes give private facts.

    Raises:
        NoteNotFound: no note at ``rel``.
        FactError: a fact file it would change cannot be read.
    """
    at = (now or dt.datetime.now(dt.UTC)).astimezone(dt.UTC)
    book = name_book(brain)
    read = read_note_claims(
        brain,
        rel,
        book=book,
        provenance=provenance,
        fallback_day=at.date(),
        sha256=brain.vault.current_hash(rel),
    )
    if not read.claims:
        done = Recorded()
        done.report.add("unchanged", rel, "no fact stated")
    else:
        done = record_claims(
            brain,
            read.claims,
            provenance=read.provenance,
            evidence=read.evidence,
            now=at,
            private=read.private,
            summary=f"learned from {rel}"[:80],
            book=book,
        )
    done.dropped = read.dropped
    log_dropped(brain, done.dropped, at)
    return done


# ---------------------------------------------------------------- a person's commands


def _change_one(
    brain: Brain, fact_id_: str, what: str, now: dt.datetime | None, change: Any
) -> Recorded:
    at = (now or dt.datetime.now(dt.UTC)).astimezone(dt.UTC).replace(microsecond=0)
    done = Recorded()
    with recording(brain.vault):
        rel, file, fact = find_fact(brain, fact_id_, brain.vault.settings.private)
        change(file, fact, at)
        file.updated = at
        outcome, _ = brain.vault.write_note(
            rel, render_facts(file), overwrite=True, protected_ok=True
        )
        done.report.add(outcome, rel)
        done.changes.append(
            FactChange("updated" if outcome != "unchanged" else "unchanged", rel, fact)
        )
        if outcome != "unchanged":
            done.commit = commit_change(
                brain.vault, [rel], "fact", f"{what} {fact.id}: {fact.statement[:50]}"
            )
    if outcome != "unchanged":
        brain.sync()
    return done


def confirm_fact(brain: Brain, fact_id_: str, *, now: dt.datetime | None = None) -> Recorded:
    """A person confirms a fact: it gains a dated confirmation and enters the stable layer."""

    def change(file: FactFile, fact: Fact, at: dt.datetime) -> None:
        if fact.expired_at is not None:
            raise FactError(
                f"fact {fact.id} was retracted on {fact.expired_at:%Y-%m-%d}; add it again instead"
            )
        fact.evidence.append(Evidence("user", at.date()))
        fact.revise(at, "layer", "stable", "person")

    return _change_one(brain, fact_id_, "confirm", now, change)


def retract_fact(brain: Brain, fact_id_: str, *, now: dt.datetime | None = None) -> Recorded:
    """A person says a fact was never right: it stops being believed (``expired``), and stays."""

    def change(file: FactFile, fact: Fact, at: dt.datetime) -> None:
        if fact.expired_at is None:
            fact.revise(at, "status", "expired", "person")
            fact.expired_at = at

    return _change_one(brain, fact_id_, "retract", now, change)


def correct_fact(
    brain: Brain,
    fact_id_: str,
    value: str,
    *,
    now: dt.datetime | None = None,
    valid_from: str | None = None,
) -> Recorded:
    """A person corrects a fact's value: the old record expires, a corrected one replaces it.

    The corrected fact keeps the old one's valid time unless ``valid_from`` is given.
    """
    value = " ".join(value.split())
    if not value:
        raise FactError("the corrected value is empty")
    at = (now or dt.datetime.now(dt.UTC)).astimezone(dt.UTC).replace(microsecond=0)
    done = Recorded()
    with recording(brain.vault):
        rel, file, old = find_fact(brain, fact_id_, brain.vault.settings.private)
        if old.expired_at is not None:
            raise FactError(f"fact {old.id} was already replaced on {old.expired_at:%Y-%m-%d}")
        statement = f"{old.subject}: {(old.predicate or 'fact').replace('_', ' ')}"
        if old.aspect:
            statement += f" ({old.aspect})"
        statement += f" is {value} (corrected by the owner)"
        # the corrected value holds when the old one was served as holding, unless told
        try:
            start = (
                When.parse(valid_from) if valid_from else (old.valid_from or When(old.first_seen))
            )
        except ValueError as exc:
            raise FactError(f"--from: {exc}") from exc
        new = Fact(
            id=fact_id(old.subject, statement, f"user:{at.date().isoformat()}"),
            subject=old.subject,
            statement=sanitise(statement),
            predicate=old.predicate,
            value=sanitise(value),
            recorded_at=at,
            provenance="person",
            evidence=[Evidence("user", at.date())],
            kind=old.kind,
            key=old.key,
            condition=old.condition,
            valid_from=start,
            valid_until=old.valid_until,
            layer="stable",
        )
        old.revise(at, "status", "expired", new.id)
        old.expired_at = at
        file.facts.append(new)
        file.updated = at
        outcome, _ = brain.vault.write_note(
            rel, render_facts(file), overwrite=True, protected_ok=True
        )
        done.report.add(outcome, rel)
        done.changes.append(FactChange("created", rel, new))
        done.commit = commit_change(brain.vault, [rel], "fact", f"correct {old.id}: {value[:50]}")
    brain.sync()
    return done


__all__ = [
    "FACTS_DIR",
    "FactChange",
    "NoteClaims",
    "Recorded",
    "add_fact",
    "claims_from_text",
    "confirm_fact",
    "correct_fact",
    "fact_files",
    "fact_from_claim",
    "find_fact",
    "learn_note",
    "log_dropped",
    "name_book",
    "observation_of",
    "read_fact_file",
    "read_note_claims",
    "record_claims",
    "retract_fact",
    "subject_path",
]
