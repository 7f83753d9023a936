"""A player's statistics and their calendar of daily results.

Statistics are by mode and preset, each mode in one grouped query: ranked games from their results (daily
and tournament games, none void; what the boards count), practice games from the games themselves (finished
ones: won, stuck or resigned). Per preset: games played, won, the win rate, pyramids cleared, and the fewest
moves and shortest time of a won game. The streaks are the daily ones of the boards (``streaks_of_players``).

Practice figures are their player's alone: practice games and their logs are private (docs/fair-play.md, "One rule for
reading games"), and so are the figures made of them; anyone else is told ``practice: null``. Ranked figures
and the calendar are public to logged-in players, as the boards they come from are.

The calendar lists every UTC day from the first day of the month ``months - 1`` months back to today, each
with the day's daily deals (by preset) and the player's counted result of each, or none.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count, FilteredRelation, Min, Q

import engine
from games.models import DailyDeal
from games.selectors import practice_figures
from pyramid_site.clock import utc_today

from ..models import Result
from ..streaks import Streak
from .stats import player_named, streaks_of_players

MAX_MONTHS = 12


def _preset_order(preset: str) -> tuple[int, str]:
    """Presets in the rule book's order (classic first), ``custom`` last."""
    order = [*engine.PRESETS, "custom"]
    return (order.index(preset) if preset in order else len(order), preset)


@dataclass(frozen=True)
class Figures:
    """One row of statistics: a preset's (``preset`` set) or a mode's total (``preset`` None, no bests:
    the fewest moves of different rule sets do not compare)."""

    preset: str | None
    played: int
    won: int
    cleared: int
    best_moves: int | None = None
    best_seconds: float | None = None

    @property
    def win_rate(self) -> float | None:
        """Won over played, 0 to 1 (four decimals); None when nothing was played."""
        return round(self.won / self.played, 4) if self.played else None


@dataclass(frozen=True)
class ModeFigures:
    total: Figures
    presets: list[Figures]


def _mode(rows: list[Figures]) -> ModeFigures:
    rows = sorted(rows, key=lambda row: _preset_order(row.preset))
    total = Figures(
        preset=None,
        played=sum(r.played for r in rows),
        won=sum(r.won for r in rows),
        cleared=sum(r.cleared for r in rows),
    )
    return ModeFigures(total=total, presets=rows)


def ranked_figures(*, player_id: int) -> ModeFigures:
    """Per preset, over the player's counted results (ranked games finished: won, stuck, resigned or closed;
    void ones left out), in one grouped query."""
    won = Q(won=True)
    # counted over a column of the index result_player_figures (never null), so that it alone answers
    rows = (
        Result.objects.filter(player_id=player_id, voided=False)
        .values("preset")
        .annotate(
            played=Count("preset"),
            won_count=Count("preset", filter=won),
            cleared_count=Count("preset", filter=Q(cleared=True)),
            best_moves=Min("moves", filter=won),
            best_ms=Min("duration_ms", filter=won),
        )
    )
    return _mode(
        [
            Figures(
                preset=r["preset"],
                played=r["played"],
                won=r["won_count"],
                cleared=r["cleared_count"],
                best_moves=r["best_moves"],
                best_seconds=None if r["best_ms"] is None else r["best_ms"] / 1000,
            )
            for r in rows
        ]
    )


def _practice(player_id: int) -> ModeFigures:
    return _mode(
        [
            Figures(
                preset=r["preset"],
                played=r["played"],
                won=r["won"],
                cleared=r["cleared"],
                best_moves=r["best_moves"],
                best_seconds=None if r["best_duration"] is None else r["best_duration"].total_seconds(),
            )
            for r in practice_figures(player_id=player_id)
        ]
    )


@dataclass(frozen=True)
class PlayerStatistics:
    player: object
    ranked: ModeFigures
    practice: ModeFigures | None  # None: another player's, which are private
    streak: Streak
    cleared_streak: Streak


def practice_is_visible(*, player, viewer) -> bool:
    """Practice figures are their player's alone."""
    return viewer is not None and getattr(viewer, "pk", None) == player.pk


def player_statistics(*, player, viewer, today: dt.date | None = None) -> PlayerStatistics:
    """Ranked figures, practice figures (to the player only) and daily streaks: three queries."""
    streak, cleared_streak = streaks_of_players([player.pk], today=today)[player.pk]
    practice = _practice(player.pk) if practice_is_visible(player=player, viewer=viewer) else None
    return PlayerStatistics(
        player=player,
        ranked=ranked_figures(player_id=player.pk),
        practice=practice,
        streak=streak,
        cleared_streak=cleared_streak,
    )


# --- the calendar ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CalendarDeal:
    """A daily deal of the day and the player's counted result of it (None: not played, or void)."""

    preset: str
    result: dict | None


@dataclass(frozen=True)
class CalendarDay:
    date: dt.date
    deals: list[CalendarDeal]


@dataclass(frozen=True)
class Calendar:
    player: object
    first: dt.date
    last: dt.date
    days: list[CalendarDay]


def calendar_start(today: dt.date, months: int) -> dt.date:
    """The first day of the month ``months - 1`` months before today's (``months=1``: this month)."""
    index = today.year * 12 + today.month - 1 - (months - 1)
    return dt.date(index // 12, index % 12 + 1, 1)


RESULT_FIELDS = ("game_id", "won", "cleared", "cards_left", "moves", "duration_ms")


def player_calendar(*, player, months: int, today: dt.date | None = None) -> Calendar:
    """Every day from ``calendar_start`` to today, in order, each with its daily deals in preset order
    and the player's result of each: one query, the daily deals joined to the player's counted results."""
    last = today or utc_today()
    first = calendar_start(last, months)
    rows = (
        DailyDeal.objects.filter(date__gte=first, date__lte=last)
        # (a daily result's date is its daily deal's: the date bounds the player's results read)
        .annotate(
            mine=FilteredRelation(
                "results", condition=Q(results__player=player, results__voided=False, results__date__gte=first)
            )
        )
        .values("date", "preset", *(f"mine__{name}" for name in RESULT_FIELDS))
    )
    by_day: dict[dt.date, list[CalendarDeal]] = {}
    for row in rows:
        result = None if row["mine__game_id"] is None else {name: row[f"mine__{name}"] for name in RESULT_FIELDS}
        by_day.setdefault(row["date"], []).append(CalendarDeal(preset=row["preset"], result=result))
    days = []
    for offset in range((last - first).days + 1):
        day = first + dt.timedelta(days=offset)
        days.append(CalendarDay(date=day, deals=sorted(by_day.get(day, []), key=lambda d: _preset_order(d.preset))))
    return Calendar(player=player, first=first, last=last, days=days)


def player_statistics_of(*, username: str, viewer) -> PlayerStatistics:
    """The statistics of the player of this name (404 when there is none), as the viewer sees them."""
    return player_statistics(player=player_named(username), viewer=viewer)


def player_calendar_of(*, username: str, months: int) -> Calendar:
    """The calendar of the player of this name (404 when there is none)."""
    return player_calendar(player=player_named(username), months=months)
