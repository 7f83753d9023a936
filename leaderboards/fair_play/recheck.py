"""The fair-play re-check of a day's ranked games: each finished game's move log is replayed through
the engine and compared with the stored game and its result; games that trip the suspicious-play
rule are flagged for an operator's review. Flags are findings, never penalties: only a void (by an
operator) takes a result off the boards.

The suspicious-play rule (docs/fair-play.md, "Fair play"): a ranked game won in exactly the deal's par, so that
every move from the first was on a shortest winning line, with at least
``PYRAMID_FLAG_MIN_MOVES`` moves whose server-stamped intervals vary less than
``PYRAMID_FLAG_EVEN_CV`` (standard deviation over mean): a person thinks longer at some moves than
at others; a program replaying a solver's line does not.
"""

from __future__ import annotations

import datetime as dt
import statistics
from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

import engine
from engine.solver import WINNABLE, solve
from games.engine_glue import engine_deal, engine_rules, start_position
from games.models import DailyDeal, Game
from games.move_log import log_moves

from .game_rules import game_rules_check
from .models import Flag, RecheckChunk
from .services import flag_raise


@dataclass(slots=True)
class RecheckReport:
    date: dt.date
    games: int = 0
    mismatched: list[int] = field(default_factory=list)  # game ids whose stored result differs
    suspicious: list[int] = field(default_factory=list)
    flags_new: int = 0  # flags written by this run (a second run writes none)


def _ranked_games_of(date: dt.date):
    """The finished ranked games of a UTC day: its daily games, and tournament games finished that day (each
    side an index range: ``daily_id``'s, and ``game_tournament_finished``)."""
    start = dt.datetime.combine(date, dt.time(), tzinfo=dt.UTC)
    return (
        Game.objects.filter(mode=Game.Mode.RANKED)
        .exclude(status=Game.Status.PLAYING)
        .filter(
            Q(daily_id__in=DailyDeal.objects.filter(date=date).values("pk"))
            | Q(daily__isnull=True, finished_at__gte=start, finished_at__lt=start + dt.timedelta(days=1))
        )
        .select_related("deal", "daily", "result")
        .order_by("pk")
    )


def result_differences(game: Game, notations: list[str]) -> list[str]:
    """What the stored game and its result say that the replayed move log does not (empty: all agree)."""
    replayed = engine.replay(engine_deal(game.deal.text), engine_rules(game.deal.rules), notations)
    if not replayed.ok:
        return [f"move {replayed.failed_at + 1} ({notations[replayed.failed_at]}) is illegal: {replayed.reason}"]
    position = replayed.position
    score = engine.score(position)
    # a resignation, or the server closing a ranked game at its window's end, ends a game its log leaves playing
    ended_early = game.status in (Game.Status.RESIGNED, Game.Status.CLOSED) and position.status == engine.PLAYING
    status = game.status if ended_early else position.status
    expected = {"state": position.dumps(), "moves": position.moves, "cards_left": position.cards_left, "status": status}
    differences = [
        f"game {name} is {getattr(game, name)!r}, the log gives {value!r}"
        for name, value in expected.items()
        if getattr(game, name) != value
    ]
    result = getattr(game, "result", None)
    if result is None:
        return differences + ["the game has no result"]
    expected_result = {
        "cards_left": position.cards_left,
        "pyramid_left": score.pyramid_left,
        "moves": position.moves,
        "won": status == Game.Status.WON,
        "cleared": score.pyramid_left == 0,
        "match_score": score.match_score,
    }
    return differences + [
        f"result {name} is {getattr(result, name)!r}, the log gives {value!r}"
        for name, value in expected_result.items()
        if getattr(result, name) != value
    ]


def _par_moves(game: Game) -> int | None:
    if game.deal.par_moves is not None:
        return game.deal.par_moves
    solution = solve(start_position(game.deal), budget_seconds=settings.PYRAMID_SOLVE_BUDGET_SECONDS)
    return solution.par_moves if solution.verdict == WINNABLE else None


def move_intervals(game: Game, stamps: list[dt.datetime]) -> list[float]:
    """Seconds before each move, by the server's clock: from the start of the game, then from the move before."""
    times = [game.started_at, *stamps]
    return [(later - earlier).total_seconds() for earlier, later in zip(times, times[1:], strict=False)]


def suspicion(game: Game, stamps: list[dt.datetime]) -> str | None:
    """Why the suspicious-play rule fires for this game, or None when it does not."""
    if game.status != Game.Status.WON or game.moves < settings.PYRAMID_FLAG_MIN_MOVES:
        return None
    par = _par_moves(game)
    if par is None or game.moves != par:
        return None
    intervals = move_intervals(game, stamps)
    mean = statistics.fmean(intervals)
    spread = statistics.pstdev(intervals) / mean if mean > 0 else 0.0
    if spread >= settings.PYRAMID_FLAG_EVEN_CV:
        return None
    return (
        f"won in par ({par} moves, every move on a shortest winning line) with even move times: "
        f"mean {mean:.2f} s, spread {spread:.2f} (under {settings.PYRAMID_FLAG_EVEN_CV})"
    )


def _flag(game: Game, kind: str, detail: str) -> bool:
    """Record a flag (holding the result off the boards) unless the game has one of this kind already; True when
    this call wrote it."""
    return flag_raise(game=game, kind=kind, detail=detail) is not None


def ranked_day_recheck(*, date: dt.date) -> RecheckReport:
    """Replay every finished ranked game of ``date`` in this process and flag what differs or looks like a
    program. Safe to run again: a game keeps at most one flag of each kind."""
    return _recheck(_ranked_games_of(date), RecheckReport(date=date))


def _recheck(games, report: RecheckReport) -> RecheckReport:
    for game in games.iterator(chunk_size=500):
        report.games += 1
        log = log_moves(game.move_log, started_at=game.started_at)
        differences = result_differences(game, [move.notation for move in log])
        if differences:
            report.mismatched.append(game.pk)
            report.flags_new += _flag(game, Flag.Kind.RESULT_MISMATCH, "; ".join(differences))
        why = suspicion(game, [move.created_at for move in log])
        if why:
            report.suspicious.append(game.pk)
            report.flags_new += _flag(game, Flag.Kind.SUSPICIOUS, why)
        # the rules the game's end queued already, again: a worker lost meanwhile loses no flag
        report.flags_new += sum(flag is not None for flag in game_rules_check(game=game, log=log))
    return report


def recheck_day_plan(*, date: dt.date, size: int) -> list[RecheckChunk]:
    """Cut the day's finished ranked games into chunks of ``size`` by id, stored for the workers to share
    (a day planned again starts afresh)."""
    ids = list(_ranked_games_of(date).values_list("pk", flat=True))
    with transaction.atomic():
        RecheckChunk.objects.filter(date=date).delete()
        return RecheckChunk.objects.bulk_create(
            RecheckChunk(date=date, first_game=ids[start], last_game=ids[min(start + size, len(ids)) - 1])
            for start in range(0, len(ids), size)
        )


def recheck_chunk_run(*, chunk_id: int) -> RecheckChunk | None:
    """Re-check one chunk and store its counts; safe to run twice (None when the chunk is gone: planned anew)."""
    chunk = RecheckChunk.objects.filter(pk=chunk_id).first()
    if chunk is None:
        return None
    games = _ranked_games_of(chunk.date).filter(pk__gte=chunk.first_game, pk__lte=chunk.last_game)
    report = _recheck(games, RecheckReport(date=chunk.date))
    stored = RecheckChunk.objects.filter(pk=chunk_id).update(
        games=report.games,
        mismatched=report.mismatched,
        suspicious=report.suspicious,
        flags_new=report.flags_new,
        finished_at=timezone.now(),
    )
    return RecheckChunk.objects.filter(pk=chunk_id).first() if stored else None


def recheck_day_report(*, date: dt.date) -> tuple[RecheckReport, int, int]:
    """(the day's report summed from its chunks done, chunks done, chunks planned)."""
    report, done, planned = RecheckReport(date=date), 0, 0
    for chunk in RecheckChunk.objects.filter(date=date):
        planned += 1
        if chunk.games is None:
            continue
        done += 1
        report.games += chunk.games
        report.mismatched += chunk.mismatched
        report.suspicious += chunk.suspicious
        report.flags_new += chunk.flags_new
    return report, done, planned
