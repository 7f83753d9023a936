"""The tournaments' Celery jobs: a few lines each, taking ids, safe to run twice (an announcement is claimed once);
and the queueing of the announcements' tasks, which the services call (it needs the tasks, which need the
services)."""

from __future__ import annotations

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from .models import Tournament
from .services.announcements import announcement_etas, tournament_announce, tournaments_announce_due
from .services.race import races_end_due


@shared_task
def announce_tournament(tournament_id: int) -> list[str]:
    """Queued with an ``eta`` at one of the tournament's moments: announce what is due then (nothing if early)."""
    return tournament_announce(tournament_id=tournament_id)


@shared_task
def announce_tournaments() -> dict:
    """Beat job (every ``PYRAMID_TOURNAMENT_SWEEP_SECONDS``): announce what a queued task missed, and queue the
    moments coming before the next sweep but one."""
    sent, coming = tournaments_announce_due()
    for tournament in coming:
        announcements_schedule(tournament=tournament, due_now=False)  # the sweep has just sent what was due
    return {"sent": sent, "queued": len(coming)}


@shared_task
def end_races() -> int:
    """Beat job (every minute, beside the closing of expired games): end the races whose end has come with an
    entrant who never played (the last game's end ends the others)."""
    return races_end_due()


def announcements_schedule(*, tournament: Tournament, due_now: bool = True) -> None:
    """Queue the tournament's announcement task for each moment before the horizon (and at once for one passed),
    once the caller's transaction commits: a window moved queues its new moments, and a task of an old one finds
    nothing due."""
    tournament_id = tournament.pk
    etas = announcement_etas(tournament=tournament, now=timezone.now(), due_now=due_now)

    def queue():
        for eta in etas:
            announce_tournament.apply_async((tournament_id,), eta=eta)

    if etas:
        transaction.on_commit(queue)
