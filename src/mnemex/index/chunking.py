"""Chunking by structure: one idea per chunk.

Headings open sections (each chunk knows its heading path); every list item is
its own chunk (with its continuation lines); paragraphs, tables and code blocks
are chunks; anything longer than :data:`MAX_CHARS` is split at sentence (then
word) boundaries. Retrieval works on single ideas, so a hit points at the bullet
that answered, not at a whole page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mnemex.vault.markdown import atx_heading

#: ~300 word pieces: under the default embedder's 256-piece window for most prose
#: once the heading context is added, and small enough to be one idea.
MAX_CHARS = 1200
#: Pieces shorter than this are merged into the previous chunk of the same section
#: when splitting a long paragraph, so no chunk is a lone fragment.
MIN_SPLIT_CHARS = 200

_LIST_RE = re.compile(r"^(\s*)([-*+]|\d{1,9}[.)])\s+(\[[ xX]\]\s+)?")
_FENCE_RE = re.compile(r"^\s*(```|~~~)")
_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])")


@dataclass(frozen=True)
class Chunk:
    """A piece of a note's body."""

    ord: int
    heading: str  # "Top > Sub", or "" before the first heading
    text: str
    line: int  # 1-based line in the file where the chunk starts


def _split_long(text: str, cap: int = MAX_CHARS) -> list[str]:
    if len(text) <= cap:
        return [text]
    pieces: list[str] = []
    current = ""
    for sentence in _SENTENCE_END_RE.split(text):
        # One giant sentence: cut at word boundaries by position; slicing off the head
        # each time would copy the rest once per piece (quadratic on a huge line).
        start = 0
        while len(sentence) - start > cap:
            cut = sentence.rfind(" ", start, start + cap)
            cut = cut if cut - start > cap // 2 else start + cap
            head = sentence[start:cut].rstrip()
            start = cut
            while start < len(sentence) and sentence[start].isspace():
                start += 1
            if current:
                pieces.append(current)
                current = ""
            pieces.append(head)
        sentence = sentence[start:] if start else sentence
        if current and len(current) + 1 + len(sentence) > cap:
            pieces.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}" if current else sentence
    if current:
        if (
            pieces
            and len(current) < MIN_SPLIT_CHARS
            and len(pieces[-1]) + len(current) < cap * 1.25
        ):
            pieces[-1] = f"{pieces[-1]} {current}"
        else:
            pieces.append(current)
    return pieces


def _join_lines(text: str) -> str:
    """Lines joined by one space, the spacing around each line break and blank lines gone."""
    return " ".join(part for part in (line.strip() for line in text.split("\n")) if part)


def chunk_body(body: str, first_line: int = 1) -> list[Chunk]:
    """Split a note body (frontmatter already removed) into chunks."""
    chunks: list[Chunk] = []
    headings: list[tuple[int, str]] = []
    block: list[str] = []
    block_line = first_line
    block_kind = "para"
    fence: str | None = None

    def heading_path() -> str:
        return " > ".join(h for _, h in headings)

    def flush() -> None:
        nonlocal block
        text = "\n".join(block).strip()
        block = []
        if not text:
            return
        if block_kind == "code":
            pieces = [text[i : i + MAX_CHARS] for i in range(0, len(text), MAX_CHARS)]
        else:
            # not re.sub(r"\s*\n\s*", " "): that pattern is quadratic in a run of spaces
            flat = text if block_kind == "table" else _join_lines(text)
            pieces = _split_long(flat)
        for piece in pieces:
            chunks.append(Chunk(len(chunks), heading_path(), piece, block_line))

    for offset, line in enumerate(body.split("\n")):
        line_no = first_line + offset
        if fence is not None:
            block.append(line)
            if _FENCE_RE.match(line) and line.strip().startswith(fence):
                fence = None
                flush()
            continue
        fm = _FENCE_RE.match(line)
        if fm:
            flush()
            fence, block_kind, block_line = fm.group(1), "code", line_no
            block.append(line)
            continue
        hm = atx_heading(line, empty=True) if line.startswith("#") else None
        if hm:
            flush()
            level = hm[0]
            while headings and headings[-1][0] >= level:
                headings.pop()
            headings.append((level, hm[1].strip()))
            continue
        if not line.strip():
            if block_kind != "list":
                flush()
            continue
        lm = _LIST_RE.match(line)
        if lm:
            flush()
            block_kind, block_line = "list", line_no
            block.append(line[lm.end() :])
            continue
        is_table = line.lstrip().startswith("|")
        if block_kind == "list" and block:
            if line.startswith((" ", "\t")):
                block.append(line.strip())
                continue
            flush()
        if not block:
            block_kind, block_line = ("table" if is_table else "para"), line_no
        block.append(line)
    flush()
    return chunks


__all__ = ["MAX_CHARS", "Chunk", "chunk_body"]
