"""Daily deals: each featured preset's deal of a UTC day is the first candidate of its proven deal
sequence (purpose ``daily``, key ``DATE|PRESET``); the unique (date, preset) constraint keeps it to
one row however many runs settle it at once."""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

import engine
from pyramid_site.clock import day_end

from ..daily import commitment, new_salt
from ..models import DailyDeal, Deal
from .deals import deal_keep_secret
from .sequences import Proven, proven_deal, sequence_settle

log = logging.getLogger(__name__)
PURPOSE = "daily"


def daily_key(date: dt.date, preset: str) -> str:
    return f"{date.isoformat()}|{preset}"


def daily_slots_open(*, today: dt.date, days: int | None = None, presets: list[str] | None = None):
    """The (date, preset) pairs from today on that have no daily deal yet."""
    days = settings.PYRAMID_DAILY_DAYS_AHEAD if days is None else days
    presets = settings.PYRAMID_DAILY_PRESETS if presets is None else presets
    dates = [today + dt.timedelta(days=offset) for offset in range(days)]
    taken = set(DailyDeal.objects.filter(date__in=dates, preset__in=presets).values_list("date", "preset"))
    return [(date, preset) for date in dates for preset in presets if (date, preset) not in taken]


def daily_deal_prepare(*, date: dt.date, preset: str) -> DailyDeal | Deal | None:
    """The day's deal when it is settled; else the next candidate still to be solved; None when
    every allowed attempt was refused."""
    daily = DailyDeal.objects.filter(date=date, preset=preset).select_related("deal").first()
    if daily:
        return daily
    found = proven_deal(
        secret=settings.PYRAMID_DAILY_SECRET,
        purpose=PURPOSE,
        key=daily_key(date, preset),
        rules=engine.preset(preset),
        max_attempts=settings.PYRAMID_DAILY_MAX_ATTEMPTS,
        secret_until=day_end(date),
    )
    if isinstance(found, Proven):
        salt = new_salt()
        with transaction.atomic():
            daily, _ = DailyDeal.objects.get_or_create(
                date=date,
                preset=preset,
                defaults={
                    "deal": found.deal,
                    "attempt": found.attempt,
                    "salt": salt,
                    "commitment": commitment(found.deal.text, salt),
                },
            )
            deal_keep_secret(deal_id=daily.deal_id, until=day_end(daily.date))
        return daily
    if found is None:
        log.error("no winnable daily deal for %s %s in %d attempts", date, preset, settings.PYRAMID_DAILY_MAX_ATTEMPTS)
    return found


def daily_sequence_step(key: str) -> Deal | None:
    """The step of the ``daily`` sequences (see ``sequences``)."""
    date, preset = key.split("|", 1)
    result = daily_deal_prepare(date=dt.date.fromisoformat(date), preset=preset)
    return result if isinstance(result, Deal) else None


def daily_deal_settle(*, date: dt.date, preset: str, budget_seconds: float | None = None) -> DailyDeal | None:
    """Solve candidates in this process until the day has its deal (the operators' command)."""
    sequence_settle(purpose=PURPOSE, key=daily_key(date, preset), budget_seconds=budget_seconds)
    return DailyDeal.objects.filter(date=date, preset=preset).select_related("deal").first()


def daily_deals_ensure(*, today: dt.date, days: int = 2, budget_seconds: float | None = None) -> int:
    """Today's and tomorrow's daily deals, settled in this process if they are missing (a service with no
    beat running does this itself). One process at a time does it (a lock in the cache); the unique
    (date, preset) constraint keeps any race to one deal a day. Returns how many were settled."""
    slots = daily_slots_open(today=today, days=days)
    if not slots or not cache.add(f"pyramid:daily-ensure:{today.isoformat()}", True, timeout=300):
        return 0
    try:
        settled = [daily_deal_settle(date=date, preset=preset, budget_seconds=budget_seconds) for date, preset in slots]
    finally:
        cache.delete(f"pyramid:daily-ensure:{today.isoformat()}")
    return sum(daily is not None for daily in settled)
