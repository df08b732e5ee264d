from __future__ import annotations

import datetime as dt
import re

from mnemex.text.dates import utc_iso


def test_a_timestamp_is_utc_to_the_second_with_an_offset() -> None:
    moment = dt.datetime(2026, 5, 1, 11, 30, 15, 123456, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    assert utc_iso(moment) == "2026-05-01T09:30:15+00:00"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", utc_iso())
