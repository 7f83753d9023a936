"""The daily board: one daily deal's results ranked as RULES.md ranks them (cards left, then
moves, then time; equal results share a rank), the top of it and a player's own neighbourhood.

Each read is a few index range scans on ``result_daily_board``: the top is the first rows in
order, a rank is one more than the count of strictly better results, and ranks inside a contiguous
slice follow from the rank and the position of its first row.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import BooleanField, Count
from django.db.models.expressions import RawSQL

from games.models import DailyDeal

from .. import cache
from ..models import Membership, Result

TABLE = Result._meta.db_table
SHOWN = ["game_id", "player_id", "daily_id", "cards_left", "pyramid_left", "moves", "duration_ms", "won", "cleared",
         "par_moves", "finished_at"]
KEY_COLUMNS = f"({TABLE}.cards_left, {TABLE}.moves, {TABLE}.duration_ms)"
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


def board_results(daily_id: int, *, club_id: int | None = None):
    results = Result.objects.filter(daily_id=daily_id, voided=False)
    if club_id is not None:
        results = results.filter(player_id__in=Membership.objects.filter(club_id=club_id).values("user_id"))
    return results


def _in_order(results):
    return (results.select_related("player").only(*SHOWN, "player__username")
            .order_by("cards_left", "moves", "duration_ms", "id"))


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
    return results.extra(where=[f"{FULL_KEY_COLUMNS} < (%s, %s, %s, %s)"],
                         params=[row.cards_left, row.moves, row.duration_ms, row.pk])


def _is_before(row: Result, columns: str = FULL_KEY_COLUMNS) -> RawSQL:
    key = [row.cards_left, row.moves, row.duration_ms, row.pk][:columns.count(",") + 1]
    return RawSQL(f"{columns} < ({', '.join(['%s'] * len(key))})", key, output_field=BooleanField())


def daily_board(*, daily: DailyDeal, player=None, limit: int = 50, around: int = 5,
                club_id: int | None = None, use_cache: bool = True) -> DailyBoard:
    if use_cache and club_id is None:
        try:
            return _daily_board_cached(daily=daily, player=player, limit=limit, around=around)
        except cache.Unavailable:
            pass
    results = board_results(daily.pk, club_id=club_id)
    board = DailyBoard(daily, 0, _ranked_slice(list(_in_order(results)[:limit]), 1, 0))
    mine = results.filter(player=player).first() if player is not None and player.is_authenticated else None
    if mine is None:
        board.total = results.count()
        return board
    above = list(_in_order(_before(results, mine)).reverse()[:around])[::-1]
    below = list(_in_order(results).extra(where=[f"{FULL_KEY_COLUMNS} > (%s, %s, %s, %s)"],
                                          params=[mine.cards_left, mine.moves, mine.duration_ms, mine.pk])[:around])
    window = [*above, mine, *below]
    first = window[0]
    # one pass over the board: its size, and the rank and the position of the window's first row
    counts = results.aggregate(total=Count("id"), better=Count("id", filter=_is_before(first, KEY_COLUMNS)),
                               before=Count("id", filter=_is_before(first)))
    board.total = counts["total"]
    board.around = _ranked_slice(window, counts["better"] + 1, counts["before"])
    board.me = board.around[len(above)]
    return board


def _daily_board_cached(*, daily: DailyDeal, player, limit: int, around: int) -> DailyBoard:
    player_id = player.pk if player is not None and player.is_authenticated else None
    top, _, window, total = cache.board_ranks(daily.pk, limit=limit, player_id=player_id, around=around)
    wanted = {pid for pid, _ in top} | {pid for pid, _ in window}
    by_player = {r.player_id: r for r in _in_order(board_results(daily.pk).filter(player_id__in=wanted))}
    if len(by_player) != len(wanted):
        raise cache.Unavailable("the cached board is behind PostgreSQL")
    board = DailyBoard(daily, total, [BoardRow(rank, by_player[pid]) for pid, rank in top], source="redis")
    board.around = [BoardRow(rank, by_player[pid]) for pid, rank in window]
    board.me = next((row for row in board.around if row.result.player_id == player_id), None)
    return board


def board_rows_for_cache(daily_id: int):
    """What the cache holds of a board: (player_id, cards_left, moves, duration_ms)."""
    return board_results(daily_id).values_list("player_id", "cards_left", "moves", "duration_ms")
