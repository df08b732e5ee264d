"""The offline digest: a :class:`~mnemex.harvest.transcript.Session` as a memory note, no model.

A deterministic extractor that works from the transcript only: the requests, what the agent
and the person said, the commands run with their exit status and output, the files edited, the
harness's compaction summaries and the git branch (vault format §7). It states what happened;
it does not invent advice. Each bullet is one idea (retrieval chunks one bullet per chunk).

A digest is the memory of a session, so what goes in is chosen by what a later session will
ask, not by position (issue 17): every sentence is scored for each section by
:mod:`mnemex.harvest.salience` (its cue, the reason given with it, the identifiers it names
and how central they are, who said it), each section takes its best within its cap, no
section repeats another, and the whole competes for :data:`BUDGET` characters by worth.

Every piece of text is redacted (:func:`mnemex.text.redact.redact_text`) and then sanitised
(:func:`mnemex.text.sanitise.sanitise`: strip, escape, defang) before it reaches the note, and
every section is bounded in bullets and characters.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from mnemex.harvest.salience import (
    QUALIFIES,
    Said,
    Salience,
    cue,
    error_lines,
    identifiers,
    looks_failed,
    sentences,
    similar,
)
from mnemex.harvest.transcript import Session, ToolCall, Turn
from mnemex.text.dates import utc_iso
from mnemex.text.redact import redact_text
from mnemex.text.sanitise import sanitise
from mnemex.vault import slugify

SECTIONS = (
    "Summary",
    "What was worked on",
    "The problem",
    "How it was solved",
    "Decisions",
    "Dead ends and failed attempts",
    "Left open",
    "Identifiers",
    "Files touched",
)
MAX_TITLE = 80
MAX_BULLET = 240
MAX_SUMMARY = 300
MAX_REQUESTS = 8
MAX_SOLVED = 4
MAX_DECISIONS = 6
MAX_DEAD_ENDS = 10
MAX_OPEN = 6
MAX_CAUSES = 3
MAX_FILES = 50
#: The Identifiers section is one line of at most this many characters.
MAX_IDENTIFIERS = 240
MAX_FINDINGS = 5
#: A digest's body stays within this many characters: when the sections' picks exceed it,
#: the bullet of least worth goes first (never the title, summary or first request). Set
#: below the median offline digest before issue 17 (3,229 on its written sessions).
BUDGET = 3200
_KEEP = 100.0
EXTRACTOR = "offline"

_LANGS = {
    ".py": "python",
    ".rs": "rust",
    ".ts": "typescript",
    ".tsx": "typescript",
    ".js": "javascript",
    ".go": "go",
    ".java": "java",
    ".rb": "ruby",
    ".c": "c",
    ".cpp": "cpp",
    ".md": "docs",
    ".sql": "sql",
}


def clean(text: str, limit: int = MAX_BULLET) -> str:
    """One line, redacted, then sanitised, then bounded (the order matters: redact first)."""
    line = " ".join(text.split())
    line = sanitise(redact_text(line))
    if len(line) > limit:
        cut = line[: limit - 1].rsplit(" ", 1)[0]
        line = (cut or line[: limit - 1]) + "…"
    return line


def _code(text: str, limit: int = 160) -> str:
    """A command or path for a backtick span: one line, no backticks, cleaned."""
    return clean(text.replace("`", "'"), limit)


def _unique(items: list[str], limit: int) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        if item and item.lower() not in {k.lower() for k in seen}:
            seen[item] = None
        if len(seen) >= limit:
            break
    return list(seen)


def _requests(session: Session) -> list[Turn]:
    """What the user asked. A user turn that ran a shell command (Aider's ``/run``) is a
    command, not a request: it shows under dead ends when it failed, not as work."""
    return [
        t
        for t in session.turns
        if t.role == "user"
        and t.kind == "message"
        and t.text.strip()
        and not any(c.command for c in t.tool_calls)
    ]


def _failed_calls(session: Session) -> list[ToolCall]:
    """Calls that failed: by their status, or, where the harness records none (Aider), by an
    error line in their output."""
    results = {r.call_id: r for t in session.turns for r in t.tool_results if r.call_id}
    out = []
    for call in session.tool_calls:
        if call.failed is None and call.command and call.call_id in results:
            if looks_failed(results[call.call_id].text):
                out.append(call)
        elif call.failed:
            out.append(call)
    return out


@dataclass
class Digest:
    """The extracted digest of one session; :meth:`body` renders it (vault format §7)."""

    title: str
    summary: str
    worked_on: list[str] = field(default_factory=list)
    problem: list[str] = field(default_factory=list)
    solved: list[str] = field(default_factory=list)
    decisions: list[str] = field(default_factory=list)
    dead_ends: list[str] = field(default_factory=list)
    left_open: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    #: What the session named that the other sections do not: tickets, commits, flags,
    #: functions, versions, hosts (one line).
    identifiers: list[str] = field(default_factory=list)
    domain: str = "general"
    importance: float = 0.5

    def sections(self) -> list[tuple[str, list[str]]]:
        names = ", ".join(f"`{x}`" for x in self.identifiers)  # one line, one chunk
        return [
            ("Summary", [self.summary]),
            ("What was worked on", self.worked_on),
            ("The problem", self.problem),
            ("How it was solved", self.solved),
            ("Decisions", self.decisions),
            ("Dead ends and failed attempts", self.dead_ends),
            ("Left open", self.left_open),
            ("Identifiers", [names] if names else []),
            ("Files touched", [f"`{f}`" for f in self.files]),
        ]

    def body(self, session: Session) -> str:
        out = [f"# {self.title}", session_line(session)]
        for name, items in self.sections():
            if name == "Summary":
                out += [f"## {name}", self.summary]
            elif items:  # an empty section is left out (nothing to chunk, nothing to match)
                out += [f"## {name}", *(f"- {item}" for item in items)]
        return "\n".join(out) + "\n"


def _stamp(when: dt.datetime | None) -> str:
    return utc_iso(when) if when else "unknown"


def session_line(session: Session) -> str:
    """``Session <id> · <harness> · [<project> on <branch> · ]<started> → <ended>``."""
    where = clean(session.project, 80) if session.project else ""
    if session.git_branch:
        where += f" on {clean(session.git_branch, 80)}" if where else clean(session.git_branch, 80)
    return (
        f"Session {clean(session.id, 200)} · {session.harness} · "
        + (f"{where} · " if where else "")
        + f"{_stamp(session.started)} → {_stamp(session.ended)}"
    )


def _tags(session: Session, files: list[str], failures: int) -> list[str]:
    tags = [slugify(session.harness)]
    langs = [_LANGS.get(PurePosixPath(f).suffix.lower()) for f in files]
    tags += [lang for lang in langs if lang]
    if failures:
        tags.append("failed-commands")
    return list(dict.fromkeys(t for t in tags if re.fullmatch(r"[\w\-/]+", t)))


def _domain(domains: list[str], text: str) -> str:
    if not domains:
        return "general"
    lowered = text.lower()
    for domain in domains[1:]:
        if re.search(rf"\b{re.escape(domain.lower())}\b", lowered):
            return domain
    return domains[0]


def _importance(session: Session, failures: int, files: int, decisions: int) -> float:
    score = 0.2
    score += min(0.25, len(session.turns) / 200)
    score += min(0.2, 0.05 * failures)
    score += min(0.2, 0.02 * files)
    score += 0.1 if decisions else 0.0
    score += 0.05 if session.parent_session is None else 0.0
    return round(min(1.0, score), 2)


def _dead_ends(
    session: Session, failed: list[ToolCall]
) -> list[tuple[tuple[int, int], str, float]]:
    """One bullet per failed command (its repeats folded in: how often, and its distinct
    errors, the first and the last two), plus errors the harness reported without a call;
    each with the place in the session where it first happened and a score (the more
    distinct errors, the more it taught)."""
    results = {r.call_id: r for t in session.turns for r in t.tool_results if r.call_id}
    where = {id(c): i for i, t in enumerate(session.turns) for c in t.tool_calls}
    groups: dict[str, list[ToolCall]] = {}
    for call in failed:
        key = " ".join((call.command or f"{call.name} {call.input_summary}").split())
        groups.setdefault(key, []).append(call)
    out = []
    for calls in groups.values():
        errors: list[str] = []
        for call in calls:
            result = results.get(call.call_id) if call.call_id else None
            line = " / ".join(error_lines(result.text, 1)) if result else ""
            if line and not any(similar(line, e, 0.8) for e in errors):
                errors.append(line)
        first = calls[0]
        what = f"{clean(first.name, 40)} call"
        if first.command:
            what = f"`{_code(first.command, 100)}`"
        if first.command is None and first.input_summary:
            what += f" on `{_code(first.input_summary, 80)}`"
        codes = sorted({c.exit_code for c in calls if c.exit_code is not None})
        status = f" (exit {', '.join(map(str, codes))})" if codes else ""
        times = f" {len(calls)} times" if len(calls) > 1 else ""
        shown = errors[:1] + errors[1:][-2:]
        said = "; then ".join(clean(e, 140 if n == 0 else 80) for n, e in enumerate(shown))
        text = f"{what} failed{times}{status}" + (f": {said}" if said else "")
        out.append(((where.get(id(first), 0), 0), clean(text), 2.5 + 0.25 * len(errors)))
    for i, turn in enumerate(session.turns):
        if turn.role == "tool" and turn.is_error and turn.text.strip() and not turn.tool_results:
            line = (error_lines(turn.text, 1) or [turn.text])[0]
            out.append(((i, 0), f"Error seen: {clean(line, 160)}", 2.0))
    return out


def _pick(said: list[Said], score: dict[int, float], limit: int, taken: list[str]) -> list[Said]:
    """The ``limit`` best-scored sentences that say nothing ``taken`` says (which they join),
    in the session's order."""
    ranked = sorted((i for i in score if score[i] > 0), key=lambda i: (-score[i], said[i].at))
    chosen: list[int] = []
    for i in ranked:
        if len(chosen) >= limit:
            break
        text = said[i].text
        if any(similar(text, other) for other in taken):
            continue
        chosen.append(i)
        taken.append(text)
    return [said[i] for i in sorted(chosen, key=lambda i: said[i].at)]


_TRIVIAL = re.compile(
    r"^(?:ok(?:ay)?|yes|yep|y|no|sure|thanks?(?: you)?|ty|go(?: ahead| on)?|continue|proceed|"
    r"do it|lgtm|great|perfect|nice|cool|sounds good)[.!]*$",
    re.IGNORECASE,
)
_LEAD = re.compile(
    r"^(?:(?:left open|still open|open(?: question| item)?|todo|to-do|remaining|not yet|"
    r"not done|follow[- ]?up|next steps?)\s*[:—-]\s*|(?:but|and|so|also|then|ok|okay),?\s+|"
    r"(?:we |i )?still (?:need|have) to\s+)",
    re.IGNORECASE,
)


_PLAN = re.compile(r"^(?:let me|let's|i'll|i will|i'm going to|now i|next i|first i)\b", re.I)


def _scores(sal: Salience, kind: str) -> dict[int, float]:
    """The score of each sentence that is of ``kind``: its cue, a reason given with it, its
    identifiers and how central they are to the session, and who said it where."""
    out = {}
    for i, s in enumerate(sal.said):
        base = cue(kind, s.text)
        if kind == "cause" and s.who != "user":
            base += 0.6 * min(2, sal.explains(s.text))  # it speaks of what the errors named
        if kind in ("decision", "abandon"):
            base += 0.8 * cue("reason", s.text)  # a choice with its why is worth keeping
        if base < QUALIFIES or len(s.text) < 12:
            continue
        if s.text.endswith("?") and kind != "open":
            continue
        if kind == "cause" and _PLAN.match(s.text):
            continue  # "Let me see where it comes from" is a plan, not a cause
        score = base + 0.6 * sal.centrality(s.text)
        if s.who == "user" and kind in ("decision", "abandon", "open"):
            score += 0.7  # the person's word: what they chose, rejected or put off
        if kind == "open":
            score += 0.8 if s.final else 0.0
            score -= 1.0 if s.text.endswith("?") and s.who == "agent" else 0.0
        if s.who == "summary":
            score += 0.5  # the harness kept it when it compacted the context
        out[i] = score
    return out


def _outcomes(sal: Salience) -> dict[int, float]:
    """The agent's last message says how the session ended: each sentence of it may, those
    that say what was done more so, its first (where people put the headline) a little more."""
    return {
        i: 0.5 + cue("outcome", s.text) + 0.3 * sal.centrality(s.text) + 0.5 * (s.at[1] == 0)
        for i, s in enumerate(sal.said)
        if s.final
        and not s.text.endswith("?")
        and (s.at[1] == 0 or cue("abandon", s.text) < QUALIFIES)  # a dead end is not a result
    }


def _summary(
    session: Session, solved: list[Said], left_open: list[Said], topic: str, failed: list[ToolCall]
) -> str:
    """One line: what was done and how it ended, and the first thing left open."""
    done = solved[0].text if solved else f"Worked on: {topic}" if topic else "A session"
    done = clean(done, MAX_SUMMARY - 80).rstrip(" .!…")
    acts = [c for c in session.tool_calls if c.command or c.files_edited]
    if failed and acts and acts[-1] is failed[-1] and failed[-1].command:
        # the last thing done was a command that failed (no edit or run after it)
        done += f"; ended with `{_code(failed[-1].command, 60)}` failing"
    finals = [s for s in left_open if s.final] or left_open
    if finals:
        rest = finals[0].text
        while _LEAD.match(rest):
            rest = _LEAD.sub("", rest, count=1)
        rest = rest.rstrip(" .!…")
        if rest and not similar(rest, done):
            budget = MAX_SUMMARY - len(done) - 14
            return _stop(clean(f"{done}; left open: {clean(rest, budget)}", MAX_SUMMARY))
    return _stop(done)


def _stop(line: str) -> str:
    return line if line.endswith(("…", ".", "!", "?")) else line + "."


def _identifiers(sal: Salience, session: Session, written: str) -> list[str]:
    """The identifiers people named (in messages and the commands run) that ``written`` (the
    rest of the digest) does not hold, most named first, on one line of
    :data:`MAX_IDENTIFIERS` characters. The person's own words count double."""
    score: defaultdict[str, float] = defaultdict(float)
    for said in sal.said:
        for name in identifiers(said.text):
            score[name] += 2.0 if said.who == "user" else 1.0
    for call in session.tool_calls:
        for name in identifiers(call.command or ""):
            score[name] += 0.5
    have = written.lower()
    ranked = sorted(
        (n for n in score if n.lower() not in have and len(n) <= 60 and not n.isdigit()),
        key=lambda n: (-(score[n] + math.log1p(sal.weight.get(n.lower(), 0))), n),
    )
    out: list[str] = []
    used = 0
    for name in ranked:
        shown = _code(name, 60)
        if used + len(shown) + 4 > MAX_IDENTIFIERS:
            continue
        if any(shown.lower() in other.lower() for other in out):
            continue
        out.append(shown)
        used += len(shown) + 4
    return out


def _request(text: str, first: bool) -> str:
    """A request as listed: the first whole (bounded), later ones to their first two sentences."""
    if first:
        return clean(text, 200)
    return clean(" ".join(sentences(text)[:2]), 160)


#: What a finding says: a measure, a label and what it showed, a comparison, a consequence.
_FOUND = re.compile(
    r"\d|^[\w ./-]{2,40}: |\b(?:worse|better|faster|slower|only|instead|again|so|but|"
    r"isn't|is not|wasn't|doesn't|didn't|never|always|every|none|all)\b",
    re.IGNORECASE,
)


def _findings(sal: Salience) -> dict[int, float]:
    """What the agent said it found, right after a tool's output ("Staging run: 29 minutes",
    "AQE detected the skew but refused to split it"): scored by what it names and whether
    it speaks of the errors seen or of a cause."""
    out = {}
    for i, s in enumerate(sal.said):
        if not s.after_tool or len(s.text) < 20 or s.text.endswith("?") or _PLAN.match(s.text):
            continue
        score = 1.0 + 0.6 * min(2, sal.explains(s.text)) + 0.6 * sal.centrality(s.text)
        score += 0.5 * cue("cause", s.text) + 0.3 * len(_FOUND.findall(s.text))
        if score >= QUALIFIES:
            out[i] = score
    return out


#: A test or build run's closing tally: ``117 passed in 3.88s``, ``test result: ok. 12 passed``.
_TALLY = re.compile(
    r"\b\d+ (?:passed|passing|tests? passed)\b|test result: ok|\bTests?:\s+\d+ passed|"
    r"\bok\s+\S+\s+[\d.]+s$|\bBuild succeeded\b|\bcompiled successfully\b",
    re.IGNORECASE,
)


def _last_run(session: Session) -> str | None:
    """How the last passing test or build run ended, when the session ran one after its last
    failure: ``Last run: `pytest -q`: 117 passed in 3.88s``."""
    results = {r.call_id: r for t in session.turns for r in t.tool_results if r.call_id}
    for call in reversed([c for c in session.tool_calls if c.command]):
        if call.failed:
            return None
        result = results.get(call.call_id) if call.call_id else None
        tally = [ln.strip() for ln in (result.text if result else "").splitlines()]
        tally = [ln for ln in tally if _TALLY.search(ln)]
        if tally:
            return clean(f"Last run: `{_code(call.command or '', 80)}`: {tally[-1]}", 200)
    return None


@dataclass
class _Item:
    """A bullet that may be left out to keep the digest in its budget (lowest score first)."""

    section: str
    text: str
    score: float
    at: tuple[int, int] = (0, 0)


#: How much a section's bullets are worth, against each other, when the budget is short.
_WORTH = {
    "worked_on": 0.9,
    "problem": 0.9,
    "solved": 0.9,
    "decisions": 1.2,
    "dead_ends": 0.8,
    "left_open": 1.1,
    "files": 0.5,
    "identifiers": 0.8,
}


def _budgeted(items: list[_Item]) -> list[_Item]:
    """``items`` from most to least worth; :func:`extract` leaves out from the end until the
    body fits :data:`BUDGET`.

    A bullet's worth is its section's :data:`_WORTH` over one plus its rank in the section
    by score (a quarter rank for an identifier: four names cost about one bullet): every
    section keeps its best while the budget lasts, and the second decision outlasts the
    fifth file. The first request is never left out."""
    worth: dict[int, float] = {}
    for name in {it.section for it in items}:
        ranked = sorted((it for it in items if it.section == name), key=lambda it: -it.score)
        for rank, it in enumerate(ranked):
            step = rank / 4 if name == "identifiers" else rank
            worth[id(it)] = _KEEP if it.score >= _KEEP else _WORTH[name] / (1 + step)
    return sorted(items, key=lambda it: (-worth[id(it)], len(it.text)))


def extract(session: Session, domains: list[str] | None = None) -> Digest:
    """The offline digest of ``session`` (deterministic: the same session, the same digest).

    Each section's candidates are scored (:mod:`mnemex.harvest.salience`), not taken by
    where they stand; what one section holds no other repeats; while the body exceeds
    :data:`BUDGET` characters the bullet of least worth is left out (:func:`_budgeted`);
    each section lists what it kept in the order the session said it."""
    requests = [t for t in _requests(session) if not _TRIVIAL.match(t.text.strip())]
    asked = _unique([_request(t.text, n == 0) for n, t in enumerate(requests)], MAX_REQUESTS)
    first = asked[0] if asked else ""
    title_source = first or (session.summaries[0] if session.summaries else "")
    title = clean(title_source, MAX_TITLE) or f"{session.harness} session {clean(session.id, 40)}"

    sal = Salience.of(session)
    said = sal.said
    scored = {kind: _scores(sal, kind) for kind in ("open", "decision", "cause", "abandon")}
    scored["outcome"], scored["finding"] = _outcomes(sal), _findings(sal)
    failed = _failed_calls(session)
    commands = sorted(_dead_ends(session, failed), key=lambda c: (-c[2], c[0]))[:MAX_DEAD_ENDS]
    taken: list[str] = [first] if first else []
    left_open = _pick(said, scored["open"], MAX_OPEN, taken)
    decisions = _pick(said, scored["decision"], MAX_DECISIONS, taken)
    causes = _pick(said, scored["cause"], MAX_CAUSES, taken)
    solved = _pick(said, scored["outcome"], MAX_SOLVED, taken)
    taken += [text for _, text, _ in commands]
    abandoned = _pick(said, scored["abandon"], MAX_DEAD_ENDS - len(commands), taken)
    found = _pick(said, scored["finding"], MAX_FINDINGS, taken)
    edits = [i for i, t in enumerate(session.turns) if any(c.files_edited for c in t.tool_calls)]
    last_edit = edits[-1] if edits else -1

    topic = clean(first, 160).rstrip(".!?…") if first else ""
    summary = _summary(session, solved, left_open, topic, failed)
    if solved and summary.startswith(clean(solved[0].text).rstrip(" .!…")):
        solved = solved[1:]  # said once, in the summary

    index = {id(s): i for i, s in enumerate(said)}

    def items(section: str, kind: str, chosen: list[Said], prefix: str = "") -> list[_Item]:
        return [
            _Item(section, prefix + clean(s.text), scored[kind][index[id(s)]], s.at) for s in chosen
        ]

    # a later request whose point another section already holds is not listed twice
    picked = [s.text for s in [*left_open, *decisions, *causes, *abandoned]]
    later = [t for t in asked[1:] if not any(similar(t, p) for p in picked)]
    pool = [_Item("worked_on", t, _KEEP if n == 0 else 1.5, (0, n)) for n, t in enumerate(later, 1)]
    if first:
        pool.append(_Item("worked_on", first, _KEEP))
    pool += items("problem", "cause", causes)
    pool += items("problem", "finding", [s for s in found if s.at[0] < last_edit])
    if session.summaries:
        pool.append(_Item("problem", f"Harness summary: {clean(session.summaries[-1])}", 2.0))
    pool += items("solved", "outcome", solved)
    last_run = _last_run(session)
    if last_run:
        pool.append(_Item("solved", last_run, 3.0, (len(session.turns), 0)))
    pool += items("solved", "finding", [s for s in found if s.at[0] >= last_edit])
    pool += items("decisions", "decision", decisions)
    pool += [_Item("dead_ends", text, score, at) for at, text, score in commands]
    pool += items("dead_ends", "abandon", abandoned, "Abandoned: ")
    pool += items("left_open", "open", left_open)
    files = _unique([_code(f, 200) for f in session.files_touched], MAX_FILES)
    pool += [_Item("files", f, 3.0 if n < 10 else 1.0, (0, n)) for n, f in enumerate(files)]
    written = " ".join([title, summary, *(it.text for it in pool)])
    names = _identifiers(sal, session, written)
    pool += [_Item("identifiers", name, -n, (0, n)) for n, name in enumerate(names)]

    def build(kept: list[_Item]) -> Digest:
        def section(name: str) -> list[str]:
            return [it.text for it in sorted(kept, key=lambda it: it.at) if it.section == name]

        shown = section("identifiers")  # one line: _identifiers kept it in MAX_IDENTIFIERS
        kept_files = section("files")
        return Digest(
            title=title,
            summary=summary,
            worked_on=section("worked_on"),
            problem=section("problem"),
            solved=section("solved"),
            decisions=section("decisions"),
            dead_ends=section("dead_ends"),
            left_open=section("left_open"),
            files=kept_files,
            tags=_tags(session, kept_files, len(failed)),
            domain=_domain(list(domains or []), " ".join([*asked, *files])),
            importance=_importance(session, len(failed), len(files), len(decisions)),
            identifiers=shown,
        )

    kept = _budgeted(pool)
    digest = build(kept)
    while len(digest.body(session)) > BUDGET and kept and kept[-1].score < _KEEP:
        kept.pop()  # least worth first
        digest = build(kept)
    return digest


def digest_id(harness: str, session_id: str) -> str:
    """The ``<id>`` of a digest's file name: sha256("<harness>:<session id>")[:8]."""
    return hashlib.sha256(f"{harness}:{session_id}".encode()).hexdigest()[:8]


__all__ = ["EXTRACTOR", "SECTIONS", "Digest", "clean", "digest_id", "extract", "session_line"]
