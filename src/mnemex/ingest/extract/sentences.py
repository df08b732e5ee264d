"""A source as sentences, and which of them a page may quote.

Paragraphs are split on sentence ends, guarding honorifics and initials ("Dr. Priya
Raman", "P. Raman"); hard-wrapped lines (text files, PDFs) are joined; headings, list
items, title lines, underlined headings and field lines ("Status: In progress") stand
alone, so no name runs from one into the next. Fenced code, literal blocks, shell prompt
lines and table rows (pipes, tabs or aligned columns) are left out, and so are sentences
that give orders to a model ("Ignore previous instructions ..."): a source quoting an
injection is not about it. Inline code, rST roles, command-line flags, URLs and paths give
no word tokens (``curl -fsSL`` names nothing), nor do an image's alt text and
an HTML tag. The text is NFC first, and words are
those of every script (a letter, then letters, digits, marks). Each sentence is marked
with what of it may be quoted as a fact (:func:`mark_facts`), and :func:`evidence` picks a
page's quotes from those.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from mnemex.ingest.extract.words import MARK, UPPER
from mnemex.ingest.records import Evidence, PlannedPage
from mnemex.vault.markdown import fenced_lines

MAX_EVIDENCE = 6  # quoted sentences per page from one source
MAX_DESCRIPTION = 400  # characters of a page's description, a sentence of the source
MAX_SENTENCE_CHARS = 600  # longer runs are cut, so every quote stays readable
MIN_FACT_WORDS = 5  # fewer words (a speaker label aside) state no fact: "Raman: Downsampling."

_ABBREV_END_RE = re.compile(
    r"(?:\b(?:Dr|Prof|Mr|Mrs|Ms|Mx|St|Jr|Sr|vs|etc|e\.g|i\.e|cf|approx|No|Fig|Vol)\.|"
    rf"\b{UPPER}\.)$"
)
_SENTENCE_END_RE = re.compile(rf"(?<=[.!?])[\"'”’)\]]*\s+(?=[\"'“‘(\[]?(?:{UPPER}|[0-9]))")
_TABLE_ROW_RE = re.compile(r"^\s*\|.*$", re.MULTILINE)
#: A row of a table written without leading pipes: "Type | Personal", "Type<TAB>Personal",
#: or a markdown separator row ("----- | -----").
_CELLS_RE = re.compile(r"\S\s+\|\s+\S|\S\t+\S|^[\s|:-]*-{3,}[\s|:-]*$")
#: Columns aligned with spaces: a row when a neighbouring line is aligned too.
_ALIGNED_RE = re.compile(r"\S {3,}\S")
#: A heading's underline (or overline): "=====", "-----", "~~~~~" (markdown and rST).
_ADORNMENT_RE = re.compile(r"^\s*([=\-~^+#\"':])\1{2,}\s*$")
_CODE_DIRECTIVE_RE = re.compile(
    r"^\s*\.\. (?:code-block|code|sourcecode|doctest|testcode)::.*\Z", re.MULTILINE
)
_SHELL_RE = re.compile(r"^\s*\$ +\S")
#: "Status: In progress", "Owner: Dana Whitfield": a field, not a sentence.
_FIELD_RE = re.compile(r"^[A-Z][\w'’-]*(?:\s+[\w'’-]+){0,2}:\s+\S.{0,60}(?<![.!?])$")
#: An order to a model quoted in a source ("Ignore previous instructions and ...", "You
#: are now ..."), or a turn the reader's sanitiser escaped ("System\\: ...", see
#: :func:`mnemex.text.sanitise.escape`): no sentence of what the source is about.
_INJECTION_RE = re.compile(
    r"\b(?:ignore|disregard|forget|override)\s+(?:(?:all|any|the|your|my|of|these)\s+)*"
    r"(?:previous|prior|above|earlier|preceding|former|system|original)\s+"
    r"(?:instructions?|prompts?|directions?|rules|guidelines|messages?|context)\b"
    r"|\byou\s+are\s+now\s+(?:an?\s+|in\s+)?(?:unrestricted|jailbroken|dan\b|developer\s+mode)"
    r"|\b(?:reveal|print|show|repeat)\s+(?:me\s+)?(?:your|the)\s+system\s+prompt\b"
    r"|(?:^|[\s\"'“‘*_(])(?:Human|Assistant|System)\\:",
    re.IGNORECASE,
)
#: Spans that give no tokens: inline code, command-line flags, URLs and paths.
_NOT_WORDS_RE = re.compile(
    r"``[^`\n]+``|`[^`\n]*`"
    r"|!\[[^\]\n]*\]"  # an image's alt text: a badge's "Code Coverage" is no prose
    r"|</?[A-Za-z][\w-]*(?:\s[^<>\n]*)?/?>"  # an HTML tag in markdown: "<img src=...>"
    r"|:[a-z][\w-]*:(?=`)"  # a reStructuredText role, ":pep:`484`"
    r"|(?<![\w-])--?[A-Za-z][\w-]*"
    r"|\b[A-Za-z][\w+.-]*(?::|\[:\])//\S+"
    r"|\bwww\.\S+"
    r"|(?<![\w/])[~.]{0,2}/[\w.-]+/[\w./-]*"
)
_LIST_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_HEADING_RE = re.compile(r"^\s*#{1,6}\s+")
#: A letter or digit of a word, in any script, or a mark on one.
_WORD_CHAR = rf"(?:[^\W_]|{MARK})"
#: Words of every script ("José", "Müller", "Łódź", "Ærøskøbing", "Αθήνα"): a letter first
#: (``[^\W\d_]``), then letters, digits and marks, hyphens and apostrophes inside.
_TOKEN_RE = re.compile(
    r"(?:Dr|Prof|Mr|Mrs|Ms|Mx|Inc|Ltd|Corp|Co|St)\.(?=\s)"
    rf"|{UPPER}\.(?=\s+{UPPER})"
    rf"|[^\W\d_]{_WORD_CHAR}*(?:[-'’]{_WORD_CHAR}+)*"
    r"|v?\d+(?:\.\d+)*"
    r"|&"
)

#: A leading label: "Q:", "Raman:", "Dr. Priya Raman:" (up to three capitalised words).
_LABEL_RE = re.compile(
    rf"^(?:(?:Dr|Prof|Mr|Mrs|Ms|Mx)\.\s+)?{UPPER}[\w'’-]*(?:\s+{UPPER}[\w'’-]*){{0,2}}:\s+"
)
_FACT_WORD_RE = re.compile(r"[^\W_]+(?:[-'’.][^\W_]+)*")
#: A full sentence: a capital, digit or opening quote first, a sentence end last.
_FULL_SENTENCE_RE = re.compile(rf"^[\"'“‘(]?(?:{UPPER}|[0-9]).*[.!][\"'”’)]*$", re.DOTALL)


@dataclass
class Sentence:
    """One sentence of the source (or a heading), at ``position`` in source order."""

    text: str
    position: int
    heading: bool = False
    tokens: list[tuple[str, int, int]] = field(default_factory=list)  # (token, start, end)
    #: the sentence as quoted evidence (a speaker label off), or None: it states no fact
    fact: str | None = None
    #: characters of the speaker label taken off ``fact``: a name inside it is no mention
    label_end: int = 0


def split_sentences(text: str) -> list[Sentence]:
    """Sentences in source order; headings and list items are units of their own."""
    out: list[Sentence] = []
    text = unicodedata.normalize("NFC", text)  # "José" is one letter "é", however written
    for unit, heading in _units(text):
        pieces = [unit] if heading else _split_unit(unit)
        for piece in (part for whole in pieces for part in _bounded(whole)):
            piece = piece.strip()
            if piece and not _INJECTION_RE.search(piece):
                sentence = Sentence(piece, len(out), heading)
                sentence.tokens = _tokens(piece)
                out.append(sentence)
    return out


def mark_facts(sentences: list[Sentence]) -> None:
    """Set each sentence's ``fact``: what of it may be quoted as evidence on a page.

    Interview scaffolding is not a fact: a question, or an answer too short to state
    anything once its speaker label is off ("Raman: Downsampling.", "Q: Why Rust?"),
    gets none. A label is taken off only when it is a speaker's (it opens two or more
    sentences of the source, as "Q:" and "Raman:" do in a transcript) and what is left
    is a full sentence; a label used once ("Kestrel Cloud: It stores ...") stays, as
    the subject it names. A name inside a label taken off is not a mention of it for
    evidence: the speaker's page does not collect every answer she gave.
    """
    labels = Counter(m.group(0).strip() for s in sentences if (m := _LABEL_RE.match(s.text)))
    for sentence in sentences:
        text = sentence.text
        label = _LABEL_RE.match(text)
        rest = text[label.end() :] if label else text
        if (
            text.rstrip("\"'”’) ").endswith("?")
            or len(_FACT_WORD_RE.findall(rest)) < MIN_FACT_WORDS
        ):
            continue
        speaker = label is not None and labels[label.group(0).strip()] >= 2
        if speaker and label is not None and _FULL_SENTENCE_RE.match(rest):
            sentence.fact, sentence.label_end = rest, label.end()
        else:
            sentence.fact = text


def _tokens(text: str) -> list[tuple[str, int, int]]:
    """Word tokens with offsets, leaving out inline code, flags, URLs and paths (a command
    is not a name)."""
    code = [m.span() for m in _NOT_WORDS_RE.finditer(text)]
    return [
        (m.group(0), m.start(), m.end())
        for m in _TOKEN_RE.finditer(text)
        if not any(a <= m.start() < b for a, b in code)
    ]


def _units(text: str) -> Iterable[tuple[str, bool]]:
    """Paragraphs with wrapped lines joined; a heading, list item, title or field line
    stands alone.

    Fenced code, literal blocks (indented after "::"), shell prompt lines and table rows
    are left out: they are no sentences,
    and a table row's many terms would make it look central to the summary."""
    lines = text.split("\n")
    text = "\n".join(
        "" if fenced else line for line, fenced in zip(lines, fenced_lines(lines), strict=True)
    )
    text = _TABLE_ROW_RE.sub("", text)
    literal = False
    for para in re.split(r"\n\s*\n", text):
        # "For example::" opens a literal block: the indented paragraphs after it are code
        indented = all(ln[:1].isspace() for ln in para.splitlines() if ln.strip())
        if literal and indented:
            continue
        literal = para.rstrip().endswith("::") or bool(_CODE_DIRECTIVE_RE.search(para))
        current: list[str] = []
        lines, underlined = _prose_lines(para)
        for i, line in enumerate(lines):
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            if _HEADING_RE.match(line) or _FIELD_RE.match(line) or line in underlined:
                if current:
                    yield " ".join(current), False
                    current = []
                yield _HEADING_RE.sub("", line).strip("# "), True
                continue
            if _LIST_RE.match(line) and current:
                yield " ".join(current), False
                current = []
            # A short line that ends no sentence, followed by a capital, is a title line
            # (a PDF's heading, a text file's first line), not a wrapped sentence; after a
            # sentence's end it opens a section ("... a winter.\nStarter Kit\nMy notes").
            title = len(line) <= 80 and not re.search(r"[.!?:;,]$", line) and nxt[:1].isupper()
            if (
                title
                and current
                and not _LIST_RE.match(line)
                and re.search(r"[.!?:][\"'”’)]*$", current[-1])
                and len(line) <= 60
                and len(line.split()) <= 8
            ):
                yield " ".join(current), False
                yield line, True
                current = []
                continue
            current.append(_LIST_RE.sub("", line) if _LIST_RE.match(line) else line)
            if title and len(current) == 1:
                yield current[0], True
                current = []
        if current:
            # a one-line paragraph that ends no sentence is a title ("An interview with ...")
            lone = len(lines) == 1 and len(lines[0]) <= 100 and not re.search(r"[.!?]$", lines[0])
            yield " ".join(current), lone


def _prose_lines(para: str) -> tuple[list[str], set[str]]:
    """The paragraph's non-blank lines, stripped, without table rows and shell prompts, and
    the lines of them underlined as headings ("Postponed Ideas" over "=====")."""
    raw = [ln for ln in para.splitlines() if ln.strip()]
    underlined = {
        raw[k - 1].strip()
        for k, ln in enumerate(raw)
        if k and _ADORNMENT_RE.match(ln) and not _ADORNMENT_RE.match(raw[k - 1])
    }
    raw = [ln for ln in raw if not _ADORNMENT_RE.match(ln)]
    bare = [re.sub(r"`[^`\n]*`", "", ln).strip() for ln in raw]  # a pipe in code is no cell
    aligned = [bool(_ALIGNED_RE.search(ln)) for ln in bare]
    lines = [
        ln.strip()
        for k, ln in enumerate(raw)
        if not _CELLS_RE.search(bare[k])
        and not _SHELL_RE.match(ln)
        and not (aligned[k] and any(aligned[max(0, k - 1) : k] + aligned[k + 1 : k + 2]))
    ]
    return lines, underlined


def _bounded(text: str) -> list[str]:
    """A run-on "sentence" (no punctuation for pages) cut at spaces into quotable pieces."""
    pieces = []
    while len(text) > MAX_SENTENCE_CHARS:
        cut = text.rfind(" ", MAX_SENTENCE_CHARS // 2, MAX_SENTENCE_CHARS)
        cut = cut if cut > 0 else MAX_SENTENCE_CHARS
        pieces.append(text[:cut])
        text = text[cut:].lstrip()
    pieces.append(text)
    return pieces


def _split_unit(unit: str) -> list[str]:
    parts: list[str] = []
    start = 0
    for match in _SENTENCE_END_RE.finditer(unit):
        candidate = unit[start : match.start()]
        if _ABBREV_END_RE.search(candidate):
            continue  # "Dr. Raman", "P. Raman": not a sentence end
        parts.append(candidate)
        start = match.end()
    parts.append(unit[start:])
    return parts


def lowercase_counts(sentences: list[Sentence]) -> Counter[str]:
    """How often each word appears in lower case: a capitalised word that also appears
    lower case is a common word, not a name."""
    counts: Counter[str] = Counter()
    for s in sentences:
        for tok, _a, _b in s.tokens:
            if tok[:1].islower():
                counts[tok] += 1
    return counts


def evidence(
    positions: list[int], sentences: list[Sentence], score_of: dict[int, int]
) -> list[Evidence]:
    """The first mentions and the most central others, capped, in source order.

    Only sentences that state a fact (see :func:`mark_facts`), quoted as marked there.
    """
    body = [p for p in positions if not sentences[p].heading and sentences[p].fact]
    chosen = set(body[:2])
    for p in sorted(body, key=lambda p: score_of.get(p, len(score_of))):
        if len(chosen) >= MAX_EVIDENCE:
            break
        chosen.add(p)
    return [Evidence(sentences[p].fact or "", p) for p in sorted(chosen)]


def absorb(into: PlannedPage, page: PlannedPage, where: dict[str, set[int]]) -> None:
    """Make ``page`` a variant of ``into``: its names become aliases, its mentions, quotes
    (none twice, in source order) and sentences join, its description fills a blank one."""
    into.aliases = list(dict.fromkeys([*into.aliases, page.name, *page.aliases]))
    seen = {e.text for e in into.facts}
    extra = [e for e in page.facts if e.text not in seen]
    cap = max(len(into.facts), len(page.facts), MAX_EVIDENCE)
    into.facts = sorted([*into.facts, *extra], key=lambda e: e.position)[:cap]
    into.mentions += page.mentions
    into.description = into.description or page.description
    where[into.name] = where.get(into.name, set()) | where.pop(page.name, set())


__all__ = [
    "MAX_DESCRIPTION",
    "MAX_EVIDENCE",
    "MAX_SENTENCE_CHARS",
    "Sentence",
    "absorb",
    "evidence",
    "lowercase_counts",
    "mark_facts",
    "split_sentences",
]
