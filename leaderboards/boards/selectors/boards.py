"""The daily board: one daily deal's results ranked as docs/rules.md ranks them (cards left, then
moves, then time; equal results share a rank), the top of it and a player's own neighbourhood.

Each read is a few short index range scans: the top is the first rows in order of
``result_daily_board``; a rank is one more than the results ahead, summed from the board's
:class:`BoardCount` buckets plus the quicker results in its own bucket; ranks inside a contiguous
slice follow from the rank and the position of its first row.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import Count, Q, Sum
from django.utils.translation import gettext

from games.models import DailyDeal
from games.selectors import daily_deal
from pyramid_site.clock import utc_today
from pyramid_site.errors import Code, DomainError

from ...clubs.models import Membership
from ...clubs.selectors import club_must_be_visible
from .. import cache
from ..models import BoardCount, Result

TABLE = Result._meta.db_table
SHOWN = [
    "game_id",
    "player_id",
    "daily_id",
    "cards_left",
    "pyramid_left",
    "moves",
    "duration_ms",
    "won",
    "cleared",
    "par_moves",
    "finished_at",
]
FULL_KEY_COLUMNS = f"({TABLE}.cards_left, {TABLE}.moves, {TABLE}.duration_ms, {TABLE}.id)"  # the display order


@dataclass
class BoardRow:
    rank: int
    result: Result

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.result.cards_left, self.result.moves, self.result.duration_ms)


@dataclass
class DailyBoard:
    daily: DailyDeal
    total: int
    top: list[BoardRow]
    me: BoardRow | None = None
    around: list[BoardRow] = field(default_factory=list)
    source: str = "postgresql"


def board_results(daily_id: int):
    return Result.objects.filter(daily_id=daily_id, voided=False)


def _in_order(results):
    return (
        results.select_related("player")
        .only(*SHOWN, "player__username")
        .order_by("cards_left", "moves", "duration_ms", "id")
    )


def _ranked_slice(rows: list[Result], first_rank: int, first_position: int) -> list[BoardRow]:
    """Ranks of the board's rows from 0-based ``first_position`` on: a row whose result differs
    from the one before it ranks by its position, equal results share a rank."""
    ranked: list[BoardRow] = []
    for i, result in enumerate(rows):
        if i == 0:
            ranked.append(BoardRow(first_rank, result))
        elif (result.cards_left, result.moves, result.duration_ms) == ranked[-1].key:
            ranked.append(BoardRow(ranked[-1].rank, result))
        else:
            ranked.append(BoardRow(first_position + i + 1, result))
    return ranked


def _before(results, row: Result):
    return results.extra(
        where=[f"{FULL_KEY_COLUMNS} < (%s, %s, %s, %s)"], params=[row.cards_left, row.moves, row.duration_ms, row.pk]
    )


def _bucket_counts(daily_id: int, cards_left: int, moves: int) -> tuple[int, int]:
    """(results on the board, results in buckets ahead of (cards_left, moves)) from the counts."""
    sums = BoardCount.objects.filter(daily_id=daily_id).aggregate(
        total=Sum("results", default=0),
        ahead=Sum(
            "results", default=0, filter=Q(cards_left__lt=cards_left) | Q(cards_left=cards_left, moves__lt=moves)
        ),
    )
    return sums["total"], sums["ahead"]


def daily_board_for(*, date: dt.date, preset: str, viewer, limit: int, around: int, club_id: int | None) -> DailyBoard:
    """The board of the daily deal of this day and preset as the viewer sees it: 404 for a day to come or a
    deal that does not exist, and for a club the viewer may not see."""
    if date > utc_today():
        raise DomainError(
            Code.DAILY_NOT_FOUND,
            gettext("there is no %(preset)s daily deal on %(date)s") % {"preset": preset, "date": date.isoformat()},
        )
    daily = daily_deal(date=date, preset=preset)
    if club_id is not None:
        club_must_be_visible(club_id=club_id, viewer=viewer)
    return daily_board(daily=daily, player=viewer, limit=limit, around=around, club_id=club_id)


def daily_board(
    *,
    daily: DailyDeal,
    player=None,
    limit: int = 50,
    around: int = 5,
    club_id: int | None = None,
    use_cache: bool = True,
) -> DailyBoard:
    if use_cache and club_id is None:
        try:
            return _daily_board_cached(daily=daily, player=player, limit=limit, around=around)
        except cache.Unavailable:
            pass
    if club_id is not None:
        return _club_daily_board(daily=daily, club_id=club_id, player=player, limit=limit, around=around)
    results = board_results(daily.pk)
    board = DailyBoard(daily, 0, _ranked_slice(list(_in_order(results)[:limit]), 1, 0))
    mine = results.filter(player=player).first() if player is not None and player.is_authenticated else None
    if mine is None:
        board.total = _bucket_counts(daily.pk, 0, 0)[0] if club_id is None else results.count()
        return board
    above = list(_in_order(_before(results, mine)).reverse()[:around])[::-1]
    below = list(
        _in_order(results).extra(
            where=[f"{FULL_KEY_COLUMNS} > (%s, %s, %s, %s)"],
            params=[mine.cards_left, mine.moves, mine.duration_ms, mine.pk],
        )[:around]
    )
    window = [*above, mine, *below]
    first = window[0]
    # the rank of the window's first row is 1 + the results ahead of it: whole (cards left, moves)
    # buckets from the board's counts, and the quicker ones in its own bucket; its position adds
    # the equal results shown before it (by id)
    in_bucket = results.filter(cards_left=first.cards_left, moves=first.moves).aggregate(
        quicker=Count("id", filter=Q(duration_ms__lt=first.duration_ms)),
        tied_before=Count("id", filter=Q(duration_ms=first.duration_ms, id__lt=first.pk)),
    )
    ahead_in_bucket, tied_before = in_bucket["quicker"], in_bucket["tied_before"]
    board.total, ahead = _bucket_counts(daily.pk, first.cards_left, first.moves)
    better = ahead + ahead_in_bucket
    board.around = _ranked_slice(window, better + 1, better + tied_before)
    board.me = board.around[len(above)]
    return board


def _club_daily_board(*, daily: DailyDeal, club_id: int, player, limit: int, around: int) -> DailyBoard:
    """A club's part of a daily board: a few thousand results at most, found from the members (walking the day's
    million results in order for the members' would read most of them), ranked here."""
    members = Membership.objects.filter(club_id=club_id).values_list("user_id", flat=True)
    keyed = sorted(
        Result.objects.filter(
            deal_id=daily.deal_id, daily_id=daily.pk, voided=False, player_id__in=list(members)
        ).values_list("cards_left", "moves", "duration_ms", "id", "player_id")
    )
    ranks, mine = [], None
    for position, (cards_left, moves, duration_ms, _, player_id) in enumerate(keyed):
        tied = position and keyed[position - 1][:3] == (cards_left, moves, duration_ms)
        ranks.append(ranks[-1] if tied else position + 1)
        if player is not None and player_id == player.pk:
            mine = position
    window = [] if mine is None else list(range(max(mine - around, 0), min(mine + around + 1, len(keyed))))
    shown = {keyed[i][3] for i in [*range(min(limit, len(keyed))), *window]}
    by_id = {r.pk: r for r in _in_order(Result.objects.filter(pk__in=shown))}
    rows = [BoardRow(ranks[i], by_id[keyed[i][3]]) for i in range(min(limit, len(keyed)))]
    board = DailyBoard(daily, len(keyed), rows)
    board.around = [BoardRow(ranks[i], by_id[keyed[i][3]]) for i in window]
    board.me = None if mine is None else board.around[mine - window[0]]
    return board


def _daily_board_cached(*, daily: DailyDeal, player, limit: int, around: int) -> DailyBoard:
    player_id = player.pk if player is not None and player.is_authenticated else None
    top, _, window, total = cache.board_ranks(daily.pk, limit=limit, player_id=player_id, around=around)
    wanted = {pid for pid, _ in top} | {pid for pid, _ in window}
    by_player = {r.player_id: r for r in _in_order(board_results(daily.pk).filter(player_id__in=wanted))}
    # results written while Redis did not answer are missing from it until the next rebuild: the board's
    # size in PostgreSQL (a sum over its counts) tells
    if len(by_player) != len(wanted) or total != _bucket_counts(daily.pk, 0, 0)[0]:
        raise cache.Unavailable("the cached board is behind PostgreSQL")
    board = DailyBoard(daily, total, [BoardRow(rank, by_player[pid]) for pid, rank in top], source="redis")
    board.around = [BoardRow(rank, by_player[pid]) for pid, rank in window]
    board.me = next((row for row in board.around if row.result.player_id == player_id), None)
    return board


def board_rows_for_cache(daily_id: int):
    """What the cache holds of a board: (player_id, cards_left, moves, duration_ms)."""
    return board_results(daily_id).values_list("player_id", "cards_left", "moves", "duration_ms")
