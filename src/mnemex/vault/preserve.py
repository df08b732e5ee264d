"""What a rewrite keeps of a file it does not own: the style of its bytes, and its links' text.

mnemex edits text with ``\\n`` line endings and no byte-order mark, but a person's
note may use ``\\r\\n``, start with a BOM, or end without a newline. A rewrite reads
the note, edits :func:`plain` text, and writes :func:`restyle` of the result: the
BOM and the absence of a final newline come back, every line the edit left alone
keeps its bytes exactly (its own ending too, in a file that mixes endings), and
each line the edit made takes the file's most common ending (vault format §2).

A re-pointed wikilink keeps what the reader sees (:func:`retarget`): Obsidian
shows an unaliased ``[[target#heading]]`` as ``target > heading``, so when the
written target changes, that text becomes the link's alias. An alias already
there, an embed (``![[x]]``: an alias would be a size or a caption) and a
markdown link's ``[text]`` are kept as written.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any

import yaml

from mnemex.vault.markdown import LinkSpan, split_frontmatter

BOM = "\ufeff"

# A table's delimiter row (`| --- | :-: |`); a `|` inside a row's link must be escaped
_DELIMITER_RE = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")


@dataclass(frozen=True)
class TextStyle:
    """How a file's text is written: BOM, line ending, and whether it ends with one."""

    bom: bool = False
    newline: str = "\n"  # the most common ending of its lines: "\n" or "\r\n"
    final_newline: bool | None = True  # None: an empty file, which says nothing either way


def text_style(text: str) -> TextStyle:
    """The style of ``text`` as read from a file (a BOM is ``\\ufeff`` at its start)."""
    body = text[1:] if text.startswith(BOM) else text
    crlf = body.count("\r\n")
    lf = body.count("\n") - crlf
    return TextStyle(
        bom=text.startswith(BOM),
        newline="\r\n" if crlf > lf else "\n",
        final_newline=body.endswith("\n") if body else None,
    )


def plain(text: str) -> str:
    """``text`` as mnemex edits it: no BOM, ``\\n`` line endings."""
    body = text[1:] if text.startswith(BOM) else text
    return body.replace("\r\n", "\n")


def _lines(body: str) -> tuple[list[str], list[str]]:
    """A body's lines (split on ``\\n`` only) and each one's ending (``""`` for an unended last)."""
    contents: list[str] = []
    endings: list[str] = []
    pieces = body.split("\n")
    last = pieces.pop()  # what follows the last "\n": an unended line, or nothing
    for line in pieces:
        crlf = line.endswith("\r")
        contents.append(line[:-1] if crlf else line)
        endings.append("\r\n" if crlf else "\n")
    if last:
        contents.append(last)
        endings.append("")
    return contents, endings


def restyle(original: str, edited: str) -> str:
    """``edited`` (plain text, see :func:`plain`) written in the style of ``original``.

    Lines of ``original`` the edit kept are written with their original bytes; new
    lines take the file's most common ending; the BOM is kept; a file that ended
    without a newline still does (an append goes after its last line, which then
    gets an ending, and the appended text has none at the very end).
    """
    style = text_style(original)
    body = original[1:] if style.bom else original
    head = BOM if style.bom else ""
    if style.final_newline is None:
        return head + edited.replace("\n", style.newline)
    old, old_endings = _lines(body)
    if len(set(old_endings) - {""}) <= 1:
        out = edited.replace("\n", style.newline)
    else:  # a file that mixes endings: keep each kept line's own
        new, _ = _lines(edited)
        parts: list[str] = []
        matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op == "equal":
                for k in range(i2 - i1):
                    parts.append(old[i1 + k] + (old_endings[i1 + k] or style.newline))
            else:
                parts.extend(line + style.newline for line in new[j1:j2])
        out = "".join(parts)
    if style.final_newline:
        if out and not out.endswith("\n"):
            out += style.newline
    else:
        for ending in ("\r\n", "\n"):
            if out.endswith(ending):
                out = out[: -len(ending)]
                break
    return head + out


def _value_lines(key: str, value: Any, flow: bool) -> list[str]:
    """``key: value`` as YAML lines: a list or mapping in flow style (``[a, b]``) when
    ``flow``, else as YAML writes it (a list as ``- item`` lines)."""
    if flow and isinstance(value, (list, dict)):
        inline = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=1000)
        return [f"{key}: {inline.strip()}"]
    dumped = yaml.safe_dump({key: value}, allow_unicode=True, width=1000)
    return dumped.rstrip("\n").split("\n")


def set_frontmatter_key(text: str, key: str, value: Any) -> str | None:
    """``text`` (plain) with the top-level frontmatter ``key`` set to ``value``, changing
    that key's lines only (or adding it last), so comments, quoting and the style of every
    other key stay. A list keeps the style it had: flow (``tags: [a, b]``) stays flow,
    ``- item`` lines stay lines; a new key is written as YAML writes it.

    Broken YAML is not repaired: the text comes back as it was. None when the key is
    written twice or the edit would not read back as meant (the caller then renders the
    frontmatter whole). A text without frontmatter comes back as is.
    """
    fm_text, _, _ = split_frontmatter(text)
    if fm_text is None:
        return text
    try:
        old = yaml.safe_load(fm_text)
    except yaml.YAMLError:
        return text
    if old is not None and not isinstance(old, dict):
        return text
    lines = fm_text.split("\n")
    found = [i for i, ln in enumerate(lines) if re.match(rf"{re.escape(key)}\s*:", ln)]
    if len(found) > 1:
        return None
    if found:
        i = end = found[0]
        while end + 1 < len(lines) and lines[end + 1][:1] in (" ", "\t", "-"):
            end += 1  # a block value continues below
        written_inline = end == i and lines[i].split(":", 1)[1].strip() != ""
        new_lines = _value_lines(key, value, flow=written_inline)
        if end > i and isinstance(value, list):  # list items keep their indentation
            indent = lines[i + 1][: len(lines[i + 1]) - len(lines[i + 1].lstrip(" \t"))]
            new_lines = [new_lines[0], *(indent + ln for ln in new_lines[1:])]
        lines[i : end + 1] = new_lines
    else:
        at = len(lines) - 1 if lines[-1] == "" else len(lines)
        lines[at:at] = _value_lines(key, value, flow=False)
    new_fm = "\n".join(lines)
    try:
        if yaml.safe_load(new_fm) != {**(old or {}), key: value}:
            return None
    except yaml.YAMLError:
        return None
    start = text.find("\n") + 1
    return text[:start] + new_fm + text[start + len(fm_text) :]


def table_rows(lines: list[str]) -> set[int]:
    """The indexes of ``lines`` that are rows of a markdown table (header and body)."""
    rows: set[int] = set()
    for i, line in enumerate(lines):
        if "|" not in line or "-" not in line or not _DELIMITER_RE.match(line):
            continue
        if i > 0 and "|" in lines[i - 1]:
            rows.add(i - 1)
        rows.add(i)
        j = i + 1
        while j < len(lines) and lines[j].strip() and "|" in lines[j]:
            rows.add(j)
            j += 1
    return rows


def link_display(inner: str) -> str:
    """What Obsidian shows for ``[[inner]]``: the alias, else ``target > heading > ...``."""
    target, bar, alias = inner.partition("|")
    if bar and alias.strip():
        return alias.strip()
    return " > ".join(part.strip() for part in target.split("#") if part.strip())


def retarget(line: str, span: LinkSpan, target: str, *, in_table: bool = False) -> str:
    """``line`` with the link at ``span`` pointing at ``target``, showing the same text.

    ``target`` is a wikilink target, or for a markdown link the path as it is to be
    written. A wikilink without an alias whose written target changes gets the text
    it showed as its alias (``[[formulas]]`` -> ``[[Formulas|formulas]]``), with the
    ``|`` escaped inside a table row.
    """
    end = span.end
    if not span.markdown and line[span.start : end].endswith("\\") and line[end : end + 1] == "|":
        end -= 1  # `[[x\|alias]]` in a table: the backslash escapes the bar, it is no target
    written = line[span.start : end]
    rest = line[end:]
    close = rest.find("]]")
    if span.markdown or span.link.embed or close < 0 or written == target:
        return line[: span.start] + target + rest
    inner = written + rest[:close]
    if "|" in inner:
        return line[: span.start] + target + rest  # its alias is what it shows, and stays
    shown = link_display(inner)
    bar = "\\|" if in_table else "|"
    return line[: span.start] + target + rest[:close] + bar + shown + rest[close:]


__all__ = [
    "BOM",
    "TextStyle",
    "link_display",
    "plain",
    "restyle",
    "retarget",
    "set_frontmatter_key",
    "table_rows",
    "text_style",
]
