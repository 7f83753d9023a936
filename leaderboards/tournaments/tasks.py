"""The tournaments' Celery jobs: a few lines each, taking ids, safe to run twice (an announcement is claimed once)."""

from __future__ import annotations

from celery import shared_task

from .services import announcements


@shared_task
def announce_tournament(tournament_id: int) -> list[str]:
    """Queued with an ``eta`` at one of the tournament's moments: announce what is due then (nothing if early)."""
    return announcements.tournament_announce(tournament_id=tournament_id)


@shared_task
def announce_tournaments() -> dict:
    """Beat job (every ``PYRAMID_TOURNAMENT_SWEEP_SECONDS``): announce what a queued task missed, and queue the
    moments coming before the next sweep."""
    return announcements.tournaments_announce_due()
