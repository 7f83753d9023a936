"""A tournament's moments announced on time, once each: ``soon`` (its start within
``PYRAMID_TOURNAMENT_SOON_MINUTES``), ``started`` and ``ended``, on its channel, and the first two to every member of
its club.

On time: a Celery task is queued with an ``eta`` for each moment that falls before the next sweep but one (when a
tournament is created, when its window moves, and by the sweep for the moments coming near); a task held for days
in a broker is a task lost to a restart or redelivered at random, so the far moments wait for the sweep to queue
them. The sweep (a beat job every ``PYRAMID_TOURNAMENT_SWEEP_SECONDS``) also sends whatever is due and was missed.
A task that runs early (in-process tasks run at once) finds nothing due and sends nothing.

Once: the claim is a :class:`TournamentAnnouncement` row, unique by tournament, kind and moment, inserted in the
transaction that publishes (after commit); the tournament's row is locked meanwhile, so a window moved at the same
moment lands wholly before (announced as moved) or after. A moment missed by more than ``LATE`` (the service
down) is not announced: a page that was open reads the tournament again on reconnecting."""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from ...clubs.models import Membership
from .. import live
from ..models import Tournament, TournamentAnnouncement
from ..selectors import soon_before

log = logging.getLogger(__name__)
LATE = dt.timedelta(hours=1)
Kind = TournamentAnnouncement.Kind


def announcements_due(tournament: Tournament, now: dt.datetime) -> list[tuple[str, dt.datetime]]:
    """The (kind, moment) the tournament's window makes due at ``now``, announced or not."""
    if tournament.status == Tournament.Status.FAILED:
        return []  # no deals: nothing to play, nothing to call anyone to
    starts, ends = tournament.starts_at, tournament.ends_at
    due: list[tuple[str, dt.datetime]] = []
    if starts - soon_before() <= now < starts:
        due.append((Kind.SOON, starts))
    if starts <= now < ends and now - starts < LATE:
        due.append((Kind.STARTED, starts))
    if ends <= now and now - ends < LATE:
        due.append((Kind.ENDED, ends))
    return due


def tournament_announce(*, tournament_id: int) -> list[str]:
    """Announce what is due for the tournament now and not announced yet; the kinds sent (none when early, gone,
    or sent already)."""
    sent: list[str] = []
    with transaction.atomic():
        tournament = (
            Tournament.objects.select_for_update(of=("self",)).select_related("club").filter(pk=tournament_id).first()
        )
        if tournament is None:
            return sent  # deleted before its start
        members = None
        for kind, at in announcements_due(tournament, timezone.now()):
            try:
                with transaction.atomic():
                    TournamentAnnouncement.objects.create(tournament=tournament, kind=kind, at=at)
            except IntegrityError:
                continue  # announced already
            if members is None:
                members = list(Membership.objects.filter(club_id=tournament.club_id).values_list("user_id", flat=True))
            live.tournament_announced(tournament, kind, members)
            sent.append(kind)
    if sent:
        log.info("tournament %s announced: %s", tournament_id, ", ".join(sent))
    return sent


def _not_announced(kind: str, moment: str) -> Q:
    return ~Q(Exists(TournamentAnnouncement.objects.filter(tournament=OuterRef("pk"), kind=kind, at=OuterRef(moment))))


def tournaments_due(now: dt.datetime) -> list[int]:
    """The tournaments with a moment due and not announced (the sweep's work)."""
    soon = Q(starts_at__gt=now, starts_at__lte=now + soon_before()) & _not_announced(Kind.SOON, "starts_at")
    started = Q(starts_at__lte=now, starts_at__gt=now - LATE, ends_at__gt=now) & _not_announced(
        Kind.STARTED, "starts_at"
    )
    ended = Q(ends_at__lte=now, ends_at__gt=now - LATE) & _not_announced(Kind.ENDED, "ends_at")
    return list(
        Tournament.objects.exclude(status=Tournament.Status.FAILED)
        .filter(soon | started | ended)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def moments(tournament: Tournament) -> list[dt.datetime]:
    return [tournament.starts_at - soon_before(), tournament.starts_at, tournament.ends_at]


def horizon() -> dt.timedelta:
    """How far ahead a moment gets its task queued: past the next sweep, which queues the ones after."""
    return dt.timedelta(seconds=2 * settings.PYRAMID_TOURNAMENT_SWEEP_SECONDS)


def announcement_etas(*, tournament: Tournament, now: dt.datetime, due_now: bool = True) -> list[dt.datetime]:
    """When to run the tournament's announcement task: at each of its moments before the horizon, and at once
    when a moment has passed (``due_now``: what it makes due is sent now)."""
    etas = {moment for moment in moments(tournament) if now < moment <= now + horizon()}
    if due_now and any(moment <= now for moment in moments(tournament)):
        etas.add(now)
    return sorted(etas)


def tournaments_announce_due() -> tuple[int, list[Tournament]]:
    """The sweep: announce every moment due and missed; the count sent, and the tournaments with a moment before
    the horizon (to queue their tasks)."""
    now = timezone.now()
    sent = sum(len(tournament_announce(tournament_id=tournament_id)) for tournament_id in tournaments_due(now))
    ahead = now + horizon()
    coming = Tournament.objects.exclude(status=Tournament.Status.FAILED).filter(
        Q(starts_at__gt=now + soon_before(), starts_at__lte=ahead + soon_before())
        | Q(starts_at__gt=now, starts_at__lte=ahead)
        | Q(ends_at__gt=now, ends_at__lte=ahead)
    )
    return sent, list(coming)
