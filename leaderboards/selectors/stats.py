"""Weekly and all-time boards over daily deals, a player's page, streaks and share lines.

The formulas are in the README ("Leaderboards"): over the daily results in the period (finished
ranked games of daily deals, none void), per player: deals played, pyramids cleared, total and
average cards left, results at par (won in par moves or fewer) and the best result; ranked by
pyramids cleared, then results at par, then total cards left (fewer first), then deals played.
Those sums are kept per player as results land (:class:`PeriodStanding`, with the order in one
``rank_key``), so that a page of a board is an index range and a rank one index range count.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Avg, Count, F, Min, Q, Sum

from pyramid_site.api.errors import Conflict, NotFound
from pyramid_site.clock import utc_today

from ..models import Club, Membership, PeriodStanding, Result
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
SHOWN = ["player_id", "rank_key", "played", "cleared", "won", "at_par", "cards_total", "best_cards_left",
         "best_moves_won"]


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


def standings(*, preset: str, first: dt.date | None, club_id: int | None = None):
    """The standings of the weekly board that starts on ``first`` (a Monday), or of the all-time board (None)."""
    kind, starts = ((PeriodStanding.Kind.WEEK, first) if first is not None
                    else (PeriodStanding.Kind.ALL_TIME, PeriodStanding.ALL_TIME_START))
    rows = PeriodStanding.objects.filter(kind=kind, starts=starts, preset=preset)
    if club_id is not None:
        rows = rows.filter(player_id__in=Membership.objects.filter(club_id=club_id).values("user_id"))
    return rows


def period_rows(scope):
    """The board's rows in its order (dicts); ``shown_rows`` ranks and names a slice of them."""
    return scope.order_by("rank_key", "player_id").values(*SHOWN)


def shown_rows(scope, rows: list[dict]) -> list[dict]:
    """A contiguous slice of the board, ranked, with names and streaks."""
    name_rows(rank_rows(scope, rows))
    return rows


def rank_rows(scope, rows: list[dict]) -> list[dict]:
    """Give a contiguous slice of the board its ranks: the first row's is one more than the rows ahead of it
    (one index range count); after it, a row whose key differs ranks by its position, equal keys share one."""
    if not rows:
        return rows
    first = rows[0]
    ahead = scope.filter(rank_key__lt=first["rank_key"]).count()
    position = ahead + scope.filter(rank_key=first["rank_key"], player_id__lt=first["player_id"]).count()
    for i, row in enumerate(rows):
        row["rank"] = ahead + 1 if i == 0 else (
            rows[i - 1]["rank"] if row["rank_key"] == rows[i - 1]["rank_key"] else position + i + 1)
    return rows


def my_period_rows(scope, *, player, around: int) -> tuple[dict | None, list[dict]]:
    """My row and up to ``around`` rows either side of it, ranked; (None, []) when I am not on the board."""
    if player is None or not player.is_authenticated:
        return None, []
    mine = scope.filter(player_id=player.pk).values(*SHOWN).first()
    if mine is None:
        return None, []
    before = Q(rank_key__lt=mine["rank_key"]) | Q(rank_key=mine["rank_key"], player_id__lt=mine["player_id"])
    after = Q(rank_key__gt=mine["rank_key"]) | Q(rank_key=mine["rank_key"], player_id__gt=mine["player_id"])
    above = list(scope.filter(before).order_by("-rank_key", "-player_id").values(*SHOWN)[:around])[::-1]
    below = list(period_rows(scope.filter(after))[:around])
    window = shown_rows(scope, [*above, mine, *below])
    return window[len(above)], window


def name_rows(rows: list[dict]) -> None:
    """Add each shown row's username and streaks (only the page's players are looked up)."""
    names = dict(get_user_model().objects.filter(pk__in=[r["player_id"] for r in rows]).values_list("pk", "username"))
    streaks = streaks_of_players([r["player_id"] for r in rows])
    for row in rows:
        row["username"] = names.get(row["player_id"])
        row["streak"], row["cleared_streak"] = streaks[row["player_id"]]


def period_board(*, preset: str, first: dt.date | None, club_id: int | None = None, limit: int = 50,
                 offset: int = 0) -> tuple[int, list[dict]]:
    """(players on the board, rows from ``offset``), each row with its rank, name and streaks."""
    scope = standings(preset=preset, first=first, club_id=club_id)
    return scope.count(), shown_rows(scope, list(period_rows(scope)[offset:offset + limit]))


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
    outcome = "cleared" if result.won else f"{result.cards_left} card{'s' if result.cards_left != 1 else ''} left"
    par = f" (par {result.par_moves})" if result.par_moves is not None else ""
    return f"Pyramid #{daily_number(result.date)} {result.preset}: {outcome}, {result.moves} moves{par}"


def share_of(*, game) -> str:
    """The share line of a finished daily game (the caller has checked the game is the viewer's)."""
    result = Result.objects.filter(game=game, daily__isnull=False).first()
    if result is None:
        raise Conflict("only a finished daily game has a share line", code="not_shareable")
    return share_line(result)


def player_named(username: str):
    player = get_user_model().objects.filter(username=username).first()
    if player is None:
        raise NotFound(f"there is no player {username!r}", code="player_not_found")
    return player


def visible_clubs(viewer):
    mine = Membership.objects.filter(user_id=getattr(viewer, "pk", None)).values("club_id")
    return Club.objects.filter(Q(is_private=False) | Q(pk__in=mine))
