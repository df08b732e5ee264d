"""Fixing a health issue: a plan first, applied only with its ``plan_id``, as one commit.

The plan names every file that changes (with a unified diff), every link that
is re-pointed and every file that is deleted, and records the sha256 of each
file it read (:mod:`mnemex.vault.plans`). Applying re-checks those hashes, computes
the fix again and refuses if it would now do anything other than what was
shown; then it writes (each write checked against the hash it read), commits
once and syncs the index. Two fixes racing on one page: the second finds the
page changed and is refused, with nothing written.

Fixes by kind: a broken link is re-pointed to its suggested page; duplicates
are merged (every link moved to the kept page, the other page's names kept as
aliases and its content as merged sections, then it is deleted); a missing
backlink is added under ``## Sources``; an empty page is deleted; an orphan
that cites a summary is linked from that summary; index drift is synced. A
fix that would delete at least half of the knowledge pages is refused unless
``allow_loss``. Stale pages and broken frontmatter need a person: no fix.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mnemex.brain import Brain
from mnemex.errors import NoteNotFound, PlanRefused, VaultError, WriteConflict
from mnemex.health.edits import add_to_section, merge_pages, repoint
from mnemex.health.ids import Issue, kind_of
from mnemex.health.scan import is_knowledge, scan
from mnemex.health.view import IndexView, load_view
from mnemex.report import Report
from mnemex.text.dates import utc_iso
from mnemex.vault import LinkResolver, sha256_text
from mnemex.vault.history import before_change, commit_change, recording, take_recovered
from mnemex.vault.plans import create_plan, discard_plan, take_plan

OPERATION = "health_fix"
MAX_DIFF_LINES = 400
_NO_FIX = {
    "stale": "a stale page needs a person (or a re-ingest) to bring it up to date",
    "broken_frontmatter": "broken frontmatter is fixed by hand: mnemex does not guess at YAML",
    "orphans": "this orphan cites no summary to link it from; link it from a related page",
    "broken_anchors": "correct the #heading or #^block by hand, or remove it",
    "stale_facts": "only a person knows whether it still holds: `mnemex fact confirm` or "
    "`mnemex fact retract` it",
    "disputed_facts": "only a person knows which value holds: `mnemex fact correct` or "
    "`mnemex fact retract` the wrong one",
}


@dataclass
class FixPlan:
    """What a fix will do, computed from the files as they are."""

    issue: Issue
    action: str
    summary: str
    writes: dict[str, str] = field(default_factory=dict)  # path -> new text
    deletes: list[str] = field(default_factory=list)
    reads: dict[str, str | None] = field(default_factory=dict)
    relinks: list[dict[str, Any]] = field(default_factory=list)
    old: dict[str, str] = field(default_factory=dict)  # path -> text read
    sync_only: bool = False

    def digest(self) -> str:
        """One hash of the outcome, to tell at apply time whether it is still the same."""
        parts = [f"w {p} {sha256_text(t)}" for p, t in sorted(self.writes.items())]
        parts += [f"d {p}" for p in sorted(self.deletes)]
        return sha256_text("\n".join([self.action, *parts]))


class _Files:
    """Reads for a plan: each file once, its hash recorded."""

    def __init__(self, brain: Brain, plan: FixPlan) -> None:
        self.brain = brain
        self.plan = plan

    def text(self, rel: str) -> str:
        if rel in self.plan.writes:
            return self.plan.writes[rel]
        if rel not in self.plan.old:
            note = self.brain.vault.read_note(rel)
            self.plan.old[rel] = note.text
            self.plan.reads[rel] = note.hash
        return self.plan.old[rel]

    def write(self, rel: str, text: str) -> None:
        self.text(rel)
        if text != self.plan.old[rel]:
            self.plan.writes[rel] = text
        else:
            self.plan.writes.pop(rel, None)


def _plan_broken_link(brain: Brain, view: IndexView, issue: Issue, now: str) -> FixPlan:
    dest = issue.data.get("suggested")
    if not isinstance(dest, str):
        raise VaultError(
            f"{issue.id}: no page matches [[{issue.key}]], so there is nothing to re-point it "
            "to; edit the link by hand or create the page"
        )
    src = issue.files[0]
    plan = FixPlan(issue, "relink", f"re-point [[{issue.key}]] in {src} to {dest}")
    files = _Files(brain, plan)
    resolver = LinkResolver(view.notes)
    new_target = resolver.shortest_target(dest, src)
    text, changes = repoint(files.text(src), lambda t: new_target if t == issue.key else None)
    files.write(src, text)
    plan.relinks = [{"path": src, **c} for c in changes]
    return plan


def _choose_kept(view: IndexView, a: str, b: str) -> tuple[str, str]:
    """The page to keep: more links to it, then a mnemex page type, then more text."""
    incoming = view.incoming()

    def weight(path: str) -> tuple[int, int, int, str]:
        note = view.notes[path]
        typed = int(note.type in ("entity", "concept"))
        return (len(incoming.get(path, ())), typed, note.size, _neg(path))

    keep = max((a, b), key=weight)
    return keep, (b if keep == a else a)


def _neg(path: str) -> str:
    # ties go to the alphabetically first path: max() of the inverted characters
    return "".join(chr(0x10FFFF - ord(c)) for c in path)


def _repointer(
    before: LinkResolver, src: str, gone: str, target: str
) -> Callable[[str], str | None]:
    """Map a written target to ``target`` when it resolved to ``gone`` from ``src``."""

    def wants(written: str) -> str | None:
        return target if before.resolve(written, src) == gone else None

    return wants


def _plan_merge(brain: Brain, view: IndexView, issue: Issue, now: str) -> FixPlan:
    a, b = issue.files
    keep, gone = _choose_kept(view, a, b)
    plan = FixPlan(issue, "merge", f"merge {gone} into {keep}")
    files = _Files(brain, plan)
    for rel in (keep, gone):
        note = view.notes.get(rel)
        if note is not None and any(w.startswith("malformed") for w in note.warnings):
            raise VaultError(f"{rel}: its frontmatter is broken; fix it before merging")
    merged = merge_pages(files.text(keep), keep, files.text(gone), gone, now)
    paths = list(view.notes)
    before = LinkResolver(paths)
    after = LinkResolver([p for p in paths if p != gone])
    sources = sorted({lk.src for lk in view.links if lk.dst == gone} - {gone})
    for src in [keep, *[s for s in sources if s != keep]]:
        target = after.shortest_target(keep, src)
        text = merged if src == keep else files.text(src)
        new, changes = repoint(text, _repointer(before, src, gone, target))
        files.write(src, new)
        plan.relinks += [{"path": src, **c} for c in changes]
    files.text(gone)
    plan.deletes.append(gone)
    return plan


def _plan_backlink(brain: Brain, view: IndexView, issue: Issue, now: str) -> FixPlan:
    page, summary = str(issue.data["page"]), str(issue.data["summary"])
    plan = FixPlan(issue, "add_backlink", f"link {page} back to {summary}")
    files = _Files(brain, plan)
    target = LinkResolver(view.notes).shortest_target(summary, page)
    files.write(page, add_to_section(files.text(page), "Sources", f"- [[{target}]]"))
    plan.relinks.append({"path": page, "line": None, "from": None, "to": target})
    return plan


def _plan_orphan(brain: Brain, view: IndexView, issue: Issue, now: str) -> FixPlan:
    cited = issue.data.get("cited_by") or []
    if not cited:
        raise VaultError(f"{issue.id}: no automatic fix: {_NO_FIX['orphans']}")
    page, summary = issue.files[0], str(cited[0])
    plan = FixPlan(issue, "link_orphan", f"link {page} from {summary}, the summary it cites")
    files = _Files(brain, plan)
    note = view.notes[page]
    section = "Concepts" if note.folder == "concepts" else "Entities"
    target = LinkResolver(view.notes).shortest_target(page, summary)
    line = f"- [[{target}|{note.title}]]" if note.title != target else f"- [[{target}]]"
    files.write(summary, add_to_section(files.text(summary), section, line))
    plan.relinks.append({"path": summary, "line": None, "from": None, "to": target})
    return plan


def _plan_delete(brain: Brain, view: IndexView, issue: Issue, now: str) -> FixPlan:
    page = issue.files[0]
    plan = FixPlan(issue, "delete", f"delete empty page {page}")
    _Files(brain, plan).text(page)
    plan.deletes.append(page)
    breaking = sorted({lk.src for lk in view.links if lk.dst == page and lk.src != page})
    plan.relinks = [{"path": s, "breaks": page} for s in breaking]
    return plan


_PLANNERS = {
    "broken_links": _plan_broken_link,
    "loose_links": _plan_broken_link,
    "duplicates": _plan_merge,
    "missing_backlinks": _plan_backlink,
    "empty_pages": _plan_delete,
    "orphans": _plan_orphan,
}


def _current_issue(brain: Brain, issue_id: str) -> Issue:
    kind = kind_of(issue_id)
    if kind is None:
        raise VaultError(f"{issue_id!r} is not a health issue id (like broken_links-0123456789ab)")
    if kind != "index_drift":
        brain.sync()  # a fix is computed on the files as they are now
    report = scan(brain.vault, brain.backend, kinds=(kind,), include_dismissed=True, semantic=True)
    issue = report.find(issue_id)
    if issue is None:
        raise NoteNotFound(
            f"no current issue {issue_id}: fixed already, or the files changed; run "
            "`mnemex health` for the current ids"
        )
    return issue


def _build(brain: Brain, issue: Issue, now: str) -> FixPlan:
    if issue.kind == "index_drift":
        return FixPlan(issue, "sync_index", "sync the index with the files", sync_only=True)
    planner = _PLANNERS.get(issue.kind)
    if planner is None:
        raise VaultError(f"{issue.id}: no automatic fix: {_NO_FIX.get(issue.kind, issue.kind)}")
    return planner(brain, load_view(brain.backend), issue, now)


def _diff(plan: FixPlan) -> tuple[str, int]:
    lines: list[str] = []
    for rel in sorted(plan.writes):
        lines += difflib.unified_diff(
            plan.old.get(rel, "").splitlines(keepends=True),
            plan.writes[rel].splitlines(keepends=True),
            f"a/{rel}",
            f"b/{rel}",
        )
    for rel in plan.deletes:
        lines += difflib.unified_diff(
            plan.old.get(rel, "").splitlines(keepends=True), [], f"a/{rel}", "/dev/null"
        )
    lines = [ln if ln.endswith("\n") else ln + "\n" for ln in lines]
    omitted = max(0, len(lines) - MAX_DIFF_LINES)
    return "".join(lines[:MAX_DIFF_LINES]), omitted


def _loss_check(brain: Brain, plan: FixPlan, allow_loss: bool) -> None:
    if not plan.deletes or allow_loss:
        return
    view = load_view(brain.backend)
    pages = sum(1 for n in view.notes.values() if is_knowledge(n) or n.kind == "notes")
    if pages and len(plan.deletes) * 2 >= pages:
        raise VaultError(
            f"this fix would delete {len(plan.deletes)} of the vault's {pages} pages, which "
            "looks like loss; nothing was changed. Pass allow_loss (CLI --allow-loss) if meant"
        )


def _details(plan: FixPlan) -> dict[str, Any]:
    diff, omitted = _diff(plan)
    return {
        "issue": plan.issue.to_dict(),
        "action": plan.action,
        "summary": plan.summary,
        "files_changed": sorted(plan.writes),
        "deletes": plan.deletes,
        "links": plan.relinks,
        "diff": diff,
        "diff_omitted_lines": omitted,
        "outcome": plan.digest(),
    }


def fix_issue(
    brain: Brain, issue_id: str, plan_id: str | None = None, *, allow_loss: bool = False
) -> dict[str, Any]:
    """Preview a fix of ``issue_id`` (no ``plan_id``) or apply the previewed one.

    Returns the plan (``plan_id``, files, diff, links, deletions) or what was done
    (the counts, with removed files as ``deleted``; the commit).

    Raises:
        VaultError: not an id, no automatic fix for this kind, or a fix that looks like loss.
        NoteNotFound: no current issue has that id.
        PlanRefused: unknown or used plan, or a file changed since the plan was made.
    """
    vault = brain.vault
    args = {"id": issue_id, "allow_loss": allow_loss}
    if plan_id is None:
        now = utc_iso()
        plan = _build(brain, _current_issue(brain, issue_id), now)
        _loss_check(brain, plan, allow_loss)
        details = {**_details(plan), "now": now}
        details["note"] = (
            "nothing is changed yet: call fix_health_issue again with this plan_id to apply"
        )
        made = create_plan(vault, OPERATION, args, plan.reads, details)
        return made.to_dict()
    with recording(vault):
        recovered = take_recovered(vault)
        shown = take_plan(vault, plan_id, OPERATION, args)
        now = str(shown.details.get("now") or utc_iso())
        plan = _build(brain, _current_issue(brain, issue_id), now)
        if plan.digest() != shown.details.get("outcome"):
            raise PlanRefused(
                f"plan {plan_id} no longer describes what the fix would do (the vault changed "
                "around it); call fix_health_issue again without plan_id for a fresh plan"
            )
        _loss_check(brain, plan, allow_loss)
        result = _apply(brain, plan)
        discard_plan(vault, plan_id)
    if recovered:  # an interrupted run's files, committed before this fix
        result["recovered"] = recovered
    brain.sync()
    return result


def _apply(brain: Brain, plan: FixPlan) -> dict[str, Any]:
    vault = brain.vault
    report = Report()
    out: dict[str, Any] = {"id": plan.issue.id, "action": plan.action, "summary": plan.summary}
    if plan.sync_only:
        synced = brain.sync()
        out.update(synced.report.to_dict())
        out["index"] = synced.to_dict()
        return out
    paths: list[str] = []
    # one baseline commit for every file the fix touches, not one per write
    before_change(vault, [*sorted(plan.writes), *plan.deletes])
    for rel, text in sorted(plan.writes.items()):
        try:
            outcome, _ = vault.write_note(rel, text, expected_hash=plan.reads.get(rel))
        except WriteConflict as exc:
            report.add("failed", rel, str(exc))
            continue
        report.add(outcome, rel)
        paths.append(rel)
    if report.failed:
        out["warning"] = "some files changed during the fix; nothing was deleted"
    else:
        for rel in plan.deletes:
            vault.delete_note(rel, expected_hash=plan.reads.get(rel))
            report.add("deleted", rel)
            paths.append(rel)
        out["deleted_paths"] = plan.deletes
    commit = commit_change(vault, paths, "health-fix", plan.summary) if paths else None
    out.update(report.to_dict())
    out["links"] = len(plan.relinks)
    if commit is not None:
        out["commit"] = commit.to_dict()
    return out


__all__ = ["MAX_DIFF_LINES", "OPERATION", "FixPlan", "fix_issue"]
