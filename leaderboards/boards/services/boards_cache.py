"""Rebuilding the Redis boards from PostgreSQL, the source of truth."""

from __future__ import annotations

import datetime as dt

from games.models import DailyDeal
from pyramid_site.clock import utc_today

from .. import cache
from ..selectors.boards import board_rows_for_cache


def board_cache_rebuild(*, daily_id: int) -> bool:
    """Write one daily board to Redis from PostgreSQL; False when Redis cannot hold it."""
    try:
        return cache.board_write(daily_id, board_rows_for_cache(daily_id))
    except cache.Unavailable:
        return False


def boards_cache_rebuild(*, days: int | None = 7, today: dt.date | None = None) -> int:
    """Rebuild the boards of the daily deals of the last ``days`` days (all of them with None)."""
    dailies = DailyDeal.objects.all()
    if days is not None:
        dailies = dailies.filter(date__gt=(today or utc_today()) - dt.timedelta(days=days))
    return sum(board_cache_rebuild(daily_id=pk) for pk in dailies.values_list("pk", flat=True))
