"""Speed and memory of a team synthesis (issue 22): 20 members x 500 pages, the real command.

    python bench/team_synthesis.py [--members 20] [--pages 500] [--pool N] [--runs 3]
                                   [--cases cold,warm,noop] [--seed 7] [--workdir DIR]
                                   [--profile] [--json]

Issue 22 targets: synthesising the collective wiki of 20 members with 500 opted-in pages
each takes at most 60 s and at most 2 GB of memory (peak RSS).

**What is built** (in ``--workdir``, kept; by default a temporary folder, removed at the end):
a bare git repository (the team's remote) and one real vault made by ``mnemex init`` with
its own ``HOME``; ``mnemex --vault vault team init bench --remote remote.git --member m00
--domains general`` starts the team in it. Then contributions are generated straight into a
plain clone of the remote, in the real format (each page change made by
:func:`mnemex.team.model.delta` between successive states of a stream, each file checked
with :func:`mnemex.team.model.read_contribution`, each stream's fold checked against its
``covers``), committed one commit per member and sequence, and pushed; ``team.toml`` lists
every member. Per member (``m00`` .. ``m19``, machine ``0000000a``, ...):

- ``--pages`` pages drawn, Zipf-like, from a shared pool of names (``--pool``, by default
  three tenths of members x pages: 3,000 for 20 x 500), so a popular name is contributed by
  most members and a rare one by one; about one name in seven has one or two aliases,
  which a member may list, or use as the page's name (the canonical name then an alias);
  some members spell a name with other accents or case;
- 3-8 statements per page, each citing a source (title, URL, date), drawn from the name's
  own bank of statements: most said exactly as the bank says them (some with other case or
  no end stop), some near-identical (a word added), some differing by a number, some the
  member's own; about one in seven holds a ``[[link]]`` to another name of the pool;
- 2-6 links per page to other names of the pool (one in twenty to a name nobody contributes);
- a history of three contributions: most pages first, then the rest with more statements
  and five pages later deleted, then a few statements removed and those pages gone (files
  are cut under the 1 MB limit as ``contribute`` cuts them). Every fifth member also has a
  second machine contributing 60 of the same pages.

**What is measured.** The real command ``mnemex --vault vault team synthesise --json`` in a
subprocess (``HOME`` set to the bench's own), wall time by ``time.perf_counter`` around it,
peak RSS from ``/usr/bin/time -v`` (its "Maximum resident set size": the largest single
process, mnemex or one of its git children), or from ``os.wait4`` where that program is
missing. Each run, for each case of ``--cases``:

- ``cold``: the remote copied fresh from a pristine copy (contributions, no wiki) and the
  vault's clone of it (``.mnemex/team/bench``) deleted: the command clones, reads every
  contribution, builds every page, writes them, commits and pushes. The headline figure.
- ``warm``: the remote copied fresh again, the clone kept: fetch, reset, build, write,
  commit, push (a machine that has synthesised before, with the whole wiki to write).
- ``noop``: the same command again at once: the wiki is up to date, every page is built and
  compared, and nothing should be written or pushed (the ``written`` column counts the pages
  a run created or updated: above zero here, two processes built different bytes).

Then, in this process, the pure synthesis on the same contributions (read from the clone
with ``read_contribution``): :func:`mnemex.team.synthesise.streams` (the folds) and
:func:`mnemex.team.synthesise.build` (folds, grouping, merging, rendering), median of
``--runs``, to separate git and file costs from synthesis. ``--profile`` adds a cProfile
of one ``build`` (``bench/out/team_synthesis_profile.txt``).

Prints a markdown table (case, median, runs, peak RSS, pages, pages written, share of the
60 s / 2 GB targets) and writes ``bench/out/team_synthesis.json`` (with a hash of the
measured ``src/mnemex/team/*.py``); ``--json`` prints the JSON instead. The exit
status is 1 when the cold case misses a target.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import io
import json
import os
import platform
import pstats
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import make_vault  # noqa: E402
from mnemex.team.model import (  # noqa: E402
    FORMAT,
    Contribution,
    Fact,
    PageState,
    State,
    chunk_pages,
    contribution_path,
    delta,
    fact_key,
    fold,
    name_key,
    read_contribution,
    state_digest,
)
from mnemex.team.synthesise import build, streams  # noqa: E402

TEAM = "bench"
TARGET_S = 60.0
TARGET_MIB = 2048.0
MNEMEX = str(Path(sys.executable).parent / "mnemex")
OUT = HERE / "out"
TIME = "/usr/bin/time"
_INSERTS = ["also", "still", "now", "reportedly", "usually", "apparently", "currently"]
_UNITS = ["ms", "users", "days", "GB", "rows", "percent", "euros", "hours", "seats"]
_ACCENTS = str.maketrans("aeiou", "àéîöù")


# -- the shared pool of names ---------------------------------------------------------


@dataclass
class Name:
    """One thing of the pool: its name, kind, aliases and its bank of statements."""

    name: str
    type: str
    aliases: list[str]
    accented: str | None = None  # another spelling of the name (accents), same name_key
    bank: list[tuple[str, int]] = field(default_factory=list)  # (template with {n}, number)


def _pool(rng: random.Random, size: int) -> tuple[list[Name], make_vault.Vocabulary]:
    vocab = make_vault.Vocabulary.build(rng, 2000)
    taken: set[str] = set()
    out: list[Name] = []

    def fresh(text: str) -> bool:
        key = name_key(text)
        if key in taken:
            return False
        taken.add(key)
        return True

    while len(out) < size:
        kind = rng.random()
        jargon = vocab.jargon.draw(rng).capitalize()
        if kind < 0.3:
            first, last = rng.choice(vocab.first_names), rng.choice(vocab.last_names)
            name, ptype = f"{first} {last}", "entity"
            alias = f"{first[0]}. {last}"
        elif kind < 0.5:
            name = f"{jargon} {rng.choice(['Labs', 'Systems', 'Group', 'Health', 'Bank'])}"
            ptype, alias = "entity", "".join(w[0] for w in name.split()).upper() + jargon[1:3]
        elif kind < 0.65:
            name, ptype = f"Project {jargon}", "entity"
            alias = f"{jargon} project"
        elif kind < 0.9:
            adj, noun = vocab.adjectives.draw(rng), vocab.nouns.draw(rng)
            name, ptype, alias = f"{adj.capitalize()} {noun} {jargon.lower()}", "concept", ""
        else:
            noun = vocab.nouns.draw(rng)
            name = f"{noun.capitalize()} review {rng.randint(2019, 2026)} Q{rng.randint(1, 4)}"
            ptype, alias = "summary", ""
        if not fresh(name):
            continue
        aliases = [alias] if alias and rng.random() < 0.22 and fresh(alias) else []
        if aliases and rng.random() < 0.3:
            extra = f"{name} ({rng.choice(['old name', 'internal', 'draft'])})"
            if fresh(extra):
                aliases.append(extra)
        item = Name(name, ptype, aliases)
        vowels = [i for i, c in enumerate(name) if c in "aeiou"]
        if rng.random() < 0.06 and vowels:
            at = rng.choice(vowels)
            item.accented = name[:at] + name[at].translate(_ACCENTS) + name[at + 1 :]
        out.append(item)
    names = [n.name for n in out]
    for item in out:
        item.bank = [_statement(rng, vocab, item.name, names) for _ in range(10)]
    return out, vocab


def _statement(
    rng: random.Random, vocab: make_vault.Vocabulary, subject: str, names: list[str]
) -> tuple[str, int]:
    """A statement template about ``subject`` with one number (``{n}``), 11-18 words."""
    v = vocab
    other = f"[[{rng.choice(names)}]]" if rng.random() < 0.15 else f"the {v.nouns.draw(rng)}"
    unit = rng.choice(_UNITS)
    shapes = [
        f"{subject} {v.past.draw(rng)} the {v.adjectives.draw(rng)} {v.nouns.draw(rng)} "
        f"with {other} after {{n}} {unit} {rng.choice(make_vault.CONNECTORS)} "
        f"{rng.choice(make_vault.SUBJECTS)} {rng.choice(make_vault.MODALS)} "
        f"{v.verbs.draw(rng)} the {v.jargon.draw(rng)} {v.nouns.draw(rng)}.",
        f"The {v.nouns.draw(rng)} of {subject} is {{n}} {unit} for the "
        f"{v.adjectives.draw(rng)} {v.nouns.draw(rng)}, measured against {other} in "
        f"{v.jargon.draw(rng)}.",
        f"{rng.choice(make_vault.SUBJECTS).capitalize()} {v.past.draw(rng)} {subject} "
        f"{rng.choice(make_vault.ADVERBS)} because {other} needed {{n}} {unit} of "
        f"{v.adjectives.draw(rng)} {v.nouns.draw(rng)} for {v.jargon.draw(rng)}.",
    ]
    return rng.choice(shapes), rng.choice([2, 3, 4, 5, 7, 10, 12, 15, 20, 30, 45, 60, 90, 120])


def _weighted_sample(rng: random.Random, n: int, k: int, offset: float = 40.0) -> list[int]:
    """``k`` distinct indexes of ``range(n)``, rank ``r`` weighted ``1 / (r + offset) ** 0.9``
    (Efraimidis-Spirakis)."""
    keys = [(rng.random() ** ((r + offset) ** 0.9), r) for r in range(n)]
    return [r for _, r in sorted(keys, reverse=True)[:k]]


# -- members' streams -------------------------------------------------------------------


def _fact(
    rng: random.Random, item: Name, used: set[str], own: tuple[make_vault.Vocabulary, list[str]]
) -> Fact | None:
    """One statement a member makes about ``item``, cited."""
    roll = rng.random()
    index = rng.randrange(len(item.bank))
    if f"bank {index}" in used:  # one version of a bank statement per page
        return None
    used.add(f"bank {index}")
    template, number = item.bank[index]
    if roll < 0.55:  # exactly as the bank says it (case, end stop aside)
        text = template.format(n=number)
        if rng.random() < 0.2:
            text = text.rstrip(".")
        if rng.random() < 0.1:
            text = text[0].lower() + text[1:]
    elif roll < 0.7:  # near-identical: one word added
        words = template.format(n=number).split()
        words.insert(rng.randint(1, len(words) - 1), rng.choice(_INSERTS))
        text = " ".join(words)
    elif roll < 0.82:  # the same thing with another number
        text = template.format(n=number + rng.choice([1, 2, 5, 10]))
    else:  # the member's own
        template, number = _statement(rng, own[0], item.name, own[1])
        text = template.format(n=number)
    if fact_key(text) in used:
        return None
    used.add(fact_key(text))
    slug = re.sub(r"[^a-z0-9]+", "-", item.name.lower()).strip("-")
    day = f"2026-{rng.randint(1, 11):02d}-{rng.randint(1, 28):02d}"
    cite = rng.random()
    return Fact(
        text,
        title=f"{item.name} notes, {rng.choice(['standup', 'retro', 'email', 'spec', 'call'])}"
        if cite < 0.9
        else None,
        url=f"https://wiki.example.org/{slug}/{rng.randint(1, 40)}" if cite > 0.3 else None,
        date=day,
    )


def _page(
    rng: random.Random, item: Name, pool: list[Name], own: tuple[make_vault.Vocabulary, list[str]]
) -> PageState:
    name = item.name
    if item.accented and rng.random() < 0.5:
        name = item.accented
    elif rng.random() < 0.05:
        name = name.lower()
    aliases = {a for a in item.aliases if rng.random() < 0.5}
    if item.aliases and rng.random() < 0.1:  # the member knows it by its alias
        aliases = {name, *item.aliases[1:]}
        name = item.aliases[0]
    page = PageState(name, item.type, aliases)
    used: set[str] = set()
    for _ in range(rng.randint(3, 8)):
        for _attempt in range(10):
            fact = _fact(rng, item, used, own)
            if fact is not None:
                page.facts[fact_key(fact.text)] = fact
                break
    for _ in range(rng.randint(2, 6)):
        if rng.random() < 0.05:
            page.links.add(f"Nobody's {make_vault.pseudo_word(rng).capitalize()}")
        else:
            page.links.add(rng.choice(pool).name)
    page.links.discard(name)
    return page


def _copy(state: State) -> State:
    return {
        k: PageState(p.name, p.type, set(p.aliases), dict(p.facts), set(p.links))
        for k, p in state.items()
    }


def _history(rng: random.Random, final: State, extra: State) -> list[State]:
    """Three successive states of a stream ending at ``final``: most pages with most of their
    statements; every page, ``extra`` pages and a few statements more; ``final``."""
    keys = sorted(final)
    rng.shuffle(keys)
    s1: State = {}
    for key in keys[: len(keys) * 4 // 5]:
        page = final[key]
        facts = sorted(page.facts)
        keep = facts[: max(2, len(facts) * 7 // 10)]
        s1[key] = PageState(
            page.name, page.type, set(page.aliases), {k: page.facts[k] for k in keep},
            set(page.links),
        )  # fmt: skip
    s2 = _copy(final)
    s2.update(_copy(extra))
    for key in rng.sample(sorted(final), max(1, len(final) // 20)):
        text = f"{final[key].name} was said to be retired; later withdrawn."
        s2[key].facts[fact_key(text)] = Fact(text, title="hallway chat")
    return [s1, s2, _copy(final)]


def _stream_files(member: str, machine: str, states: list[State]) -> list[tuple[str, bytes]]:
    """The contribution files of one stream: the deltas between its successive states."""
    files: list[tuple[str, bytes]] = []
    old: State = {}
    seq = 0
    for new in states:
        covers = state_digest(new)
        for chunk in chunk_pages(delta(old, new)):
            seq += 1
            doc = {
                "format": FORMAT,
                "team": TEAM,
                "member": member,
                "machine": machine,
                "seq": seq,
                "covers": covers,
                "pages": chunk,
            }
            rel = contribution_path(member, machine, seq)
            data = json.dumps(doc, ensure_ascii=False, sort_keys=True, indent=1).encode()
            read_contribution(rel, data, TEAM)  # raises Malformed: the bench is wrong
            files.append((rel, data))
        old = new
    read = [read_contribution(rel, data, TEAM) for rel, data in files]
    if state_digest(fold(read)) != state_digest(states[-1]):
        raise SystemExit(f"{member}/{machine}: the fold differs from the state it covers")
    return files


def generate(members: int, pages: int, pool_size: int, seed: int) -> dict[str, Any]:
    """Every member's contribution files: {member: [(path, bytes), ...]}, and counts."""
    rng = random.Random(seed)
    pool, vocab = _pool(rng, pool_size)
    own = (vocab, [n.name for n in pool])
    by_member: dict[str, list[tuple[str, bytes]]] = {}
    distinct: set[str] = set()
    for m in range(members):
        member = f"m{m:02d}"
        mrng = random.Random(seed * 1000 + m)
        chosen = _weighted_sample(mrng, len(pool), pages)
        final: State = {}
        for index in chosen:
            page = _page(mrng, pool[index], pool, own)
            final[name_key(page.name)] = page
            distinct.add(name_key(pool[index].name))
        extra = {}
        for n in range(5):
            doomed = PageState(f"Scratch {member} {n}", "page", facts={})
            doomed.facts["scratch"] = Fact(f"Scratch page {n} of {member}, deleted later.")
            extra[name_key(doomed.name)] = doomed
        machine = f"{m * 16 + 10:08x}"
        files = _stream_files(member, machine, _history(mrng, final, extra))
        if m % 5 == 4:  # a second machine: 60 of the same pages
            second = {k: final[k] for k in sorted(final)[:60]}
            files += _stream_files(member, f"{m * 16 + 11:08x}", [second])
        by_member[member] = files
    return {"files": by_member, "pool": len(pool), "names_contributed": len(distinct)}


# -- the team on disk ---------------------------------------------------------------------


def _env(home: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "GIT_AUTHOR_NAME": "bench",
        "GIT_AUTHOR_EMAIL": "bench@example.org",
        "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "bench@example.org",
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    for key in ("MNEMEX_VAULT", "MNEMEX_INDEX_DSN", "MNEMEX_CONFIG"):
        env.pop(key, None)
    return env


def _run(cmd: list[str], env: dict[str, str], cwd: Path | None = None) -> str:
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def setup(work: Path, gen: dict[str, Any]) -> dict[str, Path]:
    """The remote, a pristine copy of it with every contribution, and the vault."""
    home, vault, remote = work / "home", work / "vault", work / "remote.git"
    for path in (home, vault, remote, work / "pristine.git", work / "seed"):
        shutil.rmtree(path, ignore_errors=True)
    home.mkdir(parents=True)
    env = _env(home)
    _run(["git", "init", "-q", "--bare", "--initial-branch=main", str(remote)], env)
    _run([MNEMEX, "init", str(vault), "--json"], env)
    _run(
        [MNEMEX, "--vault", str(vault), "team", "init", TEAM, "--remote", str(remote),
         "--member", "m00", "--domains", "general", "--json"],
        env,
    )  # fmt: skip
    seed = work / "seed"
    _run(["git", "clone", "-q", str(remote), str(seed)], env)
    settings = tomllib.loads((seed / "team.toml").read_text(encoding="utf-8"))
    settings["members"] = sorted({*settings["members"], *gen["files"]})
    lines = ["# the team's settings (mnemex team): who may remove members, how they are named"]
    lines += [f"{k} = {json.dumps(settings[k])}" for k in sorted(settings)]
    (seed / "team.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    _run(["git", "commit", "-qam", "members"], env, seed)
    for member, files in gen["files"].items():
        for seq in sorted({int(rel.rsplit("/", 1)[1][:8]) for rel, _ in files}):
            for rel, data in files:
                if int(rel.rsplit("/", 1)[1][:8]) == seq:
                    path = seed / rel
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(data)
            _run(["git", "add", "-A"], env, seed)
            _run(["git", "commit", "-qm", f"contribute: {member} ({seq})"], env, seed)
    _run(["git", "push", "-q", "origin", "HEAD:refs/heads/main"], env, seed)
    _run(["git", "gc", "-q"], env, remote)
    shutil.copytree(remote, work / "pristine.git", symlinks=True)
    return {"home": home, "vault": vault, "remote": remote, "seed": seed}


def _reset(work: Path, paths: dict[str, Path], clone: bool) -> None:
    shutil.rmtree(paths["remote"])
    shutil.copytree(work / "pristine.git", paths["remote"], symlinks=True)
    if not clone:
        shutil.rmtree(paths["vault"] / ".mnemex" / "team" / TEAM, ignore_errors=True)


def timed_synthesis(paths: dict[str, Path], scratch: Path) -> dict[str, Any]:
    """``mnemex team synthesise --json`` in a subprocess: wall s, peak RSS MiB, its answer."""
    cmd = [MNEMEX, "--vault", str(paths["vault"]), "team", "synthesise", "--json"]
    env = _env(paths["home"])
    report = scratch / "time.txt"
    timed = os.access(TIME, os.X_OK)
    if timed:
        cmd = [TIME, "-v", "-o", str(report), *cmd]
    out, err = scratch / "stdout.txt", scratch / "stderr.txt"
    with out.open("wb") as fout, err.open("wb") as ferr:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, env=env, stdout=fout, stderr=ferr)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"synthesise failed:\n{out.read_text()}\n{err.read_text()}")
    rss_kb = usage.ru_maxrss  # the child and the children it waited for (Linux: KiB)
    if timed:
        found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", report.read_text())
        if found:
            rss_kb = int(found[1])
    answer = json.loads(out.read_text(encoding="utf-8"))
    return {
        "wall_s": wall,
        "rss_mib": rss_kb / 1024,
        "pages": answer.get("pages"),
        "contributions": answer.get("contributions"),
        "streams": answer.get("streams"),
        "quarantined": len(answer.get("quarantined", [])),
        "pushed": answer.get("pushed"),
        "report": {k: v for k, v in answer.get("report", {}).items() if isinstance(v, int)},
    }


def _contributors(page: bytes) -> int:
    front = page.split(b"\ncontributors:\n", 1)[1].split(b"---\n", 1)[0]
    return front.count(b"- ")


def _spread(values: list[int]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "median": statistics.median(ordered),
        "p90": ordered[len(ordered) * 9 // 10],
        "max": ordered[-1],
        "one": sum(v == 1 for v in ordered),
    }


def in_process(seed: Path, runs: int, profile: bool) -> dict[str, Any]:
    """Read the contributions from the clone, then time ``streams`` and ``build``."""
    started = time.perf_counter()
    valid: list[Contribution] = []
    for path in sorted((seed / "contributions").rglob("*.json")):
        rel = path.relative_to(seed).as_posix()
        valid.append(read_contribution(rel, path.read_bytes(), TEAM))
    read_s = time.perf_counter() - started
    fold_s, build_s = [], []
    files: dict[str, bytes] = {}
    for _ in range(runs):
        started = time.perf_counter()
        streams(valid)
        fold_s.append(time.perf_counter() - started)
        started = time.perf_counter()
        files = build(valid, TEAM, "named")
        build_s.append(time.perf_counter() - started)
    result: dict[str, Any] = {
        "contributions": len(valid),
        "read_s": read_s,
        "streams_s": fold_s,
        "build_s": build_s,
        "pages": len(files),
        "wiki_bytes": sum(len(b) for b in files.values()),
        "statements": sum(b.count(b"\n- ") for b in files.values()),
        "differing": sum(b.count(b"  - differs: ") for b in files.values()),
        "contributors_per_page": _spread([_contributors(b) for b in files.values()]),
        "pages_with_aliases": sum(b"aliases: []" not in b for b in files.values()),
    }
    if profile:
        prof = cProfile.Profile()
        prof.enable()
        build(valid, TEAM, "named")
        prof.disable()
        text = io.StringIO()
        pstats.Stats(prof, stream=text).sort_stats("cumulative").print_stats(30)
        OUT.mkdir(exist_ok=True)
        (OUT / "team_synthesis_profile.txt").write_text(text.getvalue(), encoding="utf-8")
        result["profile"] = str(OUT / "team_synthesis_profile.txt")
    return result


# -- main ---------------------------------------------------------------------------------


def _code_digest() -> str:
    """What the measured code was: a hash of ``src/mnemex/team/*.py`` (it is edited often)."""
    import mnemex.team

    digest = hashlib.sha256()
    for path in sorted(Path(mnemex.team.__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def _table(res: dict[str, Any]) -> str:
    rows = [
        "| case | median wall s | runs (s) | peak RSS MiB (max) | pages | written | "
        "contributions | of 60 s | of 2 GB |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for case, runs in res["cases"].items():
        walls = [r["wall_s"] for r in runs]
        rss = max(r["rss_mib"] for r in runs)
        med = statistics.median(walls)
        written = "/".join(
            str(r["report"].get("created", 0) + r["report"].get("updated", 0)) for r in runs
        )
        rows.append(
            f"| {case} | **{med:.2f}** | {', '.join(f'{w:.2f}' for w in walls)} | {rss:.0f} | "
            f"{runs[0]['pages']:,} | {written} | {runs[0]['contributions']} | "
            f"{med / TARGET_S:.0%} | {rss / TARGET_MIB:.0%} |"
        )
    ip = res["in_process"]
    rows.append(
        f"| in process: read + check the contributions | {ip['read_s']:.2f} | (once) | | | | "
        f"{ip['contributions']} | | |"
    )
    for key, label in (("streams_s", "`streams` (folds)"), ("build_s", "`build` (whole)")):
        rows.append(
            f"| in process: {label} | {statistics.median(ip[key]):.2f} | "
            f"{', '.join(f'{t:.2f}' for t in ip[key])} | | {ip['pages']:,} | | | | |"
        )
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--members", type=int, default=20)
    parser.add_argument("--pages", type=int, default=500, help="opted-in pages per member")
    parser.add_argument("--pool", type=int, default=None, help="names to draw pages from")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cases", default="cold,warm,noop")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--workdir", type=Path, default=None, help="scratch folder, kept (default: a temporary one)"
    )
    parser.add_argument("--profile", action="store_true", help="cProfile one in-process build")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    args = parser.parse_args()
    cases = [c for c in args.cases.split(",") if c]
    if not set(cases) <= {"cold", "warm", "noop"}:
        parser.error("--cases takes cold, warm, noop")
    pool = args.pool or max(args.pages, round(args.members * args.pages * 0.3))
    work = args.workdir or Path(tempfile.mkdtemp(prefix="mnemex-bench-team-"))
    work.mkdir(parents=True, exist_ok=True)
    load_start = os.getloadavg()

    started = time.perf_counter()
    gen = generate(args.members, args.pages, pool, args.seed)
    gen_s = time.perf_counter() - started
    files = [data for items in gen["files"].values() for _, data in items]
    started = time.perf_counter()
    paths = setup(work, gen)
    setup_s = time.perf_counter() - started

    results: dict[str, list[dict[str, Any]]] = {c: [] for c in cases}
    for _ in range(args.runs):
        for case in cases:
            if case == "warm" and not (paths["vault"] / ".mnemex" / "team" / TEAM).is_dir():
                _reset(work, paths, clone=False)  # warm alone: make the clone first
                timed_synthesis(paths, work)
            if case != "noop":
                _reset(work, paths, clone=case == "warm")
            elif not results.get("cold") and not results.get("warm"):
                _reset(work, paths, clone=False)  # noop alone: build the wiki first
                timed_synthesis(paths, work)
            results[case].append(timed_synthesis(paths, work))
    res: dict[str, Any] = {
        "members": args.members,
        "pages_per_member": args.pages,
        "pool": gen["pool"],
        "names_contributed": gen["names_contributed"],
        "contribution_files": len(files),
        "contribution_mb": sum(len(d) for d in files) / 1e6,
        "largest_file_kb": max(len(d) for d in files) / 1e3,
        "generate_s": gen_s,
        "setup_s": setup_s,
        "cases": results,
        "in_process": in_process(paths["seed"], args.runs, args.profile),
        "rss_from": "/usr/bin/time -v" if os.access(TIME, os.X_OK) else "os.wait4",
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
            "load_start": load_start,
            "load_end": os.getloadavg(),
        },
        "team_code": _code_digest(),
        "workdir": str(work),
    }
    built = {r["pages"] for runs in results.values() for r in runs}
    if built != {res["in_process"]["pages"]}:
        raise SystemExit(f"the command built {built} pages, build() {res['in_process']['pages']}")
    if not args.workdir:
        shutil.rmtree(work, ignore_errors=True)
    OUT.mkdir(exist_ok=True)
    (OUT / "team_synthesis.json").write_text(json.dumps(res, indent=1), encoding="utf-8")
    if args.json:
        print(json.dumps(res, indent=1))
    else:
        print(
            f"{args.members} members x {args.pages} pages over a pool of {gen['pool']:,} names "
            f"({gen['names_contributed']:,} contributed); {len(files)} contribution files, "
            f"{res['contribution_mb']:.1f} MB (largest {res['largest_file_kb']:.0f} kB); "
            f"generated in {gen_s:.1f} s, team set up in {setup_s:.1f} s; "
            f"load {load_start[0]:.1f} -> {res['machine']['load_end'][0]:.1f}; "
            f"src/mnemex/team {res['team_code']}\n"
        )
        print(_table(res))
        ip = res["in_process"]
        cp = ip["contributors_per_page"]
        print(
            f"\nwiki: {ip['pages']:,} pages, {ip['wiki_bytes'] / 1e6:.1f} MB, "
            f"{ip['statements']:,} statement lines, {ip['differing']:,} differing pairs, "
            f"{ip['pages_with_aliases']:,} pages with aliases; contributors per page: "
            f"median {cp['median']:g}, p90 {cp['p90']}, max {cp['max']}, {cp['one']:,} with one"
        )
    cold = results.get("cold") or next(iter(results.values()), [])
    missed = bool(cold) and (
        statistics.median(r["wall_s"] for r in cold) > TARGET_S
        or max(r["rss_mib"] for r in cold) > TARGET_MIB
    )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
