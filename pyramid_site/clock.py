"""The service's calendar: days are UTC days."""

from __future__ import annotations

import datetime as dt


def utc_today() -> dt.date:
    return dt.datetime.now(dt.timezone.utc).date()
