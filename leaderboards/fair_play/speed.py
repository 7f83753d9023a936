"""The speed rule of fair play (docs/fair-play.md, "Fair play"): a ranked game won in less time than a person needs to
make its moves at all, whatever they knew beforehand. Each move is at least one aimed click or tap (a pair is
two; a draw one), and a person's fastest aimed clicks come a few hundred milliseconds apart, so the rule fires
for a win of at least ``PYRAMID_FLAG_MIN_MOVES`` moves taking under ``PYRAMID_FLAG_FASTEST_MOVE_MS`` (300) a
move on the server's clock, start to finish. The seeded players of the benchmarks move at a person's pace
(lognormal pauses, median 2.5 s a move: docs/benchmarks.md) and a par win of 33 moves then takes about 80 s;
the rule's floor for it is 9.9 s. It catches a program that plays as fast as the server answers; one that adds
pauses is the other rules' business (the accuracy and scouting rules).
"""

from __future__ import annotations

from django.conf import settings

from games.models import Game

from .models import Flag
from .services import flag_raise


def too_fast(game: Game) -> str | None:
    """Why the speed rule fires for ``game``, or None."""
    if game.mode != Game.Mode.RANKED or game.status != Game.Status.WON or game.moves < settings.PYRAMID_FLAG_MIN_MOVES:
        return None
    taken_ms = (game.finished_at - game.started_at).total_seconds() * 1000
    floor_ms = game.moves * settings.PYRAMID_FLAG_FASTEST_MOVE_MS
    if taken_ms >= floor_ms:
        return None
    return (
        f"won in {game.moves} moves in {taken_ms / 1000:.2f} s ({taken_ms / game.moves:.0f} ms a move), under "
        f"the {floor_ms / 1000:.2f} s a person needs at {settings.PYRAMID_FLAG_FASTEST_MOVE_MS} ms a move"
    )


def speed_check(*, game: Game) -> Flag | None:
    why = too_fast(game)
    return flag_raise(game=game, kind=Flag.Kind.TOO_FAST, detail=why) if why else None
