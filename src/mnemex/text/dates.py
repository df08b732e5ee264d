"""Dates: reading them in whatever format a note or dataset uses, and the one
timestamp format mnemex writes.

Reading never raises: a date that cannot be read is ``None``, and the caller falls
back (a note's date falls back to its file's mtime). Every timestamp mnemex writes
(frontmatter ``created``/``updated``, journals, ledgers, heartbeats, plans) is
:func:`utc_iso`'s: UTC, to the second, with a ``+00:00`` offset.
"""

from __future__ import annotations

import datetime as dt
import re

from dateutil import parser as _parser

from mnemex.errors import VaultError

_DEFAULT = dt.datetime(2000, 1, 1)
_HAS_DIGIT = re.compile(r"\d")


def parse_date(text: str) -> str | None:
    """``"1:56 pm on 8 May, 2023"`` -> ``"2023-05-08T13:56:00"``; unreadable -> None.

    Dates without a time give a date (``"2023-05-08"``); timezone-aware inputs keep
    their offset.
    """
    raw = text.strip()
    if not raw or not _HAS_DIGIT.search(raw) or len(raw) > 100:
        return None
    try:
        value = dt.date.fromisoformat(raw)
        return value.isoformat()
    except ValueError:
        pass
    try:
        parsed = _parser.parse(raw, fuzzy=True, default=_DEFAULT)
    except (ValueError, OverflowError, TypeError):
        return None
    if parsed.year < 1 or parsed.year > 9999:
        return None
    if parsed.time() == dt.time(0) and parsed.tzinfo is None and ":" not in raw:
        return parsed.date().isoformat()
    return parsed.isoformat()


def iso_day(raw: str | None, name: str) -> dt.date | None:
    """An argument that must be a day (``2026-12-01``); None stays None.

    Raises:
        VaultError: ``raw`` is not a ``YYYY-MM-DD`` day (the message names ``name``).
    """
    if raw is None:
        return None
    try:
        return dt.date.fromisoformat(raw.strip())
    except ValueError as exc:
        raise VaultError(f"{name}={raw!r} is not a day; give one like 2026-12-01") from exc


def utc_iso(when: dt.datetime | None = None) -> str:
    """``when`` (default: now) in UTC to the second: ``"2026-05-01T09:30:00+00:00"``.

    A naive ``when`` is taken as local time.
    """
    moment = when if when is not None else dt.datetime.now(dt.UTC)
    return moment.astimezone(dt.UTC).isoformat(timespec="seconds")


__all__ = ["iso_day", "parse_date", "utc_iso"]
