"""Tournaments hosted by a club: created by its owner or admins, on deals the server picks secretly
and the solver proves winnable (or on the day's daily deal), joined by members until the end."""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

import engine
from games import services as game_services
from games.models import DailyDeal, Deal, Game
from games.services import proven_deal
from games.tasks import settle_sequence
from pyramid_site.client import ClientMark
from pyramid_site.clock import day_end
from pyramid_site.errors import Code, DomainError
from pyramid_site.names import clean_name

from ...clubs.models import Club, ClubChange
from ...clubs.services import (
    change_record,
    club_seen,
    club_shared_lock,
    manager_of,
    membership_of,
    not_a_guest,
    not_archived,
)
from .. import live
from ..models import Entry, Tournament, TournamentDeal, WindowChange
from ..selectors import tournament_for_viewer
from ..tasks import announcements_schedule
from .standings import entry_refresh, standings_rebuild

log = logging.getLogger(__name__)
MATCH_DEALS = 6  # a Par Pyramid match is six deals
ARENA_DEALS = 30
# a tournament's deal INDEX is the first winnable candidate of the proven deal sequence with key "ID|INDEX"
PURPOSE = "tournament"


def tournament_seen(*, tournament_id: int, user) -> None:
    """Refuse a tournament the user may not see as if it did not exist (404 ``tournament_not_found``), before
    anything else about it is said."""
    tournament_for_viewer(tournament_id=tournament_id, viewer=user)


def tournament_name(name: str) -> str:
    return clean_name(name, what=gettext("a tournament name"), code=Code.BAD_TOURNAMENT_NAME, max_length=80)


MAX_LENGTH = dt.timedelta(days=366)
MAX_AHEAD = dt.timedelta(days=2 * 366)


def _window(starts_at: dt.datetime, ends_at: dt.datetime) -> None:
    if timezone.is_naive(starts_at) or timezone.is_naive(ends_at):
        raise DomainError(Code.BAD_WINDOW, gettext("give start and end with a time zone (UTC)"))
    if ends_at <= starts_at:
        raise DomainError(Code.BAD_WINDOW, gettext("a tournament ends after it starts"))
    if ends_at - starts_at > MAX_LENGTH:
        raise DomainError(Code.BAD_WINDOW, gettext("a tournament lasts a year at most"))
    if starts_at > timezone.now() + MAX_AHEAD:
        raise DomainError(Code.BAD_WINDOW, gettext("a tournament starts within two years"))


def tournament_create(
    *,
    actor,
    club_id: int,
    name: str,
    rules: str,
    format: str,
    starts_at: dt.datetime,
    ends_at: dt.datetime,
    scoring: str = Tournament.Scoring.PLAIN,
    source: str = Tournament.Source.SECRET,
    deal_count: int | None = None,
) -> Tournament:
    club_seen(club_id=club_id, user=actor)
    not_a_guest(actor, gettext("create a tournament"))
    try:
        parsed = engine.Rules.parse(rules)
    except engine.RulesError as exc:
        raise DomainError(Code.BAD_RULES, str(exc)) from None
    if format not in Tournament.Format.values:
        raise DomainError(
            Code.BAD_FORMAT,
            gettext("format must be one of %(formats)s") % {"formats": ", ".join(Tournament.Format.values)},
        )
    if scoring not in Tournament.Scoring.values:
        raise DomainError(
            Code.BAD_SCORING,
            gettext("scoring must be one of %(scorings)s") % {"scorings": ", ".join(Tournament.Scoring.values)},
        )
    if format == Tournament.Format.ARENA and scoring != Tournament.Scoring.PLAIN:
        raise DomainError(Code.BAD_SCORING, gettext("an arena has its own points; Par Pyramid scoring is for matches"))
    if format == Tournament.Format.RACE:
        # one deal nobody knows before the start, the same for everyone, ranked by cards left and then time
        if scoring != Tournament.Scoring.PLAIN:
            raise DomainError(Code.BAD_SCORING, gettext("a race ranks by cards left, then time; it has no scoring"))
        if source != Tournament.Source.SECRET:
            raise DomainError(Code.BAD_SOURCE, gettext("a race is played on a secret deal"))
        if deal_count not in (None, 1):
            raise DomainError(Code.BAD_DEAL_COUNT, gettext("a race is one deal"))
        deal_count = 1
    _window(starts_at, ends_at)
    if ends_at <= timezone.now():
        raise DomainError(Code.BAD_WINDOW, gettext("the tournament would be over before it is created"))
    daily = None
    if source == Tournament.Source.DAILY:
        daily = DailyDeal.objects.select_related("deal").filter(date=starts_at.date(), preset=parsed.name).first()
        if daily is None:
            raise DomainError(
                Code.NO_DAILY_DEAL,
                gettext("there is no %(name)s daily deal on %(date)s")
                % {"name": parsed.name, "date": starts_at.date()},
            )
        if ends_at.date() != starts_at.date() and ends_at != dt.datetime.combine(
            starts_at.date() + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC
        ):
            raise DomainError(Code.BAD_WINDOW, gettext("a tournament on the daily deal stays within its UTC day"))
        deal_count = 1
    elif source != Tournament.Source.SECRET:
        raise DomainError(Code.BAD_SOURCE, gettext("source must be secret or daily"))
    if deal_count is None:
        deal_count = MATCH_DEALS if format == Tournament.Format.MATCH else ARENA_DEALS
    if not 1 <= deal_count <= 100:
        raise DomainError(Code.BAD_DEAL_COUNT, gettext("a tournament has 1 to 100 deals"))
    with transaction.atomic():
        club = Club.objects.select_for_update().filter(pk=club_id).first()
        if club is None:
            raise DomainError(Code.CLUB_NOT_FOUND, gettext("there is no club %(club_id)s") % {"club_id": club_id})
        manager_of(club, actor)
        tournament = Tournament.objects.create(
            club=club,
            name=tournament_name(name),
            rules=parsed.to_text(),
            preset=parsed.name,
            format=format,
            scoring=scoring,
            source=source,
            deal_count=deal_count,
            starts_at=starts_at,
            ends_at=ends_at,
            created_by=actor,
            status=Tournament.Status.READY if daily else Tournament.Status.PREPARING,
        )
        if daily:
            TournamentDeal.objects.create(tournament=tournament, index=0, deal=daily.deal)
            game_services.deal_keep_secret(deal_id=daily.deal_id, until=ends_at)
        else:
            transaction.on_commit(lambda: settle_sequence.delay(PURPOSE, str(tournament.pk)))
        announcements_schedule(tournament=tournament)
        return tournament


def tournament_deals_prepare(*, tournament_id: int) -> Tournament | Deal:
    """Settle the tournament's deals in order: returns the next candidate still to be solved, or the
    tournament once every deal is fixed (ready) or a slot found no winnable deal (failed). Verdicts
    are written once and candidates come in a fixed order, so runs can repeat or overlap."""
    tournament = Tournament.objects.get(pk=tournament_id)
    if tournament.status != Tournament.Status.PREPARING:
        return tournament
    rules = engine.Rules.parse(tournament.rules)
    taken = set(tournament.deals.values_list("index", flat=True))
    for index in range(tournament.deal_count):
        if index in taken:
            continue
        found = proven_deal(
            secret=settings.PYRAMID_TOURNAMENT_SECRET,
            purpose=PURPOSE,
            key=f"{tournament.pk}|{index}",
            rules=rules,
            max_attempts=settings.PYRAMID_DAILY_MAX_ATTEMPTS,
            secret_until=tournament.ends_at,
        )
        if isinstance(found, Deal):
            return found
        if found is None:
            log.error("tournament %s: no winnable deal for slot %d", tournament.pk, index)
            Tournament.objects.filter(pk=tournament.pk, status=Tournament.Status.PREPARING).update(
                status=Tournament.Status.FAILED
            )
            tournament.refresh_from_db()
            return tournament
        try:
            with transaction.atomic():
                # the end as it is now, under the row lock a window change takes: a move of it cannot slip between
                ends_at = Tournament.objects.select_for_update().values_list("ends_at", flat=True).get(pk=tournament.pk)
                TournamentDeal.objects.create(
                    tournament=tournament, index=index, deal=found.deal, attempt=found.attempt
                )
                game_services.deal_keep_secret(deal_id=found.deal.pk, until=ends_at)
        except IntegrityError:
            pass  # another run fixed this slot first
    Tournament.objects.filter(pk=tournament.pk, status=Tournament.Status.PREPARING).update(
        status=Tournament.Status.READY
    )
    tournament.refresh_from_db()
    return tournament


def tournament_sequence_step(key: str) -> Deal | None:
    """The step of the ``tournament`` sequences (``games.services.sequences``): key is the tournament's id."""
    result = tournament_deals_prepare(tournament_id=int(key))
    return result if isinstance(result, Deal) else None


def tournament_deals_settle(*, tournament_id: int, budget_seconds: float | None = None) -> Tournament:
    """Solve candidates in this process until the tournament's deals are fixed (operators, tests)."""
    game_services.sequence_settle(purpose=PURPOSE, key=str(tournament_id), budget_seconds=budget_seconds)
    return Tournament.objects.get(pk=tournament_id)


def _tournament_formanager_of(actor, tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().select_related("club").filter(pk=tournament_id).first()
    if tournament is None:
        raise DomainError(
            Code.TOURNAMENT_NOT_FOUND,
            gettext("there is no tournament %(tournament_id)s") % {"tournament_id": tournament_id},
        )
    manager_of(tournament.club, actor)
    return tournament


def tournament_update(
    *,
    actor,
    tournament_id: int,
    name: str | None = None,
    starts_at: dt.datetime | None = None,
    ends_at: dt.datetime | None = None,
) -> Tournament:
    """Rename, or move the window while it cannot bend a result: the start only before it has come (and
    not into the past), the end only to a time still ahead and, once the tournament has started, only
    later; a tournament on the daily deal keeps its start and ends within its day. Every move of the
    window is kept in a :class:`WindowChange`, and every new name in a :class:`ClubChange`; the deals stay secret
    and the games open until the new end."""
    tournament_seen(tournament_id=tournament_id, user=actor)
    now = timezone.now()
    with transaction.atomic():
        tournament = _tournament_formanager_of(actor, tournament_id)
        before = (tournament.starts_at, tournament.ends_at)
        if tournament.ends_at <= now and (starts_at or ends_at):
            raise DomainError(Code.TOURNAMENT_OVER, gettext("the tournament is over; its window is final"))
        if starts_at is not None and starts_at != tournament.starts_at:
            if tournament.starts_at <= now or starts_at < now:
                raise DomainError(
                    Code.TOURNAMENT_STARTED,
                    gettext("the start can only move before the tournament has started, and not into the past"),
                )
            if tournament.source == Tournament.Source.DAILY:
                raise DomainError(Code.DAILY_WINDOW_FIXED, gettext("a tournament on the daily deal keeps its day"))
            tournament.starts_at = starts_at
        if ends_at is not None and ends_at != tournament.ends_at:
            if ends_at <= now:
                raise DomainError(Code.BAD_WINDOW, gettext("the new end must be ahead"))
            if tournament.starts_at <= now and ends_at < tournament.ends_at:
                raise DomainError(
                    Code.TOURNAMENT_STARTED, gettext("once a tournament has started its end only moves later")
                )
            if tournament.source == Tournament.Source.DAILY and ends_at > day_end(tournament.starts_at.date()):
                raise DomainError(
                    Code.DAILY_WINDOW_FIXED, gettext("a tournament on the daily deal ends within its UTC day")
                )
            tournament.ends_at = ends_at
        _window(tournament.starts_at, tournament.ends_at)
        if name is not None and tournament_name(name) != tournament.name:
            change_record(
                club=tournament.club,
                kind=ClubChange.Kind.TOURNAMENT_NAME,
                actor=actor,
                tournament=tournament,
                before=tournament.name,
                after=tournament_name(name),
            )
            tournament.name = tournament_name(name)
        tournament.save()
        if (tournament.starts_at, tournament.ends_at) != before:
            WindowChange.objects.create(
                tournament=tournament,
                changed_by=actor,
                starts_from=before[0],
                starts_to=tournament.starts_at,
                ends_from=before[1],
                ends_to=tournament.ends_at,
            )
            _window_follows(tournament)
            announcements_schedule(tournament=tournament)
    standings_rebuild(tournament_id=tournament.pk)
    return tournament


def _window_follows(tournament: Tournament) -> None:
    """In the transaction that moves the window: the tournament's deals, and every candidate tried for them, stay
    secret until its (new) end, and every game of it, finished or not, closes then (a finished game
    left with the old end would be anyone's to read from the old end on, while the deal is still live)."""
    if tournament.source != Tournament.Source.SECRET:
        return  # its deal is the day's, secret and open until the day's end, which the tournament stays within
    deal_ids = list(tournament.deals.values_list("deal_id", flat=True))
    for deal_id in deal_ids:
        game_services.deal_keep_secret(deal_id=deal_id, until=tournament.ends_at)
    game_services.deal_numbers_keep_secret(numbers=_candidates(tournament), until=tournament.ends_at)
    Game.objects.filter(deal_id__in=deal_ids, mode=Game.Mode.RANKED, daily__isnull=True).exclude(
        status=Game.Status.CLOSED
    ).update(closes_at=tournament.ends_at)


def _candidates(tournament: Tournament) -> list[int]:
    """Every candidate number its slots have tried (a settled slot up to the attempt it kept), or may try."""
    kept = dict(tournament.deals.values_list("index", "attempt"))
    return [
        number
        for index in range(tournament.deal_count)
        for number in game_services.sequence_candidates(
            secret=settings.PYRAMID_TOURNAMENT_SECRET,
            purpose=PURPOSE,
            key=f"{tournament.pk}|{index}",
            attempts=kept[index] + 1 if index in kept else settings.PYRAMID_DAILY_MAX_ATTEMPTS,
        )
    ]


def tournament_join(*, user, tournament_id: int) -> Entry:
    """Join as a member of the tournament's club, until its end (a race: until its start). The club's row is
    share-locked meanwhile, so a removal from the club lands wholly before (no entry) or after (the entry stays: an
    entrant plays on whatever becomes of their membership). Only games started from now on count (``counting``)."""
    tournament_seen(tournament_id=tournament_id, user=user)
    club_id = Tournament.objects.filter(pk=tournament_id).values_list("club_id", flat=True).first()
    try:
        with transaction.atomic():
            club = club_id and club_shared_lock(club_id)
            # read after the lock: a tournament deleted meanwhile (before its start, or as its club closed) is gone
            tournament = club and Tournament.objects.filter(pk=tournament_id).first()
            if not isinstance(tournament, Tournament):
                raise DomainError(
                    Code.TOURNAMENT_NOT_FOUND,
                    gettext("there is no tournament %(tournament_id)s") % {"tournament_id": tournament_id},
                )
            not_archived(club)
            if membership_of(club, user) is None:
                raise DomainError(
                    Code.NOT_MEMBER, gettext("only members of %(club)s may join its tournaments") % {"club": club.name}
                )
            if timezone.now() >= tournament.ends_at:
                raise DomainError(Code.TOURNAMENT_OVER, gettext("the tournament is over"))
            if tournament.format == Tournament.Format.RACE and timezone.now() >= tournament.starts_at:
                raise DomainError(Code.RACE_STARTED, gettext("the race has started: join before its start"))
            entry = Entry.objects.create(tournament=tournament, player=user)
            live.entry_joined(entry)
    except IntegrityError:
        raise DomainError(Code.ALREADY_JOINED, gettext("you have already joined this tournament")) from None
    return entry_refresh(entry_id=entry.pk)  # a match's deals not played yet count all their cards


def _locked_entry(user, tournament_id: int, *, missing: str) -> Entry:
    """The player's entry, locked for the caller's transaction, with its tournament."""
    entry = (
        Entry.objects.select_for_update()
        .select_related("tournament")
        .filter(tournament_id=tournament_id, player=user)
        .first()
    )
    if entry is None:
        if not Tournament.objects.filter(pk=tournament_id).exists():
            raise DomainError(
                Code.TOURNAMENT_NOT_FOUND,
                gettext("there is no tournament %(tournament_id)s") % {"tournament_id": tournament_id},
            )
        raise DomainError(Code.NOT_JOINED, missing)
    return entry


def tournament_leave(*, user, tournament_id: int) -> None:
    """Withdraw from a tournament before it starts; once it has, entries stay to its end (its games are
    ranked games on its standings)."""
    tournament_seen(tournament_id=tournament_id, user=user)
    with transaction.atomic():
        entry = _locked_entry(user, tournament_id, missing=gettext("you have not joined this tournament"))
        if timezone.now() >= entry.tournament.starts_at:
            raise DomainError(Code.TOURNAMENT_STARTED, gettext("the tournament has started: entries stay to its end"))
        entry.delete()
        live.entry_left(tournament_id, user)


def tournament_game_start(
    *, user, tournament_id: int, index: int | None = None, client: ClientMark | None = None
) -> Game:
    """Start the player's ranked game of the tournament's next deal: in a match any deal not played
    yet (``index``, or the first), in an arena the next of the sequence once the last one is over."""
    tournament_seen(tournament_id=tournament_id, user=user)
    now = timezone.now()
    with transaction.atomic():
        entry = _locked_entry(user, tournament_id, missing=gettext("join the tournament first"))
        tournament = entry.tournament
        if tournament.status != Tournament.Status.READY:
            raise DomainError(
                Code.NOT_READY,
                gettext("the tournament's deals are not ready (%(status)s)") % {"status": tournament.status},
            )
        if now < tournament.starts_at:
            raise DomainError(
                Code.NOT_STARTED,
                gettext("the tournament starts at %(time)s") % {"time": tournament.starts_at.isoformat()},
            )
        if now >= tournament.ends_at:
            raise DomainError(Code.TOURNAMENT_OVER, gettext("the tournament is over"))
        deals = list(tournament.deals.select_related("deal").order_by("index"))
        games = {
            g.deal_id: g
            for g in Game.objects.filter(player=user, mode=Game.Mode.RANKED, deal_id__in=[d.deal_id for d in deals])
        }
        if tournament.format == Tournament.Format.ARENA:
            if index is not None:
                raise DomainError(Code.BAD_INDEX, gettext("an arena's deals come in their order; leave out index"))
            playing = next((g for g in games.values() if g.status == Game.Status.PLAYING), None)
            if playing is not None:
                raise DomainError(
                    Code.GAME_IN_PROGRESS, gettext("finish your current arena game first"), game=playing.pk
                )
        open_deals = [d for d in deals if d.deal_id not in games and (index is None or d.index == index)]
        if not open_deals:
            if index is not None and not any(d.index == index for d in deals):
                raise DomainError(
                    Code.DEAL_NOT_FOUND, gettext("the tournament has no deal %(index)s") % {"index": index}
                )
            played = next((games[d.deal_id].pk for d in deals if d.index == index and d.deal_id in games), None)
            raise DomainError(
                Code.ALREADY_PLAYED,
                gettext("you have played every deal of this tournament")
                if index is None
                else gettext("you have played deal %(index)s") % {"index": index},
                game=played,
            )
        slot = open_deals[0]
        if tournament.source == Tournament.Source.DAILY:
            daily = DailyDeal.objects.get(deal=slot.deal, preset=tournament.preset)
            return game_services.game_start(player=user, daily_id=daily.pk, client=client)
        return game_services.ranked_game_start(player=user, deal=slot.deal, closes_at=tournament.ends_at, client=client)


def tournament_delete(*, actor, tournament_id: int) -> None:
    tournament_seen(tournament_id=tournament_id, user=actor)
    with transaction.atomic():
        tournament = _tournament_formanager_of(actor, tournament_id)
        if tournament.starts_at <= timezone.now():
            raise DomainError(Code.TOURNAMENT_STARTED, gettext("a tournament that has started stays on record"))
        tournament.delete()
