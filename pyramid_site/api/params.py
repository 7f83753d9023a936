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


def text_param(request, name: str, max_length: int = 255) -> str | None:
    """A free-text query parameter (None when absent or empty), refused with a control character in it or
    longer than ``max_length``."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    if len(raw) > max_length:
        raise Invalid(f"{name} must be at most {max_length} characters", code="bad_parameter")
    if any(ord(char) < 32 or ord(char) == 127 for char in raw):
        raise Invalid(f"{name} may not contain a control character", code="bad_parameter")
    return raw


def choice_param(request, name: str, choices: list[str]) -> str | None:
    """A query parameter that takes one of ``choices`` (None when absent or empty)."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    if raw not in choices:
        raise Invalid(f"{name} must be one of {', '.join(choices)}; got {raw!r}", code="bad_parameter")
    return raw
