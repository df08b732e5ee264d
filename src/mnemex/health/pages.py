"""Page checks: empty pages, broken frontmatter, and an index out of step with the files.

These read the files themselves (a page's body, its first line, its mtime), so
they describe the vault as it is now, not as last indexed.
"""

from __future__ import annotations

import re

from mnemex.health.ids import Issue
from mnemex.health.scan import (
    ScanContext,
    body_of,
    has_unclosed_fence,
    is_page,
    register_checker,
    when_of,
)
from mnemex.vault import sha256_bytes
from mnemex.vault.markdown import split_frontmatter

_FILLER_RE = re.compile(
    r"^\s*(#{1,6}(\s.*)?|[-*+]\s*|>\s*|-{3,}|\*{3,}|_{3,}|\(none\)|<!--.*-->)\s*$"
)
_YAML_WARNINGS = ("malformed frontmatter", "frontmatter is not a mapping")


def is_empty_body(body: str) -> bool:
    """Nothing but headings, blank lines, empty bullets and rules: no content a reader gets."""
    return all(not line.strip() or _FILLER_RE.match(line) for line in body.split("\n"))


@register_checker("empty_pages", "no_content")
def empty_pages(ctx: ScanContext) -> list[Issue]:
    """Pages (wiki and the user's notes) whose body holds no content beyond headings."""
    issues = []
    for note in ctx.view.notes.values():
        if not is_page(note):
            continue
        text = ctx.body(note.path)
        if text is None or has_unclosed_fence(text):
            continue  # unreadable, or broken frontmatter: reported as that, not as empty
        if is_empty_body(body_of(text)):
            issues.append(
                Issue(
                    "empty_pages",
                    [note.path],
                    f"{note.title!r} has no content beyond its title and headings",
                    suggestion="delete it, or write what it should say",
                )
            )
    return issues


def _shape_problems(frontmatter: dict[str, object]) -> list[str]:
    problems = []
    for key in ("aliases", "tags", "sources"):
        if isinstance(frontmatter.get(key), dict):
            problems.append(f"{key} is a mapping, expected a list")
    if "type" in frontmatter and not isinstance(frontmatter["type"], str | None):
        problems.append("type is not a string")
    for key in ("created", "updated"):
        value = frontmatter.get(key)
        if value not in (None, "") and when_of(value) is None:
            problems.append(f"{key}: {str(value)[:40]!r} is not a date")
    return problems


_KEY_RE = re.compile(r"^([A-Za-z_][\w-]*)\s*:", re.MULTILINE)


def _text_problems(text: str) -> list[str]:
    """What the YAML parser lets pass but a reader would trip on."""
    if has_unclosed_fence(text):
        return ["the frontmatter fence (---) is never closed; read as body text"]
    fm_text = split_frontmatter(text)[0] or ""
    keys = _KEY_RE.findall(fm_text)
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        return [f"key {', '.join(twice)} appears twice (only the last one counts)"]
    return []


@register_checker("broken_frontmatter", "yaml")
def broken_frontmatter(ctx: ScanContext) -> list[Issue]:
    """Frontmatter that does not parse, is not a mapping, never closes, or has ill-typed keys."""
    issues = []
    for note in ctx.view.notes.values():
        if note.kind in ("foundations", "health") or note.folder == "sources":
            continue  # originals and foundations are kept byte for byte: not ours to judge
        problems = [w for w in note.warnings if w.startswith(_YAML_WARNINGS)]
        if not problems and is_page(note):
            text = ctx.body(note.path)
            if text is not None:
                problems = _text_problems(text)
        if not problems:
            problems = _shape_problems(note.frontmatter)
        if problems:
            issues.append(
                Issue(
                    "broken_frontmatter",
                    [note.path],
                    "; ".join(problems),
                    suggestion="fix the YAML between the --- lines by hand (see vault format §2)",
                )
            )
    return issues


@register_checker("index_drift", "files_vs_index")
def index_drift(ctx: ScanContext) -> list[Issue]:
    """Files the index lacks, has in another version, or still lists after they went."""
    notes = ctx.view.notes
    seen: set[str] = set()
    issues = []
    for entry in ctx.vault.iter_files():
        seen.add(entry.rel)
        note = notes.get(entry.rel)
        if note is None:
            if entry.rel in ctx.view.problems:
                continue  # left out on purpose (binary, too large, not UTF-8): doctor says so
            issues.append(_drift(entry.rel, "new", "is not in the index"))
            continue
        if note.mtime_ns == entry.mtime_ns and note.size == entry.size:
            continue
        try:
            with open(entry.path, "rb") as fh:
                digest = sha256_bytes(fh.read())
        except OSError:
            continue
        if digest != note.hash:
            issues.append(_drift(entry.rel, "changed", "changed since it was indexed"))
    for path in sorted(set(notes) - seen):
        issues.append(_drift(path, "gone", "is in the index but no longer in the vault"))
    return issues


def _drift(path: str, key: str, what: str) -> Issue:
    return Issue(
        "index_drift",
        [path],
        f"{path} {what}",
        suggestion="sync the index (`mnemex index`; fixing this issue does it)",
        data={"state": key},
    )


__all__ = ["broken_frontmatter", "empty_pages", "index_drift", "is_empty_body"]
