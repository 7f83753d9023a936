"""Results: written when a ranked game finishes, rebuilt from the games at any time."""

from __future__ import annotations

from django.db import transaction

import engine
from games.engine_glue import game_position
from games.models import Game

from .. import cache, live
from ..models import Result
from ..signals import result_held, result_written
from .board_counts import board_count_move, counted
from .period_standings import period_standings_follow


def _duration_ms(game: Game) -> int:
    return int((game.finished_at - game.started_at).total_seconds() * 1000)


def _result_fields(game: Game, position: engine.Position | None, voided: bool) -> dict:
    score = engine.score(game_position(game) if position is None else position)
    return {
        "player_id": game.player_id,
        "deal_id": game.deal_id,
        "daily_id": game.daily_id,
        "date": game.daily.date if game.daily_id else None,
        "preset": game.deal.preset,
        "cards_left": game.cards_left,
        "pyramid_left": score.pyramid_left,
        "moves": game.moves,
        "duration_ms": _duration_ms(game),
        "cleared": score.pyramid_left == 0,
        "won": game.status == Game.Status.WON,
        "match_score": score.match_score,
        "par_moves": game.deal.par_moves,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "voided": voided,
    }


def _held_off_boards(game: Game) -> bool:
    """Whether a room above the boards holds the game's result off them (fair play: a void or an open flag)."""
    return any(held for _, held in result_held.send(sender=Result, game=game))


def result_record(*, game: Game, position: engine.Position | None = None) -> Result | None:
    """Score a finished ranked game onto the boards. The game service calls it when a game ends
    (in the transaction that stores the move that ends it, or inside the resignation); the hourly job and
    ``rebuild_boards`` call it for any finished game left without a result. Safe to call again: the
    result is rewritten from the game. ``position`` is the game's position when the caller has it already
    (the move that ends the game); otherwise it is loaded from the game's state."""
    if game.mode != Game.Mode.RANKED or game.status == Game.Status.PLAYING:
        return None
    # no savepoint of its own inside the caller's transaction: a failure here fails the move that ends the game
    with transaction.atomic(savepoint=False):
        fields = _result_fields(game, position, _held_off_boards(game))
        result = Result.objects.select_for_update().filter(game=game).first()
        before = counted(result)
        if result is None:
            result = Result.objects.create(game=game, **fields)
        else:
            for name, value in fields.items():
                setattr(result, name, value)
            result.save()
        period_standings_follow(before, result)
        result_written.send(sender=Result, result=result)
        board_count_move(before, counted(result))  # last: the shared count's row lock is held to the commit
    # the cache follows PostgreSQL only once the result is committed (the caller's transaction too)
    transaction.on_commit(lambda: cache.result_changed(result))
    live.result_landed(result, counted(result) is not None)
    return result


def result_on_game_finished(sender, *, game: Game, position: engine.Position | None, **kwargs) -> None:
    """The receiver of ``games.signals.game_finished``: a ranked game's result lands with its last write."""
    if game.mode == Game.Mode.RANKED:
        result_record(game=game, position=position)


def results_rebuild(*, batch_size: int = 2000) -> int:
    """Write the result of every finished ranked game that has none (a backfill, and the proof that
    results are derived from the games). Returns how many were written."""
    written = 0
    missing = (
        Game.objects.filter(mode=Game.Mode.RANKED, result__isnull=True)
        .exclude(status=Game.Status.PLAYING)
        .select_related("deal", "daily")
        .order_by("pk")
    )
    for game in missing.iterator(chunk_size=batch_size):
        if result_record(game=game):
            written += 1
    return written
