"""Precision and recall of ``mnemex health``'s duplicates among a person's own notes.

    python bench/duplicates_eval.py [--seed 3] [--out DIR]     # planted vault, scored
    python bench/duplicates_eval.py --vault PATH                # a real vault (copied), listed
    python bench/duplicates_eval.py --scale 10000 [--scale-seed 7]  # time on make_vault.py's vault

The planted vault is what a person's Obsidian vault looks like: a year of daily
notes from one template (header, navigation line, prompts, sections; about a
quarter of the days nearly empty, recurring habit lines), meeting notes from a
template, topic notes in ``notes/``, ``projects/<p>/``, ``areas/``,
``resources/``, stubs in ``inbox/``. Into it go duplicates, each pair recorded:

- ``renamed``: the same text under another name in another folder;
- ``slug``: the same name spelt differently (case, hyphens, underscores), in the
  same folder or another, half of them with the text edited;
- ``edited``: a copy with a few words changed, a sentence added or dropped;
- ``frontmatter``: the same body under different frontmatter (tags, dates, aliases);
- ``daily``: a day's note copied under another name;
- ``triple``: one text in three places (three pairs);
- ``triple-edited``: a note and two copies with small edits (three pairs).

And hard negatives, which must not be reported: days and meetings sharing a
template, near-empty days and stubs, two notes on one topic written separately
(same topic words, different sentences), notes with one name in two project
folders and different text. The vault is written to ``--out`` (or a temporary
folder), indexed with the hashing embedder, scanned for duplicates only (no
vectors: they need a real model and cover entity/concept pages, which this
vault has none of), and scored: a reported pair is right when it is a planted
pair. Misses and false positives are printed with their detail.

``--vault`` copies a real vault into a temporary folder (the original is never
written), indexes and scans it, and prints every duplicate for checking by
hand. ``--scale`` generates ``bench/make_vault.py``'s vault, times the copy
check on its files (no index needed), and, with ``--index``, the duplicates
kind of a full scan on a synced index.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_vault import ADJECTIVES, NOUNS, PREPOSITIONS, SUBJECTS, VERBS, pseudo_word
from mnemex.brain import Brain
from mnemex.config import settings_template
from mnemex.embed.hashing import HashingEmbedder
from mnemex.health import copies, scan
from mnemex.health.copies import OwnTexts, find_copies, line_words, similarity
from mnemex.vault import Vault, init_vault

YEAR = 2025
HABITS = ["- Gym", "- Meditated ten minutes", "- Read before bed", "- No coffee after noon"]
CHORES = ["- [ ] Water the plants", "- [ ] Take out the recycling", "- [ ] Call mum"]


class Writer:
    """Sentences in a topic's words; deterministic for a seed."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.jargon = [pseudo_word(rng, 2) for _ in range(400)]

    def topic(self) -> list[str]:
        return self.rng.sample(NOUNS, 6) + self.rng.sample(self.jargon, 3)

    def sentence(self, topic: list[str]) -> str:
        r = self.rng
        words = [
            r.choice(SUBJECTS),
            r.choice(VERBS),
            "the",
            r.choice(ADJECTIVES),
            r.choice(topic),
            r.choice(PREPOSITIONS),
            "the",
            r.choice(topic if r.random() < 0.6 else NOUNS),
        ]
        if r.random() < 0.5:
            words += [r.choice(["because", "so", "but", "while"]), r.choice(SUBJECTS)]
            words += [r.choice(VERBS), "the", r.choice(topic)]
        text = " ".join(words)
        return text[0].upper() + text[1:] + "."

    def paragraph(self, topic: list[str], lo: int, hi: int) -> str:
        return " ".join(self.sentence(topic) for _ in range(self.rng.randint(lo, hi)))

    def bullets(self, topic: list[str], lo: int, hi: int) -> str:
        return "\n".join(f"- {self.sentence(topic)}" for _ in range(self.rng.randint(lo, hi)))


def _frontmatter(fields: dict[str, str]) -> str:
    return "---\n" + "".join(f"{k}: {v}\n" for k, v in fields.items()) + "---\n"


class Planted:
    """The vault being written, and what it must report."""

    def __init__(self, root: Path, seed: int) -> None:
        self.root = root
        self.rng = random.Random(seed)
        self.w = Writer(self.rng)
        self.files: dict[str, str] = {}
        self.expected: dict[tuple[str, str], str] = {}
        self.negatives: dict[str, int] = defaultdict(int)

    def add(self, rel: str, text: str) -> str:
        assert rel not in self.files, rel
        self.files[rel] = text
        return rel

    def plant(self, a: str, b: str, how: str) -> None:
        self.expected[(min(a, b), max(a, b))] = how

    # -- the ordinary vault ---------------------------------------------------------------

    def daily(self, day: dt.date, log: str | None = None) -> str:
        r = self.rng
        prev, nxt = day - dt.timedelta(days=1), day + dt.timedelta(days=1)
        if log is None:
            kind = r.random()  # a quarter empty, a fifth one short line, the rest written
            topic = self.w.topic()
            empty = kind < 0.45
            log = "- " if kind < 0.25 else self.w.bullets(topic, 1, 5)
            if 0.25 <= kind < 0.45:
                log = f"- {r.choice(NOUNS)} {r.choice(PREPOSITIONS)} {r.choice(topic)}"
            if not empty and r.random() < 0.4:
                log += "\n\n" + self.w.paragraph(topic, 1, 3)
        habits = "\n".join(h for h in HABITS if r.random() < 0.4) or "- "
        chores = "\n".join(c for c in CHORES if r.random() < 0.3) or "- [ ] "
        return (
            _frontmatter({"date": day.isoformat(), "tags": "[daily]"})
            + f"# {day:%A %d %B %Y}\n<< [[{prev.isoformat()}]] | [[{nxt.isoformat()}]] >>\n\n"
            "Sleep:: \nMood:: \nEnergy:: \n\n"
            "## Morning\nWhat would make today great? What is the one thing that must get "
            "done before lunch?\n- \n\n"
            f"## Log\n{log}\n\n## Habits\n{habits}\n\n## Chores\n{chores}\n\n"
            "## Grateful for\n- \n\n## Evening review\nWhat went well, what could have gone "
            "better, and what did I learn today?\n- \n\n## Tomorrow\n- [ ] \n\n"
            '## Notes created today\n```dataview\nLIST FROM "" WHERE file.cday = '
            "this.file.day SORT file.ctime ASC\n```\n"
        )

    def meeting(self, day: dt.date, name: str) -> str:
        r = self.rng
        topic = self.w.topic()
        people = ", ".join(f"[[{p}]]" for p in r.sample(["Priya", "Sam", "Jo", "Lee", "Ana"], 3))
        agenda = "- Status round\n- " + self.w.sentence(topic)
        decisions = self.w.bullets(topic, 0, 3) if r.random() < 0.8 else ""
        return (
            _frontmatter({"date": day.isoformat(), "tags": "[meeting]", "type": "meeting"})
            + f"# {name}\n\n## Attendees\n{people}\n\n## Agenda\n{agenda}\n\n"
            f"## Notes\n{self.w.paragraph(topic, 0, 4)}\n\n## Decisions\n{decisions or '- '}\n\n"
            "## Action items\n- [ ] \n"
        )

    def topic_note(self, title: str, topic: list[str] | None = None) -> str:
        r = self.rng
        topic = topic or self.w.topic()
        fields = {"tags": f"[{r.choice(['work', 'home', 'ideas', 'reading'])}]"}
        if r.random() < 0.5:
            fields["created"] = f"{YEAR}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"
        parts = [f"# {title}", self.w.paragraph(topic, 1, 4)]
        for _ in range(r.randint(0, 3)):
            parts += [f"## {r.choice(['Notes', 'Ideas', 'Open questions', 'Next steps'])}"]
            parts += [
                self.w.bullets(topic, 1, 5) if r.random() < 0.5 else self.w.paragraph(topic, 1, 4)
            ]
        return _frontmatter(fields) + "\n\n".join(parts) + "\n"

    def title(self) -> str:
        r = self.rng
        words = [r.choice(ADJECTIVES), r.choice(NOUNS)]
        if r.random() < 0.5:
            words += [r.choice(["for", "and", "of"]), r.choice(self.w.jargon)]
        return " ".join(words).capitalize()

    def ordinary(self) -> list[str]:
        """The vault without plants; returns the topic notes (the plants copy them)."""
        start = dt.date(YEAR, 1, 1)
        for i in range(365):
            day = start + dt.timedelta(days=i)
            self.add(f"daily/{YEAR}/{day.isoformat()}.md", self.daily(day))
        self.negatives["daily notes sharing one template"] = 365
        for i in range(80):
            day = start + dt.timedelta(days=4 * i + 1)
            name = self.rng.choice(["Weekly sync", "Planning", "Retro", "1-1 with Sam"])
            self.add(f"meetings/{day.isoformat()} {name}.md", self.meeting(day, name))
        self.negatives["meeting notes sharing one template"] = 80
        self.add(
            "templates/Daily.md",
            self.daily(start, "{{log}}").replace(start.isoformat(), "{{date}}"),
        )
        folders = [
            "notes",
            "areas/health",
            "areas/home",
            "resources",
            *[f"projects/{p}" for p in ("atlas", "birch", "comet")],
        ]
        topics: list[str] = []
        titles: set[str] = set()
        while len(topics) < 300:
            title = self.title()
            if title.lower() in titles:
                continue
            titles.add(title.lower())
            topics.append(
                self.add(f"{self.rng.choice(folders)}/{title}.md", self.topic_note(title))
            )
        for i in range(15):
            self.add(
                f"inbox/Untitled {i}.md" if i else "inbox/Untitled.md",
                self.rng.choice(["", "# Idea\n- \n", "# \n", "- [ ] call back\n"]),
            )
        self.negatives["near-empty inbox notes"] = 15
        # hard negatives: one topic written twice; one name in two projects
        for i in range(20):
            topic = self.w.topic()
            t1, t2 = self.title(), self.title()
            self.add(f"notes/same topic {i} {t1}.md", self.topic_note(t1, topic))
            self.add(f"resources/same topic {i} {t2}.md", self.topic_note(t2, topic))
        self.negatives["pairs of notes on one topic, written separately"] = 20
        for name in ("Tasks", "Ideas", "Reading list", "Open questions", "Log"):
            for p in ("atlas", "birch", "comet"):
                self.add(f"projects/{p}/{name}.md", self.topic_note(name))
        self.negatives["names repeated in three project folders"] = 15
        return topics

    # -- plants ----------------------------------------------------------------------------

    def edit(self, text: str) -> str:
        """A few words changed, a sentence added or one dropped: still the same note."""
        r = self.rng
        fm, _, body = text.partition("---\n")[2].partition("---\n")
        words = body.split(" ")
        for _ in range(max(1, len(words) // 60)):
            i = r.randrange(len(words))
            if words[i].isalpha():
                words[i] = r.choice(NOUNS)
        body = " ".join(words)
        if r.random() < 0.5:
            body += f"\n{self.w.sentence(self.w.topic())}\n"
        return f"---\n{fm}---\n{body}"

    def reframe(self, text: str) -> str:
        body = text.partition("---\n")[2].partition("---\n")[2]
        r = self.rng
        fields = {"aliases": f"[{self.title()}]", "status": r.choice(["draft", "done"])}
        if r.random() < 0.5:
            fields["updated"] = f"{YEAR}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"
        return (_frontmatter(fields) if r.random() < 0.8 else "") + body

    def plants(self, topics: list[str]) -> None:
        r = self.rng
        pool = r.sample(topics, 130)
        folders = ["archive", "notes/old", "resources/copied", "projects/atlas/archive"]
        for src in pool[:25]:
            dst = self.add(f"{r.choice(folders)}/{self.title()}.md", self.files[src])
            self.plant(src, dst, "renamed")
        for n, src in enumerate(pool[25:55]):
            folder, _, name = src.rpartition("/")
            stem = name[:-3]
            variant = [stem.lower().replace(" ", "-"), stem.replace(" ", "_"), stem.upper()][n % 3]
            where = folder if n % 2 == 0 else r.choice(folders)
            text = self.files[src] if n % 4 < 2 else self.edit(self.files[src])
            self.plant(src, self.add(f"{where}/{variant}.md", text), "slug")
        for src in pool[55:85]:
            dst = self.add(
                f"{r.choice(folders)}/{self.title()} (edited).md", self.edit(self.files[src])
            )
            self.plant(src, dst, "edited")
        for src in pool[85:115]:
            dst = self.add(f"{r.choice(folders)}/{self.title()}.md", self.reframe(self.files[src]))
            self.plant(src, dst, "frontmatter")
        for src in pool[115:120]:
            one = self.add(f"{r.choice(folders)}/{self.title()} copy.md", self.files[src])
            two = self.add(f"{r.choice(folders)}/{self.title()} copy 2.md", self.files[src])
            for a, b in ((src, one), (src, two), (one, two)):
                self.plant(a, b, "triple")
        for src in pool[120:124]:
            one = self.add(f"{r.choice(folders)}/{self.title()} v2.md", self.edit(self.files[src]))
            two = self.add(f"{r.choice(folders)}/{self.title()} v3.md", self.edit(self.files[src]))
            for a, b in ((src, one), (src, two), (one, two)):
                self.plant(a, b, "triple-edited")
        # a day with something written (20 words of its own): a copied empty day is no copy
        own = OwnTexts.of({p: line_words(t) for p, t in self.files.items()})
        days = [p for p in self.files if p.startswith("daily/") and len(own.words[p]) >= 20]
        for src in r.sample(sorted(days), 10):
            dst = self.add(src.replace(".md", " 1.md"), self.files[src])
            self.plant(src, dst, "daily")

    def write(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        (self.root / "mnemex.toml").write_text(
            settings_template("dups").replace('name = "minilm"', 'name = "hashing"'),
            encoding="utf-8",
        )
        for rel, text in self.files.items():
            path = self.root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")


def _scan_pairs(root: Path) -> tuple[dict[tuple[str, str], Any], float, float]:
    with Brain(Vault(root), embedder=HashingEmbedder()) as brain:
        started = time.perf_counter()
        brain.sync()
        synced = time.perf_counter() - started
        started = time.perf_counter()
        report = scan(brain.vault, brain.backend, kinds=("duplicates",), semantic=False)
        scanned = time.perf_counter() - started
    pairs = {(i.files[0], i.files[1]): i for i in report.issues["duplicates"]}
    return pairs, synced, scanned


def ablation(files: dict[str, str], expected: dict[tuple[str, str], str]) -> None:
    """The text check alone, with and without leaving out the lines many notes share."""
    lines = {p: line_words(t) for p, t in files.items() if not p.startswith("templates/")}
    print("\ntext check alone (no names), on the same files:")
    for label, shared_by in (
        ("lines shared by 3+ notes left out", copies.SHARED_BY),
        ("nothing left out", 10**9),
    ):
        saved, copies.SHARED_BY = copies.SHARED_BY, shared_by
        try:
            found = {(c.a, c.b) for c in find_copies(OwnTexts.of(lines), lines)}
        finally:
            copies.SHARED_BY = saved
        right = len(found & set(expected))
        print(f"- {label}: reported {len(found)}, right {right}, wrong {len(found) - right}")


def evaluate(seed: int, out: Path) -> int:
    planted = Planted(out, seed)
    planted.plants(planted.ordinary())
    planted.write()
    found, synced, scanned = _scan_pairs(out)
    expected = planted.expected
    right = [p for p in found if p in expected]
    wrong = [p for p in found if p not in expected]
    missed = [p for p in expected if p not in found]
    print(
        f"vault: {out} ({len(planted.files)} notes, seed {seed}); "
        f"sync {synced:.1f} s, duplicates scan {scanned:.2f} s"
    )
    print(f"planted pairs {len(expected)}, reported {len(found)}, right {len(right)}")
    precision = len(right) / len(found) if found else 1.0
    recall = len(right) / len(expected) if expected else 1.0
    print(f"precision {precision:.3f}  recall {recall:.3f}")
    by_how: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for pair, how in expected.items():
        by_how[how][0] += 1
        by_how[how][1] += pair in found
    print("\n| planted as | pairs | found | recall |\n|---|---|---|---|")
    for how, (n, hit) in sorted(by_how.items()):
        print(f"| {how} | {n} | {hit} | {hit / n:.2f} |")
    print("\nhard negatives (none may be reported):")
    for what, n in planted.negatives.items():
        print(f"- {what}: {n}")
    ablation(planted.files, expected)
    print(f"\nmissed ({len(missed)}):")
    own = OwnTexts.of({p: line_words(t) for p, t in planted.files.items()})
    for a, b in missed:
        ratio = similarity(own.words[a], own.words[b])
        sizes = f"{len(own.words[a])}/{len(own.words[b])} own words"
        print(f"- [{expected[(a, b)]}] {a}  <->  {b}  ({ratio:.2f} alike, {sizes})")
    print(f"\nfalse positives ({len(wrong)}):")
    for pair in wrong:
        print(f"- {pair[0]}  <->  {pair[1]}: {found[pair].detail} {found[pair].data}")
    return 0


def real_vault(source: Path, work: Path) -> int:
    shutil.copytree(source, work, ignore=shutil.ignore_patterns(".git", ".mnemex", ".complete"))
    if not (work / "mnemex.toml").exists():
        (work / "mnemex.toml").write_text(
            settings_template("real").replace('name = "minilm"', 'name = "hashing"'),
            encoding="utf-8",
        )
    init_vault(work, git=False)
    notes = sum(1 for _ in work.rglob("*.md"))
    found, synced, scanned = _scan_pairs(work)
    print(
        f"vault: copy of {source} at {work} ({notes} markdown files); "
        f"sync {synced:.1f} s, scan {scanned:.2f} s"
    )
    print(f"duplicates reported: {len(found)}")
    for (a, b), issue in sorted(found.items()):
        print(
            f"- {a}  <->  {b}\n    {issue.detail} "
            f"(score {issue.score:.3f}, found by {issue.data['found_by']})"
        )
    return 0


def scale(n: int, seed: int, work: Path, index: bool) -> int:
    from make_vault import generate

    generate(work, n, seed)
    paths = sorted(str(p.relative_to(work)) for p in work.rglob("*.md"))
    started = time.perf_counter()
    lines = {p: line_words((work / p).read_text(encoding="utf-8")) for p in paths}
    read = time.perf_counter() - started
    started = time.perf_counter()
    own = OwnTexts.of(lines)
    shared = time.perf_counter() - started
    started = time.perf_counter()
    pairs = find_copies(own, lines)
    compared = time.perf_counter() - started
    eligible = sum(1 for p in paths if own.long_enough(p))
    print(
        f"make_vault.py --notes {n} --seed {seed}: {len(paths)} markdown files, "
        f"{eligible} long enough to compare"
    )
    print(
        f"read + split into lines {read:.2f} s; shared lines {shared:.2f} s; "
        f"MinHash + difflib {compared:.2f} s; copies found {len(pairs)}"
    )
    for c in pairs[:20]:
        print(f"- {c.a} <-> {c.b} {c.ratio:.3f}")
    if index:
        _, synced, scanned = _scan_pairs(work)
        print(
            f"index sync (hashing) {synced:.1f} s; "
            f"`health` duplicates kind, no vectors: {scanned:.2f} s"
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument(
        "--out", type=Path, help="write the vault here (default: a temporary folder)"
    )
    parser.add_argument(
        "--vault", type=Path, help="score nothing: list what a copy of this vault reports"
    )
    parser.add_argument(
        "--scale", type=int, help="time the check on make_vault.py's vault of this many notes"
    )
    parser.add_argument("--scale-seed", type=int, default=7)
    parser.add_argument("--index", action="store_true", help="with --scale: also sync and scan")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="mnemex-dups-") as tmp:
        work = Path(tmp) / "vault"
        if args.vault:
            return real_vault(args.vault, work)
        if args.scale:
            return scale(args.scale, args.scale_seed, work, args.index)
        out = args.out or work
        if out.exists() and any(out.iterdir()):
            parser.error(f"{out} is not empty")
        return evaluate(args.seed, out)


if __name__ == "__main__":
    sys.exit(main())
