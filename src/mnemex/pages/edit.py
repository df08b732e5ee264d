"""The generic page operations: write, append, move (re-pointing links), delete (with a plan).

They write knowledge pages (``wiki/``) and the user's own notes only; the kind
folders (``foundations/``, ``state/``, ``memories/``, ``facts/``, ``health/``),
``.mnemex/`` and a team's mirror (``wiki/shared-<team>/``) are refused by
:meth:`Vault.write_note`, and every path is checked to stay inside the vault.
Each applied change is one git commit naming the
operation (:mod:`mnemex.vault.history`), and the index is synced afterwards so the
next read sees it.

- :func:`write_page` creates a page, or replaces one when given the ``hash`` the
  caller read, so a concurrent edit is a :class:`~mnemex.errors.WriteConflict`,
  never a silent overwrite.
- :func:`append_to_page` adds to the end of a page or of one section; appends
  commute, so a concurrent change is re-read and the append retried.
- :func:`move_page` re-points every link to the page, and any link the move
  would capture or break (Obsidian resolves a name to the shortest path), in
  every note of the vault.
- :func:`delete_page` returns a plan naming the links that will break, and
  deletes only when given its ``plan_id``.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from mnemex.brain import Brain
from mnemex.errors import NoteNotFound, PageExists, VaultError, WriteConflict
from mnemex.report import Report
from mnemex.text.dates import utc_iso
from mnemex.text.sanitise import escape, strip
from mnemex.vault import (
    LinkResolver,
    parse_note,
    placement,
    plain,
    render_note,
    restyle,
    retarget,
    table_rows,
)
from mnemex.vault.history import CommitResult, before_change, commit_change, recording
from mnemex.vault.layout import mirror_team
from mnemex.vault.markdown import atx_heading, link_spans, split_frontmatter
from mnemex.vault.plans import create_plan, discard_plan, take_plan
from mnemex.vault.preserve import BOM, set_frontmatter_key

#: A page is a page, not a data dump; larger content should be split into several pages.
MAX_PAGE_CHARS = 200_000

#: Frontmatter keys in the order writers emit them (vault format §2, §4).
KEY_ORDER = ("type", "title", "entity_type", "aliases", "tags", "created", "updated", "sources")

_TYPE_BY_FOLDER = {"entities": "entity", "concepts": "concept", "summaries": "summary"}
_LISTED = 50  # how many files and links a plan lists by name


@dataclass
class PageChange:
    """What a page operation did: the counts, the files, the commit."""

    operation: str
    report: Report = field(default_factory=Report)
    paths: list[str] = field(default_factory=list)
    hash: str | None = None
    commit: CommitResult | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"operation": self.operation, **self.report.to_dict()}
        if not out["problems"]:
            del out["problems"]
        if not out["warnings"]:
            del out["warnings"]
        out["paths"] = self.paths
        if self.hash is not None:
            out["hash"] = self.hash
        if self.commit is not None:
            out["commit"] = self.commit.to_dict()
        out.update(self.extra)
        return out


#: The trailer of a commit an agent made to pages (its words are never evidence about the
#: person; the note itself is left as the person wrote it).
AGENT_TRAILER = "Mnemex-Provenance: agent"


def _commit(brain: Brain, change: PageChange, summary: str, by_agent: bool = False) -> PageChange:
    """Commit what ``change`` did (call it under :func:`recording`, with the write)."""
    if change.report.changed:
        trailers = (AGENT_TRAILER,) if by_agent else ()
        change.commit = commit_change(
            brain.vault, change.paths, change.operation, summary, trailers
        )
    return change


def _synced(brain: Brain, change: PageChange) -> PageChange:
    if change.commit is not None or change.report.changed:
        brain.sync()  # the next read, by any process, sees the change
    return change


def _writable_path(brain: Brain, path: str) -> str:
    clean = brain.vault.rel_path(path)
    brain.vault.check_writable(clean)
    return clean


def _check_size(content: str) -> None:
    if len(content) > MAX_PAGE_CHARS:
        raise VaultError(
            f"content is {len(content):,} characters; a page holds at most {MAX_PAGE_CHARS:,}: "
            "split it into several pages and link them"
        )


def _clean_for(rel: str, text: str) -> str:
    """Knowledge pages are stripped and escaped on the way in (URLs stay: references)."""
    return escape(strip(text)) if placement(rel).kind == "knowledge" else text


def _ordered(frontmatter: dict[str, Any]) -> dict[str, Any]:
    head = {k: frontmatter[k] for k in KEY_ORDER if k in frontmatter}
    return {**head, **{k: v for k, v in frontmatter.items() if k not in head}}


def _default_type(rel: str) -> str:
    parts = PurePosixPath(rel).parts
    if parts[0] == "wiki" and len(parts) > 3:
        return _TYPE_BY_FOLDER.get(parts[2], "note")
    return "note"


def _new_page_text(rel: str, content: str, by_agent: bool = False) -> str:
    parsed = parse_note(content, rel)
    stamp = utc_iso()
    fm: dict[str, Any] = dict(parsed.frontmatter)
    if by_agent:  # whose words these are: never evidence about the person (facts)
        fm["provenance"] = "agent"
    fm.setdefault("type", _default_type(rel))
    fm.setdefault("title", parsed.title)
    fm.setdefault("created", stamp)
    fm["updated"] = stamp
    if fm["type"] in ("entity", "concept") and placement(rel).kind == "knowledge":
        fm.setdefault("sources", [])
    body = parsed.body if parsed.frontmatter else content
    return _ending(render_note(_ordered(fm), body))


def _ending(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def _updated_page_text(old_text: str, content: str, rel: str) -> str:
    """The new text of an existing page: frontmatter kept unless the content brings its own."""
    old = parse_note(old_text, rel)
    new = parse_note(content, rel)
    old_fm_text, old_body, _ = split_frontmatter(old_text)
    new_fm_text, new_body, _ = split_frontmatter(content)
    if new_fm_text is None and old_fm_text is None:
        return _ending(content)  # a note without frontmatter stays without
    if new_fm_text is None:
        fm = dict(old.frontmatter)
        body = content
    else:
        fm = dict(new.frontmatter)
        body = new_body
        for key in ("type", "created"):  # what the page is, and since when, stay
            if key in old.frontmatter:
                fm.setdefault(key, old.frontmatter[key])
    unchanged = {k: v for k, v in fm.items() if k != "updated"} == {
        k: v for k, v in old.frontmatter.items() if k != "updated"
    } and _ending(body) == _ending(old_body)
    if unchanged:
        return old_text
    stamp = utc_iso()
    if new_fm_text is None and old_fm_text is not None:
        # the page's own frontmatter stays byte for byte but for `updated` (broken YAML as is)
        kept = set_frontmatter_key(old_text[: len(old_text) - len(old_body)], "updated", stamp)
        if kept is not None:
            return kept + _ending(body)
    if fm or old.frontmatter:
        fm["updated"] = stamp
    return _ending(render_note(_ordered(fm), body))


def write_page(
    brain: Brain,
    path: str,
    content: str,
    expected_hash: str | None = None,
    *,
    by_agent: bool = False,
) -> PageChange:
    """Create a page, or replace it when ``expected_hash`` is the hash that was read.

    A new page gets frontmatter (``type`` from its folder, ``title``, ``created``,
    ``updated``) unless the content brings its own. Replacing keeps the page's
    frontmatter when the content has none, and moves ``updated`` only when
    something changed. ``by_agent``: an agent writes it; a page it creates says so
    (``provenance: agent``), and its edit of a page says so in the commit trailer.

    Raises:
        PathOutsideVault, ProtectedPath: the path is not a page tools may write.
        PageExists: the page exists and no ``expected_hash`` was given.
        WriteConflict: the page changed since it was read, or is gone.
        VaultError: the content is too large.
    """
    clean = _writable_path(brain, path)
    _check_size(content)
    content = _clean_for(clean, content)
    vault = brain.vault
    with recording(vault):
        try:
            current = vault.read_note(clean)
        except NoteNotFound:
            current = None
        if current is None:
            if expected_hash is not None:
                raise WriteConflict(clean, expected_hash, None)
            text = _new_page_text(clean, content, by_agent)
            outcome, digest = vault.write_note(clean, text)
        else:
            if expected_hash is None:
                raise PageExists(clean, current.hash)
            if expected_hash != current.hash:
                raise WriteConflict(clean, expected_hash, current.hash)
            text = _updated_page_text(plain(current.text), content, clean)
            if by_agent and parse_note(current.text, clean).frontmatter.get("provenance") == (
                "agent"
            ):  # a page an agent made stays the agent's, whatever frontmatter it sends
                text = set_frontmatter_key(text, "provenance", "agent") or text
            if "\r\n" not in content and not content.startswith(BOM):
                text = restyle(current.text, text)  # the caller gave no style: keep the file's
            outcome, digest = vault.write_note(clean, text, expected_hash=current.hash)
        change = PageChange("write_page", paths=[clean], hash=digest)
        change.report.add(outcome, clean)
        _commit(brain, change, f"{outcome} {clean}", by_agent)
    return _synced(brain, change)


def _norm_heading(text: str) -> str:
    return " ".join(text.replace("—", "-").replace("–", "-").lower().split())


def _append_text(body: str, addition: str, section: str | None) -> str:
    addition = addition.strip("\n") + "\n"
    if section is None:
        return _ending(body) + addition if body.strip() else addition
    lines = body.split("\n")
    wanted = _norm_heading(section)
    start = level = None
    for i, line in enumerate(lines):
        m = atx_heading(line, empty=True)
        if not m:
            continue
        if start is None and _norm_heading(m[1]) == wanted:
            start, level = i, m[0]
        elif start is not None and level is not None and m[0] <= level:
            end = i
            while end > start + 1 and not lines[end - 1].strip():
                end -= 1
            return "\n".join([*lines[:end], addition.rstrip("\n"), *lines[end:]])
    if start is None:
        return _ending(body) + f"## {section.strip()}\n" + addition
    return _ending(body.rstrip("\n")) + addition


def append_to_page(
    brain: Brain,
    path: str,
    content: str,
    section: str | None = None,
    *,
    by_agent: bool = False,
) -> PageChange:
    """Add ``content`` to the end of a page, or of its ``section`` (made if missing).

    ``by_agent``: an agent adds it (said in the commit trailer, not in the page).

    Raises:
        NoteNotFound: no page at ``path`` (create it with :func:`write_page`).
        PathOutsideVault, ProtectedPath, VaultError: as for :func:`write_page`.
    """
    clean = _writable_path(brain, path)
    _check_size(content)
    content = _clean_for(clean, content)
    vault = brain.vault
    for _ in range(5):
        with recording(vault):
            try:
                current = vault.read_note(clean)
            except NoteNotFound:
                raise NoteNotFound(f"{clean}: no such page; create it with write_page") from None
            _check_size(current.text + content)
            source = plain(current.text)  # edited as LF text, written back in the file's style
            fm_text, body, _ = split_frontmatter(source)
            new_body = _append_text(body, plain(content), section)
            text = source[: len(source) - len(body)] + new_body
            if fm_text is not None:
                stamp = utc_iso()
                kept = set_frontmatter_key(text, "updated", stamp)
                if kept is None:
                    fm = dict(parse_note(source, clean).frontmatter)
                    kept = render_note({**fm, "updated": stamp}, new_body)
                text = kept
            text = restyle(current.text, text)
            try:
                outcome, digest = vault.write_note(clean, text, expected_hash=current.hash)
            except WriteConflict:
                continue  # changed in between (by hand, say): appends commute, so do it again
            change = PageChange("append_to_page", paths=[clean], hash=digest)
            change.report.add(outcome, clean)
            _commit(brain, change, f"appended to {clean}", by_agent)
        return _synced(brain, change)
    raise WriteConflict(clean, None, vault.current_hash(clean))


# -- move ---------------------------------------------------------------------------


def _target_for(intended: str, source: str, resolver: LinkResolver, markdown: bool) -> str:
    """The shortest link target that resolves to ``intended`` from ``source``."""
    if markdown:
        return intended.replace(" ", "%20")  # a vault-relative path always resolves exactly
    return resolver.shortest_target(intended, source)


@dataclass
class _Rewrite:
    path: str  # where the file is now
    new_path: str  # where it will be (differs for the moved page itself)
    hash: str
    text: str
    changes: list[dict[str, Any]]


def _relinked(
    text: str,
    src_old: str,
    src_new: str,
    moves: tuple[str, str],
    before: LinkResolver,
    after: LinkResolver,
) -> tuple[str, list[dict[str, Any]]]:
    old, new = moves
    source = plain(text)
    _, body, body_line = split_frontmatter(source)
    prefix = source[: len(source) - len(body)]
    lines = body.split("\n")
    rows = table_rows(lines)
    changes: list[dict[str, Any]] = []
    for span in reversed(link_spans(body)):
        was = before.resolve(span.link.target, src_old)
        if was is None:
            continue  # a link to nowhere stays as it is (and is reported by health)
        intended = new if was == old else was
        if after.resolve(span.link.target, src_new) == intended:
            continue
        target = _target_for(intended, src_new, after, span.markdown)
        line = lines[span.line]
        written = line[span.start : span.end]
        lines[span.line] = retarget(line, span, target, in_table=span.line in rows)
        changes.append({"line": body_line + span.line, "from": written, "to": target})
    changes.reverse()
    return restyle(text, prefix + "\n".join(lines)), changes


def _move_rewrites(brain: Brain, old: str, new: str) -> list[_Rewrite]:
    """Every file whose links the move must rewrite, with its new text."""
    backend = brain.backend
    paths = backend.note_paths()
    before = LinkResolver(paths)
    after = LinkResolver([new if p == old else p for p in paths])
    candidates: set[str] = set()
    for _, target, source in backend.all_links():
        if source is None or mirror_team(source) is not None:
            # a team's mirror is read-only (the next pull rewrites it): its links stay as
            # pulled, and health does not report them
            continue
        was = before.resolve(target, source)
        if was is None:
            continue
        intended = new if was == old else was
        if after.resolve(target, new if source == old else source) != intended:
            candidates.add(source)
    candidates.add(old)  # the page itself moves, rewritten or not
    rewrites = []
    for source in sorted(candidates):
        note = brain.vault.read_note(source)
        target_path = new if source == old else source
        text, changes = _relinked(note.text, source, target_path, (old, new), before, after)
        if changes or source == old:
            rewrites.append(_Rewrite(source, target_path, note.hash, text, changes))
    return rewrites


def move_page(brain: Brain, path: str, new_path: str, plan_id: str | None = None) -> dict[str, Any]:
    """Move a page and re-point every link to it; a plan first, applied with its ``plan_id``.

    Returns the plan (files whose links change, line by line) or, with
    ``plan_id``, what was done.

    Raises:
        NoteNotFound: no page at ``path``.
        VaultError: ``new_path`` exists already or is the same page.
        PathOutsideVault, ProtectedPath: either path is not a page tools may write.
        PlanRefused: the plan is unknown, expired, or its files changed since.
    """
    old = _writable_path(brain, path)
    new = _writable_path(brain, new_path)
    if old == new:
        raise VaultError(f"{old} is already there; give a different new_path")
    vault = brain.vault
    current = vault.current_hash(old)
    if current is None:
        raise NoteNotFound(f"{old}: no such page")
    if vault.current_hash(new) is not None:
        raise VaultError(
            f"{new} already exists; choose another new_path, or delete that page first"
        )
    args = {"path": old, "new_path": new}
    brain.sync()
    if plan_id is None:
        rewrites = _move_rewrites(brain, old, new)
        others = [r for r in rewrites if r.path != old]
        links = sum(len(r.changes) for r in rewrites)
        plan = create_plan(
            vault,
            "move_page",
            args,
            {old: current, new: None, **{r.path: r.hash for r in others}},
            {
                "move": {"from": old, "to": new},
                "links_rewritten": links,
                "files_changed": len(others),
                "rewrites": [
                    {"path": r.path, "changes": r.changes[:10], "links": len(r.changes)}
                    for r in rewrites[:_LISTED]
                    if r.changes
                ],
                "note": "nothing is moved yet: call move_page again with this plan_id to apply",
            },
        )
        return plan.to_dict()
    with recording(vault):
        change = _apply_move(brain, old, new, current, plan_id, args)
    return _synced(brain, change).to_dict()


def _apply_move(
    brain: Brain, old: str, new: str, current: str, plan_id: str, args: dict[str, Any]
) -> PageChange:
    vault = brain.vault
    take_plan(vault, plan_id, "move_page", args)
    rewrites = _move_rewrites(brain, old, new)
    # one baseline commit for every file the move touches, not one per write
    before_change(vault, [new, *(r.path for r in rewrites)])
    change = PageChange("move_page")
    moved = next(r for r in rewrites if r.path == old)
    outcome, digest = vault.write_note(new, moved.text)
    shutil.copymode(vault.root / old, vault.root / new)  # a moved page keeps its permissions
    change.report.add(outcome, new)
    change.paths += [new]
    change.hash = digest
    failed = False
    for rewrite in rewrites:
        if rewrite.path == old:
            continue
        try:
            outcome, _ = vault.write_note(rewrite.path, rewrite.text, expected_hash=rewrite.hash)
        except WriteConflict as exc:
            failed = True
            change.report.add("failed", rewrite.path, str(exc))
            continue
        change.report.add(outcome, rewrite.path)
        change.paths.append(rewrite.path)
    if failed:
        change.report.warn(old, "kept in place: some links to it could not be re-pointed")
    else:
        vault.delete_note(old, expected_hash=current)
        change.report.add("deleted", old)
        change.paths.append(old)
    discard_plan(vault, plan_id)
    change.extra["moved"] = {"from": old, "to": new}
    change.extra["links_rewritten"] = sum(len(r.changes) for r in rewrites)
    return _commit(brain, change, f"{old} -> {new}")


# -- delete -------------------------------------------------------------------------


def delete_page(brain: Brain, path: str, plan_id: str | None = None) -> dict[str, Any]:
    """Delete a page: a plan naming the links that will break first, applied with its ``plan_id``.

    Raises:
        NoteNotFound: no page at ``path``.
        PathOutsideVault, ProtectedPath: the path is not a page tools may write.
        PlanRefused: the plan is unknown, expired, or the page changed since.
    """
    clean = _writable_path(brain, path)
    vault = brain.vault
    current = vault.current_hash(clean)
    if current is None:
        raise NoteNotFound(f"{clean}: no such page")
    args = {"path": clean}
    if plan_id is None:
        brain.sync()
        note = brain.backend.note_by_path(clean)
        links = [] if note is None else brain.backend.links_to(note.id)
        breaking = [lk for lk in links if lk.src_path != clean]
        plan = create_plan(
            vault,
            "delete_page",
            args,
            {clean: current},
            {
                "delete": clean,
                "hash": current,
                "links_that_will_break": len(breaking),
                "breaks": [
                    {"path": lk.src_path, "line": lk.line, "target": lk.target}
                    for lk in breaking[:_LISTED]
                ],
                "note": "nothing is deleted yet: call delete_page again with this plan_id to apply",
            },
        )
        return plan.to_dict()
    with recording(vault):
        plan = take_plan(vault, plan_id, "delete_page", args)
        vault.delete_note(clean, expected_hash=current)
        discard_plan(vault, plan_id)
        change = PageChange("delete_page", paths=[clean])
        change.report.add("deleted", clean)
        change.extra["links_broken"] = plan.details.get("links_that_will_break", 0)
        _commit(brain, change, f"deleted {clean}")
    brain.sync()
    return change.to_dict()


__all__ = [
    "MAX_PAGE_CHARS",
    "PageChange",
    "PageExists",
    "append_to_page",
    "delete_page",
    "move_page",
    "write_page",
]
