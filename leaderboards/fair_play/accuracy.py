"""The accuracy rule of fair play (README, "Fair play"): a player whose last ranked games follow the exact
solver more closely than people play is flagged for an operator's review (never a penalty by itself).

Timing rules are beaten by random pauses, and under three passes the first pass shows the whole stock, so
from then on any local solver plays the rest perfectly. So the rule reads each game's analysis: over the
player's last ``PYRAMID_FLAG_ACCURACY_GAMES`` analysed ranked games, it fires when

- at least ``PYRAMID_FLAG_ACCURACY_MIN_SEEN`` of them could still be won when the stock had been seen, and
  every one of those was won from there in the fewest moves; and
- before the stock had been seen, every move made from a winnable position (at least
  ``PYRAMID_FLAG_ACCURACY_MIN_MOVES`` of them) kept the win at its fewest moves.

The thresholds come from measured play (docs/benchmarks.md, "Fair play from analysis"): solver play trips
it in every window of ten games; the rules-of-thumb bot, random play and a player who strays from the
solver's line at one move in twenty never did.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction

from engine import parse_move
from engine.solver.analysis import Accuracy, accuracy, stock_seen_at, unpack
from games.engine_glue import start_position
from games.models import Game, GameAnalysis
from games.selectors import game_notations

from .models import Flag


@dataclass(slots=True, frozen=True)
class AccuracyFigures:
    games: int
    seen_winnable: int  # games still winnable when the stock had been seen
    seen_par: int  # of those, won from there in the fewest moves
    best_before: int
    counted_before: int

    @property
    def fires(self) -> bool:
        return (self.seen_winnable >= settings.PYRAMID_FLAG_ACCURACY_MIN_SEEN and self.seen_par == self.seen_winnable
                and self.counted_before >= settings.PYRAMID_FLAG_ACCURACY_MIN_MOVES
                and self.best_before == self.counted_before)

    def __str__(self) -> str:
        return (f"last {self.games} analysed ranked games: {self.seen_par} of the {self.seen_winnable} still winnable "
                f"once the stock had been seen were won from there in the fewest moves; before it, "
                f"{self.best_before} of {self.counted_before} moves from a winnable position kept the win at its "
                f"fewest moves")


def game_accuracy(game: Game, analysis: GameAnalysis) -> Accuracy:
    moves = [parse_move(notation) for notation in game_notations(game)]
    return accuracy(unpack(bytes(analysis.plies)), stock_seen_at(start_position(game.deal), moves))


def player_accuracy(*, player_id: int) -> AccuracyFigures:
    """The rule's figures over the player's last analysed ranked games."""
    analyses = list(GameAnalysis.objects.filter(game__player_id=player_id, game__mode=Game.Mode.RANKED)
                    .select_related("game__deal")
                    .order_by("-game__finished_at", "-game_id")[:settings.PYRAMID_FLAG_ACCURACY_GAMES])
    found = [game_accuracy(a.game, a) for a in analyses]
    return AccuracyFigures(len(found), sum(f.winnable_when_seen for f in found), sum(f.par_after_seen for f in found),
                           sum(f.best_before for f in found), sum(f.counted_before for f in found))


def accuracy_check(*, game: Game) -> Flag | None:
    """Flag ``game`` (the player's latest analysed) when the rule fires and no flag of the player's waits
    for review; safe to run twice."""
    figures = player_accuracy(player_id=game.player_id)
    if not figures.fires or Flag.objects.filter(game__player_id=game.player_id, kind=Flag.Kind.ACCURACY,
                                                reviewed_at__isnull=True).exists():
        return None
    try:
        with transaction.atomic():
            return Flag.objects.create(game=game, kind=Flag.Kind.ACCURACY, detail=str(figures))
    except IntegrityError:  # flagged already
        return None


def accuracy_on_game_analysed(sender, *, game: Game, **kwargs) -> None:
    """The receiver of ``games.signals.game_analysed``."""
    accuracy_check(game=game)
