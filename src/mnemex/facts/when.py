"""Reading dates in a short statement, against the date of the note it came from.

:func:`find_times` scans a statement for every date it mentions and resolves each one
against the evidence date ``d`` (the day the note was written), returning
:class:`TimeMention` objects in text order: where the phrase is, the first day of the
period it names, the first day after it (exclusive), the precision the text fixed
(``day``, ``month`` or ``year``), whether it was relative to ``d`` and whether it could
be resolved at all.

What is read:

* absolute dates: ISO ``2026-01-19`` and ``2019-03``; ``3 November 2025``,
  ``Nov 3, 2025``, ``September 1st, 2026``, ``Friday 30 January 2026``,
  ``Monday 2025-11-03``; ``April 2022``, ``April '22``; ``Apr 30``, ``30 April`` and
  ``January 1st`` (the year is taken from a full date in the same sentence, ``from Apr
  30 until 2026-05-14``, else the one that puts the day nearest ``d``); ``in 2019``; an
  ordinal shortly after a month makes it a day (``since March 2019 (moved in on the
  1st)``: 2019-03-01);
* relative phrases: today, yesterday, tomorrow; weekdays (``on Monday``, ``last
  Friday``, ``next Tuesday``); ``this/last/next week|month|year``; a bare month
  (``in July``, ``this July``); New Year's Day; ``N days/weeks/months/years ago``;
  ``in N days/weeks``;
* phrases that name no date (``a while back``, ``recently``, ``at some point``,
  ``after the reorg``, ``once the migration is done``): returned with
  ``resolved=False`` and no date, so nothing is invented.

Tense matters for weekdays and bare months: ``on Monday`` in a past-tense sentence is
the latest Monday on or before ``d``, in a future-tense one the next Monday after
``d``; ``in July`` is the coming July for a plan and the last July otherwise, and a month
after ``until``/``through`` in a sentence with no past word is the coming one (``on
holiday until the end of April``). A progressive change with no auxiliary (``Moving to
Lisbon in July!``) is a plan unless the sentence has a past word.
:func:`is_future` is the (rough, keyword-based) tense test used when the caller does
not say.

Limits: English only; a bare ordinal with no month before it (``on the 15th``) is not
read; no times of day, ranges like ``3-5 May``, quarters, fiscal
years, ``end of next month`` or ``the week of ...``; approximate spans (``a few
weeks ago``) are treated as unresolvable rather than guessed.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from dateutil.relativedelta import relativedelta

from mnemex.facts.claims import Precision

#: Month and weekday names, lower case (the extractor treats them as time words too).
MONTHS: dict[str, int] = {
    "january": 1,
    "february": 2,
    "march": 3,
    "april": 4,
    "may": 5,
    "june": 6,
    "july": 7,
    "august": 8,
    "september": 9,
    "october": 10,
    "november": 11,
    "december": 12,
}
WEEKDAYS: dict[str, int] = {
    "monday": 0,
    "tuesday": 1,
    "wednesday": 2,
    "thursday": 3,
    "friday": 4,
    "saturday": 5,
    "sunday": 6,
}
_NUMBERS: dict[str, int] = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "a couple of": 2,
    "couple of": 2,
}

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_MONTH_FULL = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
)
_WEEKDAY = (
    r"(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?"
    r"|sat(?:urday)?|sun(?:day)?)"
)
_WD_PREFIX = rf"(?:(?P<wd>{_WEEKDAY}),?\s+)?"
_NUM = (
    r"(?P<n>\d+|a couple of|couple of|an?|one|two|three|four|five|six|seven|eight|nine|ten"
    r"|eleven|twelve)"
)

_P_ISO_DAY = re.compile(rf"\b{_WD_PREFIX}(?P<y>\d{{4}})-(?P<m>\d{{1,2}})-(?P<d>\d{{1,2}})\b", re.I)
_P_SLASHED = re.compile(r"(?<![\d/])(?P<a>\d{1,2})[/.](?P<b>\d{1,2})[/.](?P<y>\d{4})\b")
_P_ISO_MONTH = re.compile(r"(?<![\d-])(?P<y>\d{4})-(?P<m>\d{2})\b(?!-\d)")
_P_DMY = re.compile(
    rf"\b{_WD_PREFIX}(?:the\s+)?(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?\s+(?P<mon>{_MONTH})\b"
    r"(?:,?\s+(?P<y>\d{4})\b|\s+'(?P<yy>\d{2})\b)?",
    re.I,
)
_P_MDY = re.compile(
    rf"\b{_WD_PREFIX}(?P<mon>{_MONTH})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b(?![:\d])"
    r"(?:,?\s+(?P<y>\d{4})\b)?",
    re.I,
)
_P_MY = re.compile(rf"\b(?P<mon>{_MONTH})\.?,?\s+(?:(?P<y>\d{{4}})\b|'(?P<yy>\d{{2}})\b)", re.I)
_P_REL_UNIT = re.compile(
    r"\b(?:(?P<early>earlier|later)\s+)?(?P<which>this|current|last|next|past|coming|previous)\s+"
    r"(?P<unit>week|month|year)\b",
    re.I,
)
_P_AGO = re.compile(rf"\b{_NUM}\s+(?P<unit>day|week|month|year)s?\s+ago\b", re.I)
_P_IN_N = re.compile(rf"\bin\s+{_NUM}\s+(?P<unit>day|week|month|year)s?(?:'?\s*time)?\b", re.I)
_P_FROM_NOW = re.compile(  # "a week from today", "two days from now"
    rf"\b{_NUM}\s+(?P<unit>day|week|month|year)s?\s+from\s+(?:today|now)\b", re.I
)
_P_DAYWORD = re.compile(
    r"\b(?P<w>the\s+day\s+before\s+yesterday|the\s+day\s+after\s+tomorrow|today|tonight"
    r"|yesterday|tomorrow)\b",
    re.I,
)
_P_WEEKDAY = re.compile(
    r"\b(?:(?P<which>last|next|this\s+past|past|this|coming)\s+)?"
    r"(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
    re.I,
)
#: A weekday written short in a note, capitalised (``since Mon``, ``last Fri``): never a
#: word (``sun``, ``sat``, ``wed`` in lower case are words), never before a day's number.
_P_WEEKDAY_SHORT = re.compile(
    r"\b(?:(?P<which>last|next|this\s+past|past|this|coming)\s+)?"
    r"(?P<wd>Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun)\b\.?(?!\s*\d)"
)
#: A weekday written short in lower case, after a word that takes a day (``since mon``,
#: ``last fri``): only the short forms that are no English word (``sat``, ``sun``, ``wed``
#: are).
_P_WEEKDAY_LOWER = re.compile(
    r"\b(?:since|from|until|till|by|on|starting|(?P<which>last|next|this\s+past|past|this|coming))"
    r"\s+(?P<wd>mon|tues?|thu(?:rs?)?|fri)\b\.?(?!\s*\d)"
)
_P_WEEKDAY_OF_WEEK = re.compile(
    r"\b(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday|Mon|Tues?|Wed|Thu(?:rs?)?"
    r"|Fri|Sat|Sun)\.?,?\s+(?:of\s+)?(?P<which>this|last|next)\s+week\b",
    re.I,
)
_WEEKDAY_SHORT = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}
_P_NEW_YEAR = re.compile(r"\bNew\s+Year(?:'s)?(?:\s+Day)?\b", re.I)
_P_BARE_MONTH = re.compile(
    rf"\b(?:(?P<which>this|last|next|coming)\s+)?(?P<mon>{_MONTH_FULL})\b",
    re.I,
)
_P_YEAR = re.compile(
    r"\b(?P<pre>in|since|from|until|till|by|during|early|late|mid)\s+(?P<y>(?:19|20)\d{2})\b(?!-)",
    re.I,
)
_P_START_OF = re.compile(  # "since start of the month", "from the beginning of this week"
    r"\b(?:the\s+)?(?:start|beginning)\s+of\s+(?:the|this)\s+(?P<unit>week|month|year)\b", re.I
)
_P_END_OF = re.compile(
    r"\b(?:the\s+)?end\s+of\s+(?:the\s+)?(?:(?:(?P<which>this|last|next)\s+)?(?P<unit>week|month|year)"
    rf"|(?P<mon>{_MONTH})\.?(?:\s+(?P<y>\d{{4}}))?)\b",
    re.I,
)
_EVENT = (
    r"(?:reorg|reorgani[sz]ation|release|launch|migration|merger|move|refactor|rewrite|holidays?"
    r"|summer|winter|funding\s+round|acquisition|restructur\w*|cutover|rollout|freeze|audit"
    r"|wedding|baby|project|rebrand)"
)
_P_UNRESOLVED = re.compile(
    r"\b(?:a\s+while\s+(?:back|ago)|for\s+a\s+(?:long\s+)?while(?:\s+now)?|(?:quite\s+)?some\s+time\s+ago"
    r"|a\s+few\s+(?:days|weeks|months|years)\s+(?:ago|back)|a\s+long\s+time\s+ago|long\s+ago"
    r"|ages\s+ago|years\s+ago|for\s+(?:ages|years|a\s+long\s+time)|recently|lately|at\s+some\s+point|one\s+of\s+these\s+days|some\s*day"
    r"|eventually|sooner\s+or\s+later|in\s+the\s+(?:near\s+)?future|down\s+the\s+line"
    rf"|(?:after|following|once|when|before)\s+(?:the\s+|our\s+|their\s+|its\s+|[A-Z][\w-]*'s\s+)"
    rf"(?:[\w-]+\s+){{0,2}}?{_EVENT}\b"
    r"(?:\s+(?:is|are|has\s+been|have\s+been)\s+(?:done|over|finished|complete|completed|through))?"
    rf"|\b(?:post|pre)-{_EVENT}\b"  # "post-reorg"
    r"|once\s+(?:the\s+|our\s+|their\s+|[A-Z][\w-]*'s\s+)?[\w-]+(?:\s+[\w-]+){0,2}?\s+"
    r"(?:is|are|has\s+been|have\s+been)\s+(?:done|over|finished|complete|completed|through))",
    re.I,
)

_FUTURE = re.compile(
    r"\b(?:will|shall|going\s+to|gonna|plans?\s+to|planning\s+to|planned|scheduled|upcoming"
    r"|about\s+to|next\s+(?:week|month|year|monday|tuesday|wednesday|thursday|friday|saturday"
    r"|sunday)|tomorrow|in\s+\d+\s+(?:days|weeks|months)|effective|once|from\s+next"
    r"|(?:is|are|am|'re|'m|'s)\s+(?:moving|relocating|joining|leaving|starting|switching|migrating"
    r"|going|heading|taking\s+over|stepping))\b|'ll\b",
    re.I,
)
#: A change told in the simple present is a schedule: "In July I relocate", "Ines joins on
#: Monday" (a habit, "I drink tea", names no change).
_SCHEDULED_PRESENT = re.compile(
    r"\b(?:I|we|you|they)\s+(?:relocate|move|start|join|leave|switch|begin|migrate|return|fly"
    r"|emigrate|retire)\b"
    r"|\b(?:relocates|moves\s+(?:to|house|over)|starts(?!\s+(?:the|my|her|his|their)\s+day)"
    r"|joins|leaves|switches|begins|migrates|returns|emigrates|retires|steps\s+(?:up|down)"
    r"|takes\s+(?:over|on|up)|assumes|goes\s+live|kicks\s+off|becomes|goes\s+(?:from|to)"
    r"|moves\s+(?:from|up|into)|steps\s+into"
    r"|changes\s+to)\b",
    re.I,
)
#: A progressive change with no auxiliary, in a note's clipped style, is a plan too:
#: "Moving to Lisbon in July!", "Priya starting at Globex next month", "so switching to Helix".
_BARE_PROGRESSIVE = re.compile(
    r"(?:^|[.!?:;]\s+|\b(?i:and|so|but|then|now)\s+|\b[A-Z][\w.'-]*\s+)"
    r"(?i:(?:(?:finally|officially|soon|also|probably|definitely)\s+)?"
    r"(?:moving|relocating|joining|leaving|starting|switching|migrating|heading|returning"
    r"|transferring|emigrating|taking\s+over|stepping\s+(?:up|down|in)))\b"
)
_PAST_MARKER = re.compile(
    r"\b(?:ago|last|yesterday|since|already|was|were|had|did|earlier)\b|\b\w+ed\b", re.I
)


#: The narrower past test for a clipped progressive ("Joining Kestrel in May, so excited"
#: is a plan; "excited" is no past tense): past words, and the change verbs in the past.
_PAST_WORD = re.compile(
    r"\b(?:ago|last|yesterday|since|already|was|were|had|did|earlier|been|moved|relocated"
    r"|joined|left|started|switched|migrated|returned|transferred|emigrated|took)\b",
    re.I,
)


@dataclass(frozen=True)
class TimeMention:
    """One date phrase found in a statement.

    Attributes:
        phrase: The text of the phrase as written (``"next week"``).
        start: Where the phrase starts in the text.
        end: Where it ends (exclusive).
        date: The first day of the period the phrase names; None when unresolved.
        until: The first day after that period (exclusive end); None when unresolved.
        precision: What the text fixed: ``day``, ``month`` or ``year``.
        relative: True when the phrase only means something against the evidence date.
        resolved: False for phrases that name no date (``a while back``).
    """

    phrase: str
    start: int
    end: int
    date: dt.date | None
    until: dt.date | None
    precision: Precision = "day"
    relative: bool = False
    resolved: bool = True


def is_future(text: str) -> bool:
    """Whether a statement talks about something still to come (a keyword test).

    Args:
        text: The statement.

    Returns:
        True when the statement has a future marker (``will``, ``going to``, ``next
        week``, ``is moving``, ``once ...``, ``planned``...), or, with no past marker,
        tells a change in the simple present (``In July I relocate``, ``Ines joins on
        Monday``) or as a progressive with no auxiliary (``Moving to Lisbon in July!``).
    """
    if _FUTURE.search(text):
        return True
    if _BARE_PROGRESSIVE.search(text) and not _PAST_WORD.search(text):
        return True
    return bool(_SCHEDULED_PRESENT.search(text)) and not _PAST_MARKER.search(text)


def _month_start(year: int, month: int) -> dt.date:
    return dt.date(year, month, 1)


def _next_month(day: dt.date) -> dt.date:
    return (day.replace(day=1) + relativedelta(months=1)).replace(day=1)


def _monday(day: dt.date) -> dt.date:
    return day - dt.timedelta(days=day.weekday())


def _month_number(token: str) -> int | None:
    low = token.lower().rstrip(".")
    for name, number in MONTHS.items():
        if name.startswith(low) and len(low) >= 3:
            return number
    return None


_MAY_CONTEXT = re.compile(
    r"(?:\b(?:in|since|from|until|till|by|during|of|early|mid|late|this|last|next)"
    r"|\d(?:st|nd|rd|th)?)\s*$",
    re.I,
)


def _plausible_month(token: str, before: str, *, dated: bool = False) -> bool:
    """Rules out ``may``/``march``/``mar`` used as words, and lowercase abbreviations; a
    month written with its day (``ends on May 13``, ``apr 1 2022``) is the month however
    it is cased and wherever it stands."""
    low = token.lower()
    if dated:  # with its day ("30 apr", "apr 1 2022", "ends on May 13"): a month however cased
        return True
    if (low in {"may", "march", "mar"} or len(low) <= 4) and not token[:1].isupper():
        return False
    return low != "may" or bool(_MAY_CONTEXT.search(before))


def _safe_date(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def _nearest_year(month: int, day: int, d: dt.date, future: bool) -> dt.date | None:
    """The year that puts ``day month`` nearest ``d``; not in the past for a plan."""
    options = [_safe_date(y, month, day) for y in (d.year - 1, d.year, d.year + 1)]
    valid = [o for o in options if o is not None and (not future or o >= d)]
    if not valid:
        return None
    return min(valid, key=lambda o: abs((o - d).days))


def _count(token: str) -> int:
    low = " ".join(token.lower().split())
    return int(low) if low.isdigit() else _NUMBERS.get(low, 1)


def _day(
    phrase: str, m: re.Match[str], day: dt.date | None, *, rel: bool, start: int | None = None
) -> TimeMention | None:
    if day is None:
        return None
    at = m.start() if start is None else start
    return TimeMention(phrase, at, m.end(), day, day + dt.timedelta(days=1), "day", rel)


def _month(phrase: str, m: re.Match[str], year: int, month: int, *, rel: bool) -> TimeMention:
    first = _month_start(year, month)
    return TimeMention(phrase, m.start(), m.end(), first, _next_month(first), "month", rel)


def _year(
    phrase: str, m: re.Match[str], year: int, *, rel: bool, start: int | None = None
) -> TimeMention:
    return TimeMention(
        phrase,
        m.start() if start is None else start,
        m.end(),
        dt.date(year, 1, 1),
        dt.date(year + 1, 1, 1),
        "year",
        rel,
    )


def _two_digit_year(yy: str) -> int:
    return 2000 + int(yy)


def _context_year(month: int, day: int, known: list[dt.date]) -> dt.date | None:
    """``day month`` in the year that puts it nearest a date the sentence gives in full
    (``from Dec 20 until 2027-01-05``: 2026-12-20)."""
    best: dt.date | None = None
    for anchor in known:
        for year in (anchor.year - 1, anchor.year, anchor.year + 1):
            option = _safe_date(year, month, day)
            if option and (best is None or abs((option - anchor).days) < abs((best - anchor).days)):
                best = option
    return best


def _full_dates(text: str) -> list[dt.date]:
    """The dates in ``text`` that carry their own year."""
    out: list[dt.date] = []
    for m in _P_ISO_DAY.finditer(text):
        day = _safe_date(int(m["y"]), int(m["m"]), int(m["d"]))
        if day:
            out.append(day)
    for pattern in (_P_DMY, _P_MDY):
        for m in pattern.finditer(text):
            month_no = _month_number(m["mon"])
            year = m["y"] or m.groupdict().get("yy")
            if month_no and year:
                full = int(year) if len(year) == 4 else _two_digit_year(year)
                day = _safe_date(full, month_no, int(m["d"]))
                if day:
                    out.append(day)
    return out


def _read_absolute(text: str, d: dt.date, future: bool) -> list[TimeMention]:
    out: list[TimeMention] = []
    known = _full_dates(text)
    for m in _P_ISO_DAY.finditer(text):
        hit = _day(m.group(0), m, _safe_date(int(m["y"]), int(m["m"]), int(m["d"])), rel=False)
        if hit:
            out.append(hit)
    for m in _P_SLASHED.finditer(text):  # 30/01/2026, 01/30/2026: only when the day shows
        a, b, slashed_year = int(m["a"]), int(m["b"]), int(m["y"])
        if a > 12 >= b:
            hit = _day(m.group(0), m, _safe_date(slashed_year, b, a), rel=False)
        elif b > 12 >= a:
            hit = _day(m.group(0), m, _safe_date(slashed_year, a, b), rel=False)
        else:
            continue  # 03/04/2026: March or April, no telling
        if hit:
            out.append(hit)
    for m in _P_ISO_MONTH.finditer(text):
        month = int(m["m"])
        if 1 <= month <= 12:
            out.append(_month(m.group(0), m, int(m["y"]), month, rel=False))
    for pattern in (_P_DMY, _P_MDY):
        for m in pattern.finditer(text):
            month_no = _month_number(m["mon"])
            before = text[: m.start("mon")]
            if month_no is None or not _plausible_month(m["mon"], before, dated=True):
                continue
            if m["y"]:
                year: int | None = int(m["y"])
            elif m.groupdict().get("yy"):
                year = _two_digit_year(m["yy"])
            else:
                year = None
            if year is None and known:
                day = _context_year(month_no, int(m["d"]), known)
                hit = _day(m.group(0), m, day, rel=True)
            elif year is None:
                hit = _day(m.group(0), m, _nearest_year(month_no, int(m["d"]), d, future), rel=True)
            else:
                hit = _day(m.group(0), m, _safe_date(year, month_no, int(m["d"])), rel=False)
            if hit:
                out.append(hit)
    for m in _P_MY.finditer(text):
        month_no = _month_number(m["mon"])
        if month_no is None or not _plausible_month(m["mon"], text[: m.start("mon")]):
            continue
        year = int(m["y"]) if m["y"] else _two_digit_year(m["yy"])
        out.append(_month(m.group(0), m, year, month_no, rel=False))
    for m in _P_YEAR.finditer(text):
        out.append(_year(m.group(0), m, int(m["y"]), rel=False, start=m.start("y")))
    return out


def _ahead(text: str, start: int) -> bool:
    """Whether the month at ``start`` ends a period that is still on, or starts one ahead:
    ``is on holiday until the end of April``, ``stays on Heroku until June``, ``Staff
    Engineer from April`` (no past word in the sentence: "since April" looks back)."""
    return bool(
        re.search(
            r"\b(?:until|till|til|through|thru|from|starting|effective)\s+$", text[:start], re.I
        )
    ) and not _PAST_MARKER.search(text)


def _read_relative(text: str, d: dt.date, future: bool) -> list[TimeMention]:
    out: list[TimeMention] = []
    for m in _P_DAYWORD.finditer(text):
        word = " ".join(m["w"].lower().split())
        shift = {
            "today": 0,
            "tonight": 0,
            "yesterday": -1,
            "tomorrow": 1,
            "the day before yesterday": -2,
            "the day after tomorrow": 2,
        }[word]
        hit = _day(m.group(0), m, d + dt.timedelta(days=shift), rel=True)
        if hit:
            out.append(hit)
    for m in _P_REL_UNIT.finditer(text):
        which = m["which"].lower()
        step = {
            "this": 0,
            "current": 0,
            "last": -1,
            "past": -1,
            "previous": -1,
            "next": 1,
            "coming": 1,
        }[which]
        unit = m["unit"].lower()
        if unit == "week":
            first = _monday(d) + dt.timedelta(weeks=step)
            out.append(
                TimeMention(
                    m.group(0),
                    m.start(),
                    m.end(),
                    first,
                    first + dt.timedelta(weeks=1),
                    "day",
                    True,
                )
            )
        elif unit == "month":
            first = d.replace(day=1) + relativedelta(months=step)
            out.append(_month(m.group(0), m, first.year, first.month, rel=True))
        else:
            out.append(_year(m.group(0), m, d.year + step, rel=True))
    for m in _P_AGO.finditer(text):
        n = _count(m["n"])
        unit = m["unit"].lower()
        if unit == "day":
            hit = _day(m.group(0), m, d - dt.timedelta(days=n), rel=True)
        elif unit == "week":
            hit = _day(m.group(0), m, d - dt.timedelta(weeks=n), rel=True)
        elif unit == "month":
            first = d.replace(day=1) - relativedelta(months=n)
            hit = _month(m.group(0), m, first.year, first.month, rel=True)
        else:
            hit = _year(m.group(0), m, d.year - n, rel=True)
        if hit:
            out.append(hit)
    for m in [*_P_IN_N.finditer(text), *_P_FROM_NOW.finditer(text)]:
        n = _count(m["n"])
        unit = m["unit"].lower()
        if unit == "day":
            hit = _day(m.group(0), m, d + dt.timedelta(days=n), rel=True)
        elif unit == "week":
            hit = _day(m.group(0), m, d + dt.timedelta(weeks=n), rel=True)
        elif unit == "month":
            first = d.replace(day=1) + relativedelta(months=n)
            hit = _month(m.group(0), m, first.year, first.month, rel=True)
        else:
            hit = _year(m.group(0), m, d.year + n, rel=True)
        if hit:
            out.append(hit)
    for m in _P_WEEKDAY_OF_WEEK.finditer(text):  # "Monday last week", "Mon this week"
        name = m["wd"].lower()
        target = WEEKDAYS.get(name, _WEEKDAY_SHORT.get(name[:3], 0))
        step = {"this": 0, "last": -1, "next": 1}[m["which"].lower()]
        hit = _day(m.group(0), m, _monday(d) + dt.timedelta(weeks=step, days=target), rel=True)
        if hit:
            out.append(hit)
    weekdays = [
        *_P_WEEKDAY.finditer(text),
        *_P_WEEKDAY_SHORT.finditer(text),
        *_P_WEEKDAY_LOWER.finditer(text),
    ]
    for m in weekdays:
        name = m["wd"].lower()
        target = WEEKDAYS.get(name, _WEEKDAY_SHORT.get(name[:3], 0))
        which = " ".join((m["which"] or "").lower().split())
        if which in ("this past", "past"):
            which = "last"  # "this past Monday"
        back = (d.weekday() - target) % 7  # days since the latest such weekday (0: today)
        if which == "last":
            day = d - dt.timedelta(days=back or 7)
        elif which in {"next", "coming"} or (which in {"", "this"} and future):
            day = d + dt.timedelta(days=(target - d.weekday()) % 7 or 7)
        else:
            day = d - dt.timedelta(days=back)
        start = m.start("which") if m["which"] else m.start("wd")  # not "since" in "since mon"
        hit = _day(text[start : m.end()], m, day, rel=True, start=start)
        if hit:
            out.append(hit)
    for m in _P_NEW_YEAR.finditer(text):
        year = d.year + 1 if future and (d.month, d.day) != (1, 1) else d.year
        hit = _day(m.group(0), m, dt.date(year, 1, 1), rel=True)
        if hit:
            out.append(hit)
    for m in _P_BARE_MONTH.finditer(text):
        if not _plausible_month(m["mon"], text[: m.start("mon")]):
            continue
        month_no = MONTHS[m["mon"].lower()]
        which = (m["which"] or "").lower()
        if which == "this":
            year = d.year
        elif which == "last":
            year = d.year if month_no < d.month else d.year - 1
        elif which in {"next", "coming"}:
            year = d.year if month_no > d.month else d.year + 1
        elif future or _ahead(text, m.start()):
            year = d.year if month_no >= d.month else d.year + 1
        else:
            year = d.year if month_no <= d.month else d.year - 1
        out.append(_month(m.group(0), m, year, month_no, rel=True))
    for m in _P_START_OF.finditer(text):
        unit = m["unit"].lower()
        first = (
            _monday(d)
            if unit == "week"
            else d.replace(day=1)
            if unit == "month"
            else dt.date(d.year, 1, 1)
        )
        hit = _day(m.group(0), m, first, rel=True)
        if hit:
            out.append(hit)
    for m in _P_END_OF.finditer(text):
        if m["unit"]:
            step = {"this": 0, "last": -1, "next": 1}[(m["which"] or "this").lower()]
            unit = m["unit"].lower()
            if unit == "week":
                last = _monday(d) + dt.timedelta(weeks=step, days=6)
            elif unit == "month":
                last = _next_month(d.replace(day=1) + relativedelta(months=step)) - dt.timedelta(1)
            else:
                last = dt.date(d.year + step, 12, 31)
            rel = True
        else:
            end_of = _month_number(m["mon"])
            if end_of is None or not _plausible_month(m["mon"], "end of ", dated=True):
                continue
            month_no = end_of
            if m["y"]:
                year = int(m["y"])
            elif future or _ahead(text, m.start()):
                year = d.year if month_no >= d.month else d.year + 1
            else:
                year = d.year if month_no <= d.month else d.year - 1
            last = _next_month(_month_start(year, month_no)) - dt.timedelta(days=1)
            rel = not m["y"]
        hit = _day(m.group(0), m, last, rel=rel)
        if hit:
            out.append(hit)
    for m in _P_UNRESOLVED.finditer(text):
        out.append(TimeMention(m.group(0), m.start(), m.end(), None, None, "day", True, False))
    return out


def find_times(
    text: str, evidence_date: dt.date, *, future: bool | None = None
) -> list[TimeMention]:
    """Every date phrase in ``text``, resolved against ``evidence_date``, in text order.

    Overlapping readings are settled by keeping the longest phrase that starts first
    (``Friday 30 January 2026`` is one date, not a weekday and a date).

    Args:
        text: The statement.
        evidence_date: The day the statement was written.
        future: Whether the statement is about the future; None: guess with
            :func:`is_future`.

    Returns:
        The mentions, non-overlapping, sorted by position.
    """
    tense = is_future(text) if future is None else future
    found = _read_absolute(text, evidence_date, tense) + _read_relative(text, evidence_date, tense)
    found.sort(key=lambda t: (t.start, -(t.end - t.start), not t.resolved))
    chosen: list[TimeMention] = []
    for mention in found:
        if any(mention.start < c.end and c.start < mention.end for c in chosen):
            continue
        chosen.append(mention)
    return _refine_by_ordinal(text, chosen)


#: A bare day of the month after a month: "since March 2019 (moved in on the 1st)".
_P_ORDINAL = re.compile(r"\b(?:on\s+)?the\s+(?P<d>\d{1,2})(?:st|nd|rd|th)\b(?!\s+of\b)", re.I)


def _refine_by_ordinal(text: str, mentions: list[TimeMention]) -> list[TimeMention]:
    """A month made a day by an ordinal shortly after it, in the same sentence, with no
    other date between (``March 2019 (moved in on the 1st)``: 2019-03-01, day precision)."""
    out: list[TimeMention] = []
    for i, mention in enumerate(mentions):
        if mention.precision == "month" and mention.date is not None:
            limit = mentions[i + 1].start if i + 1 < len(mentions) else len(text)
            gap = text[mention.end : min(limit, mention.end + 50)]
            m = _P_ORDINAL.search(gap)
            if m and not re.search(r"[.!?;]", gap[: m.start()]):
                day = _safe_date(mention.date.year, mention.date.month, int(m["d"]))
                if day is not None:
                    mention = TimeMention(
                        mention.phrase,
                        mention.start,
                        mention.end,
                        day,
                        day + dt.timedelta(days=1),
                        "day",
                        mention.relative,
                    )
        out.append(mention)
    return out


def resolve(
    phrase: str, evidence_date: dt.date, *, future: bool | None = None
) -> TimeMention | None:
    """Read one date phrase on its own (``"next week"``, ``"3 November 2025"``).

    Args:
        phrase: The phrase; a leading ``on``/``since``/``from``... is allowed.
        evidence_date: The day it was written.
        future: Whether it is about the future; None: guess with :func:`is_future`.

    Returns:
        The first mention found in the phrase, or None when it holds no date.
    """
    found = find_times(phrase, evidence_date, future=future)
    return found[0] if found else None


__all__ = ["MONTHS", "WEEKDAYS", "TimeMention", "find_times", "is_future", "resolve"]
