"""Query and path parameters, checked with an error that says what was wrong."""

from __future__ import annotations

import datetime as dt

from django.utils.translation import gettext

from pyramid_site.errors import Code, DomainError


def int_param(request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise DomainError(
            Code.BAD_PARAMETER,
            gettext("%(name)s must be a whole number; got %(raw)s") % {"name": name, "raw": repr(raw)},
        ) from None
    if not low <= value <= high:
        raise DomainError(
            Code.BAD_PARAMETER,
            gettext("%(name)s must be between %(low)s and %(high)s") % {"name": name, "low": low, "high": high},
        )
    return value


# the days the service reads: a week or a month from any of them is still a date (9999-12-27's week is not)
FIRST_DATE, LAST_DATE = dt.date(1, 2, 1), dt.date(9998, 12, 31)


def date_value(raw: str, name: str = "date") -> dt.date:
    try:
        value = dt.date.fromisoformat(raw)
    except (TypeError, ValueError):
        raise DomainError(
            Code.BAD_DATE,
            gettext("%(name)s %(raw)s is not a date: write YYYY-MM-DD") % {"name": name, "raw": repr(raw)},
        ) from None
    if not FIRST_DATE <= value <= LAST_DATE:
        raise DomainError(
            Code.BAD_DATE,
            gettext("%(name)s %(raw)s is out of range: %(first)s to %(last)s")
            % {"name": name, "raw": repr(raw), "first": FIRST_DATE.isoformat(), "last": LAST_DATE.isoformat()},
        )
    return value


def text_param(request, name: str, max_length: int = 255) -> str | None:
    """A free-text query parameter (None when absent or empty), refused with a control character in it or
    longer than ``max_length``."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    if len(raw) > max_length:
        raise DomainError(
            Code.BAD_PARAMETER,
            gettext("%(name)s must be at most %(max_length)s characters") % {"name": name, "max_length": max_length},
        )
    if any(ord(char) < 32 or ord(char) == 127 for char in raw):
        raise DomainError(Code.BAD_PARAMETER, gettext("%(name)s may not contain a control character") % {"name": name})
    return raw


def choice_param(request, name: str, choices: list[str]) -> str | None:
    """A query parameter that takes one of ``choices`` (None when absent or empty)."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    return choice_value(raw, name, choices)


def choice_value(raw: str, name: str, choices: list[str]) -> str:
    """A parameter (of the query or the path) that takes one of ``choices``: 400 ``bad_parameter`` otherwise."""
    if raw not in choices:
        raise DomainError(
            Code.BAD_PARAMETER,
            gettext("%(name)s must be one of %(choices)s; got %(raw)s")
            % {"name": name, "choices": ", ".join(choices), "raw": repr(raw)},
        )
    return raw
