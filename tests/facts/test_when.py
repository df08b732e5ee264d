"""Date reading (:mod:`mnemex.facts.when`): absolute dates, relative phrases against the
evidence date, tense, and phrases that name no date. Every case passes its own evidence
date, so nothing depends on today."""

from __future__ import annotations

import datetime as dt

import pytest

from mnemex.facts.when import TimeMention, find_times, is_future, resolve

D = dt.date
WED = D(2026, 2, 11)  # a Wednesday


def _one(phrase: str, day: dt.date = WED, *, future: bool | None = None) -> TimeMention:
    found = resolve(phrase, day, future=future)
    assert found is not None, phrase
    return found


@pytest.mark.parametrize(
    ("phrase", "start", "precision"),
    [
        ("2026-01-19", D(2026, 1, 19), "day"),
        ("2019-03", D(2019, 3, 1), "month"),
        ("3 November 2025", D(2025, 11, 3), "day"),
        ("Nov 3, 2025", D(2025, 11, 3), "day"),
        ("September 1st, 2026", D(2026, 9, 1), "day"),
        ("Friday 30 January 2026", D(2026, 1, 30), "day"),
        ("Monday 2025-11-03", D(2025, 11, 3), "day"),
        ("Thursday, 30 April 2026", D(2026, 4, 30), "day"),
        ("April 2022", D(2022, 4, 1), "month"),
        ("April '22", D(2022, 4, 1), "month"),
        ("1 February 2026", D(2026, 2, 1), "day"),
        ("the 14th of May 2026", D(2026, 5, 14), "day"),
        ("since 2019", D(2019, 1, 1), "year"),
    ],
)
def test_absolute_dates(phrase: str, start: dt.date, precision: str) -> None:
    found = _one(phrase)
    assert (found.date, found.precision, found.resolved) == (start, precision, True)
    assert not found.relative or precision == "year"


def test_a_day_and_month_without_a_year_take_the_nearest_year() -> None:
    assert _one("Apr 30", D(2026, 4, 28)).date == D(2026, 4, 30)
    assert _one("30 April", D(2026, 4, 28)).date == D(2026, 4, 30)
    assert _one("on 28 December", D(2026, 1, 3)).date == D(2025, 12, 28)
    # a plan is never in the past
    assert _one("from 1 September", D(2026, 3, 2), future=True).date == D(2026, 9, 1)


def test_the_end_of_a_period_is_its_exclusive_end() -> None:
    day = _one("Friday 30 January 2026")
    assert day.until == D(2026, 1, 31)
    month = _one("April 2022")
    assert month.until == D(2022, 5, 1)
    assert _one("at the end of March", D(2026, 3, 2)).date == D(2026, 3, 31)


@pytest.mark.parametrize(
    ("phrase", "evidence", "start", "precision"),
    [
        ("today", WED, WED, "day"),
        ("yesterday", D(2026, 7, 15), D(2026, 7, 14), "day"),
        ("tomorrow", WED, D(2026, 2, 12), "day"),
        ("last week", D(2026, 5, 4), D(2026, 4, 27), "day"),
        ("next week", D(2026, 1, 5), D(2026, 1, 12), "day"),
        ("next week", D(2026, 1, 11), D(2026, 1, 12), "day"),
        ("this week", WED, D(2026, 2, 9), "day"),
        ("this month", D(2026, 2, 16), D(2026, 2, 1), "month"),
        ("last month", D(2026, 8, 4), D(2026, 7, 1), "month"),
        ("last month", D(2026, 1, 10), D(2025, 12, 1), "month"),
        ("next month", D(2026, 3, 25), D(2026, 4, 1), "month"),
        ("next month", D(2025, 12, 25), D(2026, 1, 1), "month"),
        ("3 days ago", WED, D(2026, 2, 8), "day"),
        ("two weeks ago", WED, D(2026, 1, 28), "day"),
        ("a couple of months ago", WED, D(2025, 12, 1), "month"),
        ("in 10 days", WED, D(2026, 2, 21), "day"),
        ("last year", WED, D(2025, 1, 1), "year"),
    ],
)
def test_relative_phrases(phrase: str, evidence: dt.date, start: dt.date, precision: str) -> None:
    found = _one(phrase, evidence)
    assert (found.date, found.precision, found.relative) == (start, precision, True)


def test_this_month_spans_the_whole_month() -> None:
    found = _one("this month", D(2026, 4, 22))
    assert (found.date, found.until) == (D(2026, 4, 1), D(2026, 5, 1))


def test_weekdays_follow_the_tense() -> None:
    # past: the latest Monday on or before the evidence date
    assert _one("on Monday", WED, future=False).date == D(2026, 2, 9)
    assert _one("this Monday", WED, future=False).date == D(2026, 2, 9)
    assert _one("on Wednesday", WED, future=False).date == WED
    # future: the next one
    assert _one("on Monday", WED, future=True).date == D(2026, 2, 16)
    assert _one("next Friday", WED).date == D(2026, 2, 13)
    assert _one("last Friday", WED).date == D(2026, 2, 6)
    assert _one("last Wednesday", WED).date == D(2026, 2, 4)


def test_weekday_tense_is_guessed_from_the_sentence() -> None:
    [past] = find_times("Tomasz started at Kestrel Systems on Monday.", WED)
    assert past.date == D(2026, 2, 9)
    [future] = find_times("Tomasz will start at Kestrel on Monday.", WED)
    assert future.date == D(2026, 2, 16)


def test_bare_months_follow_the_tense() -> None:
    march = D(2026, 3, 20)
    assert _one("in July", march, future=True).date == D(2026, 7, 1)
    assert _one("in July", march, future=False).date == D(2025, 7, 1)
    assert _one("this July", march).date == D(2026, 7, 1)
    assert _one("in February", march, future=True).date == D(2027, 2, 1)
    assert _one("in February", march, future=False).date == D(2026, 2, 1)
    assert _one("next March", march).date == D(2027, 3, 1)
    assert _one("last July", march).date == D(2025, 7, 1)
    assert _one("in July", march).precision == "month"


def test_new_years_day() -> None:
    assert _one("since New Year's Day", D(2026, 1, 12)).date == D(2026, 1, 1)
    assert _one("since New Year", D(2026, 3, 1)).date == D(2026, 1, 1)
    assert _one("from New Year's Day", D(2025, 12, 20), future=True).date == D(2026, 1, 1)


@pytest.mark.parametrize(
    "phrase",
    [
        "a while back",
        "a while ago",
        "for a while now",
        "recently",
        "at some point",
        "after the reorg",
        "once Kestrel's reorg is done",
        "once the migration is over",
        "a few weeks ago",
        "for ages",
    ],
)
def test_phrases_that_name_no_date_are_flagged(phrase: str) -> None:
    found = _one(phrase)
    assert found.resolved is False
    assert (found.date, found.until) == (None, None)


def test_mentions_come_in_text_order_without_overlap() -> None:
    text = "The code freeze starts Thursday 2026-04-30 and lasts until the release on 2026-05-14."
    found = find_times(text, D(2026, 4, 28))
    assert [m.date for m in found] == [D(2026, 4, 30), D(2026, 5, 14)]
    assert found[0].phrase == "Thursday 2026-04-30"
    assert text[found[1].start : found[1].end] == "2026-05-14"


def test_words_that_look_like_months_are_not_dates() -> None:
    assert find_times("You may march on.", WED) == []
    assert find_times("Maren may join later.", WED) == []
    assert [m.date for m in find_times("in May", WED, future=True)] == [D(2026, 5, 1)]


def test_no_dates() -> None:
    assert find_times("Lanternfish keeps all its data in MongoDB.", WED) == []
    assert resolve("a Senior Software Engineer", WED) is None
    assert find_times("After four years Tomasz moves on from Tidewater.", WED) == []


@pytest.mark.parametrize(
    ("text", "future"),
    [
        ("We're moving to Lisbon in July.", True),
        ("Ines will join on Monday.", True),
        ("Priya is on leave from next week.", True),
        ("Once the reorg is done, Tom relocates.", True),
        ("Tomasz started at Kestrel on Monday.", False),
        ("Maren went back to coffee last week.", False),
        ("Ines lives in Porto.", False),
        # a change told in the simple present is a schedule
        ("In July I relocate to Lisbon.", True),
        ("Ines goes from Backend Engineer to Tech Lead in September.", True),
        ("Priya starts at Globex on Monday.", True),
        ("In May we move to Porto.", True),
        # ... but not with a past marker, nor a habit
        ("Tomasz joined Kestrel on Monday.", False),
        ("Priya moved to Berlin last year.", False),
        ("Priya starts her day with tea.", False),
        ("I drink tea in the morning.", False),
        # a progressive with no auxiliary, in a note's clipped style, is a plan
        ("Moving to Lisbon in July!", True),
        ("Relocating to Porto in May.", True),
        ("Priya starting at Globex in June.", True),
        ("Big news: switching to Helix in April.", True),
        ("Joining Kestrel in May, so excited.", True),
        # ... unless the sentence says it is past
        ("Moved to Lisbon yesterday!", False),
        ("Been moving boxes since Monday.", False),
        ("The moving van was late.", False),
    ],
)
def test_is_future(text: str, future: bool) -> None:
    assert is_future(text) is future


def test_a_day_and_month_without_a_year_take_the_year_of_a_full_date_beside_them() -> None:
    march = D(2026, 3, 2)
    first, last = find_times("Keelhaul is frozen from Dec 20 until 2027-01-05.", march)
    assert (first.date, last.date) == (D(2026, 12, 20), D(2027, 1, 5))
    # alone, the nearest year
    assert _one("from Dec 20", march, future=False).date == D(2025, 12, 20)
    first, last = find_times(
        "LF is frozen from Apr 30 until release day, 2026-05-14.", D(2025, 6, 1)
    )
    assert (first.date, last.date) == (D(2026, 4, 30), D(2026, 5, 14))
    first, last = find_times("Priya was away from 28 December to 2026-01-04.", D(2026, 3, 2))
    assert first.date == D(2025, 12, 28)


@pytest.mark.parametrize(
    ("phrase", "evidence", "start", "precision"),
    [
        ("as of January 1st", D(2026, 1, 12), D(2026, 1, 1), "day"),
        ("since Jan 5th", D(2026, 3, 2), D(2026, 1, 5), "day"),
        ("on the 3rd of March", D(2026, 3, 10), D(2026, 3, 3), "day"),
        ("since March '24", D(2026, 3, 2), D(2024, 3, 1), "month"),
        ("from Sept '19", D(2026, 3, 2), D(2019, 9, 1), "month"),
        ("release day, 2026-05-14", D(2026, 4, 28), D(2026, 5, 14), "day"),
    ],
)
def test_more_date_forms(phrase: str, evidence: dt.date, start: dt.date, precision: str) -> None:
    found = _one(phrase, evidence)
    assert (found.date, found.precision) == (start, precision)


def test_a_bare_month_in_a_clipped_plan_is_the_coming_one() -> None:
    [july] = find_times("Moving to Lisbon in July!", D(2026, 3, 20))
    assert (july.date, july.precision) == (D(2026, 7, 1), "month")
    [june] = find_times("Moved to Utrecht in June.", D(2026, 3, 20))
    assert june.date == D(2025, 6, 1)


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("Home since March 2019 (moved in on the 1st): Rotterdam.", D(2019, 3, 1)),
        ("Home since May 2020 (keys on the 12th): Delft.", D(2020, 5, 12)),
        ("This month, on the 9th, Priya moved to Haarlem.", D(2026, 2, 9)),
    ],
)
def test_an_ordinal_after_a_month_fixes_the_day(text: str, start: dt.date) -> None:
    [found] = find_times(text, WED)
    assert (found.date, found.until, found.precision) == (
        start,
        start + dt.timedelta(days=1),
        "day",
    )


def test_an_ordinal_in_another_sentence_or_after_another_date_does_not() -> None:
    [month] = find_times("Since April 2022. The 3rd team meeting was fun.", WED)
    assert month.precision == "month"
    month, _ = find_times("From March 2024 until 2025-01-01 (the 5th time)", WED)
    assert month.precision == "month"


def test_a_period_still_running_ends_ahead() -> None:
    march = D(2026, 3, 2)
    [end] = find_times("Priya is on holiday until the end of April.", march)
    assert end.date == D(2026, 4, 30)
    [june] = find_times("Lanternfish stays on Heroku until June.", march)
    assert june.date == D(2026, 6, 1)
    # a past sentence keeps the last one
    [end] = find_times("Priya was on holiday until the end of April.", march)
    assert end.date == D(2025, 4, 30)


def test_a_slashed_date_is_read_only_when_its_day_shows() -> None:
    day = dt.date(2026, 1, 20)
    assert [m.date for m in find_times("last day 30/01/2026", day)] == [dt.date(2026, 1, 30)]
    assert [m.date for m in find_times("due 01/30/2026", day)] == [dt.date(2026, 1, 30)]
    assert find_times("on 03/04/2026", day) == []  # March or April: no telling
