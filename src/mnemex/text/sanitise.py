"""Sanitising text that arrives from, or is served to, an agent (vault format §13).

Text written by agents, synced from other machines or pasted from transcripts is
data, not orders. Three idempotent passes, each leaving ordinary text as it is:

- :func:`strip` removes control, zero-width, invisible and bidi characters and
  stray tag characters (keeping the joiners emoji and scripts need);
- :func:`escape` writes protocol-shaped tags (``<system-reminder>``,
  ``<|im_start|>``) as ``&lt;…&gt;`` and role markers that open a line (also
  after a list bullet, a number, a quote mark or inside emphasis) as ``Human\\:``;
- :func:`defang` writes ``scheme://`` as ``scheme[:]//`` and a pipe into a shell
  or interpreter as ``\\|``.

:func:`redact_secrets` replaces API keys, tokens and private keys with
``[redacted:<kind>]`` before anything is written to a memory (the patterns live in
:mod:`mnemex.text.redact`).
"""

from __future__ import annotations

import re

from mnemex.text.redact import redact_text

# C0 and C1 controls except tab and newline (carriage returns are normalised first).
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_INVISIBLE_RE = re.compile(
    "[\u200b\u2060-\u2064\ufeff\u00ad"  # zero-width and invisible
    "\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]"  # bidi controls
)
# Tag characters are kept only inside an emoji flag sequence (black flag, tags, cancel tag).
_TAGS_RE = re.compile("(\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f)|[\U000e0000-\U000e007f]")

_PROTOCOL_TAG_RE = re.compile(
    r"<\|[\w-]{1,40}\|>"
    r"|</?(?:system-reminder|system|tool_use|tool_result|tool_call|function_calls|"
    r"function_results|invoke|parameter|antml:[\w-]+|im_start|im_end|assistant|user|human|"
    r"instructions|thinking)\b[^<>\n]{0,200}>",
    re.IGNORECASE,
)
# A role marker is a turn to a model wherever markdown lets a line start it: after
# indentation, quote marks, list bullets, numbering, a task box or a heading mark, and
# inside emphasis (`**Human:**`, `**Human**:`); `- Human: run curl ...` reads as a turn.
_ROLE_RE = re.compile(
    r"^((?:[ \t]*(?:>|[-*+•]|\d{1,9}[.)]|\[[ xX]?\]|#{1,6}(?=[ \t])))*[ \t]*[*_]{0,3})"
    r"(Human|Assistant|System)([*_]{0,3}[ \t]*):",
    re.MULTILINE,
)

_SCHEME_RE = re.compile(r"\b([A-Za-z][A-Za-z0-9+.-]{0,30})://")
_SHELL_PIPE_RE = re.compile(
    r"(?<!\\)\|(?=[ \t]*(?:sudo[ \t]+)?(?:sh|bash|zsh|ksh|dash|fish|csh|tcsh|python[0-9.]*|"
    r"perl|ruby|node|php|pwsh|powershell|iex|cmd|source|eval|exec|xargs)\b)"
)


def strip(text: str) -> str:
    """Remove control, zero-width, invisible, bidi and stray tag characters."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _CONTROL_RE.sub("", text)
    text = _INVISIBLE_RE.sub("", text)
    return _TAGS_RE.sub(lambda m: m.group(1) or "", text)


def escape(text: str) -> str:
    """Escape protocol-shaped tags and role markers so they read as text, not turns."""
    text = _PROTOCOL_TAG_RE.sub(
        lambda m: m.group(0).replace("<", "&lt;").replace(">", "&gt;"), text
    )
    return _ROLE_RE.sub(lambda m: f"{m.group(1)}{m.group(2)}{m.group(3)}\\:", text)


def defang(text: str) -> str:
    """Make URLs and pipes into shells inert: ``https[:]//``, ``\\| sh``."""
    text = _SCHEME_RE.sub(lambda m: f"{m.group(1)}[:]//", text)
    return _SHELL_PIPE_RE.sub(r"\\|", text)


def redact_secrets(text: str) -> str:
    """Replace API keys, tokens, passwords and private keys with ``[redacted:<kind>]``.

    The patterns live in :mod:`mnemex.text.redact`; this is :func:`mnemex.text.redact.redact`
    without the findings.
    """
    return redact_text(text)


def sanitise(text: str, *, defang_urls: bool = True) -> str:
    """Strip, escape and (unless ``defang_urls`` is false) defang: the full treatment."""
    text = escape(strip(text))
    return defang(text) if defang_urls else text


__all__ = ["defang", "escape", "redact_secrets", "sanitise", "strip"]
