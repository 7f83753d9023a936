"""Daily deals: the first candidate of a day proved winnable becomes that day's deal.

Candidates come in a fixed order (attempt 0, 1, ...) and verdicts are written once, so any number
of runs, interrupted or simultaneous, settle on the same deal; the unique (date, preset) constraint
keeps it to one row.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings

import engine

from ..daily import commitment, daily_number, new_salt
from ..models import DailyDeal, Deal
from .deals import deal_get_or_create, deal_solve

log = logging.getLogger(__name__)


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
    rules = engine.preset(preset)
    for attempt in range(settings.PYRAMID_DAILY_MAX_ATTEMPTS):
        deal = deal_get_or_create(number=daily_number(settings.PYRAMID_DAILY_SECRET, date, preset, attempt), rules=rules)
        if deal.status == Deal.Status.PENDING:
            return deal
        if deal.status == Deal.Status.WINNABLE:
            salt = new_salt()
            daily, _ = DailyDeal.objects.get_or_create(
                date=date,
                preset=preset,
                defaults={"deal": deal, "attempt": attempt, "salt": salt, "commitment": commitment(deal.text, salt)},
            )
            return daily
    log.error("no winnable daily deal for %s %s in %d attempts", date, preset, settings.PYRAMID_DAILY_MAX_ATTEMPTS)
    return None


def daily_deal_settle(*, date: dt.date, preset: str, budget_seconds: float | None = None) -> DailyDeal | None:
    """Solve candidates in this process until the day has its deal (the operators' command)."""
    result = daily_deal_prepare(date=date, preset=preset)
    while isinstance(result, Deal):
        deal_solve(deal_id=result.pk, budget_seconds=budget_seconds)
        result = daily_deal_prepare(date=date, preset=preset)
    return result
