"""Secret redaction: the one place secret patterns live (vault format §13).

:func:`redact` replaces API keys, tokens, passwords, private keys, credentials in
connection strings and ``.env``-style values with ``[redacted:<kind>]`` before
anything is written. It is idempotent, never raises, and leaves ordinary text
(prose, code, URLs without credentials, git ids, sha256 digests, UUIDs) alone:
a generic high-entropy string is redacted only next to a key name that says
it is a secret.

:func:`scan_vault_history` looks for the same patterns in a vault's tracked files
and in its git history, and reports where they are without the secret itself.
"""

from __future__ import annotations

import bisect
import contextlib
import math
import re
import subprocess
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Finding:
    """A secret found in a text: its kind and where it was (offsets into the input)."""

    kind: str
    start: int
    end: int


MARKER = "[redacted:{kind}]"
_NOT_MARKER = r"(?!\[redacted:)"

# (kind, pattern): the secret is the named group ``s`` when there is one, else the match.
_TOKEN_PATTERNS: tuple[tuple[str, str], ...] = (
    (
        "private-key",
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?"
        r"(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
    ),
    ("jwt", r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    # OpenAI (sk-…, sk-proj-…), Anthropic (sk-ant-…) and similar sk- keys.
    ("api-key", r"(?<![\w-])sk-(?:ant-|proj-|svcacct-|live-|test-)?[A-Za-z0-9_-]{20,}"),
    ("stripe-key", r"(?<![\w-])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"),
    ("aws-key", r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])"),
    (
        "github-token",
        r"(?<![\w-])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})",
    ),
    ("gitlab-token", r"(?<![\w-])glpat-[A-Za-z0-9_-]{20,}"),
    ("slack-token", r"(?<![\w-])xox[abprs]-[A-Za-z0-9-]{10,}"),
    ("google-api-key", r"(?<![\w-])AIza[0-9A-Za-z_-]{35}(?![\w-])"),
    ("huggingface-token", r"(?<![\w-])hf_[A-Za-z0-9]{30,}(?![\w-])"),
    ("npm-token", r"(?<![\w-])npm_[A-Za-z0-9]{36}(?![\w-])"),
    (
        "aws-secret",
        r"(?i)\baws_?secret_?access_?key[\"']?[ \t]*[:=]+[ \t]*[\"']?"
        rf"{_NOT_MARKER}(?P<s>[A-Za-z0-9/+=]{{30,}})",
    ),
    (
        "token",
        r"(?i)\bauthorization[\"']?[ \t]*[:=][ \t]*[\"']?(?:bearer|basic|token|bot)[ \t]+"
        rf"{_NOT_MARKER}(?P<s>[A-Za-z0-9._~+/=-]{{8,}})",
    ),
    ("token", rf"(?i)\bbearer[ \t]+{_NOT_MARKER}(?P<s>[A-Za-z0-9._~+/=-]{{16,}})"),
)

_DB_SCHEMES = frozenset(
    {
        "postgres",
        "postgresql",
        "mysql",
        "mariadb",
        "mongodb",
        "mongodb+srv",
        "redis",
        "rediss",
        "amqp",
        "amqps",
        "mssql",
        "sqlserver",
        "oracle",
        "clickhouse",
        "cockroachdb",
    }
)
# scheme://user:password@host (also the defanged ``scheme[:]//``); the password is the secret.
_URL_CREDENTIALS_RE = re.compile(
    r"(?<![A-Za-z0-9+.-])(?P<scheme>[A-Za-z][A-Za-z0-9+.-]{0,30})(?:://|\[:\]//)"
    rf"[^\s:/@\[\]]*:{_NOT_MARKER}(?P<s>[^\s@/]+)@(?=[^\s@])"
)

_SECRET_WORDS = frozenset(
    {
        "password",
        "passwd",
        "pwd",
        "pass",
        "passphrase",
        "secret",
        "secrets",
        "credential",
        "credentials",
    }
)
_KEY_WORDS = frozenset({"key", "token", "auth", "apikey", "authtoken", "accesstoken"})
# The old ``redact_secrets`` names: redacted whenever the value is six characters or more.
_PLAIN_KEYS = frozenset({"token", "apikey", "accesstoken", "authtoken"})
_ENV_WORDS = _SECRET_WORDS | _KEY_WORDS | {"private", "tokens", "keys"}

# .env-style: a line ``[export ]UPPER_NAME=value``.
_ENV_RE = re.compile(
    r"(?m)^[ \t]*(?:export[ \t]+)?(?P<key>[A-Z][A-Z0-9_]*)[ \t]*=[ \t]*"
    rf"{_NOT_MARKER}(?P<s>[^\s#][^\n]*?)[ \t]*$"
)
# An assignment ``name: value``, ``name = value``, ``"name": "value"``; the name decides.
_ASSIGN_RE = re.compile(
    r"(?<![\w.-])(?P<key>[A-Za-z][A-Za-z0-9_.-]{0,60})[\"']?[ \t]*(?::=|=>|[:=])[ \t]*"
    rf"(?P<q>[\"']?){_NOT_MARKER}(?P<s>[^\s\"'`,;<>\[\]{{}}()]{{6,}})"
)
_SPLIT_RE = re.compile(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])")
_HEX_DIGEST_RE = re.compile(r"(?:[0-9a-f]{40}|[0-9a-f]{64}|[0-9A-F]{40}|[0-9A-F]{64})")
_UUID_RE = re.compile(r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}")
_GENERIC_VALUE_RE = re.compile(r"[A-Za-z0-9+/=_.~-]{16,}")

_COMPILED: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern)) for kind, pattern in _TOKEN_PATTERNS
)


def _words(key: str) -> tuple[set[str], str]:
    parts = {p.lower() for p in _SPLIT_RE.split(key) if p}
    return parts, re.sub(r"[^a-z0-9]", "", key.lower())


def _entropy(value: str) -> float:
    counts = Counter(value)
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _looks_random(value: str) -> bool:
    """A generic secret: long, letters and digits mixed, not a digest or UUID."""
    if not _GENERIC_VALUE_RE.fullmatch(value):
        return False
    if _HEX_DIGEST_RE.fullmatch(value) or _UUID_RE.fullmatch(value):
        return False
    if not (any(c.isdigit() for c in value) and any(c.isalpha() for c in value)):
        return False
    return _entropy(value) >= 3.0


def _assignment_kind(match: re.Match[str]) -> str | None:
    parts, joined = _words(match.group("key"))
    value = match.group("s")
    if parts & _SECRET_WORDS or any(w in joined for w in ("password", "passwd", "secret")):
        return "secret"
    if joined in _PLAIN_KEYS:
        return "secret"
    if (parts & _KEY_WORDS or joined.endswith(("apikey", "token", "accesskey"))) and _looks_random(
        value
    ):
        return "secret"
    return None


def _env_kind(match: re.Match[str]) -> str | None:
    parts, joined = _words(match.group("key"))
    if parts & _ENV_WORDS or any(w in joined for w in ("password", "passwd", "secret", "token")):
        value = match.group("s").strip("\"'")
        return "env-secret" if value and not value.startswith("[redacted:") else None
    return None


def _candidates(text: str) -> Iterator[tuple[str, int, int]]:
    """Every secret span, in priority order (earlier wins an overlap)."""
    for kind, pattern in _COMPILED:
        for m in pattern.finditer(text):
            group = "s" if "s" in pattern.groupindex else 0
            yield kind, m.start(group), m.end(group)
    for m in _URL_CREDENTIALS_RE.finditer(text):
        scheme = m.group("scheme").lower()
        kind = "connection-string" if scheme in _DB_SCHEMES else "password"
        yield kind, m.start("s"), m.end("s")
    if "=" in text:
        for m in _ENV_RE.finditer(text):
            env_kind = _env_kind(m)
            if env_kind:
                yield env_kind, m.start("s"), m.end("s")
    for m in _ASSIGN_RE.finditer(text):
        assign_kind = _assignment_kind(m)
        if assign_kind:
            yield assign_kind, m.start("s"), m.end("s")


def find_secrets(text: str) -> list[Finding]:
    """The secrets in ``text``, without overlaps, in order of position. Never raises."""
    try:
        # Accepted spans never overlap, so sorted by start they are sorted by end too:
        # only the span starting just before ``end`` can overlap a new one.
        starts: list[int] = []
        taken: list[Finding] = []
        for kind, start, end in _candidates(text):
            if end <= start:
                continue
            i = bisect.bisect_left(starts, end)
            if i and taken[i - 1].end > start:
                continue
            starts.insert(i, start)
            taken.insert(i, Finding(kind, start, end))
        return taken
    except Exception:  # redaction must never stop a write
        return []


def redact(text: str) -> tuple[str, list[Finding]]:
    """Replace every secret with ``[redacted:<kind>]``; return the text and what was found.

    Offsets in the findings refer to the input text. Idempotent; never raises.
    """
    if not isinstance(text, str) or not text:
        return text, []
    findings = find_secrets(text)
    if not findings:
        return text, []
    out: list[str] = []
    pos = 0
    for f in findings:
        out.append(text[pos : f.start])
        out.append(MARKER.format(kind=f.kind))
        pos = f.end
    out.append(text[pos:])
    return "".join(out), findings


def redact_text(text: str) -> str:
    """:func:`redact` without the findings."""
    return redact(text)[0]


# -- the vault and its history ------------------------------------------------------

PURGE_RECIPE = (
    "A secret committed to git stays in the history after the file is changed. To purge it: "
    "rotate the secret first (treat it as leaked); then rewrite the history with "
    "`git filter-repo --replace-text <(echo 'THE-SECRET==>[redacted]')` "
    "(or `bfg --replace-text secrets.txt` followed by "
    "`git reflog expire --expire=now --all && git gc --prune=now --aggressive`); "
    "then `git push --force --all` (and `--tags`) to every remote, and have every other "
    "clone re-clone, since an old clone still holds the secret."
)

_MAX_FILE_BYTES = 2_000_000


def _git(root: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        ["git", "-c", "core.quotepath=off", *args],
        cwd=root,
        capture_output=True,
        timeout=timeout,
        check=False,
    )


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _scan_text(text: str, path: str, commit: str | None) -> list[dict[str, Any]]:
    return [
        {"kind": f.kind, "path": path, "commit": commit, "line": _line_of(text, f.start)}
        for f in find_secrets(text)
    ]


def _tracked_files(root: Path) -> list[str] | None:
    done = _git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    if done.returncode != 0:
        return None
    return sorted({p for p in done.stdout.decode("utf-8", "replace").split("\0") if p})


def _scan_working_tree(root: Path, rels: list[str]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for rel in rels:
        path = root / rel
        try:
            if not path.is_file() or path.stat().st_size > _MAX_FILE_BYTES:
                continue
            data = path.read_bytes()
        except OSError:
            continue
        if b"\0" in data[:8192]:
            continue  # binary
        found += _scan_text(data.decode("utf-8", "replace"), rel, None)
    return found


_HUNK_RE = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@")


def _scan_history(root: Path, max_commits: int) -> list[dict[str, Any]]:
    """Added lines of every commit on every ref (newest first, at most ``max_commits``)."""
    done = _git(
        root,
        "log",
        "--all",
        "-p",
        "-U0",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        "--no-renames",
        f"--max-count={max_commits}",
        "--format=%x00commit %h",
        timeout=300,
    )
    if done.returncode != 0:
        return []
    found: list[dict[str, Any]] = []
    commit = ""
    path = ""
    line_no = 0
    for raw in done.stdout.decode("utf-8", "replace").split("\n"):
        if raw.startswith("\0commit "):
            commit, path, line_no = raw[len("\0commit ") :].strip(), "", 0
        elif raw.startswith("+++ "):
            target = raw[4:]
            path = target[2:] if target.startswith("b/") else ""
        elif raw.startswith("@@"):
            m = _HUNK_RE.match(raw)
            line_no = int(m.group(1)) if m else 0
        elif raw.startswith("+") and path:
            for f in find_secrets(raw[1:]):
                found.append({"kind": f.kind, "path": path, "commit": commit, "line": line_no})
            line_no += 1
    # A private key spans lines: the line-by-line pass reports its header line.
    return found


def scan_vault_history(vault_root: Path | str, max_commits: int = 10_000) -> list[dict[str, Any]]:
    """Secrets in the vault's tracked files and its git history; never the secret itself.

    Each finding is ``{kind, path, commit, line}``: ``commit`` is the short sha that
    added the line, or ``None`` for the working tree (tracked files and files not yet
    added that git does not ignore). A vault without git is scanned
    file by file (not ``.git`` or ``.mnemex``).
    """
    root = Path(vault_root)
    try:
        rels = _tracked_files(root)
    except (OSError, subprocess.SubprocessError):
        rels = None
    if rels is None:
        rels = [
            p.relative_to(root).as_posix()
            for p in sorted(root.rglob("*"))
            if p.is_file() and not {".git", ".mnemex"} & set(p.relative_to(root).parts)
        ]
        return _scan_working_tree(root, rels)
    found = _scan_working_tree(root, rels)
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        found += _scan_history(root, max_commits)
    unique: dict[tuple[Any, ...], dict[str, Any]] = {}
    for item in found:
        unique.setdefault((item["kind"], item["path"], item["commit"], item["line"]), item)
    return list(unique.values())


__all__ = [
    "MARKER",
    "PURGE_RECIPE",
    "Finding",
    "find_secrets",
    "redact",
    "redact_text",
    "scan_vault_history",
]
