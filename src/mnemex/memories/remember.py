"""Remembered notes: a short explicit memory, one new file per ``remember`` (vault format §7).

``memories/<project>/<YYYY-MM>/<YYYY-MM-DD>-<slug>-<id>.md`` with ``type: memory``
and ``harness: mnemex``. The project is the caller's, or is derived from its
working directory (the git remote's name, else the folder's name). The text is
treated as state: secrets are redacted, then it is stripped, escaped and
defanged. Text already remembered in the project is ``unchanged``, not written twice.
"""

from __future__ import annotations

import datetime as dt
import re
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mnemex.brain import Brain
from mnemex.errors import FactError, VaultError
from mnemex.facts.record import learn_note
from mnemex.report import Report
from mnemex.text.dates import utc_iso
from mnemex.text.sanitise import redact_secrets, sanitise
from mnemex.vault import check_name, parse_note, render_note, slugify
from mnemex.vault.history import CommitResult, commit_change, recording
from mnemex.vault.projects import project_for_cwd

MAX_MEMORY_CHARS = 20_000
MAX_TITLE = 80
_SLUG_IN_NAME = 50


@dataclass
class Remembered:
    path: str
    outcome: str  # created | unchanged
    project: str
    domain: str
    title: str
    hash: str | None
    commit: CommitResult | None = None
    facts: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        report = Report()
        report.add(self.outcome, self.path)
        out: dict[str, Any] = {
            **report.counts(),
            "path": self.path,
            "project": self.project,
            "domain": self.domain,
            "title": self.title,
        }
        if self.commit is not None:
            out["commit"] = self.commit.to_dict()
        if self.facts is not None:
            out["facts"] = self.facts
        return out


def project_from_cwd(cwd: Path | None) -> str | None:
    """The project an agent's working directory belongs to: git remote name, else folder name.

    None for no folder, the filesystem root or the home folder (no project there). The same
    rule the transcript readers use, so `remember` and harvested digests agree.
    """
    if cwd is None:
        return None
    return project_for_cwd(str(cwd.expanduser().resolve()))


def _title(text: str) -> str:
    first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    first = first.lstrip("#>-*• ").strip()
    if len(first) <= MAX_TITLE:
        return first or "Remembered note"
    cut = first[: MAX_TITLE - 1].rsplit(" ", 1)[0]
    return (cut or first[: MAX_TITLE - 1]) + "…"


def _already_remembered(brain: Brain, project: str, slug: str, body: str) -> str | None:
    """The path of a remembered note of this project with exactly this body, if any."""
    folder = brain.vault.root / "memories" / project
    if not folder.is_dir():
        return None
    for path in folder.glob(f"*/*-{slug}-*.md"):
        try:
            parsed = parse_note(path.read_text(encoding="utf-8"), path.name)
        except (OSError, UnicodeDecodeError):
            continue
        if parsed.frontmatter.get("harness") == "mnemex" and parsed.body.strip() == body.strip():
            return path.relative_to(brain.vault.root).as_posix()
    return None


def remember(
    brain: Brain,
    text: str,
    *,
    project: str | None = None,
    domain: str | None = None,
    tags: list[str] | None = None,
    importance: float = 0.5,
    cwd: Path | None = None,
    client: str | None = None,
    session: str | None = None,
    now: dt.datetime | None = None,
    said_by_user: bool = False,
) -> Remembered:
    """Write a remembered note and commit it.

    Args:
        text: what to remember, in the agent's words (the first line is its title).
        project: the project it belongs to; default: derived from ``cwd``.
        domain: one of the vault's domains; default: the first.
        tags: tags to give it.
        importance: 0.0-1.0, how much it should weigh in recall.
        cwd: the caller's working directory, used when ``project`` is not given.
        client: the harness of the agent that asked (``claude-code``, ...).
        said_by_user: the text is the person's own words, relayed verbatim (``said_by:
            user``): the facts it states are the person's; otherwise they are the agent's.

    Raises:
        VaultError: no project could be determined, a name is not a slug, the
            domain is unknown, or the text is empty or too long.
    """
    text = text.strip()
    if not text:
        raise VaultError("text is empty: say what to remember")
    if len(text) > MAX_MEMORY_CHARS:
        raise VaultError(
            f"text is {len(text):,} characters; a remembered note holds at most "
            f"{MAX_MEMORY_CHARS:,}: remember the point, and put long material in a page"
        )
    if not 0.0 <= importance <= 1.0:
        raise VaultError(f"importance {importance} is outside 0.0-1.0")
    settings = brain.vault.settings
    if project is None:
        project = project_from_cwd(cwd)
        if project is None:
            raise VaultError(
                "no project: pass project (a slug such as 'mnemex'); it could not be derived "
                "from the working directory (no git remote, no project folder)"
            )
    check_name(project, "project")
    domain = domain or settings.domains[0]
    check_name(domain, "domain")
    if domain not in settings.domains:
        raise VaultError(
            f"unknown domain {domain!r}; the vault's domains are {', '.join(settings.domains)}"
        )
    clean_text = sanitise(redact_secrets(text))
    title = sanitise(_title(clean_text))
    clean_tags = list(
        dict.fromkeys(t for t in (sanitise(t.strip().lstrip("#")) for t in tags or []) if t)
    )
    for tag in clean_tags:
        if not re.fullmatch(r"[\w\-/]+", tag):
            raise VaultError(f"tag {tag!r} is not a tag: use letters, digits, '_', '-' and '/'")
    body = f"# {title}\n\n{clean_text}\n"
    slug = slugify(title, max_chars=_SLUG_IN_NAME)
    when = (now or dt.datetime.now(dt.UTC)).astimezone(dt.UTC)
    stamp = utc_iso(when)
    fm: dict[str, Any] = {"type": "memory", "title": title, "created": stamp, "updated": stamp}
    if clean_tags:
        fm["tags"] = clean_tags
    fm.update({"project": project, "domain": domain, "importance": float(importance)})
    fm["harness"] = "mnemex"
    if said_by_user:
        fm["said_by"] = "user"
    if session:
        fm["session"] = sanitise(session)
    if client:
        fm["client"] = sanitise(client)
    rel = f"memories/{project}/{when:%Y-%m}/{when:%Y-%m-%d}-{slug}-{secrets.token_hex(4)}.md"
    # check, write and commit under one lock: two sessions remembering the same thing make one note
    with recording(brain.vault):
        existing = _already_remembered(brain, project, slug, body)
        if existing is not None:
            return Remembered(existing, "unchanged", project, domain, title, None)
        outcome, digest = brain.vault.write_note(rel, render_note(fm, body), protected_ok=True)
        done = Remembered(rel, outcome, project, domain, title, digest)
        done.commit = commit_change(brain.vault, [rel], "remember", title)
    brain.sync()
    done.facts = _learn_facts(brain, rel, when)
    return done


def _learn_facts(brain: Brain, rel: str, when: dt.datetime) -> dict[str, Any]:
    """The facts a remembered note states, recorded under the fact rule (their own commit).

    A fact file that cannot be read refuses the facts, not the memory: the note is kept
    and the reason is returned.
    """
    try:
        learned = learn_note(brain, rel, now=when)
    except FactError as exc:
        return {"refused": 1, "reason": str(exc)}
    return learned.to_dict()


__all__ = ["MAX_MEMORY_CHARS", "Remembered", "project_from_cwd", "remember"]
