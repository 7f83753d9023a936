"""Weekly and all-time boards over daily deals, a player's page, streaks and share lines.

The formulas are in the docs/leaderboards.md ("Leaderboards"): over the daily results in the period (finished
ranked games of daily deals, none void), per player: deals played, pyramids cleared, total and
average cards left, results at par (won in par moves or fewer) and the best result; ranked by
pyramids cleared, then results at par, then total cards left (fewer first), then deals played.
Those sums are kept per player as results land (:class:`PeriodStanding`, with the order in one
``rank_key``), so that a page of a board is an index range and a rank one index range count.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_left
from dataclasses import dataclass
from functools import cached_property

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Avg, Count, F, Min, Q, Sum
from django.utils.translation import gettext, ngettext

from games.selectors import game_of_player
from pyramid_site.clock import utc_today
from pyramid_site.errors import Code, DomainError

from ...clubs.models import Membership
from ...clubs.selectors import club_must_be_visible, viewer_id
from ..models import PeriodCount, PeriodStanding, Result
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
_STANDING_ORDER = f"{PeriodStanding._meta.db_table}.rank_key, {PeriodStanding._meta.db_table}.player_id"
SHOWN = [
    "player_id",
    "rank_key",
    "played",
    "cleared",
    "won",
    "at_par",
    "cards_total",
    "best_cards_left",
    "best_moves_won",
]


def week_of(day: dt.date) -> tuple[dt.date, dt.date]:
    """The ISO week (Monday to Sunday, UTC days) that holds ``day``."""
    monday = day - dt.timedelta(days=day.weekday())
    return monday, monday + dt.timedelta(days=6)


def daily_results(
    *, preset: str | None = None, first: dt.date | None = None, last: dt.date | None = None, club_id: int | None = None
):
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


@dataclass
class PeriodBoard:
    """A weekly board (``starts`` its Monday) or the all-time board of a preset, or a club's part of it."""

    kind: str
    starts: dt.date
    preset: str
    club_id: int | None = None

    @property
    def standings(self):
        rows = PeriodStanding.objects.filter(kind=self.kind, starts=self.starts, preset=self.preset)
        if self.club_id is not None:
            rows = rows.filter(player_id__in=Membership.objects.filter(club_id=self.club_id).values("user_id"))
        return rows

    @cached_property
    def _club_rows(self) -> list[dict]:
        """A club's part, all of it, in the board's order: a few thousand rows at most, read by the members'
        keys (walking the whole board's order for the members' rows would read most of it)."""
        return sorted(self.standings.values(*SHOWN), key=lambda row: (row["rank_key"], row["player_id"]))

    def _counts(self):
        return PeriodCount.objects.filter(kind=self.kind, starts=self.starts, preset=self.preset)

    def count(self) -> int:
        """Players on the board: a sum of its bucket counts (a club's part: its rows)."""
        if self.club_id is not None:
            return len(self._club_rows)
        return self._counts().aggregate(n=Sum("players", default=0))["n"]

    def ranks(self, keys) -> dict[int, int]:
        """The rank of each rank key: one more than the players strictly ahead, who are the whole buckets before
        its own (one read of the board's bucket counts) and the few ahead in its own bucket (one short count)."""
        keys = sorted(set(keys))
        if not keys:
            return {}
        if self.club_id is not None:
            ordered = [row["rank_key"] for row in self._club_rows]
            return {key: 1 + bisect_left(ordered, key) for key in keys}
        bits = PeriodCount.BUCKET_BITS
        buckets = list(
            self._counts()
            .filter(bucket__lt=keys[-1] >> bits, players__gt=0)
            .order_by("bucket")
            .values_list("bucket", "players")
        )
        ranks, before, i = {}, 0, 0
        for key in keys:
            while i < len(buckets) and buckets[i][0] < key >> bits:
                before += buckets[i][1]
                i += 1
            inside = self.standings.filter(rank_key__gte=(key >> bits) << bits, rank_key__lt=key).count()
            ranks[key] = 1 + before + inside
        return ranks

    def around(self, row: dict, around: int) -> tuple[list[dict], list[dict]]:
        """Up to ``around`` rows of the board before ``row`` and after it, in order."""
        if self.club_id is not None:
            i = self._club_rows.index(row)
            return self._club_rows[max(i - around, 0) : i], self._club_rows[i + 1 : i + 1 + around]
        # row comparisons: one index range each way, whatever the ties around the row
        mark = [row["rank_key"], row["player_id"]]
        above = list(
            self.standings.extra(where=[f"({_STANDING_ORDER}) < (%s, %s)"], params=mark)
            .order_by("-rank_key", "-player_id")
            .values(*SHOWN)[:around]
        )[::-1]
        below = list(
            self.standings.extra(where=[f"({_STANDING_ORDER}) > (%s, %s)"], params=mark)
            .order_by("rank_key", "player_id")
            .values(*SHOWN)[:around]
        )
        return above, below

    def __getitem__(self, part):
        """Rows of the board in its order (dicts): what a page of it slices."""
        if self.club_id is not None:
            return self._club_rows[part]
        return self.standings.order_by("rank_key", "player_id").values(*SHOWN)[part]


@dataclass
class PeriodBoardPage:
    """A weekly or all-time board as one viewer sees it: the board (its rows are paged from it), the period's
    days (None for all time), my row and the rows around it."""

    board: PeriodBoard
    first: dt.date | None
    last: dt.date | None
    me: dict | None
    around: list[dict]

    def shown_rows(self, rows: list[dict]) -> list[dict]:
        return shown_rows(self.board, rows)


def period_board_for(*, preset: str, week: dt.date | None, club_id: int | None, viewer, around: int) -> PeriodBoardPage:
    """The board of the ISO week of ``week`` (all time when None), narrowed to a club's members if ``club_id``
    (a club the viewer may see), with the viewer's row and ``around`` rows either side of it."""
    first, last = week_of(week) if week is not None else (None, None)
    if club_id is not None:
        club_must_be_visible(club_id=club_id, viewer=viewer)
    board = period_board_of(preset=preset, first=first, club_id=club_id)
    me, rows = my_period_rows(board, player=viewer, around=around)
    return PeriodBoardPage(board, first, last, me, rows)


def period_board_of(*, preset: str, first: dt.date | None, club_id: int | None = None) -> PeriodBoard:
    """The weekly board that starts on ``first`` (a Monday), or the all-time board (None)."""
    if first is None:
        return PeriodBoard(PeriodStanding.Kind.ALL_TIME, PeriodStanding.ALL_TIME_START, preset, club_id)
    return PeriodBoard(PeriodStanding.Kind.WEEK, first, preset, club_id)


def shown_rows(board: PeriodBoard, rows: list[dict]) -> list[dict]:
    """A contiguous slice of the board, ranked, with names and streaks."""
    name_rows(rank_rows(board, rows))
    return rows


def rank_rows(board: PeriodBoard, rows: list[dict]) -> list[dict]:
    """Give rows of the board their ranks (equal keys share one)."""
    ranks = board.ranks(row["rank_key"] for row in rows)
    for row in rows:
        row["rank"] = ranks[row["rank_key"]]
    return rows


def my_period_rows(board: PeriodBoard, *, player, around: int) -> tuple[dict | None, list[dict]]:
    """My row and up to ``around`` rows either side of it, ranked; (None, []) when I am not on the board."""
    if player is None or not player.is_authenticated:
        return None, []
    mine = board.standings.filter(player_id=player.pk).values(*SHOWN).first()
    if mine is None:
        return None, []
    above, below = board.around(mine, around)
    window = shown_rows(board, [*above, mine, *below])
    return window[len(above)], window


def name_rows(rows: list[dict]) -> None:
    """Add each shown row's username and streaks (only the page's players are looked up)."""
    names = dict(get_user_model().objects.filter(pk__in=[r["player_id"] for r in rows]).values_list("pk", "username"))
    streaks = streaks_of_players([r["player_id"] for r in rows])
    for row in rows:
        row["username"] = names.get(row["player_id"])
        row["streak"], row["cleared_streak"] = streaks[row["player_id"]]


def period_board(
    *, preset: str, first: dt.date | None, club_id: int | None = None, limit: int = 50, offset: int = 0
) -> tuple[int, list[dict]]:
    """(players on the board, rows from ``offset``), each row with its rank, name and streaks."""
    board = period_board_of(preset=preset, first=first, club_id=club_id)
    return board.count(), shown_rows(board, list(board[offset : offset + limit]))


def streaks_of_players(player_ids, *, today: dt.date | None = None) -> dict[int, tuple[Streak, Streak]]:
    """Per player: (daily streak, cleared streak) over finished daily games of any preset."""
    today = today or utc_today()
    days: dict[int, set] = {pid: set() for pid in player_ids}
    cleared: dict[int, set] = {pid: set() for pid in player_ids}
    for pid, date, is_cleared in (
        daily_results().filter(player_id__in=list(player_ids)).values_list("player_id", "date", "cleared").distinct()
    ):
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
    history = list(
        daily_results()
        .filter(player=player)
        .select_related("daily", "player")
        .order_by("-date", "preset")[:history_limit]
    )
    clubs = Membership.objects.filter(user=player).select_related("club").order_by("club__name")
    if viewer_id(viewer) != player.pk:  # another player's page, or a visitor's look: public clubs and shared ones
        shared = Membership.objects.filter(user_id=viewer_id(viewer)).values("club_id")
        clubs = clubs.filter(Q(club__is_private=False) | Q(club_id__in=shared))
    return PlayerPage(player, stats, streak, cleared_streak, history, list(clubs))


def player_page_of(*, username: str, viewer) -> PlayerPage:
    """The page of the player of this name (404 when there is none), as the viewer sees it."""
    return player_page(player=player_named(username), viewer=viewer)


def daily_number(date: dt.date) -> int:
    """The public number of a day's daily deals: 1 on the first day."""
    return (date - settings.PYRAMID_FIRST_DAILY_DATE).days + 1


def share_line(result: Result) -> str:
    """A spoiler-free line for a finished daily game: no card, no move of it."""
    outcome = (
        gettext("cleared")
        if result.won
        else ngettext("%(count)s card left", "%(count)s cards left", result.cards_left) % {"count": result.cards_left}
    )
    words = {
        "number": daily_number(result.date),
        "preset": result.preset,
        "outcome": outcome,
        "moves": result.moves,
        "par": result.par_moves,
    }
    if result.par_moves is None:
        return gettext("Pyramid #%(number)s %(preset)s: %(outcome)s, %(moves)s moves") % words
    return gettext("Pyramid #%(number)s %(preset)s: %(outcome)s, %(moves)s moves (par %(par)s)") % words


def share_of(*, game) -> str:
    """The share line of a finished daily game (the caller has checked the game is the viewer's)."""
    result = Result.objects.filter(game=game, daily__isnull=False).first()
    if result is None:
        raise DomainError(Code.NOT_SHAREABLE, gettext("only a finished daily game has a share line"))
    return share_line(result)


def share_of_game(*, game_id: int, player) -> str:
    """The share line of a finished daily game of the player's (404 for anyone else's)."""
    return share_of(game=game_of_player(game_id=game_id, player=player))


def player_named(username: str):
    player = get_user_model().objects.filter(username=username).first()
    if player is None:
        raise DomainError(
            Code.PLAYER_NOT_FOUND, gettext("there is no player %(username)s") % {"username": repr(username)}
        )
    return player
