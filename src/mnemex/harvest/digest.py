"""The offline digest: a :class:`~mnemex.harvest.transcript.Session` as a memory note, no model.

A deterministic extractor that works from the transcript's structure only: the user's
requests, the commands run and their exit status, the errors seen, the files edited, the
final assistant message and the git branch (vault format §7). It states what happened; it
does not invent advice. Each bullet is one idea (retrieval chunks one bullet per chunk).

Every piece of text is redacted (:func:`mnemex.text.redact.redact_text`) and then sanitised
(:func:`mnemex.text.sanitise.sanitise`: strip, escape, defang) before it reaches the note, and
every section is bounded in bullets and characters.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath

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
MAX_FILES = 50
EXTRACTOR = "offline"

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(\[])")
_DECISION = re.compile(
    r"\b(decided|decide to|we will|we'll|i'll use|going with|chose|choose to|settled on|"
    r"opted|let's use|use .{1,40} instead|instead of|rather than|switch(?:ed)? to)\b",
    re.IGNORECASE,
)
_ABANDON = re.compile(
    r"\b(didn't work|did not work|doesn't work|does not work|won't work|abandon\w*|revert\w*|"
    r"gave up|give up|dead end|no luck|still fail\w*|that failed|this failed)\b",
    re.IGNORECASE,
)
_OPEN = re.compile(
    r"\b(todo|left open|not yet|still need|remaining|follow[- ]up|next step|later|"
    r"unresolved|not done|out of scope|open question)\b",
    re.IGNORECASE,
)
_ERROR_LINE = re.compile(
    r"(error|failed|failure|exception|traceback|panic|fatal|denied|not found|assert)",
    re.IGNORECASE,
)
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


def _sentences(text: str) -> list[str]:
    out = []
    for para in re.split(r"\n\s*\n|\n(?=[-*•\d])", text):
        para = " ".join(para.split()).lstrip("-*• ").strip()
        if para:
            out += [s.strip() for s in _SENTENCE.split(para) if s.strip()]
    return out


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


def _assistant_messages(session: Session) -> list[Turn]:
    return [
        t for t in session.turns if t.role == "assistant" and t.kind == "message" and t.text.strip()
    ]


_NO_FAILURE = re.compile(r"\b(?:0|no) (?:failed|failures?|errors?)\b", re.IGNORECASE)


def _failed_calls(session: Session) -> list[ToolCall]:
    """Calls that failed: by their status, or, where the harness records none (Aider), by an
    error line in their output."""
    results = {r.call_id: r for t in session.turns for r in t.tool_results if r.call_id}
    out = []
    for call in session.tool_calls:
        if call.failed is None and call.command and call.call_id in results:
            text = results[call.call_id].text
            lines = [ln for ln in text.splitlines() if _ERROR_LINE.search(ln)]
            if any(not _NO_FAILURE.search(ln) for ln in lines):
                out.append(call)
        elif call.failed:
            out.append(call)
    return out


def _first_error_line(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for line in lines:
        if _ERROR_LINE.search(line) and not re.fullmatch(r"exit code:? ?\d+", line, re.I):
            return line
    return lines[0] if lines else ""


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
    domain: str = "general"
    importance: float = 0.5

    def sections(self) -> list[tuple[str, list[str]]]:
        return [
            ("Summary", [self.summary]),
            ("What was worked on", self.worked_on),
            ("The problem", self.problem),
            ("How it was solved", self.solved),
            ("Decisions", self.decisions),
            ("Dead ends and failed attempts", self.dead_ends),
            ("Left open", self.left_open),
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
    return (
        f"Session {clean(session.id, 200)} · {session.harness} · "
        f"{_stamp(session.started)} → {_stamp(session.ended)}"
    )


def _dead_ends(session: Session) -> list[str]:
    out = []
    results = {r.call_id: r for t in session.turns for r in t.tool_results if r.call_id}
    for call in _failed_calls(session):
        result = results.get(call.call_id) if call.call_id else None
        error = clean(_first_error_line(result.text), 140) if result else ""
        status = f" (exit {call.exit_code})" if call.exit_code is not None else ""
        what = f"`{_code(call.command)}`" if call.command else f"{clean(call.name, 40)} call"
        if call.command is None and call.input_summary:
            what += f" on `{_code(call.input_summary, 80)}`"
        out.append(f"{what} failed{status}" + (f": {error}" if error else ""))
    for turn in session.turns:
        if turn.role == "tool" and turn.is_error and turn.text.strip() and not turn.tool_results:
            out.append(f"Error seen: {clean(_first_error_line(turn.text), 160)}")
    for turn in _assistant_messages(session):
        out += [f"Abandoned: {clean(s)}" for s in _sentences(turn.text) if _ABANDON.search(s)]
    return _unique(out, MAX_DEAD_ENDS)


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


def extract(session: Session, domains: list[str] | None = None) -> Digest:
    """The offline digest of ``session`` (deterministic: the same session, the same digest)."""
    requests = _requests(session)
    answers = _assistant_messages(session)
    worked_on = _unique([clean(t.text) for t in requests], MAX_REQUESTS)
    first = worked_on[0] if worked_on else ""
    title_source = first or (session.summaries[0] if session.summaries else "")
    title = clean(title_source, MAX_TITLE) or f"{session.harness} session {clean(session.id, 40)}"

    problem = [first] if first else []
    failed = _failed_calls(session)
    results = {r.call_id: r for t in session.turns for r in t.tool_results if r.call_id}
    for call in failed[:2]:
        result = results.get(call.call_id) if call.call_id else None
        if result is not None and result.text.strip():
            problem.append(f"Error seen: {clean(_first_error_line(result.text), 200)}")
    if session.summaries:
        problem.append(f"Harness summary: {clean(session.summaries[-1])}")
    problem = _unique(problem, 4)

    final = answers[-1].text if answers else ""
    solved = _unique([clean(s) for s in _sentences(final)], MAX_SOLVED)

    decisions = _unique(
        [clean(s) for t in answers for s in _sentences(t.text) if _DECISION.search(s)],
        MAX_DECISIONS,
    )
    dead_ends = _dead_ends(session)
    tail = [*answers[-1:], *requests[-1:]]
    left_open = _unique(
        [clean(s) for t in tail for s in _sentences(t.text) if _OPEN.search(s)], MAX_OPEN
    )
    solved = [s for s in solved if s not in left_open]  # a sentence is a result or open, not both
    files = _unique([_code(f, 200) for f in session.files_touched], MAX_FILES)

    where = f" in {session.project}" if session.project else ""
    branch = f" on branch {clean(session.git_branch, 60)}" if session.git_branch else ""
    counts = (
        f"{len(requests)} request(s), {len(files)} file(s) edited, {len(failed)} failed command(s)"
    )
    topic = clean(first, 160).rstrip(".!?…") if first else "a session"
    summary = clean(f"Worked{where}{branch} on: {topic} ({counts}).", MAX_SUMMARY)

    text = " ".join([*worked_on, *files])
    return Digest(
        title=title,
        summary=summary,
        worked_on=worked_on,
        problem=problem,
        solved=solved,
        decisions=decisions,
        dead_ends=dead_ends,
        left_open=left_open,
        files=files,
        tags=_tags(session, files, len(failed)),
        domain=_domain(list(domains or []), text),
        importance=_importance(session, len(failed), len(files), len(decisions)),
    )


def digest_id(harness: str, session_id: str) -> str:
    """The ``<id>`` of a digest's file name: sha256("<harness>:<session id>")[:8]."""
    return hashlib.sha256(f"{harness}:{session_id}".encode()).hexdigest()[:8]


__all__ = ["EXTRACTOR", "SECTIONS", "Digest", "clean", "digest_id", "extract", "session_line"]
