"""The weekly and all-time boards' standings (:class:`PeriodStanding`) and their bucket counts
(:class:`PeriodCount`), kept in step with the results.

A result that lands on a board adds itself to two rows, its week's and all time's, in one upsert on the
player's own rows; the counts of the buckets those rows leave and join move by one, in one more statement. A
result that changes or is voided has its player's two rows recomputed from the results (a player's results are
few), and the counts moved the same way.
"""

from __future__ import annotations

import datetime as dt

from django.db import connection, transaction
from django.db.models import Count, F, Q
from django.db.models.functions import TruncWeek

from ..models import PeriodCount, PeriodStanding, Result
from ..selectors.stats import AGGREGATES, week_of
from .board_counts import counted

_TABLE = PeriodStanding._meta.db_table
_COUNTS = ("played", "cleared", "won", "at_par", "cards_total")
_ADD_SQL = f"""
INSERT INTO {_TABLE} (kind, starts, preset, player_id, played, cleared, won, at_par, cards_total, best_cards_left,
                      best_moves_won)
VALUES (%s, %s, %s, %s, 1, %s, %s, %s, %s, %s, %s), (%s, %s, %s, %s, 1, %s, %s, %s, %s, %s, %s)
ON CONFLICT (kind, starts, preset, player_id) DO UPDATE SET
    {", ".join(f"{name} = {_TABLE}.{name} + EXCLUDED.{name}" for name in _COUNTS)},
    best_cards_left = CASE WHEN EXCLUDED.best_cards_left < {_TABLE}.best_cards_left
                           THEN EXCLUDED.best_cards_left ELSE {_TABLE}.best_cards_left END,
    best_moves_won = CASE WHEN {_TABLE}.best_moves_won IS NULL OR EXCLUDED.best_moves_won < {_TABLE}.best_moves_won
                          THEN COALESCE(EXCLUDED.best_moves_won, {_TABLE}.best_moves_won)
                          ELSE {_TABLE}.best_moves_won END
RETURNING kind, starts, rank_key
"""
_COUNT_TABLE = PeriodCount._meta.db_table
# +1 joins a bucket, and a proposed 0 leaves one: the row proposed must pass the count's check (never below 0)
# before the conflict turns it into the update, and a bucket a player leaves always has its row
_COUNT_SQL = f"""
INSERT INTO {_COUNT_TABLE} (kind, starts, preset, bucket, players) VALUES {{rows}}
ON CONFLICT (kind, starts, preset, bucket) DO UPDATE
SET players = {_COUNT_TABLE}.players + CASE WHEN EXCLUDED.players = 0 THEN -1 ELSE EXCLUDED.players END
"""
# the boards' sums (docs/leaderboards.md, "Board formulas"), named apart from the results' own columns (cleared, won),
# which the sums' filters read
_FIGURES = {
    f"f_{name}": AGGREGATES[source]
    for name, source in [
        ("played", "played"),
        ("cleared", "cleared_count"),
        ("won", "won_count"),
        ("at_par", "at_par"),
        ("cards_total", "cards_total"),
        ("best_cards_left", "best_cards_left"),
        ("best_moves_won", "best_moves_won"),
    ]
}


def _figures(row: dict) -> dict:
    return {name.removeprefix("f_"): value for name, value in row.items()}


def periods_of(day: dt.date) -> list[tuple[str, dt.date]]:
    """The boards a daily result of ``day`` counts on: its ISO week's and all time's."""
    return [(PeriodStanding.Kind.WEEK, week_of(day)[0]), (PeriodStanding.Kind.ALL_TIME, PeriodStanding.ALL_TIME_START)]


def _at_par(result: Result) -> bool:
    return result.won and result.par_moves is not None and result.moves <= result.par_moves


def _keys(*, player_id: int, preset: str, day: dt.date) -> dict[tuple, int]:
    """The rank keys of a player's week and all-time rows of ``preset`` (those that exist), by (kind, starts)."""
    rows = PeriodStanding.objects.filter(
        Q(kind=PeriodStanding.Kind.WEEK, starts=week_of(day)[0]) | Q(kind=PeriodStanding.Kind.ALL_TIME),
        player_id=player_id,
        preset=preset,
    )
    return {(kind, starts): key for kind, starts, key in rows.values_list("kind", "starts", "rank_key")}


def _counts_move(preset: str, before: dict[tuple, int], after: dict[tuple, int]) -> None:
    """Move the bucket counts of a player's rows from their keys ``before`` to ``after``: one statement, its rows
    in one order (two finishing games never take two count rows in opposite orders)."""
    bits = PeriodCount.BUCKET_BITS
    changes: dict[tuple, int] = {}
    for period in set(before) | set(after):
        old, new = before.get(period), after.get(period)
        if old is not None and new is not None and old >> bits == new >> bits:
            continue
        if old is not None:
            changes[(*period, old >> bits)] = 0  # leaves (see _COUNT_SQL)
        if new is not None:
            changes[(*period, new >> bits)] = 1
    if not changes:
        return
    rows = sorted(changes.items())
    with connection.cursor() as cursor:
        cursor.execute(
            _COUNT_SQL.format(rows=", ".join(["(%s, %s, %s, %s, %s)"] * len(rows))),
            [value for (kind, starts, bucket), change in rows for value in (kind, starts, preset, bucket, change)],
        )


def period_standings_add(result: Result) -> None:
    """A result newly on the boards adds to its player's week and all-time rows (inside the caller's transaction)."""
    figures = [
        int(result.cleared),
        int(result.won),
        int(_at_par(result)),
        result.cards_left,
        result.cards_left,
        result.moves if result.won else None,
    ]
    before = _keys(player_id=result.player_id, preset=result.preset, day=result.date)
    with connection.cursor() as cursor:  # both rows in one statement: one round trip
        cursor.execute(
            _ADD_SQL,
            [
                value
                for kind, starts in periods_of(result.date)
                for value in (kind, starts, result.preset, result.player_id, *figures)
            ],
        )
        after = {(kind, _date(starts)): key for kind, starts, key in cursor.fetchall()}
    _counts_move(result.preset, before, after)


def _date(value) -> dt.date:
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(value)  # SQLite answers text


def period_standings_follow(before: tuple | None, result: Result) -> None:
    """Bring the standings in step with ``result``, which counted on the boards as ``before`` (``counted``)."""
    if before is None:
        if counted(result) is not None:
            period_standings_add(result)
    else:  # rewritten, voided or brought back: rare, and a player's rows are quick to recompute
        period_standings_refresh(player_id=result.player_id, preset=result.preset, day=result.date)


def period_standings_refresh(*, player_id: int, preset: str, day: dt.date) -> None:
    """Recompute a player's week and all-time rows of ``preset`` from their results (a result of ``day``
    changed or was voided, or its void lifted), and move their bucket counts."""
    before = _keys(player_id=player_id, preset=preset, day=day)
    results = Result.objects.filter(daily__isnull=False, voided=False, player_id=player_id, preset=preset)
    for kind, starts in periods_of(day):
        scope = (
            results
            if kind == PeriodStanding.Kind.ALL_TIME
            else results.filter(date__gte=starts, date__lte=starts + dt.timedelta(days=6))
        )
        figures = _figures(scope.aggregate(**_FIGURES))
        if figures["played"]:
            PeriodStanding.objects.update_or_create(
                kind=kind, starts=starts, preset=preset, player_id=player_id, defaults=figures
            )
        else:
            PeriodStanding.objects.filter(kind=kind, starts=starts, preset=preset, player_id=player_id).delete()
    _counts_move(preset, before, _keys(player_id=player_id, preset=preset, day=day))


def standings_from(results, model=PeriodStanding):
    """Every standing the results make (``model`` lets a migration use its own copy of the model)."""
    for row in (
        results.annotate(starts=TruncWeek("date"))
        .values("starts", "preset", "player_id")
        .annotate(**_FIGURES)
        .order_by()
        .iterator(chunk_size=5000)
    ):
        yield model(kind=PeriodStanding.Kind.WEEK, **_figures(row))
    for row in results.values("preset", "player_id").annotate(**_FIGURES).order_by().iterator(chunk_size=5000):
        yield model(kind=PeriodStanding.Kind.ALL_TIME, starts=PeriodStanding.ALL_TIME_START, **_figures(row))


_RESULTS = Result._meta.db_table
_SUMS = """count(*), count(*) FILTER (WHERE cleared), count(*) FILTER (WHERE won),
    count(*) FILTER (WHERE won AND par_moves IS NOT NULL AND moves <= par_moves), sum(cards_left), min(cards_left),
    min(moves) FILTER (WHERE won)"""
_REBUILD_SQL = [
    f"""
INSERT INTO {_TABLE} (kind, starts, preset, player_id, played, cleared, won, at_par, cards_total, best_cards_left,
                      best_moves_won)
SELECT {period}, preset, player_id, {_SUMS} FROM {_RESULTS} WHERE daily_id IS NOT NULL AND NOT voided
GROUP BY {group}"""
    for period, group in [("'week', date_trunc('week', date)::date", "2, 3, 4"), ("'all', DATE '1970-01-01'", "3, 4")]
]


def period_standings_rebuild() -> int:
    """Write every weekly and all-time standing, and their bucket counts, again from the results; returns how many
    standings there are."""
    with transaction.atomic():
        PeriodStanding.objects.all().delete()
        if connection.vendor != "postgresql":
            PeriodStanding.objects.bulk_create(
                standings_from(Result.objects.filter(daily__isnull=False, voided=False)), batch_size=5000
            )
        else:
            with connection.cursor() as cursor:  # at a million players a day, millions of rows: summed in SQL
                for sql in _REBUILD_SQL:
                    cursor.execute(sql)
        PeriodCount.objects.all().delete()
        PeriodCount.objects.bulk_create(
            PeriodCount(**row)
            for row in PeriodStanding.objects.annotate(bucket=F("rank_key") / 2**PeriodCount.BUCKET_BITS)
            .values("kind", "starts", "preset", "bucket")
            .annotate(players=Count("id"))
            .order_by()
            .iterator()
        )
        return PeriodStanding.objects.count()
