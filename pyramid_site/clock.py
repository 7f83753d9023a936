"""The service's calendar: days are UTC days."""

from __future__ import annotations

import datetime as dt


def utc_today() -> dt.date:
    return dt.datetime.now(dt.UTC).date()


def day_end(date: dt.date) -> dt.datetime:
    """The moment a UTC day is over (a daily deal's ranked games close and its deal becomes public)."""
    return dt.datetime.combine(date + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
