"""Generate a synthetic mnemex vault of any size, deterministically for a seed.

    python bench/make_vault.py OUT --notes 10000 [--seed 7] [--stats]

The notes look like a real second brain: YAML frontmatter (title, tags, dates,
type, status, aliases), headings, bullet and task lists, paragraphs of varied
length, the odd table and code block, ``[[wikilinks]]`` between notes (some with
``|alias`` or ``#heading``, about one in ten unresolved) and inline ``#tags``,
spread over ``wiki/<domain>/{entities,concepts,summaries}``, ``notes/``,
``notes/projects/<project>/``, ``daily/<year>/``, ``inbox/``, ``memories/<project>/``
and a small private domain.

Text comes from a built-in vocabulary generator (no network, no datasets):
a list of ordinary English words by part of speech, plus pronounceable
pseudo-words (jargon, names of people, projects and places) built from
syllables. Word choice is Zipf-like with a per-note topic, so keyword posting
lists and vector neighbourhoods have a realistic shape. Notes average about
4.3 chunks (as cut by :func:`mnemex.index.chunking.chunk_body` since issue 13;
ten with the old one-block-per-chunk chunker), so 10,000 notes make about
43,000 chunks; ``--stats`` checks that with the real chunker.

Only the content is deterministic; file modification times are whatever the
file system gives.
"""

# ruff: noqa: SIM905

from __future__ import annotations

import argparse
import bisect
import datetime as dt
import itertools
import json
import random
import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import yaml

# -- vocabulary -----------------------------------------------------------------

NOUNS = """
account agenda alert answer api approach archive argument article assumption audit
backlog backup balance baseline batch benchmark bill board book booking boundary
branch budget buffer bug build bundle cache calendar call campaign capacity card
case catalogue change channel chapter chart checklist claim client cluster code
colleague comment commit community company compiler component concept conference
config connection constraint contract contributor cost coverage credential customer
cycle dashboard database deadline decision default delay delivery demand dependency
deploy design detail device diagram dinner discount discussion disk document domain
draft driver duty editor effort email endpoint engine environment error estimate
event evidence example exception experiment export failure feature feedback field
file filter fix flight flow folder forecast format framework friend function garden
gateway goal grant graph group guide habit handler hardware health hiring holiday
host hypothesis idea image import incident index input insight install interface
interview invoice issue iteration job journal kernel key kitchen label language
latency launch layer layout lead lesson library licence limit link list load log
loop machine manager manual map market meeting memory mentor message method metric
migration milestone mistake model module monitor month network node note notebook
offer office onboarding option order outage outcome owner package page parser
partner password patch payment peer performance permission phase pipeline plan
platform policy pool post practice price priority problem process product profile
project prompt proposal protocol prototype provider query queue quota rate reader
recipe record refactor region release report repository request requirement
research resource response result retro review risk roadmap role rollback route
rule runbook runtime sale sample schedule schema scope score script search season
secret section server service session setting shard signal sketch snapshot source
spec sprint stack stage standard statement status step storage story strategy
stream summary supplier support survey system table target task team template
tenant test thread ticket timeline timeout token tool topic trace trade training
transaction trip upgrade user value vendor version video volume warning website
week weekend worker workflow workshop year
""".split()

ADJECTIVES = """
active annual automatic bad basic better big blocked broken busy careful cheap
clean clear cold common complex critical current daily dark deep default different
difficult direct dirty early easy empty exact expensive external fast final fine
first flaky formal fresh full general global good great hard healthy heavy hidden
high huge important internal key large late legacy light likely local long loud
main major manual minor missing mobile modern monthly narrow native near new next
nice normal obvious old open optional original partial personal plain popular
possible previous primary private public quick quiet random rare raw ready real
recent regular relevant remote rough safe secure serious shared short silent
simple single slow small smooth soft solid special stable stale static steady
strange strict strong subtle sudden tight tiny total tricky typical unclear
unusual urgent useful valid vague visible warm weak weekly whole wide wrong young
""".split()

VERBS = """
add adjust agree allow analyse answer archive ask assign avoid book break bring
build call cancel capture change check choose clean close collect compare compile
configure confirm connect consider copy create cut debug decide define delete
deliver deploy describe design discuss document drop edit enable estimate expand
explain export extend fail fetch file find finish fix follow forget freeze gather
handle help hire ignore implement import improve include index install investigate
keep label launch learn limit list load log look lose maintain measure merge migrate
miss monitor move name need note open order organise own pack pause pay pick plan
prepare present prevent print publish push question read rebuild record reduce
refactor release remove rename repair replace report request reset resolve restart
restore review rewrite roll run save schedule search send ship sign simplify skip
sort split start stop store suggest support switch sync tag test track train
translate trigger try tune update upgrade use validate verify wait watch write
""".split()

PAST = """
added agreed asked blocked broke built called cancelled changed checked chose
cleaned closed confirmed created cut decided deleted delivered deployed dropped
enabled estimated explained failed fixed found finished forgot froze handled
improved installed launched learned lost measured merged met migrated missed moved
noticed opened paid paused planned pushed raised read rebuilt reduced released
removed renamed replaced reported reset resolved restarted restored reviewed
rewrote ran saved sent shipped signed skipped split started stopped switched
synced tested tracked tried tuned updated upgraded verified wrote
""".split()

ADVERBS = """
again almost already always carefully clearly daily easily eventually finally
first gradually mostly never often only probably quickly rarely really slowly
sometimes soon still usually weekly
""".split()

DETERMINERS = ["the", "the", "the", "a", "this", "that", "our", "every", "each", "one", "some"]
PREPOSITIONS = """
about after against around at before behind between by during for from in into
near of on over per through to under until with without
""".split()
UNITS = ["ms", "users", "days", "GB", "rows", "percent", "euros"]
SECTION_NAMES = [
    "Notes",
    "Decisions",
    "Open questions",
    "Next steps",
    "Context",
    "History",
    "Overview",
    "Problems",
    "Ideas",
]
SUBJECTS = ["we", "I", "they", "the team", "she", "he", "nobody", "everyone", "ops", "support"]
MODALS = ["should", "will", "must", "can", "could", "might", "need to", "want to", "plan to"]
CONNECTORS = ["because", "so", "but", "although", "while", "and", "until", "unless", "since"]
OPENERS = [
    "In short,",
    "For now,",
    "As a result,",
    "Last time,",
    "On balance,",
    "Honestly,",
    "To be fair,",
    "Later,",
    "Meanwhile,",
    "In practice,",
]

ONSETS = (
    "b bl br c ch cl cr d dr f fl fr g gl gr h j k kl kr l m n p pl pr qu r s sc sh sk sl "
    "sm sn sp st str t th tr v w z"
).split()
VOWELS = "a e i o u a e i o ai ea ou io ia y".split()
CODAS = ["", "", "", "n", "r", "l", "s", "th", "st", "nd", "rk", "m", "x", "nt", "ck"]


def pseudo_word(rng: random.Random, syllables: int | None = None) -> str:
    """A pronounceable made-up word: jargon, a product or a family name."""
    n = syllables or rng.choice((1, 2, 2, 2, 3, 3))
    parts = []
    for i in range(n):
        onset = rng.choice(ONSETS) if i == 0 or rng.random() < 0.7 else ""
        coda = rng.choice(CODAS) if i == n - 1 or rng.random() < 0.25 else ""
        parts.append(onset + rng.choice(VOWELS) + coda)
    return "".join(parts)


class Zipf:
    """Draws items with weight ``1 / (rank + offset) ** s`` (a flattened Zipf law)."""

    def __init__(self, items: Sequence[str], s: float = 1.0, offset: float = 10.0) -> None:
        self.items = list(items)
        weights = [1.0 / (r + offset) ** s for r in range(1, len(self.items) + 1)]
        self.cum = list(itertools.accumulate(weights))

    def draw(self, rng: random.Random) -> str:
        x = rng.random() * self.cum[-1]
        return self.items[bisect.bisect_left(self.cum, x)]


def _unique_words(
    rng: random.Random, n: int, taken: set[str], syllables: int | None = None
) -> list[str]:
    out: list[str] = []
    while len(out) < n:
        w = pseudo_word(rng, syllables)
        if len(w) >= 4 and w not in taken:
            taken.add(w)
            out.append(w)
    return out


@dataclass
class Vocabulary:
    """All the words of one generated vault."""

    nouns: Zipf
    adjectives: Zipf
    verbs: Zipf
    past: Zipf
    jargon: Zipf
    first_names: list[str]
    last_names: list[str]
    tags: Zipf

    @classmethod
    def build(cls, rng: random.Random, n_notes: int) -> Vocabulary:
        taken = set(NOUNS) | set(ADJECTIVES) | set(VERBS)

        def shuffled(words: list[str]) -> list[str]:
            words = list(words)
            rng.shuffle(words)
            return words

        jargon_size = max(2000, min(40000, n_notes * 3))
        jargon = _unique_words(rng, jargon_size, taken)
        firsts = [w.capitalize() for w in _unique_words(rng, 300, taken, syllables=2)]
        lasts = [w.capitalize() for w in _unique_words(rng, 900, taken)]
        tag_words = shuffled(NOUNS)[:120] + jargon[:200]
        tags = [
            *tag_words,
            *(f"{a}/{b}" for a, b in zip(tag_words[:40], tag_words[40:80], strict=True)),
        ]
        return cls(
            nouns=Zipf(shuffled(NOUNS), s=1.0, offset=20),
            adjectives=Zipf(shuffled(ADJECTIVES), s=1.0, offset=15),
            verbs=Zipf(shuffled(VERBS), s=1.0, offset=15),
            past=Zipf(shuffled(PAST), s=1.0, offset=10),
            jargon=Zipf(jargon, s=1.05, offset=5),
            first_names=firsts,
            last_names=lasts,
            tags=Zipf(tags, s=1.1, offset=3),
        )


# -- the plan of the vault: paths and titles first, so notes can link to each other --


@dataclass
class Note:
    kind: str  # entity, concept, summary, meeting, project, daily, inbox, memory, private
    path: str
    title: str
    date: dt.date | None = None
    project: str | None = None
    topic: list[str] = field(default_factory=list)
    headings: list[str] = field(default_factory=list)


#: share of notes by kind; each kind's shape is set in its writer below
KIND_SHARES = {
    "entity": 0.18,
    "concept": 0.08,
    "summary": 0.05,
    "meeting": 0.14,
    "project": 0.12,
    "daily": 0.24,
    "inbox": 0.09,
    "memory": 0.07,
    "private": 0.03,
}

START_DATE = dt.date(2019, 1, 7)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


class Generator:
    def __init__(self, n_notes: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.n = n_notes
        self.vocab = Vocabulary.build(self.rng, n_notes)
        self.notes: list[Note] = []
        self.projects = [
            pseudo_word(self.rng, 3).capitalize() for _ in range(max(4, n_notes // 400))
        ]
        self.people: list[str] = []
        self._plan()

    # ---- planning

    def _person(self) -> str:
        v = self.vocab
        return f"{self.rng.choice(v.first_names)} {self.rng.choice(v.last_names)}"

    def _topic(self) -> list[str]:
        v, rng = self.vocab, self.rng
        words = {v.jargon.draw(rng) for _ in range(6)} | {v.nouns.draw(rng) for _ in range(8)}
        return sorted(words)

    def _plan(self) -> None:
        rng = self.rng
        counts = {k: max(1, round(self.n * s)) for k, s in KIND_SHARES.items()}
        counts["daily"] += self.n - sum(counts.values())  # exact total
        used_paths: set[str] = set()

        def add(note: Note) -> None:
            base, n = note.path[:-3], 2
            while note.path.lower() in used_paths:
                note.path = f"{base}-{n}.md"
                n += 1
            used_paths.add(note.path.lower())
            note.topic = self._topic()
            self.notes.append(note)

        seen_titles: set[str] = set()
        adj, noun, jar = self._drawers()
        for _ in range(counts["entity"]):
            r = rng.random()
            if r < 0.55:
                title = self._person()
                while title in seen_titles:
                    title = self._person()
                self.people.append(title)
            elif r < 0.8:
                name = pseudo_word(rng).capitalize()
                title = f"{name} {rng.choice(['Labs', 'Inc', 'GmbH', 'Studio', 'Group', 'Co'])}"
            else:
                name = pseudo_word(rng, 3).capitalize()
                title = f"{name} {rng.choice(['Service', 'API', 'App', 'Tool', 'Library'])}"
            seen_titles.add(title)
            add(Note("entity", f"wiki/general/entities/{_slug(title)}.md", title))
        for _ in range(counts["concept"]):
            title = f"{adj().capitalize()} {jar()} {noun()}"
            domain = "work" if rng.random() < 0.4 else "general"
            add(Note("concept", f"wiki/{domain}/concepts/{_slug(title)}.md", title))
        for _ in range(counts["summary"]):
            title = (
                f"Summary - {jar().capitalize()} {noun()}"
                f" {rng.choice(['book', 'talk', 'paper', 'course', 'thread'])}"
            )
            add(Note("summary", f"wiki/general/summaries/{_slug(title)}.md", title))
        span = max(365, counts["daily"] + 30)
        for _ in range(counts["meeting"]):
            day = START_DATE + dt.timedelta(days=rng.randrange(span))
            kind = rng.choice(["Sync", "Review", "Planning", "Retro", "1-1", "Call", "Kickoff"])
            title = f"{day.isoformat()} {kind} {noun()}"
            add(Note("meeting", f"notes/{title}.md", title, date=day))
        for _ in range(counts["project"]):
            project = rng.choice(self.projects)
            kind = rng.choice(["design", "notes", "plan", "runbook", "postmortem", "spec", "ideas"])
            title = f"{project} {kind} - {noun()} {jar()}"
            add(
                Note(
                    "project",
                    f"notes/projects/{project.lower()}/{title}.md",
                    title,
                    project=project,
                )
            )
        for i in range(counts["daily"]):
            day = START_DATE + dt.timedelta(days=i)
            add(Note("daily", f"daily/{day.year}/{day.isoformat()}.md", day.isoformat(), date=day))
        for _ in range(counts["inbox"]):
            title = f"{adj().capitalize()} {noun()} {jar()}"
            add(Note("inbox", f"inbox/{_slug(title)}.md", title))
        for _ in range(counts["memory"]):
            project = rng.choice(self.projects).lower()
            title = f"{noun().capitalize()} {jar()} preference"
            add(Note("memory", f"memories/{project}/{_slug(title)}.md", title, project=project))
        for _ in range(counts["private"]):
            title = f"{adj().capitalize()} {noun()} journal"
            add(Note("private", f"wiki/private/entities/{_slug(title)}.md", title))
        # link targets: popular notes get many links (hubs), the tail a few
        self.targets = Zipf(
            [n.title for n in rng.sample(self.notes, len(self.notes))], s=0.9, offset=30
        )
        self.entities = [n.title for n in self.notes if n.kind == "entity"]

    def _drawers(self) -> tuple[Callable[[], str], Callable[[], str], Callable[[], str]]:
        """Draw an adjective, a noun, a jargon word."""
        v, rng = self.vocab, self.rng
        return (
            (lambda: v.adjectives.draw(rng)),
            (lambda: v.nouns.draw(rng)),
            (lambda: v.jargon.draw(rng)),
        )

    # ---- text

    def word(self, topic: Sequence[str]) -> str:
        rng, v = self.rng, self.vocab
        r = rng.random()
        if r < 0.3:
            return rng.choice(topic)
        if r < 0.7:
            return v.nouns.draw(rng)
        return v.jargon.draw(rng)

    def noun_phrase(self, topic: Sequence[str]) -> str:
        rng, v = self.rng, self.vocab
        parts = [rng.choice(DETERMINERS)]
        if rng.random() < 0.45:
            parts.append(v.adjectives.draw(rng))
        parts.append(self.word(topic))
        if rng.random() < 0.3:
            parts.append(self.word(topic))
        return " ".join(parts)

    def link(self, note: Note) -> str:
        rng = self.rng
        r = rng.random()
        if r < 0.1:  # unresolved: a page nobody wrote yet
            target = f"{self.vocab.jargon.draw(rng).capitalize()} {self.vocab.nouns.draw(rng)}"
        else:
            target = self.targets.draw(rng)
            if target == note.title:
                target = rng.choice(self.entities) if self.entities else target
        r = rng.random()
        if r < 0.12:
            return f"[[{_slug(target)}|{target}]]"
        if r < 0.2:
            return f"[[{target}#{rng.choice(['Notes', 'Decisions', 'Overview', 'History'])}]]"
        return f"[[{target}]]"

    def sentence(self, note: Note, links: float = 0.15, tags: float = 0.04) -> str:
        rng, v = self.rng, self.vocab
        form = rng.random()
        subj = rng.choice(SUBJECTS) if rng.random() < 0.5 else self.noun_phrase(note.topic)
        obj = self.noun_phrase(note.topic)
        if form < 0.3:
            s = f"{subj} {v.past.draw(rng)} {obj} {rng.choice(PREPOSITIONS)}"
            s += f" {self.noun_phrase(note.topic)}"
        elif form < 0.55:
            s = f"{subj} {rng.choice(MODALS)} {v.verbs.draw(rng)} {obj}"
            if rng.random() < 0.5:
                s += f" {rng.choice(CONNECTORS)} {self.noun_phrase(note.topic)}"
                s += f" is {v.adjectives.draw(rng)}"
        elif form < 0.75:
            s = f"{obj} is {rng.choice(['', 'still ', 'now ', 'too ', 'not '])}"
            s += f"{v.adjectives.draw(rng)} {rng.choice(PREPOSITIONS)}"
            s += f" {self.noun_phrase(note.topic)}"
        elif form < 0.88:
            s = f"{rng.choice(OPENERS)} {subj} {rng.choice(ADVERBS)} {v.past.draw(rng)} {obj}"
        else:
            n = rng.randint(3, 6)
            s = f"{subj} {v.past.draw(rng)} {', '.join(self.word(note.topic) for _ in range(n))}"
            s += f" and {self.noun_phrase(note.topic)}"
        if rng.random() < 0.15:
            s += f" {rng.choice(PREPOSITIONS)} {rng.randint(2, 500)} {rng.choice(UNITS)}"
        if rng.random() < links:
            s += f" (see {self.link(note)})"
        if rng.random() < tags:
            s += f" #{v.tags.draw(rng)}"
        if rng.random() < 0.02:
            s += f" with `{self.vocab.jargon.draw(rng)}_{self.vocab.nouns.draw(rng)}()`"
        s = s.strip()
        return s[0].upper() + s[1:] + rng.choice(".........!?")

    def paragraph(self, note: Note, lo: int = 1, hi: int = 6) -> str:
        n = self.rng.randint(lo, hi)
        if self.rng.random() < 0.05:
            n = self.rng.randint(10, 18)  # the odd long paragraph (split by the chunker)
        text = " ".join(self.sentence(note) for _ in range(n))
        if self.rng.random() < 0.3:  # hard-wrapped, as some editors write it (never inside a link)
            protected = re.sub(r"\[\[[^\]]*\]\]", lambda m: m.group(0).replace(" ", "\x00"), text)
            words, lines, line = protected.split(" "), [], ""
            for w in words:
                if len(line) + len(w) > 88:
                    lines.append(line)
                    line = w
                else:
                    line = f"{line} {w}" if line else w
            lines.append(line)
            text = "\n".join(lines).replace("\x00", " ")
        return text

    def bullets(self, note: Note, lo: int, hi: int, task: float = 0.0, links: float = 0.12) -> str:
        rng = self.rng
        items = []
        for _ in range(rng.randint(lo, hi)):
            mark = "-"
            if rng.random() < task:
                mark = f"- [{'x' if rng.random() < 0.4 else ' '}]"
            text = self.sentence(note, links=links, tags=0.08)
            if rng.random() < 0.25:
                text += " " + self.sentence(note)
            item = f"{mark} {text}"
            if rng.random() < 0.08:
                item += f"\n  {self.sentence(note)}"  # continuation line
            items.append(item)
            if rng.random() < 0.07:
                items.append(f"    - {self.sentence(note)}")  # nested item
        return "\n".join(items)

    def numbered(self, note: Note, lo: int, hi: int) -> str:
        return "\n".join(
            f"{i}. {self.sentence(note)}" for i in range(1, self.rng.randint(lo, hi) + 1)
        )

    def table(self, note: Note) -> str:
        rng, v = self.rng, self.vocab
        cols = rng.sample(["name", "owner", "status", "cost", "date", "notes", "score"], 3)
        rows = [f"| {' | '.join(cols)} |", "|" + "---|" * len(cols)]
        for _ in range(rng.randint(2, 6)):
            cells = [
                v.jargon.draw(rng),
                rng.choice(self.entities) if self.entities else "n/a",
                v.adjectives.draw(rng),
            ]
            rows.append(f"| {' | '.join(cells)} |")
        return "\n".join(rows)

    def code(self, note: Note) -> str:
        rng, v = self.rng, self.vocab
        lang = rng.choice(["python", "bash", "sql", "yaml", ""])
        lines = []
        for _ in range(rng.randint(3, 12)):
            a, b = v.jargon.draw(rng), v.nouns.draw(rng)
            lines.append(
                rng.choice(
                    [
                        f"{a}_{b} = load('{b}')  # [[not a link]] #notatag",
                        f"{b} --{a} {rng.randint(1, 99)}",
                        f"SELECT {a} FROM {b} WHERE id = {rng.randint(1, 999)};",
                        f"{a}: {b}",
                    ]
                )
            )
        return f"```{lang}\n" + "\n".join(lines) + "\n```"

    def heading(self, note: Note, level: int = 2) -> str:
        rng, v = self.rng, self.vocab
        text = rng.choice(
            [
                f"{v.nouns.draw(rng).capitalize()}",
                f"{v.adjectives.draw(rng).capitalize()} {v.nouns.draw(rng)}",
                f"{rng.choice(SECTION_NAMES)}",
                f"{v.jargon.draw(rng).capitalize()} {v.nouns.draw(rng)}",
            ]
        )
        return "#" * level + " " + text

    # ---- notes by kind

    def frontmatter(self, note: Note) -> dict[str, object]:
        rng, v = self.rng, self.vocab
        fm: dict[str, object] = {}
        if note.kind == "daily":
            fm["date"] = note.date
            if rng.random() < 0.5:
                fm["tags"] = ["daily"]
            return fm
        fm["title"] = note.title
        if note.kind in ("entity", "concept", "summary", "private"):
            fm["type"] = {"private": "entity"}.get(note.kind, note.kind)
        tags = sorted({v.tags.draw(rng) for _ in range(rng.randint(0, 4))})
        if tags:
            fm["tags"] = tags
        if note.kind == "entity" and rng.random() < 0.3:
            fm["aliases"] = [note.title.split(" ")[0], _slug(note.title)]
        if note.kind == "meeting" and note.date:
            fm["date"] = note.date
            fm["attendees"] = (
                [f"[[{rng.choice(self.people)}]]" for _ in range(rng.randint(1, 4))]
                if self.people
                else []
            )
        if note.kind == "project":
            fm["project"] = note.project
            fm["status"] = rng.choice(["active", "active", "done", "paused", "idea"])
        if note.kind == "memory":
            fm["importance"] = round(rng.random(), 2)
        if rng.random() < 0.35:
            day = START_DATE + dt.timedelta(days=rng.randrange(2200))
            fm["created"] = day
            if rng.random() < 0.5:
                fm["updated"] = day + dt.timedelta(days=rng.randrange(1, 400))
        return fm

    def body(self, note: Note) -> list[str]:
        rng = self.rng
        blocks: list[str] = []
        if note.kind != "daily" and rng.random() < 0.8:
            blocks.append(f"# {note.title}")
        if note.kind == "entity":
            blocks.append(self.paragraph(note, 2, 5))
            blocks += ["## Facts", self.bullets(note, 3, 8)]
            blocks += ["## Relations", self.bullets(note, 1, 4, links=0.9)]
            if rng.random() < 0.5:
                blocks += ["## History", *(self.paragraph(note) for _ in range(rng.randint(1, 3)))]
        elif note.kind == "concept":
            blocks += [self.paragraph(note, 2, 6) for _ in range(rng.randint(2, 3))]
            blocks += [self.heading(note), self.bullets(note, 2, 6)]
            if rng.random() < 0.4:
                blocks.append(self.code(note))
            if rng.random() < 0.3:
                blocks += [self.heading(note), self.table(note)]
            blocks += [self.heading(note), self.paragraph(note, 2, 6)]
        elif note.kind == "summary":
            for _ in range(rng.randint(3, 6)):
                blocks.append(self.heading(note))
                blocks += [self.paragraph(note, 2, 7) for _ in range(rng.randint(1, 3))]
                if rng.random() < 0.4:
                    blocks.append(self.bullets(note, 2, 5))
        elif note.kind == "meeting":
            blocks += [
                "## Attendees",
                "\n".join(f"- [[{rng.choice(self.people)}]]" for _ in range(rng.randint(2, 5)))
                if self.people
                else "- me",
            ]
            blocks += ["## Discussion", self.bullets(note, 4, 12)]
            if rng.random() < 0.5:
                blocks.append(self.paragraph(note, 2, 5))
            blocks += ["## Decisions", self.bullets(note, 1, 4)]
            blocks += ["## Action items", self.bullets(note, 1, 5, task=0.9)]
        elif note.kind == "project":
            for _ in range(rng.randint(2, 4)):
                blocks.append(self.heading(note))
                blocks += [self.paragraph(note, 2, 6) for _ in range(rng.randint(1, 2))]
                r = rng.random()
                if r < 0.35:
                    blocks.append(self.bullets(note, 2, 6))
                elif r < 0.5:
                    blocks.append(self.numbered(note, 2, 6))
                elif r < 0.65:
                    blocks.append(self.code(note))
                if rng.random() < 0.25:
                    blocks.append(f"### {self.heading(note)[3:]}")
                    blocks.append(self.paragraph(note))
        elif note.kind == "daily":
            blocks.append(self.bullets(note, 3, 9, task=0.25, links=0.35))
            if rng.random() < 0.5:
                blocks += ["## Log", self.bullets(note, 1, 5, links=0.2)]
            if rng.random() < 0.3:
                blocks += ["## Thoughts", self.paragraph(note, 2, 6)]
        elif note.kind == "inbox":
            blocks += [self.paragraph(note, 1, 4) for _ in range(rng.randint(1, 3))]
            if rng.random() < 0.5:
                blocks.append(self.bullets(note, 1, 4))
            if rng.random() < 0.3:
                blocks.append(f"Source: https://example.org/{_slug(note.title)}")
        elif note.kind == "memory":
            blocks.append(self.paragraph(note, 1, 3))
            blocks.append(self.bullets(note, 1, 3))
        elif note.kind == "private":
            blocks += [self.paragraph(note, 2, 6) for _ in range(rng.randint(2, 5))]
            blocks.append(self.bullets(note, 2, 5))
        return blocks

    def render(self, note: Note) -> str:
        rng = self.rng
        fm = self.frontmatter(note)
        blocks = self.body(note)
        text = "\n\n".join(blocks) + "\n"
        fm = {k: v for k, v in fm.items() if v is not None}
        if fm and rng.random() > 0.01:  # a few notes have no frontmatter at all
            lines = [f"{key}: {_yaml_value(value)}" for key, value in fm.items()]
            text = "---\n" + "\n".join(lines) + "\n---\n" + text
        return text


def _yaml_value(value: object) -> str:
    """One frontmatter value as YAML: plain scalars, lists in flow style ``[a, b]``."""
    dumped = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=1000)
    return dumped.removesuffix("\n").removesuffix("\n...").strip()


SETTINGS = """[vault]
format = 1
name = "bench"
domains = ["general", "work"]
private = ["private"]

[embedder]
name = "minilm"
"""


def generate(out: Path, n_notes: int, seed: int = 7) -> dict[str, int]:
    """Write a vault of ``n_notes`` notes into ``out``; returns counts by kind."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "mnemex.toml").write_text(SETTINGS, encoding="utf-8")
    (out / ".gitignore").write_text(".mnemex/\n", encoding="utf-8")
    gen = Generator(n_notes, seed)
    counts: dict[str, int] = {}
    for note in gen.notes:
        path = out / note.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(gen.render(note), encoding="utf-8")
        counts[note.kind] = counts.get(note.kind, 0) + 1
    return counts


def queries(n: int = 50, seed: int = 11, n_notes: int = 10000, vault_seed: int = 7) -> list[str]:
    """Natural-language queries in the vault's vocabulary (people, projects, jargon, topics)."""
    gen = Generator(n_notes, vault_seed)  # same vocabulary and titles as the vault
    rng = random.Random(seed)
    v = gen.vocab
    out: list[str] = []
    forms = [
        lambda t: f"what did we decide about the {rng.choice(t)} {rng.choice(t)}?",
        lambda t: (
            f"how do we {v.verbs.draw(rng)} the {rng.choice(t)}"
            f" when the {v.nouns.draw(rng)} is {v.adjectives.draw(rng)}"
        ),
        lambda t: f"why is the {rng.choice(t)} so {v.adjectives.draw(rng)}",
        lambda t: f"who owns {rng.choice(gen.entities)}" if gen.entities else "who owns this",
        lambda t: f"{rng.choice(t)} {rng.choice(t)} {v.nouns.draw(rng)}",
        lambda t: f"notes on {rng.choice(t)} from last {rng.choice(['week', 'month', 'year'])}",
        lambda t: (
            f"when did {rng.choice(gen.people) if gen.people else 'she'}"
            f" {v.verbs.draw(rng)} the {rng.choice(t)}"
        ),
        lambda t: (
            f"{rng.choice(gen.projects)} {rng.choice(['runbook', 'postmortem', 'design'])}"
            f" {rng.choice(t)}"
        ),
        lambda t: (
            f"is there a {v.adjectives.draw(rng)} way to {v.verbs.draw(rng)} {rng.choice(t)}"
            f" without {v.nouns.draw(rng)}"
        ),
        lambda t: f"{rng.choice(t)}",
    ]
    while len(out) < n:
        note = rng.choice(gen.notes)
        q = forms[len(out) % len(forms)](note.topic)
        if q not in out:
            out.append(q)
    return out


def chunk_stats(root: Path) -> dict[str, float]:
    """Chunks per note with mnemex's own parser and chunker."""
    from mnemex.index.chunking import chunk_body
    from mnemex.vault import parse_note

    per_note: list[int] = []
    chars: list[int] = []
    for path in sorted(root.rglob("*.md")):
        if ".mnemex" in path.parts:
            continue
        parsed = parse_note(path.read_text(encoding="utf-8"), str(path.relative_to(root)))
        chunks = chunk_body(parsed.body, parsed.body_line)
        per_note.append(max(1, len(chunks)))
        chars += [len(c.text) for c in chunks]
    per_note.sort()
    chars.sort()
    return {
        "notes": len(per_note),
        "chunks": sum(per_note),
        "chunks_per_note_mean": round(sum(per_note) / max(1, len(per_note)), 2),
        "chunks_per_note_median": per_note[len(per_note) // 2] if per_note else 0,
        "chunk_chars_median": chars[len(chars) // 2] if chars else 0,
        "chunk_chars_p95": chars[int(len(chars) * 0.95)] if chars else 0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder to write the vault into")
    parser.add_argument("--notes", type=int, default=1000, help="how many notes (default 1000)")
    parser.add_argument("--seed", type=int, default=7, help="random seed (default 7)")
    parser.add_argument("--stats", action="store_true", help="count chunks with the real chunker")
    args = parser.parse_args(argv)
    if args.out.exists() and any(p for p in args.out.rglob("*.md")):
        print(f"{args.out} already holds notes; choose an empty folder", file=sys.stderr)
        return 2
    started = time.perf_counter()
    counts = generate(args.out, args.notes, args.seed)
    seconds = time.perf_counter() - started
    print(f"wrote {sum(counts.values())} notes to {args.out} in {seconds:.1f} s: {counts}")
    if args.stats:
        print(json.dumps(chunk_stats(args.out), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
