"""Weekly and all-time boards over daily deals, a player's page, streaks and share lines.

The formulas are in the README ("Leaderboards"): over the daily results in the period (finished
ranked games of daily deals, none void), per player: deals played, pyramids cleared, total and
average cards left, results at par (won in par moves or fewer) and the best result; ranked by
pyramids cleared, then results at par, then total cards left (fewer first), then deals played.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Avg, Count, F, Min, Q, Sum, Window
from django.db.models.functions import Rank
from django.utils.translation import gettext, ngettext

from pyramid_site.api.errors import Conflict, NotFound
from pyramid_site.clock import utc_today

from ..models import Club, Membership, Result
from ..streaks import Streak, streak_of

AT_PAR = Q(won=True, par_moves__isnull=False, moves__lte=F("par_moves"))
AGGREGATES = {
    "played": Count("id"),
    "cleared_count": Count("id", filter=Q(cleared=True)),
    "won_count": Count("id", filter=Q(won=True)),
    "cards_total": Sum("cards_left"),
    "cards_average": Avg("cards_left"),
    "at_par": Count("id", filter=AT_PAR),
    "best_cards_left": Min("cards_left"),
    "best_moves_won": Min("moves", filter=Q(won=True)),
}
ORDER = [F("cleared_count").desc(), F("at_par").desc(), F("cards_total").asc(), F("played").desc()]


def week_of(day: dt.date) -> tuple[dt.date, dt.date]:
    """The ISO week (Monday to Sunday, UTC days) that holds ``day``."""
    monday = day - dt.timedelta(days=day.weekday())
    return monday, monday + dt.timedelta(days=6)


def daily_results(*, preset: str | None = None, first: dt.date | None = None, last: dt.date | None = None,
                  club_id: int | None = None):
    results = Result.objects.filter(daily__isnull=False, voided=False)
    if preset:
        results = results.filter(preset=preset)
    if first:
        results = results.filter(date__gte=first)
    if last:
        results = results.filter(date__lte=last)
    if club_id is not None:
        results = results.filter(player_id__in=Membership.objects.filter(club_id=club_id).values("user_id"))
    return results


def period_rows(*, preset: str | None, first: dt.date | None, last: dt.date | None, club_id: int | None = None):
    """Per player, the aggregates of the period and the rank, in board order (rows are dicts)."""
    return (daily_results(preset=preset, first=first, last=last, club_id=club_id)
            .values("player_id").annotate(**AGGREGATES)
            .annotate(rank=Window(Rank(), order_by=ORDER))
            .order_by("rank", "player_id"))


def name_rows(rows: list[dict]) -> None:
    """Add each shown row's username and streaks (only the page's players are looked up)."""
    names = dict(get_user_model().objects.filter(pk__in=[r["player_id"] for r in rows]).values_list("pk", "username"))
    streaks = streaks_of_players([r["player_id"] for r in rows])
    for row in rows:
        row["username"] = names.get(row["player_id"])
        row["streak"], row["cleared_streak"] = streaks[row["player_id"]]


def period_board(*, preset: str | None, first: dt.date | None, last: dt.date | None, club_id: int | None = None,
                 limit: int = 50, offset: int = 0) -> tuple[int, list[dict]]:
    """(players on the board, rows from ``offset``), each row with its rank, name and streaks."""
    rows = period_rows(preset=preset, first=first, last=last, club_id=club_id)
    page = list(rows[offset:offset + limit])
    name_rows(page)
    return rows.count(), page


def streaks_of_players(player_ids, *, today: dt.date | None = None) -> dict[int, tuple[Streak, Streak]]:
    """Per player: (daily streak, cleared streak) over finished daily games of any preset."""
    today = today or utc_today()
    days: dict[int, set] = {pid: set() for pid in player_ids}
    cleared: dict[int, set] = {pid: set() for pid in player_ids}
    for pid, date, is_cleared in daily_results().filter(player_id__in=list(player_ids)).values_list(
            "player_id", "date", "cleared").distinct():
        days[pid].add(date)
        if is_cleared:
            cleared[pid].add(date)
    return {pid: (streak_of(days[pid], today=today), streak_of(cleared[pid], today=today)) for pid in player_ids}


@dataclass
class PlayerPage:
    player: object
    stats: dict
    streak: Streak
    cleared_streak: Streak
    history: list[Result]
    clubs: list[Membership]


def player_page(*, player, viewer, history_limit: int = 60) -> PlayerPage:
    stats = daily_results().filter(player=player).aggregate(**AGGREGATES)
    streak, cleared_streak = streaks_of_players([player.pk])[player.pk]
    history = list(daily_results().filter(player=player).select_related("daily", "player").order_by("-date", "preset")
                   [:history_limit])
    clubs = Membership.objects.filter(user=player).select_related("club").order_by("club__name")
    if viewer is None or viewer.pk != player.pk:
        shared = Membership.objects.filter(user_id=getattr(viewer, "pk", None)).values("club_id")
        clubs = clubs.filter(Q(club__is_private=False) | Q(club_id__in=shared))
    return PlayerPage(player, stats, streak, cleared_streak, history, list(clubs))


def daily_number(date: dt.date) -> int:
    """The public number of a day's daily deals: 1 on the first day."""
    return (date - settings.PYRAMID_FIRST_DAILY_DATE).days + 1


def share_line(result: Result) -> str:
    """A spoiler-free line for a finished daily game: no card, no move of it."""
    outcome = gettext("cleared") if result.won else ngettext("%(count)s card left", "%(count)s cards left",
                                                             result.cards_left) % {"count": result.cards_left}
    words = {"number": daily_number(result.date), "preset": result.preset, "outcome": outcome, "moves": result.moves,
             "par": result.par_moves}
    if result.par_moves is None:
        return gettext("Pyramid #%(number)s %(preset)s: %(outcome)s, %(moves)s moves") % words
    return gettext("Pyramid #%(number)s %(preset)s: %(outcome)s, %(moves)s moves (par %(par)s)") % words


def share_of(*, game) -> str:
    """The share line of a finished daily game (the caller has checked the game is the viewer's)."""
    result = Result.objects.filter(game=game, daily__isnull=False).first()
    if result is None:
        raise Conflict(gettext("only a finished daily game has a share line"), code="not_shareable")
    return share_line(result)


def player_named(username: str):
    player = get_user_model().objects.filter(username=username).first()
    if player is None:
        raise NotFound(gettext("there is no player %(username)s") % {"username": repr(username)},
                       code="player_not_found")
    return player


def visible_clubs(viewer):
    mine = Membership.objects.filter(user_id=getattr(viewer, "pk", None)).values("club_id")
    return Club.objects.filter(Q(is_private=False) | Q(pk__in=mine))
