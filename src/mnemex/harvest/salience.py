"""What in a session matters: its sentences and error lines, scored, not taken by position.

The offline digest (:mod:`mnemex.harvest.digest`) has room for a few bullets per section. A
long session says hundreds of sentences; which of them a later session will ask about is
decided here, from the session's own text and no model:

- every sentence of the user, of the agent and of the harness's compaction summaries is a
  :class:`Said`, with who said it, where, and whether it is in the agent's last message;
- :data:`CUES` say what a sentence is about (a decision, a reason, an approach abandoned, an
  item left open, an outcome), each a small weighted vocabulary;
- identifiers (ticket numbers, paths, flags, ``function()`` names, versions, hosts, code in
  backticks) make a sentence worth more, the more so the more often the session names them:
  what a session keeps returning to is what it was about;
- :func:`error_lines` picks the informative lines of a failed command's output (the
  assertion, the error code, the exception), not its banners and frame lines.

Everything is deterministic: the same session, the same scores.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

from mnemex.harvest.transcript import Session, Turn

#: A sentence ends at ``.!?`` before a space and a letter, a quote or a bracket (people type
#: lower case too), unless the dot ends an abbreviation.
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Za-z`\"'(\[])")
_ABBREVIATION = re.compile(r"\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|resp|Mr|Mrs|Dr|Ms|St|No)\.$")
_PARAGRAPH = re.compile(r"\n\s*\n|\n(?=\s*(?:[-*•]|\d+[.)])\s)|\n(?=[A-Z][\w ]{0,40}:\s)")

IDENTIFIER = re.compile(
    r"`[^`\n]{2,80}`"  # code the writer marked as code
    r"|\b[A-Z][A-Z0-9]{1,9}-\d{1,6}\b"  # tickets: BILL-412
    r"|(?<![\w&])#\d{2,6}\b"  # issues and pull requests: #4471
    r"|(?<![\w/.-])(?:--[a-zA-Z][\w-]*|-[a-zA-Z]{2,}[\w-]*)(?:=[^\s,;)]+)?"  # --dry-run, -fsSL
    r"|\b[\w.-]*[\w-]/[\w./-]*\w"  # paths: src/app/x.py, ../y
    r"|\b[\w-]+\.(?:py|rs|ts|tsx|js|jsx|go|java|rb|c|h|cpp|sql|toml|yaml|yml|json|md|sh"
    r"|tf|cfg|ini|lock|csv|html|css|proto|conf|service)\b"  # file names
    r"|\b[A-Za-z_][\w.]*\(\)"  # calls: to_minor_units()
    r"|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"  # snake_case names
    r"|\b[a-z]+(?:[A-Z][a-z0-9]+)+\b|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+\b"  # camelCase
    r"|\bv?\d+\.\d+(?:\.\d+)+(?:[-+][\w.]+)?\b"  # versions: 3.2.1
    r"|\b[a-z][\w-]*(?:\.[a-z][\w-]*)+\.(?:com|net|org|io|dev|internal|local|cloud)\b"  # hosts
    r"|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b"  # environment variables: DATABASE_URL
    r"|\b[A-Z]{1,4}\d{3,5}\b|\b[\w.]+\.[A-Z]\d{3}\b"  # codes: TS2345, E0425, 4_0.E001
    r"|\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b"  # commits: 4be10c7
)


def _cue(words: str) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{words})(?!\w)", re.IGNORECASE)


#: cue name -> [(pattern, weight)]. A sentence is of a kind when a pattern of weight 1.5 or
#: more matches it (lighter ones only add to its score); ``reason`` and ``cause`` only add.
CUES: dict[str, list[tuple[re.Pattern[str], float]]] = {
    "decision": [
        (
            _cue(
                r"decided|decide to|decision|we will|we'll|we're going to|i'll use|i will use|"
                r"going with|go with|went with|chose|choose|settled on|opted|let's use|"
                r"let's go with|let's keep|stick with|sticking with|switch(?:ed|ing)? to|"
                r"agreed|the plan is|plan:|prefer|use .{1,40} instead|instead of|"
                r"rather than|in favou?r of|over .{1,30} because|we should use|"
                r"keep .{1,30} (?:as is|unchanged)|don't use|do not use|never use|must not|"
                r"don't touch|do not touch|leave .{1,30} alone|(?:would|'d) rather|"
                r"no .{1,30} either"
            ),
            2.0,
        ),
        (_cue(r"suggest|recommend|proposal|propose|best option|moved? to"), 1.0),
    ],
    "reason": [
        (
            _cue(
                r"because|since|so that|which means|the only way|otherwise|to avoid|due to|"
                r"caused by|root cause|the reason|that's why|this is why|fragile|safer|"
                r"simpler|cheaper|faster|slower|breaks?|risk"
            ),
            1.0,
        )
    ],
    "cause": [
        (
            _cue(
                r"root cause|caused by|the cause|the (?:real |actual )?(?:problem|issue|bug) "
                r"(?:is|was)|turns out|turned out|it's because|this is because|that's because|"
                r"is because|was because|the culprit|comes from|came from|happens (?:when|because)|"
                r"causes? found|causes?:|the bug is|is the bug|that's the bug|problems? stands? out"
            ),
            2.0,
        ),
        (_cue(r"because|so (?:it|the|we)|which (?:is|was) why|confirmed|reproduced?"), 1.0),
    ],
    "abandon": [
        (
            _cue(
                r"didn't work|did not work|doesn't work|does not work|won't work|wouldn't work|"
                r"didn't help|did not help|doesn't help|does not help|didn't fix|did not fix|"
                r"doesn't fix|does not fix|not enough|no luck|gave up|give up|giving up|"
                r"abandon\w*|revert\w*|rolled back|roll(?:ing)? back|backed out|back out|"
                r"dead end|still fail\w*|that failed|this failed|attempt failed|wrong approach|"
                r"scrap\w*|rejected|not the (?:real )?(?:fix|cause|problem|issue)|"
                r"made .{0,30}worse|"
                r"same error|still (?:broken|failing|red)|not viable|ruled out|dropp?(?:ed)? "
                r"(?:that|this|the) (?:idea|approach)|don't go down|not go down|no good|"
                r"does not solve|didn't solve|did not solve|fixes .{1,40} but not|"
                r"but not the|only (?:moved|hid|masked|shifted)|failed"
            ),
            2.0,
        ),
        (_cue(r"tried|trying|attempt\w*|first try|workaround|instead|turned out"), 0.5),
    ],
    "open": [
        (
            _cue(
                r"todo|to-do|left open|leave .{1,40} for later|not yet|still need\w*|"
                r"still ha(?:ve|s) to|follow[- ]?up|next step\w*|unresolved|not done|"
                r"out of scope|open question|open item|separately|"
                r"separate (?:pr|ticket|issue|task|change)|defer(?:red)? (?:to|until|for)|"
                r"punt\w*|haven't|have not|"
                r"hasn't been|has not been|not (?:been )?(?:migrated|written|tested|done|"
                r"deployed|run|fixed|covered|handled|implemented|addressed|updated|merged)|"
                r"tomorrow|next week|next quarter|someone (?:should|needs)|ticket for|"
                r"should be (?:deprecated|removed|fixed|done)|"
                r"not (?:in|part of) this|skipp?ed for now|known issue|left as is|open:|"
                r"(?:must|should|needs? to) still|still (?:must|needs?|to be)|pending|"
                r"(?:left|leave|leaving|saved?|kept?|parked?) .{0,30}for later|for a later|"
                r"before (?:we|you|anyone) (?:try|can|retry)|try again|remaining:|still to do|"
                r"left to do|to do:|not (?:yet )?(?:done|handled|covered) (?:yet|here)"
            ),
            2.0,
        ),
        (_cue(r"remaining|remains|later|for now|needs? to be|should|blocked|waiting"), 1.0),
    ],
    "outcome": [
        (
            _cue(
                r"fixed|fixes|now|works|working|passes|pass|passing|green|added|implemented|"
                r"replaced|moved|removed|done|merged|pushed|deployed|reverted|landed|shipped|"
                r"resolved|completed|finished|gave up|blocked|could not|couldn't|failed to|"
                r"is in place|updated|renamed|released|opened (?:a |the )?(?:pr|pull request)"
            ),
            1.0,
        )
    ],
}
#: A sentence is of a kind (not just closer to it) when its cue is this strong.
QUALIFIES = 1.5


def cue(name: str, text: str) -> float:
    """The strongest weight of ``name``'s patterns that ``text`` matches plus half the
    others' (0 when none matches)."""
    weights = sorted((w for p, w in CUES[name] if p.search(text)), reverse=True)
    return weights[0] + 0.5 * sum(weights[1:]) if weights else 0.0


def sentences(text: str) -> list[str]:
    """``text`` cut into sentences, one line each (paragraphs and list items end them)."""
    out = []
    for para in _PARAGRAPH.split(text):
        para = " ".join(para.split()).lstrip("-*• ").strip()
        if para:
            pieces: list[str] = []
            for piece in _SENTENCE.split(para):
                if pieces and _ABBREVIATION.search(pieces[-1]):
                    pieces[-1] += " " + piece
                elif piece.strip():
                    pieces.append(piece.strip())
            out += pieces
    return out


def identifiers(text: str) -> list[str]:
    """Identifier-like tokens of ``text``, in order, once each (backticks dropped)."""
    found = (m.group().strip("`").strip() for m in IDENTIFIER.finditer(text))
    return list(dict.fromkeys(f for f in found if len(f) > 1))


@dataclass(frozen=True)
class Said:
    """One sentence of the session."""

    text: str
    #: ``user``, ``agent`` or ``summary`` (a harness's compaction summary).
    who: str
    #: Its place in the session: turn index, then sentence index within the turn.
    at: tuple[int, int]
    #: In the agent's last message.
    final: bool = False
    #: Among the first sentences the agent said after a tool's output: what it found.
    after_tool: bool = False


@dataclass
class Salience:
    """The sentences of a session and how central each identifier is to it."""

    said: list[Said] = field(default_factory=list)
    #: identifier (lower case) -> number of turns (messages, commands, outputs) naming it.
    weight: Counter[str] = field(default_factory=Counter)
    #: identifiers (lower case) named in the output of a failed command.
    in_errors: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, session: Session) -> Salience:
        out = cls()
        last = max(
            (
                i
                for i, t in enumerate(session.turns)
                if t.role == "assistant" and t.kind == "message" and t.text.strip()
            ),
            default=-1,
        )
        previous: Turn | None = None  # the last turn that said or returned something
        for i, turn in enumerate(session.turns):
            after_tool = previous is not None and bool(previous.tool_results)
            if turn.text.strip() or turn.tool_results:
                previous = turn
            texts = [turn.text, *(c.command or c.input_summary for c in turn.tool_calls)]
            texts += [r.text for r in turn.tool_results]
            for name in {x.lower() for text in texts if text for x in identifiers(text)}:
                out.weight[name] += 1
            for result in turn.tool_results:
                if result.is_error:
                    out.in_errors.update(x.lower() for x in identifiers(result.text))
            if not turn.text.strip() or turn.kind in ("compaction", "meta"):
                continue
            if turn.kind == "summary":
                who = "summary"
            elif turn.role == "user" and not turn.tool_calls:
                who = "user"
            elif turn.role == "assistant":
                who = "agent"
            else:
                continue
            for j, text in enumerate(sentences(turn.text)):
                found = after_tool and who == "agent" and j < 2
                out.said.append(Said(text, who, (i, j), final=i == last, after_tool=found))
        return out

    def explains(self, text: str) -> int:
        """How many identifiers ``text`` shares with the output of failed commands: a
        sentence that names what the errors named is about them."""
        return len({x.lower() for x in identifiers(text)} & self.in_errors)

    def centrality(self, text: str) -> float:
        """How much ``text`` names what the session keeps naming (0 to about 3)."""
        scores = sorted(
            (math.log1p(self.weight.get(x.lower(), 0)) for x in identifiers(text)), reverse=True
        )
        return sum(min(1.0, s / math.log(8)) for s in scores[:3])


_BANNER = re.compile(r"^[\W_]*(?:[=\-_*#~.]{3,})[\W_]*\w*[\W_]*$|^[\W_]*$")
_FRAME = re.compile(
    r"^(?:at\s+\S+\s*\(|at\s+[\w.<>]+:\d+|File \"|Traceback \(most recent call last\)|"
    r"\d+\s*\|\s|\s*\^+\s*$|-->|note:|help:|Caused by:$|Stack backtrace|\s*\d+:\s+0x)",
    re.IGNORECASE,
)
_ERROR = re.compile(
    r"error|failed|failure|exception|traceback|panic|fatal|denied|not found|assert|refused|"
    r"timed? ?out|cannot|can't|could not|unable|invalid|missing|mismatch|expected|unexpected|"
    r"conflict|forbidden|unauthori[sz]ed|rejected|violation|undefined|no such|killed|oom|"
    r"unknown|not a valid|differs|received|"
    r"segmentation|exit(?:ed)? (?:with )?(?:code|status)? ?[1-9]",
    re.IGNORECASE,
)
_STRONG = re.compile(
    r"^(?:E\s{2,}|FAILED\b|FAIL\b|ERROR\b|error(?:\[\w+\])?:|[\w.]*(?:Error|Exception)\b:?|"
    r"fatal:|panic|thread '.*' panicked|npm ERR!|Error:|✗|×|✘|ERR_|\w+\.\w+:\d+(?::\d+)?:? "
    r"(?:error|E\d)|.*: error |.*Error:)",
)
#: An error name followed by what went wrong in words: ``QueryCanceled: canceling statement``.
_MESSAGE = re.compile(r"\w: +(?:[\w'`\"()-]+ +){2,}[\w'`\"()-]+")
_FAILURES = re.compile(r"\b[1-9]\d* (?:failed|errors?|failures?)\b", re.IGNORECASE)
_EXIT_ONLY = re.compile(r"^(?:Error:\s*)?exit(?:ed)? (?:code|status):? ?-?\d+$", re.IGNORECASE)


def error_lines(text: str, limit: int = 2) -> list[str]:
    """The most informative error lines of a command's output, in their order.

    A line scores for naming an error, more for starting like one (``FAILED``, ``E   ``,
    ``error[E0425]:``, ``TypeError:``), and for identifiers; banners (``=====``), stack frame
    lines and a bare ``Exit code 1`` do not count. A Python traceback's last exception line
    outranks the ones above it."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    scored: list[tuple[float, int, str]] = []
    for n, line in enumerate(lines):
        if _BANNER.match(line) or _FRAME.match(line) or _EXIT_ONLY.match(line):
            continue
        if len(line) < 4 or sum(ch.isalnum() for ch in line) < 0.4 * len(line):
            continue
        score = 0.0
        if _ERROR.search(line):
            score += 2.0
        if _STRONG.match(line):
            score += 2.0
        score += min(1.0, 0.25 * len(identifiers(line)))
        if _MESSAGE.search(line):
            score += 1.0  # it says what went wrong, not only where
        if re.match(r"^[\w.]*(?:Error|Exception):", line) and n == len(lines) - 1:
            score += 0.5
        tally = re.search(r"\b\d+ passed\b|\b0 failed\b|\bok\b", line)
        if tally and not _STRONG.match(line) and not _FAILURES.search(line):
            score -= 1.5  # a passing tally, not an error
        if score >= 2.0:
            scored.append((score, n, line))
    if not scored:  # nothing reads as an error: the last line is where tools end with one
        return lines[-1:]
    best = sorted(scored, key=lambda s: (-s[0], s[1]))
    picked: list[tuple[int, str]] = []
    for _, n, line in best:
        if len(picked) >= limit:
            break
        if any(_same(line, other) for _, other in picked):
            continue
        picked.append((n, line))
    return [line for _, line in sorted(picked)]


_NO_FAILURE = re.compile(
    r"\b(?:0|no) (?:failed|failures?|errors?)\b|\ball (?:tests |checks )?passed\b", re.IGNORECASE
)


#: ``path:line:col: message``, as compilers and linters report.
_DIAGNOSTIC = re.compile(r"^\s*[\w./\\-]+:\d+(?::\d+)?:? \S")


def looks_failed(text: str) -> bool:
    """A command's output reads as a failure (for harnesses that record no exit status):
    a line names an error and is not a ``0 failed`` / ``no errors`` tally."""
    return any(
        (_ERROR.search(line) or _DIAGNOSTIC.match(line)) and not _NO_FAILURE.search(line)
        for line in text.splitlines()
    )


_STOP_WORDS = """
    the a an and or but so of to in on for with at by from as is are was were be been it its
    this that these those we i you they he she not no now then than there here which what when
    where who how all any some our your their has have had do does did will would can could
    should may might just also only still
    """
_STOP = frozenset(_STOP_WORDS.split())


def content_words(text: str) -> set[str]:
    """The words of three letters or more of ``text`` that are not stop words."""
    return {w for w in re.findall(r"[a-z0-9_]{3,}", text.lower()) if w not in _STOP}


def similar(a: str, b: str, threshold: float = 0.5) -> bool:
    """``a`` and ``b`` say the same thing: one holds the other, or their content words
    overlap by ``threshold`` (Jaccard)."""
    if _same(a, b):
        return True
    x, y = content_words(a), content_words(b)
    return bool(x and y) and len(x & y) / len(x | y) >= threshold


def _same(a: str, b: str) -> bool:
    """``a`` says what ``b`` says (one contains the other, digits aside)."""
    x, y = (" ".join(re.sub(r"^(?:E\s+|>\s*)", "", t).lower().split()) for t in (a, b))
    x, y = re.sub(r"\d+", "#", x), re.sub(r"\d+", "#", y)
    return x in y or y in x


__all__ = [
    "CUES",
    "IDENTIFIER",
    "QUALIFIES",
    "Said",
    "Salience",
    "content_words",
    "cue",
    "error_lines",
    "identifiers",
    "looks_failed",
    "sentences",
    "similar",
]
