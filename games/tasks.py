"""Celery tasks: a few lines each, taking IDs and calling a service; safe to run twice."""

from __future__ import annotations

import datetime as dt

from celery import shared_task
from django.conf import settings
from django.core.cache import cache

from . import services
from .daily import utc_today
from .models import Deal


@shared_task(acks_late=True)
def solve_deal(deal_id: int) -> str:
    return services.deal_solve(deal_id=deal_id).status


def solve_deal_soon(deal_id: int) -> None:
    """Queue a solve unless one was queued lately: a deal asked for again and again is solved once."""
    if cache.add(f"solve-queued:{deal_id}", True, timeout=settings.PYRAMID_SOLVE_BUDGET_SECONDS * 2 + 60):
        solve_deal.delay(deal_id)


@shared_task(acks_late=True)
def prepare_daily_deal(date: str, preset: str) -> str:
    """Settle one day's deal: solve the next candidate in its own task, then look again."""
    result = services.daily_deal_prepare(date=dt.date.fromisoformat(date), preset=preset)
    if isinstance(result, Deal):
        (solve_deal.si(result.pk) | prepare_daily_deal.si(date, preset)).delay()
        return f"solving candidate deal {result.pk}"
    return "settled" if result else "no winnable candidate"


@shared_task
def prepare_daily_deals() -> int:
    """Beat job: keep the daily deals of the coming days ready for every featured preset."""
    slots = services.daily_slots_open(today=utc_today())
    for date, preset in slots:
        prepare_daily_deal.delay(date.isoformat(), preset)
    return len(slots)


@shared_task
def recheck_ranked_day(date: str | None = None) -> dict:
    """Beat job (daily): replay the finished ranked games of a day (yesterday by default) and flag
    any whose stored result differs or that trip the suspicious-play rule."""
    day = dt.date.fromisoformat(date) if date else utc_today() - dt.timedelta(days=1)
    report = services.ranked_day_recheck(date=day)
    return {"date": day.isoformat(), "games": report.games, "mismatched": report.mismatched,
            "suspicious": report.suspicious, "flags_new": report.flags_new}
