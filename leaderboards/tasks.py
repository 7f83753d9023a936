"""Celery tasks: a few lines each, taking IDs and calling a service; safe to run twice."""

from __future__ import annotations

from celery import shared_task

from .boards import services
from .fair_play.tasks import recheck_ranked_day  # noqa: F401  (found where Celery looks for an app's tasks)
from .tournaments.tasks import announce_tournament, announce_tournaments, end_races  # noqa: F401  (as above)


@shared_task
def rebuild_board_cache(days: int | None = 7) -> int:
    """Beat job: score any finished ranked game left without a result (a repair: the move that ends a ranked
    game and its result are written in one transaction), then write the recent daily boards to Redis again
    from PostgreSQL."""
    services.results_rebuild()
    return services.boards_cache_rebuild(days=days)
