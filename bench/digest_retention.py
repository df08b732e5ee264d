"""Fact retention of offline digests: is what a later session asks still in the digest?

    python bench/digest_retention.py [--set written|synthetic|both] [--show-misses]
                                     [--show-digest ID] [--budget CHARS] [--json]

Two sets of sessions, read by the real readers and digested by ``harvest.digest.extract``:

- **written** (issue 17): the hand-written sessions of ``bench/data/digest_sessions/``,
  rendered as real Claude Code and Codex transcripts by ``bench/digest_corpus.py``; each
  has questions with the exact string the answer needs (``needs``). The half declared for
  reporting is every session whose number ``n`` (``dNN-…``) has ``n % 4`` in {2, 3}
  (d02, d03, d06, d07, …); the rest is the tuning half. The declaration was made before
  any figure was seen and is not to be moved.
- **synthetic**: the 104 sessions of ``bench/harvest_recall.py`` (42 scenarios, 14
  distractors, 48 routines). Their facts are taken from the scenario fields, not written
  for this bench: the failing command and its error output, the decision sentence, the
  dead end sentence (when there is one), the first sentence of the final message (the
  outcome) and, for scenarios, its last sentence (the open item); see ``_synthetic_facts``.

A fact is retained when its string occurs in the digest's body (see :func:`kept`). It
prints retention per set, half and kind, and each digest's size in characters (median and
max) and in bullets, per set and per half.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from digest_corpus import DATA as WRITTEN
from digest_corpus import load_scripts, norm, render
from harvest_recall import DATA as SYNTH_DATA
from harvest_recall import ROUTINES, build_corpus, routine
from mnemex.harvest import digest
from mnemex.harvest.digest import clean, extract
from mnemex.harvest.readers import load_reader
from mnemex.harvest.transcript import Session
from mnemex.text.redact import redact_text

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`'\"(])")


def reporting(sid: str) -> bool:
    """The declared reporting half of the written set: ``dNN`` with NN % 4 in {2, 3}."""
    match = re.match(r"d(\d+)", sid)
    return bool(match) and int(match.group(1)) % 4 in (2, 3)


def kept(needs: str, body: str) -> bool:
    """``needs`` occurs in ``body``: lower case, whitespace folded, backticks and quotes
    removed, a sentence's closing ``.!?`` not required (a digest may end it with ``;``), and
    ``needs`` made safe as every digest line is (``https://`` written ``https[:]//``)."""
    return norm(clean(needs, 10_000)).rstrip(".!?") in norm(body)


def _digest(session: Session) -> str:
    return extract(session).body(session)


def written_rows(work: Path, folder: Path = WRITTEN) -> tuple[list[dict[str, Any]], dict[str, str]]:
    rows, bodies = [], {}
    for script in load_scripts(folder):
        path = render(script, work)
        (session,) = load_reader(script["harness"]).read(path)
        body = _digest(session)
        bodies[script["id"]] = body
        half = "report" if reporting(script["id"]) else "tune"
        for q in script["questions"]:
            rows.append(
                {
                    "set": "written",
                    "half": half,
                    "session": script["id"],
                    "kind": q["kind"],
                    "q": q["q"],
                    "needs": str(q["needs"]),
                    "kept": kept(str(q["needs"]), body),
                }
            )
    return rows, bodies


_NOT_AN_ERROR = re.compile(r"\d+ passed|ok", re.IGNORECASE)


def _synthetic_facts(s: dict[str, Any], kind: str) -> list[tuple[str, str]]:
    """What a later session may ask of a synthetic session, from its fields: the failing
    command, its error (an output such as ``1 passed`` is no error), the outcome; for
    scenarios and distractors also the decision and the dead end; for scenarios the open
    item (their final message's last sentence). A routine's "decision" is the fix narrated
    mid-session (``Updated the last caller I had missed.``): its outcome is the fact. A
    string the redactor changes holds a secret and is not a fact to keep."""
    final = _SENTENCE.split(s["final"].strip())
    facts = [("failed", s["fail_cmd"])]
    if not _NOT_AN_ERROR.fullmatch(s["fail_out"].strip()):
        facts.append(("failed", s["fail_out"]))
    if kind != "routine":
        facts.append(("decision", s["decision"]))
        if s.get("dead_end"):
            facts.append(("abandoned", s["dead_end"]))
    facts.append(("outcome", final[0]))
    if kind == "scenario" and len(final) > 1:
        facts.append(("open", final[-1]))
    return [(k, text) for k, text in facts if redact_text(text) == text]  # no secrets


def synthetic_rows(work: Path) -> tuple[list[dict[str, Any]], dict[str, str]]:
    data = json.loads((SYNTH_DATA / "harvest_sessions.json").read_text(encoding="utf-8"))
    every = {s["id"]: (s, "scenario") for s in data["scenarios"]}
    every.update({s["id"]: (s, "distractor") for s in data["distractors"]})
    pool = [*data["scenarios"], *data["distractors"]]
    for project, about in data["projects"].items():
        files = sorted({f for s in pool if s["project"] == project for f in s["files"]})
        for n in range(ROUTINES):
            r = routine(project, about["lang"], files, n)
            every[r["id"]] = (r, "routine")
    sources, by_request = build_corpus(work)
    rows, bodies = [], {}
    for harness, roots in sources.items():
        for session in (s for r in roots for s in load_reader(harness).read_all(r)):
            sid = next(
                (by_request[t.text.strip()] for t in session.turns if t.text.strip() in by_request),
                None,
            )
            if sid is None:
                continue
            body = _digest(session)
            bodies[sid] = body
            scenario, what = every[sid]
            for kind, needs in _synthetic_facts(scenario, what):
                rows.append(
                    {
                        "set": "synthetic",
                        "half": "all",
                        "session": sid,
                        "kind": kind,
                        "q": "",
                        "needs": needs,
                        "kept": kept(needs, body),
                    }
                )
    return rows, bodies


def _bullets(body: str) -> int:
    return sum(1 for line in body.splitlines() if line.startswith("- "))


def report(rows: list[dict[str, Any]], bodies: dict[str, str], label: str) -> dict[str, Any]:
    out: dict[str, Any] = {"set": label}
    groups: dict[str, list[bool]] = defaultdict(list)
    for row in rows:
        for key in ("all", f"half:{row['half']}", f"kind:{row['kind']}"):
            groups[key].append(row["kept"])
        if row["half"] != "all":
            groups[f"half:{row['half']}/kind:{row['kind']}"].append(row["kept"])
    out["retention"] = {k: [sum(v), len(v)] for k, v in sorted(groups.items())}
    out["size"] = _size(bodies.values())
    halves = {r["session"]: r["half"] for r in rows}
    for half in sorted(set(halves.values()) - {"all"}):
        out[f"size:{half}"] = _size(b for sid, b in bodies.items() if halves.get(sid) == half)
    return out


def _size(bodies: Any) -> dict[str, float]:
    texts = list(bodies)
    sizes = sorted(len(b) for b in texts)
    bullets = sorted(_bullets(b) for b in texts)
    return {
        "sessions": len(sizes),
        "chars_median": statistics.median(sizes),
        "chars_max": sizes[-1],
        "bullets_median": statistics.median(bullets),
        "bullets_max": bullets[-1],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=("written", "synthetic", "both"), default="both")
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument("--show-digest", metavar="ID", help="print one session's digest")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--sessions", type=Path, default=WRITTEN, help="the written scripts")
    parser.add_argument("--budget", type=int, help="digest size budget (default: the digester's)")
    args = parser.parse_args()
    if args.budget:
        digest.BUDGET = args.budget  # what the budget costs; absent in older digesters
    results = []
    with tempfile.TemporaryDirectory(prefix="mnemex-retention-") as tmp:
        sets = []
        if args.set in ("written", "both"):
            sets.append(("written", *written_rows(Path(tmp) / "written", args.sessions)))
        if args.set in ("synthetic", "both"):
            sets.append(("synthetic", *synthetic_rows(Path(tmp) / "synthetic")))
    for label, rows, bodies in sets:
        if args.show_digest and args.show_digest in bodies:
            print(bodies[args.show_digest])
        result = report(rows, bodies, label)
        results.append(result)
        if args.json:
            continue
        for key in [k for k in result if k.startswith("size")]:
            size = result[key]
            print(
                f"## {label} {key}: {size['sessions']} sessions, digest chars median "
                f"{size['chars_median']:.0f} max {size['chars_max']}, bullets median "
                f"{size['bullets_median']:.0f} max {size['bullets_max']}"
            )
        for key, (kept, n) in result["retention"].items():
            print(f"  {key:32} {kept:4d}/{n:<4d} {kept / n:.3f}")
        if args.show_misses:
            for row in rows:
                if not row["kept"]:
                    print(f"  MISS {row['session']:24} {row['kind']:10} {row['needs']!r}")
    if args.json:
        print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
