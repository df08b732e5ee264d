"""The transcript archive: a redacted, gzip-compressed copy of each harvested session.

Agents delete old transcripts; a digest is small by design, so the session itself would be
gone. With ``[harvest] archive = true`` (or ``mnemex harvest --archive``) each digested
session's transcript is kept at ``.mnemex/transcripts/<harness>/<session-id>.<ext>.gz``:
machine-local and git-ignored like everything under ``.mnemex/`` (vault format §11), so it
is never synced. ``mnemex forget`` finds it by the session id in its file name.

Nothing unredacted is written. The redaction is the one digests use
(:func:`mnemex.text.redact.redact_text`), applied to what a reader sees: in a JSON Lines or JSON
transcript every string value is redacted after parsing (an escaped ``\\n`` or ``\\"`` in
the raw bytes would otherwise hide a secret from a pattern), and a record that held one is
written back as compact JSON; a line that does not parse, and any other text, is redacted
as text. Bytes that are not UTF-8 become U+FFFD. The result is gzip-compressed with
``mtime=0`` (the same session gives the same bytes), and ``transcripts/manifest.json``
records the transcript hash each archive was made from: an archive whose session did not
change is not rewritten.
"""

from __future__ import annotations

import gzip
import itertools
import json
import os
import re
from pathlib import Path
from typing import Any

from mnemex.harvest.readers import sha256_bytes
from mnemex.harvest.transcript import Session
from mnemex.text.redact import find_secrets, redact_text
from mnemex.vault import Vault
from mnemex.vault.vault import atomic_write

#: Under the vault's ``.mnemex/``; ``mnemex.memories.forget`` looks here too.
ARCHIVE_DIR = "transcripts"
MANIFEST = "manifest.json"
# A session id is kept as it is in the file name (``forget`` finds the archive by it: a Claude
# Code subagent's id holds a ``:``); only what no file name may hold is replaced, on Windows
# its reserved characters too.
_UNSAFE = re.compile(r'[\x00-\x1f/\\<>:"|?*]' if os.name == "nt" else r"[\x00-\x1f/\\]")
# Aider keeps many sessions in one file; each starts with this header (see readers/aider.py).
_AIDER_HEADER = re.compile(rb"^# aider chat started at ")


def archive_path(vault: Vault, session: Session) -> Path:
    """Where the archive of ``session`` goes (its id made safe for a file name)."""
    name = _UNSAFE.sub("_", session.id)[:200].lstrip(".") or "session"
    ext = session.source.suffix.lstrip(".") or "txt"
    return vault.local_dir / ARCHIVE_DIR / _UNSAFE.sub("_", session.harness) / f"{name}.{ext}.gz"


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    return []


def _redact_value(value: Any) -> Any:
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, list):
        return [_redact_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _redact_value(v) for k, v in value.items()}
    return value


def _redact_json_text(text: str) -> str | None:
    """``text`` with every JSON string redacted, or None when it is not JSON.

    Most records hold no secret: their strings are scanned together once, and a record with
    none is kept byte for byte. Only a record with a finding is rewritten, string by string,
    as compact JSON (scanning the strings together finds at least what scanning each finds).
    """
    try:
        doc = json.loads(text)
        if not find_secrets("\n".join(_strings(doc))):
            return text
        return json.dumps(_redact_value(doc), ensure_ascii=False, separators=(",", ":"))
    except (ValueError, RecursionError):  # not JSON, or nested too deep: redact it as text
        return None


def redact_transcript(data: bytes, suffix: str) -> str:
    """The transcript ``data`` (a file of type ``suffix``) with every secret redacted."""
    text = data.decode("utf-8", errors="replace")
    if suffix == ".jsonl":
        out = []
        for line in text.split("\n"):
            if not line.strip():
                out.append(line)
                continue
            redacted = _redact_json_text(line)
            out.append(redacted if redacted is not None else redact_text(line))
        return "\n".join(out)
    if suffix == ".json":
        redacted = _redact_json_text(text)
        if redacted is not None:
            return redacted + "\n"
    # plain text (Aider's markdown, a JSON file cut short): whole-text redaction also catches
    # a private key block spread over several lines
    return redact_text(text)


def _session_bytes(session: Session, data: bytes) -> bytes:
    """The part of ``data`` that holds ``session`` (a file may hold several: Aider)."""
    if session.source.name.endswith(".aider.chat.history.md"):
        lines = data.split(b"\n")
        starts = [i for i, line in enumerate(lines) if _AIDER_HEADER.match(line)]
        bounds = [*starts, len(lines)]
        for start, end in itertools.pairwise(bounds):
            chunk = b"\n".join(lines[start:end])
            if sha256_bytes(chunk) == session.content_sha256:
                return chunk
    return data


def _load_manifest(folder: Path) -> dict[str, str]:
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


class TranscriptArchive:
    """The archive of one harvest run; :meth:`save` at the end writes the manifest once."""

    def __init__(self, vault: Vault) -> None:
        self.vault = vault
        self.folder = vault.local_dir / ARCHIVE_DIR
        self.manifest = _load_manifest(self.folder)
        self.changed = False

    def has(self, session_key: str, sha256: str) -> bool:
        """Whether an archive made from transcript hash ``sha256`` exists under ``session_key``."""
        return self.manifest.get(session_key) == sha256 and (self.folder / session_key).is_file()

    def archive(self, session: Session) -> str:
        """Archive ``session``: ``created``, ``updated`` or ``unchanged``.

        Raises:
            OSError: the transcript cannot be read again or the archive cannot be written.
        """
        path = archive_path(self.vault, session)
        key = path.relative_to(self.folder).as_posix()
        if self.has(key, session.content_sha256):
            return "unchanged"
        data = _session_bytes(session, session.source.read_bytes())
        text = redact_transcript(data, session.source.suffix.lower())
        packed = gzip.compress(text.encode("utf-8"), mtime=0)
        existed = path.is_file()
        if existed and path.read_bytes() == packed:
            outcome = "unchanged"
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(path, packed, mode=0o600)  # a person's sessions: private, as before
            outcome = "updated" if existed else "created"
        self.manifest[key] = session.content_sha256
        self.changed = True
        return outcome

    def save(self) -> None:
        """Write the manifest if this run changed it."""
        if not self.changed:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        data = json.dumps(self.manifest, indent=1, sort_keys=True) + "\n"
        atomic_write(self.folder / MANIFEST, data.encode("utf-8"))


def read_archive(path: Path) -> str:
    """The text of an archived transcript."""
    return gzip.decompress(path.read_bytes()).decode("utf-8")


__all__ = [
    "ARCHIVE_DIR",
    "TranscriptArchive",
    "archive_path",
    "read_archive",
    "redact_transcript",
]
