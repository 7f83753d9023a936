"""Small typed readers of environment variables; every one has a default that needs nothing, and a
value that does not read as its type stops the start with ``ImproperlyConfigured`` naming the variable."""

from __future__ import annotations

import datetime as dt
import os

from django.core.exceptions import ImproperlyConfigured


def _raw(name: str) -> str | None:
    raw = os.environ.get(name)
    return None if raw is None or raw.strip() == "" else raw.strip()


def _refuse(name: str, raw: str, wanted: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(f"{name} must be {wanted}; got {raw!r}")


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    raw = _raw(name)
    if raw is None:
        return default
    if raw.lower() in ("1", "true", "yes", "on"):
        return True
    if raw.lower() in ("0", "false", "no", "off"):
        return False
    raise _refuse(name, raw, "true or false")


def env_int(name: str, default: int, *, low: int | None = None, high: int | None = None) -> int:
    raw = _raw(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise _refuse(name, raw, "a whole number") from None
    if (low is not None and value < low) or (high is not None and value > high):
        raise _refuse(name, raw, f"a whole number from {low} to {high}")
    return value


def env_float(name: str, default: float, *, low: float = 0.0) -> float:
    raw = _raw(name)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise _refuse(name, raw, "a number") from None
    if not value >= low or value == float("inf"):
        raise _refuse(name, raw, f"a finite number of at least {low}")
    return value


def env_date(name: str, default: dt.date) -> dt.date:
    raw = _raw(name)
    if raw is None:
        return default
    try:
        return dt.date.fromisoformat(raw)
    except ValueError:
        raise _refuse(name, raw, "a date, YYYY-MM-DD") from None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = _raw(name)
    if raw is None:
        return list(default)
    return [part.strip() for part in raw.split(",") if part.strip()]
