"""Celery tasks: a few lines each, taking IDs and calling a service; safe to run twice."""

from __future__ import annotations

from celery import shared_task

from games.models import Deal
from games.tasks import solve_deal

from . import services


@shared_task(acks_late=True)
def prepare_tournament_deals(tournament_id: int) -> str:
    """Fix the tournament's deals: solve the next candidate in its own task, then look again."""
    result = services.tournament_deals_prepare(tournament_id=tournament_id)
    if isinstance(result, Deal):
        (solve_deal.si(result.pk) | prepare_tournament_deals.si(tournament_id)).delay()
        return f"solving candidate deal {result.pk}"
    return result.status


@shared_task
def rebuild_board_cache(days: int | None = 7) -> int:
    """Beat job: write the recent daily boards to Redis again from PostgreSQL."""
    return services.boards_cache_rebuild(days=days)


@shared_task
def rebuild_standings(tournament_id: int) -> int:
    return services.standings_rebuild(tournament_id=tournament_id)
