"""The write rule and the as-of answers, on facts made by hand (no extraction, no vault)."""

from __future__ import annotations

import datetime as dt

from fact_support import at, fact
from mnemex.facts.model import Fact
from mnemex.facts.query import answer_slot
from mnemex.facts.rule import apply_fact


def feed(*facts: Fact) -> list[Fact]:
    held: list[Fact] = []
    for one in facts:
        apply_fact(held, one, one.recorded_at)
    return held


def ask(
    held: list[Fact], predicate: str, as_of: str, recorded: str | None = None, aspect: str = ""
) -> tuple[str, list[str]]:
    slot = (held[0].slot[0], predicate, aspect)
    ans = answer_slot(
        held,
        slot,
        dt.date.fromisoformat(as_of),
        dt.date.fromisoformat(recorded) if recorded else None,
    )
    return ans.status, ans.values


def test_a_new_value_supersedes_the_old_which_stays_with_its_valid_time_closed() -> None:
    old = fact("Ada", "works_at", "Tidewater Labs", "2025-09-01", start="2022-04-01")
    new = fact("Ada", "works_at", "Kestrel Systems", "2026-02-11", start="2026-02-09")
    held = feed(old, new)
    assert len(held) == 2
    assert old.status == "superseded" and old.superseded_by == new.id
    assert str(old.valid_until) == "2026-02-09"
    assert ask(held, "works_at", "2025-10-01") == ("current", ["Tidewater Labs"])
    assert ask(held, "works_at", "2026-03-01") == ("current", ["Kestrel Systems"])
    assert ask(held, "works_at", "2021-01-01") == ("unknown", [])


def test_record_time_answers_what_the_brain_believed_then() -> None:
    old = fact("Ada", "works_at", "Tidewater Labs", "2025-09-01")
    new = fact("Ada", "works_at", "Kestrel Systems", "2026-02-11", start="2026-02-09")
    held = feed(old, new)
    assert ask(held, "works_at", "2026-03-01", recorded="2026-02-10") == (
        "current",
        ["Tidewater Labs"],
    )
    assert ask(held, "works_at", "2026-03-01", recorded="2026-02-11") == (
        "current",
        ["Kestrel Systems"],
    )
    assert ask(held, "works_at", "2026-03-01", recorded="2025-08-01") == ("unknown", [])


def test_a_bounded_statement_is_served_as_past_once_its_time_has_passed() -> None:
    leave = fact(
        "Priya",
        "status",
        "on_leave",
        "2026-01-05",
        start="2026-01-12",
        until="2026-03-01",
        planned=True,
    )
    held = feed(leave)
    assert ask(held, "status", "2026-01-08") == ("unknown", [])
    assert ask(held, "status", "2026-02-01") == ("current", ["on_leave"])
    assert ask(held, "status", "2026-03-10") == ("past", ["on_leave"])


def test_two_claims_about_the_same_time_are_both_kept_as_disputed() -> None:
    fly = fact(
        "LF",
        "project_attribute",
        "Fly.io",
        "2026-02-02",
        provenance="source",
        start="2026-02-01",
        key="hosting",
    )
    heroku = fact(
        "LF",
        "project_attribute",
        "Heroku",
        "2026-02-26",
        provenance="source",
        start="2026-02",
        until="2026-03",
        key="hosting",
    )
    held = feed(fly, heroku)
    assert fly.status == "disputed" and heroku.status == "disputed"
    assert fly.disputes == [heroku.id] and heroku.disputes == [fly.id]
    status, values = ask(held, "project_attribute", "2026-02-15", aspect="hosting")
    assert status == "disputed" and sorted(values) == ["Fly.io", "Heroku"]
    # the dispute is about February; after it only Fly.io holds
    assert ask(held, "project_attribute", "2026-04-01", aspect="hosting") == ("current", ["Fly.io"])
    # before the Heroku note was recorded, there was no dispute
    assert ask(
        held, "project_attribute", "2026-02-15", recorded="2026-02-10", aspect="hosting"
    ) == ("current", ["Fly.io"])


def test_an_agents_guess_never_decides_nor_changes_a_persons_value() -> None:
    mine = fact("Maren", "prefers", "Python", "2026-06-10", kind="language")
    guess = fact(
        "Maren", "prefers", "Rust", "2026-09-14", provenance="agent", kind="language", hedged=True
    )
    held = feed(mine, guess)
    assert mine.status == "active" and mine.valid_until is None
    status, values = ask(held, "prefers", "2026-10-01", aspect="language")
    assert (status, values) == ("current", ["Python"])
    slot = (mine.slot[0], "prefers", "language")
    assert [f.value for f in answer_slot(held, slot, dt.date(2026, 10, 1)).drafts] == ["Rust"]
    only_guess = feed(
        fact("Maren", "prefers", "Rust", "2026-03-05", provenance="agent", kind="language")
    )
    assert ask(only_guess, "prefers", "2026-04-01", aspect="language") == ("unknown", [])


def test_the_same_value_confirms_and_a_more_precise_start_re_closes_the_old_value() -> None:
    home = fact("Maren", "lives_in", "Rotterdam", "2025-09-05", start="2019-03")
    plan = fact("Maren", "lives_in", "Lisbon", "2026-03-20", start="2026-07", planned=True)
    moved = fact("Maren", "lives_in", "Lisbon", "2026-07-15", start="2026-07-14")
    held = feed(home, plan, moved)
    assert len(held) == 2  # the confirmation adds evidence, not a fact
    assert len(plan.evidence) == 2 and str(plan.valid_from) == "2026-07-14"
    assert str(home.valid_until) == "2026-07-14"
    assert ask(held, "lives_in", "2026-07-10") == ("current", ["Rotterdam"])
    assert ask(held, "lives_in", "2026-07-20") == ("current", ["Lisbon"])
    # on 2026-07-01 the brain believed the move was in July (from the 1st)
    assert ask(held, "lives_in", "2026-07-10", recorded="2026-07-01") == ("current", ["Lisbon"])


def test_a_plan_with_an_unresolved_time_is_kept_flagged_and_changes_nothing() -> None:
    home = fact("Tom", "lives_in", "Rotterdam", "2025-10-02")
    someday = fact(
        "Tom",
        "lives_in",
        "Gdańsk",
        "2026-09-28",
        planned=True,
        time_resolved=False,
        time_note="after the reorg",
    )
    held = feed(home, someday)
    assert home.status == "active" and home.valid_until is None
    assert ask(held, "lives_in", "2026-11-01") == ("current", ["Rotterdam"])
    slot = (home.slot[0], "lives_in", "")
    assert [f.value for f in answer_slot(held, slot, dt.date(2026, 11, 1)).pending] == ["Gdańsk"]


def test_a_conditional_claim_is_scoped_and_does_not_supersede() -> None:
    vpn = fact(
        "Maren",
        "uses",
        "WireGuard",
        "2026-05-18",
        kind="vpn",
        condition="when on the staging cluster",
    )
    held = feed(vpn)
    slot = (vpn.slot[0], "uses", "vpn")
    ans = answer_slot(held, slot, dt.date(2026, 6, 1))
    assert (ans.status, ans.values, ans.condition) == (
        "conditional",
        ["WireGuard"],
        "when on the staging cluster",
    )


def test_a_closing_statement_bounds_the_open_fact_and_leaves_a_revision() -> None:
    job = fact("Tom", "works_at", "Tidewater Labs", "2025-09-22", provenance="source")
    leaving = fact(
        "Tom", "works_at", "Tidewater Labs", "2026-01-20", provenance="source", until="2026-01-31"
    )
    held = feed(job, leaving)
    assert len(held) == 1 and str(job.valid_until) == "2026-01-31"
    assert [(r.field, r.old, r.new) for r in job.revisions] == [("valid_until", "", "2026-01-31")]
    assert ask(held, "works_at", "2026-02-03") == ("past", ["Tidewater Labs"])
    assert ask(held, "works_at", "2026-02-03", recorded="2026-01-19") == (
        "current",
        ["Tidewater Labs"],
    )


def test_feeding_the_same_fact_twice_is_unchanged() -> None:
    one = fact("Ada", "role", "Staff Engineer", "2026-03-25")
    held: list[Fact] = []
    assert apply_fact(held, one, at("2026-03-25")).outcome == "created"
    again = fact("Ada", "role", "Staff Engineer", "2026-03-25")
    assert apply_fact(held, again, at("2026-03-26")).outcome == "unchanged"
    assert len(held) == 1
