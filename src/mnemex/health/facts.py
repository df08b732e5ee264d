"""Facts that need a person: ones nobody has confirmed for long, and disputes to settle.

- ``stale_facts``: an active fact about the present (not ended, not retracted), not an
  agent's, whose latest evidence is older than ``[health] stale_fact_days`` (default
  180) on the scan's day. One issue per fact; its detail is the question the fact is
  served with ("recorded 2026-03-02 from a session: ... Still true?"). Low severity.
- ``disputed_facts``: two or more believed facts of one slot marked ``disputed``,
  naming each other (the write rule keeps both when it cannot tell which holds). One
  issue per dispute, naming every value with its dates and whose word it is. Medium
  severity.

Neither has an automatic fix: a person answers with ``mnemex fact confirm|correct|
retract <id>``. Only public fact files are checked (``facts/<slug>.md``): a private
name's facts (``facts/<private>/``) are never committed, and health records say
nothing about private files. An unreadable fact file is skipped here (writes to it
are refused with the line named).
"""

from __future__ import annotations

from mnemex.facts.model import Fact
from mnemex.facts.query import fact_dict
from mnemex.facts.record import fact_files
from mnemex.facts.serve import is_stale, last_confirmed, stale_days, still_true_question
from mnemex.health.ids import Issue
from mnemex.health.scan import ScanContext, register_checker

#: How much each issue matters, carried in ``data["severity"]`` (the score weighs it too).
SEVERITY = {"stale_facts": "low", "disputed_facts": "medium"}


def _settle(fact_id: str) -> str:
    return f"`mnemex fact confirm {fact_id}` if still true, else `mnemex fact retract {fact_id}`"


@register_checker("stale_facts", "unconfirmed")
def stale_facts(ctx: ScanContext) -> list[Issue]:
    """Active facts about the present not confirmed for ``[health] stale_fact_days``."""
    days = stale_days(ctx.vault)
    today = ctx.now.date()
    issues: list[Issue] = []
    for rel, file in fact_files(ctx.vault):
        for fact in file.facts:
            if not is_stale(fact, today, days):
                continue
            confirmed = last_confirmed(fact)
            issues.append(
                Issue(
                    "stale_facts",
                    [rel],
                    still_true_question(fact),
                    key=fact.id,
                    suggestion=_settle(fact.id),
                    data={
                        "severity": SEVERITY["stale_facts"],
                        "fact": fact.id,
                        "subject": fact.subject,
                        "path": rel,
                        "statement": fact.statement,
                        "provenance": fact.provenance,
                        "last_confirmed": confirmed.isoformat(),
                        "days": (today - confirmed).days,
                        "stale_after": days,
                        "commands": [
                            f"mnemex fact confirm {fact.id}",
                            f"mnemex fact retract {fact.id}",
                        ],
                    },
                )
            )
    return issues


def _disputes(facts: list[Fact]) -> list[list[Fact]]:
    """Groups of believed, disputed facts of one slot that name one another, each of 2+."""
    held = {
        f.id: f
        for f in facts
        if f.status == "disputed" and f.expired_at is None and f.provenance != "agent"
    }
    parent = {fid: fid for fid in held}

    def root(fid: str) -> str:
        while parent[fid] != fid:
            parent[fid] = parent[parent[fid]]
            fid = parent[fid]
        return fid

    for fact in held.values():
        for other in fact.disputes:
            if other in held and held[other].slot == fact.slot:
                parent[root(other)] = root(fact.id)
    groups: dict[str, list[Fact]] = {}
    for fact in held.values():  # in the file's order
        groups.setdefault(root(fact.id), []).append(fact)
    return [group for group in groups.values() if len(group) >= 2]


def _describe(fact: Fact) -> str:
    value = fact.value or fact.statement
    start = str(fact.valid_from) if fact.valid_from else f"{fact.start.isoformat()} (first seen)"
    until = f" until {fact.valid_until}" if fact.valid_until else ""
    where = ", ".join(str(e) for e in fact.evidence[:2])
    return f"{value!r} from {start}{until} ({fact.provenance}, id {fact.id}; {where})"


@register_checker("disputed_facts", "unsettled")
def disputed_facts(ctx: ScanContext) -> list[Issue]:
    """Slots where two or more believed facts disagree about the same time."""
    issues: list[Issue] = []
    for rel, file in fact_files(ctx.vault):
        for group in _disputes(file.facts):
            first = group[0]
            what = (first.predicate or "fact").replace("_", " ")
            if first.aspect:
                what += f" ({first.aspect})"
            if first.condition:
                what += f" when {first.condition}"
            ids = [f.id for f in group]
            detail = f"{first.subject}: {what} is disputed in {rel}: " + "; ".join(
                _describe(f) for f in group
            )
            issues.append(
                Issue(
                    "disputed_facts",
                    [rel],
                    detail,
                    key=",".join(sorted(ids)),
                    suggestion=(
                        "settle it: `mnemex fact correct <id> VALUE` for the one that is wrong, "
                        f"or `mnemex fact retract <id>` (ids: {', '.join(ids)})"
                    ),
                    data={
                        "severity": SEVERITY["disputed_facts"],
                        "subject": first.subject,
                        "predicate": first.predicate,
                        "aspect": first.aspect,
                        "condition": first.condition,
                        "path": rel,
                        "facts": [fact_dict(f) for f in group],
                        "commands": [
                            *(f"mnemex fact correct {f.id} VALUE" for f in group),
                            *(f"mnemex fact retract {f.id}" for f in group),
                        ],
                    },
                )
            )
    return issues


__all__ = ["SEVERITY", "disputed_facts", "stale_facts"]
