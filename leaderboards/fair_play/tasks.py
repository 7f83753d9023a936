"""Fair play's Celery job: a few lines, safe to run twice (a game keeps one flag of a kind)."""

from __future__ import annotations

import datetime as dt

from celery import shared_task

from pyramid_site.clock import utc_today

from .recheck import ranked_day_recheck


@shared_task
def recheck_ranked_day(date: str | None = None) -> dict:
    """Beat job (daily): replay the finished ranked games of a day (yesterday by default) and flag
    any whose stored result differs or that trip the suspicious-play rule."""
    day = dt.date.fromisoformat(date) if date else utc_today() - dt.timedelta(days=1)
    report = ranked_day_recheck(date=day)
    return {"date": day.isoformat(), "games": report.games, "mismatched": report.mismatched,
            "suspicious": report.suspicious, "flags_new": report.flags_new}
