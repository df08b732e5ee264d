"""Generate a vault of clean pages with planted health problems, and a manifest of them.

    python bench/make_sick_vault.py OUT --pages 10000 [--seed 5]

Clean content follows the vault format: entity and concept pages linked from the
summaries that cite them, each linking back under ``## Sources``, related pages
linked to each other, user notes linking by title, memories, handoffs newer than
their project's last commit, foundations whose sources are unchanged. Every name
is unique under the tolerant comparison health uses, so a clean page is never a
duplicate by accident.

Planted, each recorded in ``OUT/../<name>.manifest.json`` (not in the vault):
broken links with a suggestion (plural, honorific, alias, wrong folder prefix, a "-page"
suffix) and without one (a name no page has); loose links (hyphens for spaces, which the
index follows and Obsidian does not; a link differing by case only is exact, so none is
planted); orphans; duplicates (plural and honorific
variants, one thing as entity and concept, near-copies under unrelated names,
pairs ingestion recorded); stale pages, handoffs and foundations; missing
backlinks; broken frontmatter of several sorts; empty pages; and index drift,
which :func:`plant_drift` adds after the index was synced.

All git commits are dated ten days back, so "the project's newest commit" is known.
"""

# ruff: noqa: SIM905

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from mnemex.health.names import name_keys
from mnemex.vault.layout import slugify

WORDS = (
    "system model data engine signal network memory value process theory method record "
    "market river garden tower machine circuit language paper letter field number pattern "
    "energy light motion sound water stone metal glass wood fire cloud storm harbour bridge "
    "school library museum theatre office factory station island valley forest mountain "
    "design measure balance contract journey window mirror engine rhythm pressure current"
).split()
VERBS = "built studied described measured improved designed tested founded wrote explained".split()
SYLLABLES = "ka lo mi ne ru ta vo zi be da fe gu ho ja ki le mo na pe ra se tu ve wo xa yo".split()
FIRST = "Ada Grace Alan Edsger Barbara Donald Frances Claude Hedy Katherine John Margaret".split()
HONORIFIC = ("Dr", "Prof", "Sir", "Dame")
QUALIFIERS = ("Project", "Method", "Group", "Study", "System")
_TYPE = {"entities": "entity", "concepts": "concept"}


def _ago(days: float) -> str:
    when = dt.datetime.now(dt.UTC) - dt.timedelta(days=days)
    return when.replace(microsecond=0).isoformat()


class Builder:
    """Builds the vault in memory (path -> text), then writes it."""

    def __init__(self, seed: int, domains: list[str]) -> None:
        self.rng = random.Random(seed)
        self.domains = domains
        self.files: dict[str, str] = {}
        self.keys: set[str] = set()
        self.manifest: dict[str, list[dict[str, Any]]] = {}

    def plant(self, kind: str, files: list[str], **extra: Any) -> None:
        self.manifest.setdefault(kind, []).append({"files": sorted(files), **extra})

    def pseudo(self, syllables: int) -> str:
        return "".join(self.rng.choice(SYLLABLES) for _ in range(syllables)).capitalize()

    def fresh_name(self, person: bool) -> str:
        """A name no other page has, even ignoring case, hyphens, plurals and honorifics."""
        while True:
            if person:
                name = f"{self.rng.choice(FIRST)} {self.pseudo(self.rng.randint(2, 3))}"
            else:
                name = f"{self.pseudo(self.rng.randint(2, 3))} {self.rng.choice(WORDS).title()}"
            keys = name_keys(name)
            # no clean name ends in "s": its planted plural must match it alone
            if not keys & self.keys and not name.split()[-1].lower().endswith("s"):
                self.keys |= keys
                return name

    def sentence(self, name: str) -> str:
        words = self.rng.sample(WORDS, 5)
        return (
            f"{name} {self.rng.choice(VERBS)} the {words[0]} {words[1]} of the {words[2]} "
            f"with a {words[3]} {words[4]}."
        )


def _page(kind: str, title: str, updated: str, body: str, extra: str = "") -> str:
    return (
        f"---\ntype: {kind}\ntitle: {title}\n{extra}created: {updated}\n"
        f"updated: {updated}\nsources: []\n---\n# {title}\n{body}"
    )


def build(seed: int, pages: int, domains: list[str]) -> Builder:
    b = Builder(seed, domains)
    rng = b.rng
    n_entities = int(pages * 0.45)
    n_concepts = int(pages * 0.2)
    n_summaries = int(pages * 0.22)
    n_notes = int(pages * 0.08)
    n_memories = pages - n_entities - n_concepts - n_summaries - n_notes
    # -- knowledge pages: (path, title, domain, folder)
    things: list[dict[str, Any]] = []
    for i in range(n_entities + n_concepts):
        folder = "entities" if i < n_entities else "concepts"
        domain = rng.choice(domains)
        name = b.fresh_name(person=folder == "entities" and rng.random() < 0.5)
        slug = slugify(name)
        things.append(
            {
                "path": f"wiki/{domain}/{folder}/{slug}.md",
                "title": name,
                "domain": domain,
                "folder": folder,
                "lead": " ".join(b.sentence(name) for _ in range(rng.randint(2, 4))),
                "points": [b.sentence(name) for _ in range(rng.randint(2, 5))],
                "related": [],
                "sources": [],
                "aliases": [],
                "updated": _ago(rng.uniform(1, 120)),
            }
        )
    by_domain: dict[str, list[dict[str, Any]]] = {d: [] for d in domains}
    for thing in things:
        by_domain[thing["domain"]].append(thing)
    for thing in things:
        peers = by_domain[thing["domain"]]
        thing["related"] = [p for p in rng.sample(peers, min(2, len(peers))) if p is not thing]
    # -- summaries cite 3-6 things of their domain; every thing is cited at least once
    summaries: list[dict[str, Any]] = []
    pool = list(things)
    rng.shuffle(pool)
    for i in range(n_summaries):
        domain = domains[i % len(domains)]
        title = b.fresh_name(person=False) + " Notes"
        cited = [pool.pop()] if pool and pool[-1]["domain"] == domain else []
        cited += rng.sample(by_domain[domain], rng.randint(2, 5))
        cited = list({c["path"]: c for c in cited}.values())
        s = {
            "path": f"wiki/{domain}/summaries/{slugify(title)}.md",
            "title": title,
            "domain": domain,
            "cites": cited,
            "updated": _ago(rng.uniform(1, 120)),
        }
        summaries.append(s)
        for c in cited:
            c["sources"].append(s)
    for left in pool:  # uncited so far: cite from a summary of its domain
        s = next(x for x in summaries if x["domain"] == left["domain"])
        s["cites"].append(left)
        left["sources"].append(s)
    return _plant_and_render(b, things, summaries, n_notes, n_memories)


def _render_thing(t: dict[str, Any], drop_backlink: str | None = None) -> str:
    related = "".join(f"- [[{slugify(r['title'])}|{r['title']}]]: related\n" for r in t["related"])
    points = "".join(f"- {p}\n" for p in t["points"])
    cited = [s for s in t["sources"] if s["path"] != drop_backlink]
    sources = "".join(f"- [[summaries/{Path(s['path']).stem}]]\n" for s in cited)
    extra = ""
    if t["folder"] == "entities":
        extra += "entity_type: other\n"
    if t["aliases"]:
        extra += "aliases: [" + ", ".join(t["aliases"]) + "]\n"
    kind = "entity" if t["folder"] == "entities" else "concept"
    body = f"{t['lead']}\n## Key points\n{points}## Related\n{related}## Sources\n{sources}"
    return _page(kind, t["title"], t["updated"], body, extra)


def _render_summary(s: dict[str, Any]) -> str:
    ents = "".join(
        f"- [[{slugify(c['title'])}]]\n" for c in s["cites"] if c["folder"] == "entities"
    )
    cons = "".join(
        f"- [[{slugify(c['title'])}]]\n" for c in s["cites"] if c["folder"] != "entities"
    )
    body = f"## Summary\nA source about {s['title']}.\n## Entities\n{ents}## Concepts\n{cons}"
    return _page("summary", s["title"], s["updated"], body)


def _plant_and_render(
    b: Builder,
    things: list[dict[str, Any]],
    summaries: list[dict[str, Any]],
    n_notes: int,
    n_memories: int,
) -> Builder:
    rng = b.rng
    scale = max(1, len(things) // 650)  # about 10 of each plant per 1,000 pages
    victims = rng.sample(things, len(things))  # distinct pages for distinct plants
    take = iter(victims)

    def clean_thing() -> dict[str, Any]:
        return next(take)

    drop: dict[str, str] = {}  # thing path -> the summary whose backlink is missing
    # missing backlinks
    for _ in range(8 * scale):
        t = clean_thing()
        s = rng.choice(t["sources"])
        drop[t["path"]] = s["path"]
        b.plant("missing_backlinks", [t["path"], s["path"]])
    # stale pages
    for _ in range(6 * scale):
        t = clean_thing()
        t["updated"] = _ago(rng.uniform(400, 1500))
        b.plant("stale", [t["path"]], what="page")
    # orphans: new entity pages nobody links to
    orphans = []
    for _ in range(6 * scale):
        domain = rng.choice(b.domains)
        name = b.fresh_name(person=False)
        o = {
            "path": f"wiki/{domain}/concepts/{slugify(name)}.md",
            "title": name,
            "domain": domain,
            "folder": "concepts",
            "lead": b.sentence(name),
            "points": [b.sentence(name)],
            "related": [],
            "sources": [],
            "aliases": [],
            "updated": _ago(3),
        }
        orphans.append(o)
        b.plant("orphans", [o["path"]])
    # duplicates by name and by type, linked from user notes so they are not orphans
    notes_links: list[str] = []
    dup_pages = []
    for i in range(6 * scale):
        t = clean_thing()
        style = i % 3
        if style == 0:
            title = t["title"] + "s"
            folder = t["folder"]
        elif style == 1:
            title = f"{HONORIFIC[i % 4]} {t['title']}"
            folder = t["folder"]
        else:
            title = t["title"]
            folder = "concepts" if t["folder"] == "entities" else "entities"
        # one thing as two types gets its own slug, so links to the other stay unambiguous
        stem = slugify(title) + ("-" + _TYPE[folder] if folder != t["folder"] else "")
        d = {
            "path": f"wiki/{t['domain']}/{folder}/{stem}.md",
            "title": title,
            "domain": t["domain"],
            "folder": folder,
            "lead": b.sentence(title),
            "points": [b.sentence(title)],
            "related": [t],
            "sources": [],
            "aliases": [],
            "updated": _ago(5),
        }
        dup_pages.append(d)
        notes_links.append(d["path"])
        b.plant("duplicates", [t["path"], d["path"]], how="names")
    # near-copies under another name for the same thing (found by vectors only): a
    # qualified name, the same sentences, one point dropped
    for i in range(4 * scale):
        t = clean_thing()
        name = f"{t['title']} {QUALIFIERS[i % len(QUALIFIERS)]}"
        b.keys |= name_keys(name)
        lead = t["lead"].replace(t["title"], name)
        d = {
            "path": f"wiki/{t['domain']}/{t['folder']}/{slugify(name)}.md",
            "title": name,
            "domain": t["domain"],
            "folder": t["folder"],
            "lead": lead,
            "points": [p.replace(t["title"], name) for p in t["points"][1:] or t["points"]],
            "related": [],
            "sources": [],
            "aliases": [],
            "updated": _ago(5),
        }
        dup_pages.append(d)
        notes_links.append(d["path"])
        b.plant("duplicates", [t["path"], d["path"]], how="vectors")
    # pairs ingestion recorded
    recorded = []
    for _ in range(2 * scale):
        a, c = clean_thing(), clean_thing()
        recorded.append(
            {
                "a": a["path"],
                "b": c["path"],
                "score": 0.8,
                "reason": "similar names",
                "source": a["sources"][0]["path"],
                "recorded": _ago(2),
            }
        )
        b.plant("duplicates", [a["path"], c["path"]], how="ingestion")
    # broken links: in user notes, with and without a suggestion
    # (a link differing from its page's name by case only is exact, as in Obsidian: no plant)
    broken: list[tuple[str, str | None]] = []
    loose: list[tuple[str, str]] = []
    for i in range(14 * scale):
        style = i % 7
        if style == 5:
            continue
        t = clean_thing()
        if style == 6 and " " in t["title"]:  # hyphens for spaces: followed, but loose
            target = t["title"].replace(" ", "-")
            if target.lower() == slugify(t["title"]):  # the file name in another case: exact
                target = t["title"].replace(" ", "--")
            loose.append((target, t["path"]))
            continue
        if style == 6:
            target = t["title"] + "-page"
        elif style == 0:
            target = t["title"] + "s"
        elif style == 1:
            target = f"Dr {t['title']}"
        elif style == 2:
            alias = b.fresh_name(person=False)
            t["aliases"].append(alias)
            target = alias
        elif style == 3:
            target = f"wiki/{t['domain']}/pages/{slugify(t['title'])}"
        else:
            broken.append((b.fresh_name(person=False), None))
            continue
        broken.append((target, t["path"]))
    # empty pages, linked from user notes
    empties = []
    for _ in range(5 * scale):
        domain = rng.choice(b.domains)
        name = b.fresh_name(person=False)
        path = f"wiki/{domain}/concepts/{slugify(name)}.md"
        empties.append((path, name))
        notes_links.append(path)
        b.plant("empty_pages", [path])
    # -- render knowledge
    for t in things:
        b.files[t["path"]] = _render_thing(t, drop.get(t["path"]))
    for t in orphans + dup_pages:
        b.files[t["path"]] = _render_thing(t)
    for s in summaries:
        b.files[s["path"]] = _render_summary(s)
    for path, name in empties:
        b.files[path] = _page("concept", name, _ago(4), "## Key points\n\n## Sources\n")
    # -- user notes: link pages by title; the planted broken links and the plants' links
    notes = []
    for _ in range(n_notes):
        title = b.fresh_name(person=False) + " Ideas"
        path = f"notes/{slugify(title)}.md"
        picks = rng.sample(things, 3)
        body = f"# {title}\n" + "".join(f"- about [[{p['title']}]]\n" for p in picks)
        notes.append(path)
        b.files[path] = body
    for i, path in enumerate(notes_links):
        host = notes[i % len(notes)]
        b.files[host] += f"- see [[{path[:-3]}]]\n"
    for i, (target, suggested) in enumerate(broken):
        host = notes[(i * 7 + 3) % len(notes)]
        b.files[host] += f"- also [[{target}]]\n"
        b.plant("broken_links", [host], key=target, suggested=suggested)
    for i, (target, suggested) in enumerate(loose):
        host = notes[(i * 5 + 2) % len(notes)]
        b.files[host] += f"- and [[{target}]]\n"
        b.plant("loose_links", [host], key=target, suggested=suggested)
    # broken frontmatter, in user notes (some already linking)
    kinds = ["title: [unclosed\n", "title: a\n  bad: indent\n", "- just\n- a list\n", None]
    for i in range(6 * scale):
        path = notes[(i * 11 + 5) % len(notes)]
        if any(path in p["files"] for p in b.manifest.get("broken_frontmatter", [])):
            continue
        shape = kinds[i % len(kinds)]
        text = b.files[path]
        b.files[path] = (f"---\n{shape}---\n" if shape else "---\ntitle: never closed\n") + text
        b.plant("broken_frontmatter", [path])
    # -- memories and state
    projects = [f"project-{i}" for i in range(max(2, scale))]
    for i in range(n_memories):
        project = projects[i % len(projects)]
        path = f"memories/{project}/2026-11/2026-11-{1 + i % 28:02d}-session-{i:08x}.md"
        b.files[path] = (
            f"---\ntype: memory\ntitle: Session {i}\nproject: {project}\nharness: codex\n"
            f"created: {_ago(15)}\nupdated: {_ago(15)}\n---\n# Session {i}\n## Summary\n"
            f"{b.sentence('The agent')}\n"
        )
    b.files["health/possible-duplicates.json"] = json.dumps({"version": 1, "pairs": recorded})
    b.projects = projects  # type: ignore[attr-defined]
    return b


def write_vault(b: Builder, out: Path) -> None:
    out.mkdir(parents=True)
    (out / "mnemex.toml").write_text(
        '[vault]\nformat = 1\nname = "sick"\ndomains = ['
        + ", ".join(f'"{d}"' for d in b.domains)
        + ']\nprivate = ["private"]\n\n[embedder]\nname = "hashing"\n',
        encoding="utf-8",
    )
    for rel, text in b.files.items():
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def finish_with_git(b: Builder, out: Path, sources: Path) -> None:
    """Commit everything ten days back, then add state and foundations (with plants)."""
    from mnemex.foundations.store import add_foundation
    from mnemex.vault import Vault, init_vault

    def dated(days: float) -> None:
        when = _ago(days)
        os.environ.update(GIT_AUTHOR_DATE=when, GIT_COMMITTER_DATE=when)

    def commit(message: str, *paths: str) -> None:
        subprocess.run(["git", "add", "-A", "--", *paths], cwd=out, check=True)
        subprocess.run(["git", "commit", "-qm", message], cwd=out, check=True)

    os.environ.update(
        GIT_AUTHOR_NAME="bench",
        GIT_AUTHOR_EMAIL="bench@localhost",
        GIT_COMMITTER_NAME="bench",
        GIT_COMMITTER_EMAIL="bench@localhost",
    )
    init_vault(out, git=True)
    vault = Vault(out)
    rng = b.rng
    sources.mkdir(parents=True, exist_ok=True)

    def handoff(i: int, project: str, updated: str) -> str:
        rel = f"state/{project}/handoffs/bench-0000000{i % 10}/current.md"
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text(
            f"---\ntype: handoff\ntitle: Where {project} stands\nproject: {project}\n"
            f"updated: {updated}\n---\n# Where {project} stands\n## Next steps\n- carry on\n",
            encoding="utf-8",
        )
        return rel

    projects = b.projects  # type: ignore[attr-defined]
    # stale: saved 20 days ago and committed, then the project's work was committed after it
    dated(12)
    stale = [handoff(i, p, _ago(20)) for i, p in enumerate(projects) if i % 2 == 1]
    for rel in stale:
        b.plant("stale", [rel], what="handoff")
    if stale:
        commit("stale handoffs", *stale)
    dated(10)
    commit("sick vault", ".")
    for i, project in enumerate(projects):
        src = sources / f"{project}-architecture.md"
        src.write_text(f"# Architecture of {project}\n{rng.random()}\n", encoding="utf-8")
        add_foundation(vault, project, src, slug="architecture")
        if i % 2 == 0:
            src.write_text(src.read_text() + "changed after it was added\n", encoding="utf-8")
            b.plant("stale", [f"foundations/{project}/architecture.md"], what="foundation")
    # fresh: saved after everything else
    dated(5)
    fresh = [handoff(i, p, _ago(5)) for i, p in enumerate(projects) if i % 2 == 0]
    commit("fresh handoffs", *fresh)


def plant_drift(root: Path, manifest: dict[str, list[dict[str, Any]]], count: int) -> None:
    """After the index is synced: change, add and delete user notes behind its back."""
    rng = random.Random(count)
    taken = {f for items in manifest.values() for i in items for f in i["files"]}
    linked_notes = set()
    for path in (root / "notes").glob("*.md"):
        rel = f"notes/{path.name}"
        if rel not in taken:
            linked_notes.add(rel)
    pool = sorted(linked_notes)
    rng.shuffle(pool)
    for rel in pool[:count]:
        with open(root / rel, "a", encoding="utf-8") as fh:
            fh.write("- one more thought\n")
        manifest.setdefault("index_drift", []).append({"files": [rel], "what": "changed"})
    for i in range(count // 2):
        rel = f"notes/drift-new-{i}.md"
        (root / rel).write_text(f"# New {i}\n", encoding="utf-8")
        manifest["index_drift"].append({"files": [rel], "what": "new"})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--pages", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    make(args.out, args.pages, args.seed)
    return 0


def make(out: Path, pages: int, seed: int = 5) -> dict[str, list[dict[str, Any]]]:
    """Write the vault at ``out`` and its manifest beside it; returns the manifest."""
    b = build(seed, pages, ["general", "science"])
    write_vault(b, out)
    finish_with_git(b, out, out.parent / f"{out.name}-sources")
    manifest_path = out.parent / f"{out.name}.manifest.json"
    manifest_path.write_text(json.dumps(b.manifest, indent=1), encoding="utf-8")
    counts = {k: len(v) for k, v in b.manifest.items()}
    print(f"{out}: {len(b.files)} files, planted {sum(counts.values())}: {counts}", file=sys.stderr)
    return b.manifest


if __name__ == "__main__":
    sys.exit(main())
