"""Small typed readers of environment variables; every one has a default that needs nothing, and a
value that does not read as its type stops the start with ``ImproperlyConfigured`` naming the variable.

Each read is also the setting's one declaration: its ``help=`` (what it does), the default and bounds it reads
with, and, where the default depends on something else, the words ``shown=`` for it. Importing settings.py fills
``REGISTRY``, from which ``tools/settings_reference`` writes the table in docs/service.md and ``.env.example``."""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass

from django.core.exceptions import ImproperlyConfigured


@dataclass(frozen=True)
class Setting:
    """One environment variable as settings.py declares it."""

    name: str
    kind: str  # the words for its type in the docs
    default: str  # the default as an operator writes it ("" for empty)
    help: str
    shown: str | None = None  # the default in words, where it depends on something else
    low: float | None = None
    high: float | None = None
    example: str | None = None  # the value .env.example shows, where not the default
    set_in_example: bool = False  # .env.example sets it (uncommented) rather than showing the default
    secret: bool = False  # .env.example leaves it empty and uncommented, to be filled in


# every variable settings.py reads, in the order it reads them
REGISTRY: dict[str, Setting] = {}


def _register(
    name: str,
    kind: str,
    default: str,
    help: str,
    *,
    shown: str | None = None,
    low: float | None = None,
    high: float | None = None,
    example: str | None = None,
    set_in_example: bool = False,
    secret: bool = False,
) -> None:
    known = REGISTRY.get(name)
    if known is not None and known.help:
        return  # read again further down: the first read declares it
    REGISTRY[name] = Setting(name, kind, default, help, shown, low, high, example, set_in_example, secret)


def _number(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _raw(name: str) -> str | None:
    raw = os.environ.get(name)
    return None if raw is None or raw.strip() == "" else raw.strip()


def _refuse(name: str, raw: str, wanted: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(f"{name} must be {wanted}; got {raw!r}")


def env_str(
    name: str,
    default: str = "",
    *,
    help: str = "",
    shown: str | None = None,
    example: str | None = None,
    set_in_example: bool = False,
    secret: bool = False,
) -> str:
    _register(name, "text", default, help, shown=shown, example=example, set_in_example=set_in_example, secret=secret)
    return os.environ.get(name, default)


def env_bool(
    name: str,
    default: bool = False,
    *,
    help: str = "",
    shown: str | None = None,
    example: str | None = None,
    set_in_example: bool = False,
) -> bool:
    _register(
        name,
        "true or false",
        "true" if default else "false",
        help,
        shown=shown,
        example=example,
        set_in_example=set_in_example,
    )
    raw = _raw(name)
    if raw is None:
        return default
    if raw.lower() in ("1", "true", "yes", "on"):
        return True
    if raw.lower() in ("0", "false", "no", "off"):
        return False
    raise _refuse(name, raw, "true or false")


def env_int(
    name: str,
    default: int,
    *,
    low: int | None = None,
    high: int | None = None,
    help: str = "",
    shown: str | None = None,
    example: str | None = None,
) -> int:
    _register(name, "whole number", str(default), help, shown=shown, low=low, high=high, example=example)
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


def env_float(
    name: str, default: float, *, low: float = 0.0, help: str = "", shown: str | None = None, example: str | None = None
) -> float:
    _register(name, "number", _number(default), help, shown=shown, low=low, example=example)
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


def env_date(name: str, default: dt.date, *, help: str = "", shown: str | None = None) -> dt.date:
    _register(name, "date, YYYY-MM-DD", default.isoformat(), help, shown=shown)
    raw = _raw(name)
    if raw is None:
        return default
    try:
        return dt.date.fromisoformat(raw)
    except ValueError:
        raise _refuse(name, raw, "a date, YYYY-MM-DD") from None


def env_list(
    name: str,
    default: list[str],
    *,
    help: str = "",
    shown: str | None = None,
    example: str | None = None,
    set_in_example: bool = False,
) -> list[str]:
    _register(
        name,
        "comma-separated list",
        ",".join(default),
        help,
        shown=shown,
        example=example,
        set_in_example=set_in_example,
    )
    raw = _raw(name)
    if raw is None:
        return list(default)
    return [part.strip() for part in raw.split(",") if part.strip()]
