"""Chunking by structure, to a useful size.

A note is cut into blocks (paragraphs, list items with their continuation lines,
tables, fenced code blocks); headings open sections, and every chunk carries its
heading path (``Top > Sub``). Consecutive blocks of one section are packed together
up to :data:`TARGET_CHARS`, so a chunk holds a thought with its context (a lead-in
line with the list or code it introduces, a run of short bullets) rather than a
lone line; a chunk never spans two sections. A paragraph longer than the target is
split at sentences (then words) into pieces near the target. A table or code block
is kept whole up to :data:`MAX_CHARS`, and cut at line (then character) boundaries
past it.

How the target was chosen (``bench/peps_eval.py``; figures and commands for
``docs/benchmarks.md``): 83 paraphrase questions over the 27 typing PEPs, written before
tuning, each naming the section that answers it. Section hit@5 / MRR / snippet hit@5:

=================================  =====  =====  =====  =======  ============
chunker (PEP median characters)    hit@5  MRR    snip   chunks   past window
=================================  =====  =====  =====  =======  ============
one block per chunk (99)           0.819  0.589  0.771  4,741    0.3%
target 400 (337)                   0.819  0.539  0.711  2,078    0.002%
target 600 (474)                   0.795  0.541  0.699  1,570    0.3%
target 800 (599)                   0.795  0.585  0.699  1,259    2.4%
target 1000 (677)                  0.795  0.542  0.735  1,125    6.4%
=================================  =====  =====  =====  =======  ============

Note recall@5 rose from 0.970 to 0.988-0.994 at every target. The targets differ by
two questions of 83 on hit@5, with no trend, so the target is the smallest that meets
the other constraints: 400 keeps all but one PEP chunk inside MiniLM's 256 word pieces
(share of word pieces past the window above) and gives a median of 332 characters on
``bench/make_vault.py --notes 1000 --seed 7`` (4,350 chunks instead of 10,298 at median
93; the issue asks for 300-1,000). Tiny chunks still rank a section's best chunk a
little higher (MRR 0.589): more chunks, each with the heading path, are more draws.
LoCoMo (one note per turn) changes only in its 35 turns longer than the target.

:data:`MAX_CHARS` keeps what the embedder reads (title, heading path and chunk) inside
MiniLM's 256 word pieces for prose; dense code or markup can still pass it, and the
embedder reads such a text in windows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from mnemex.vault.markdown import atx_heading, fenced_lines

#: Blocks of one section are packed into a chunk up to this many characters.
TARGET_CHARS = 400
#: No chunk is longer than this (a table or code block is kept whole up to it).
MAX_CHARS = 1000
#: A chunk shorter than this takes the next block even past the target (up to
#: MAX_CHARS), so a lead-in line stays with the list or code it introduces, and a
#: section's last piece joins the one before it rather than standing alone.
MIN_CHARS = 200

_LIST_RE = re.compile(r"^(\s*)([-*+]|\d{1,9}[.)])\s+(\[[ xX]\]\s+)?")
_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])")


@dataclass(frozen=True)
class Chunk:
    """A piece of a note's body."""

    ord: int
    heading: str  # "Top > Sub", or "" before the first heading
    text: str
    line: int  # 1-based line in the file where the chunk starts


@dataclass(frozen=True)
class _Block:
    section: int  # counts headings: two sections with the same path stay apart
    heading: str
    text: str
    line: int


@dataclass
class _Packed:
    """A chunk being filled: blocks of one section."""

    section: int
    heading: str
    line: int
    texts: list[str]
    length: int = 0

    def __post_init__(self) -> None:
        self.length = len(self.texts[0])


def _split_sentences(text: str, size: int) -> list[str]:
    """``text`` in pieces of at most ``size`` characters, cut at sentences, then words."""
    if len(text) <= size:
        return [text]
    pieces: list[str] = []
    current = ""
    for sentence in _SENTENCE_END_RE.split(text):
        # One giant sentence: cut at word boundaries by position; slicing off the head
        # each time would copy the rest once per piece (quadratic on a huge line).
        start = 0
        while len(sentence) - start > size:
            cut = sentence.rfind(" ", start, start + size)
            cut = cut if cut - start > size // 2 else start + size
            head = sentence[start:cut].rstrip()
            start = cut
            while start < len(sentence) and sentence[start].isspace():
                start += 1
            if current:
                pieces.append(current)
                current = ""
            pieces.append(head)
        sentence = sentence[start:] if start else sentence
        if current and len(current) + 1 + len(sentence) > size:
            pieces.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}" if current else sentence
    if current:
        pieces.append(current)
    return pieces


def _split_lines(text: str, size: int) -> list[str]:
    """A code block or table past ``size`` characters, cut between lines (a long line anywhere)."""
    pieces: list[str] = []
    current: list[str] = []
    length = 0
    for line in text.split("\n"):
        while len(line) > size:
            if current:
                pieces.append("\n".join(current))
                current, length = [], 0
            pieces.append(line[:size])
            line = line[size:]
        if current and length + 1 + len(line) > size:
            pieces.append("\n".join(current))
            current, length = [], 0
        current.append(line)
        length += len(line) + (1 if length else 0)
    if current:
        pieces.append("\n".join(current))
    return pieces


def _join_lines(text: str) -> str:
    """Lines joined by one space, the spacing around each line break and blank lines gone."""
    return " ".join(part for part in (line.strip() for line in text.split("\n")) if part)


def _blocks(body: str, first_line: int) -> Iterator[_Block]:
    """Paragraphs, list items, tables and code blocks with their heading paths, in order."""
    headings: list[tuple[int, str]] = []
    block: list[str] = []
    block_line = first_line
    block_kind = "para"
    section = 0

    def flush() -> Iterator[_Block]:
        nonlocal block
        text = "\n".join(block).strip()
        block = []
        if not text:
            return
        heading = " > ".join(h for _, h in headings)
        if block_kind in ("code", "table"):
            # whole up to the cap: a table or code example split in two answers nothing
            pieces = [text] if len(text) <= MAX_CHARS else _split_lines(text, MAX_CHARS)
        else:
            # not re.sub(r"\s*\n\s*", " "): that pattern is quadratic in a run of spaces
            pieces = _split_sentences(_join_lines(text), TARGET_CHARS)
        for piece in pieces:
            yield _Block(section, heading, piece, block_line)

    lines = body.split("\n")
    fenced = fenced_lines(lines)  # the one fence rule links and tags are read by
    for offset, line in enumerate(lines):
        line_no = first_line + offset
        if fenced[offset]:
            if offset == 0 or not fenced[offset - 1]:
                yield from flush()
                block_kind, block_line = "code", line_no
            block.append(line)
            if offset + 1 == len(lines) or not fenced[offset + 1]:
                yield from flush()
            continue
        hm = atx_heading(line, empty=True) if line.startswith("#") else None
        if hm:
            yield from flush()
            level = hm[0]
            while headings and headings[-1][0] >= level:
                headings.pop()
            headings.append((level, hm[1].strip()))
            section += 1
            continue
        if not line.strip():
            if block_kind != "list":
                yield from flush()
            continue
        lm = _LIST_RE.match(line)
        if lm:
            yield from flush()
            block_kind, block_line = "list", line_no
            block.append(line[lm.end() :])
            continue
        is_table = line.lstrip().startswith("|")
        if block_kind == "list" and block:
            if line.startswith((" ", "\t")):
                block.append(line.strip())
                continue
            yield from flush()
        if not block:
            block_kind, block_line = ("table" if is_table else "para"), line_no
        block.append(line)
    yield from flush()


def chunk_body(body: str, first_line: int = 1) -> list[Chunk]:
    """Split a note body (frontmatter already removed) into chunks of one section each."""
    target, cap = TARGET_CHARS, MAX_CHARS
    least = min(MIN_CHARS, target // 2)
    packed: list[_Packed] = []
    for block in _blocks(body, first_line):
        last = packed[-1] if packed else None
        if last is not None and last.section == block.section:
            grown = last.length + 1 + len(block.text)
            # up to the target; a chunk still short of MIN_CHARS (a lead-in line) takes
            # the next block whole up to the cap rather than standing alone
            if grown <= target or (last.length < least and grown <= cap):
                last.texts.append(block.text)
                last.length = grown
                continue
        packed.append(_Packed(block.section, block.heading, block.line, [block.text]))
    merged: list[_Packed] = []
    for part in packed:
        last = merged[-1] if merged else None
        if (
            last is not None
            and last.section == part.section
            and part.length < least
            and last.length + 1 + part.length <= cap
        ):
            # a section's short last piece joins the chunk before it
            last.texts += part.texts
            last.length += 1 + part.length
            continue
        merged.append(part)
    return [
        Chunk(ord, part.heading, "\n".join(part.texts), part.line)
        for ord, part in enumerate(merged)
    ]


__all__ = ["MAX_CHARS", "TARGET_CHARS", "Chunk", "chunk_body"]
