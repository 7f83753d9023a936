"""The per-(cards left, moves) counts of each daily board, kept in step with its results."""

from __future__ import annotations

from django.db import connection, transaction
from django.db.models import Count, F

from ..models import BoardCount, Result

_TABLE = BoardCount._meta.db_table
_ADD_SQL = f"""
INSERT INTO {_TABLE} (daily_id, cards_left, moves, shard, results) VALUES (%s, %s, %s, %s, 1)
ON CONFLICT (daily_id, cards_left, moves, shard) DO UPDATE SET results = {_TABLE}.results + 1
"""
_REMOVE_SQL = (
    f"UPDATE {_TABLE} SET results = results - 1 WHERE daily_id = %s AND cards_left = %s AND moves = %s AND shard = %s"
)


def counted(result: Result | None) -> tuple[int, int, int, int] | None:
    """The bucket row a result counts in: (daily, cards left, moves, shard), or None when it is not on a board."""
    if result is None or result.daily_id is None or result.voided:
        return None
    return (result.daily_id, result.cards_left, result.moves, result.player_id % BoardCount.SHARDS)


def board_count_move(before: tuple | None, after: tuple | None) -> None:
    """A result left bucket ``before`` for bucket ``after`` (either may be None). One atomic
    statement each, so results finishing at once never lose a count; the counts' check constraint
    (never below 0) catches a count taken twice."""
    if before == after:
        return
    with connection.cursor() as cursor:
        if before is not None:
            cursor.execute(_REMOVE_SQL, list(before))
        if after is not None:
            cursor.execute(_ADD_SQL, list(after))


def board_counts_rebuild(*, daily_id: int | None = None) -> int:
    """Write the counts again from the results (of one daily deal, or all); returns the buckets."""
    results = Result.objects.filter(daily__isnull=False, voided=False)
    counts = BoardCount.objects.all()
    if daily_id is not None:
        results, counts = results.filter(daily_id=daily_id), counts.filter(daily_id=daily_id)
    with transaction.atomic():
        counts.delete()
        rows = [
            BoardCount(daily_id=d, cards_left=c, moves=m, shard=s, results=n)
            for d, c, m, s, n in results.annotate(shard=F("player_id") % BoardCount.SHARDS)
            .values_list("daily_id", "cards_left", "moves", "shard")
            .annotate(n=Count("id"))
            .order_by()
        ]
        BoardCount.objects.bulk_create(rows, batch_size=2000)
    return len(rows)
