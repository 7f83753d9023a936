"""Query and path parameters, checked with an error that says what was wrong."""

from __future__ import annotations

import datetime as dt

from .errors import Invalid


def int_param(request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise Invalid(f"{name} must be a whole number; got {raw!r}", code="bad_parameter") from None
    if not low <= value <= high:
        raise Invalid(f"{name} must be between {low} and {high}", code="bad_parameter")
    return value


def date_value(raw: str, name: str = "date") -> dt.date:
    try:
        return dt.date.fromisoformat(raw)
    except (TypeError, ValueError):
        raise Invalid(f"{name} {raw!r} is not a date: write YYYY-MM-DD", code="bad_date") from None
