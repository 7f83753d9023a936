"""The accuracy rule of fair play (docs/fair-play.md, "Fair play"): a player whose ranked games on one board follow the
exact solver more often than people do is flagged for an operator's review (the game's result is held off
the boards until then).

Timing rules are beaten by random pauses, and under three passes the first pass shows the whole stock, so
from then on any local solver plays the rest perfectly. So the rule reads each game's analysis. A game
*followed the solver* when every move made from a winnable position before the stock had been seen kept the
win at its fewest moves (at least one such move), and, if it could still be won once the stock had been
seen, it was won from there in the fewest moves. The rule is judged per board (a daily preset's boards, or
one tournament) over a rate: of the player's last ``PYRAMID_FLAG_ACCURACY_GAMES`` (n, 10) analysed games on
that board, won or stuck with at least ``PYRAMID_FLAG_MIN_MOVES`` moves and with a move from a winnable
position to judge (resigned, abandoned and throwaway games, and unwinnable deals, aside: they say nothing of
skill and cost a cheater nothing), it fires when at least ``PYRAMID_FLAG_ACCURACY_PERFECT`` (k, 9) followed
the solver, ``PYRAMID_FLAG_ACCURACY_MIN_SEEN`` (4) of those were still winnable once the stock had been seen, and
they made ``PYRAMID_FLAG_ACCURACY_MIN_MOVES`` (100) counted moves before it. One stray move, or one throwaway
game on another board, no longer resets it: it costs one game of the k.

The thresholds come from measured play (docs/benchmarks.md, "Fair play from analysis"): solver play is flagged
in every window of ten judged games; the bot and random play in none; a player who strays from the solver's line
at one turn in fifty in two windows of five, at one turn in twenty in one window of forty-four.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from engine import parse_move
from engine.solver.analysis import Accuracy, accuracy, stock_seen_at, unpack
from games.engine_glue import start_position
from games.models import Game, GameAnalysis
from games.selectors import game_notations

from ..tournaments.models import TournamentDeal
from .models import Flag
from .services import flag_raise

# the games the rule reads: a resigned or abandoned (closed) game is aside, and so is a very short one
_JUDGED = (Game.Status.WON, Game.Status.STUCK)
# how far back the rule reads to find its n games with something to judge (about a third of classic deals cannot
# be won, and their games are aside)
_LOOK_BACK = 3


@dataclass(slots=True, frozen=True)
class AccuracyFigures:
    board: str
    games: int  # the games judged (at most PYRAMID_FLAG_ACCURACY_GAMES)
    perfect: int  # of those, the games that followed the solver
    perfect_seen: int  # of those, the games still winnable once the stock had been seen (won from there at par)
    perfect_moves: int  # the moves counted before the stock was seen in those games (all best)

    @property
    def fires(self) -> bool:
        return (
            self.perfect >= settings.PYRAMID_FLAG_ACCURACY_PERFECT
            and self.perfect_seen >= settings.PYRAMID_FLAG_ACCURACY_MIN_SEEN
            and self.perfect_moves >= settings.PYRAMID_FLAG_ACCURACY_MIN_MOVES
        )

    def __str__(self) -> str:
        return (
            f"last {self.games} analysed ranked games of {self.board}: {self.perfect} followed the solver "
            f"(threshold {settings.PYRAMID_FLAG_ACCURACY_PERFECT} of {settings.PYRAMID_FLAG_ACCURACY_GAMES}), "
            f"{self.perfect_seen} of them won in the fewest moves once the stock had been seen, with "
            f"{self.perfect_moves} moves before it that all kept the win at its fewest moves"
        )


def game_accuracy(game: Game, analysis: GameAnalysis) -> Accuracy:
    moves = [parse_move(notation) for notation in game_notations(game)]
    return accuracy(unpack(bytes(analysis.plies)), stock_seen_at(start_position(game.deal), moves))


def board_of(game: Game) -> tuple[str, dict]:
    """The board a ranked game counts on (its name, and the filter of the player's games on it): its daily
    preset's boards, or its tournament's standings."""
    if game.daily_id:
        preset = game.daily.preset
        return f"the {preset} daily boards", {"game__daily__preset": preset}
    slot = (
        TournamentDeal.objects.filter(deal_id=game.deal_id, tournament__starts_at__lte=game.started_at)
        .order_by("-tournament__starts_at", "-tournament_id")
        .first()
    )
    if slot is None:
        return "its deal", {"game__deal_id": game.deal_id}
    return (
        f"tournament {slot.tournament_id}",
        {
            "game__daily__isnull": True,
            "game__deal_id__in": TournamentDeal.objects.filter(tournament_id=slot.tournament_id).values("deal_id"),
        },
    )


def player_accuracy(*, game: Game) -> AccuracyFigures:
    """The rule's figures over the last judged games of ``game``'s player on ``game``'s board."""
    board, on_board = board_of(game)
    window = settings.PYRAMID_FLAG_ACCURACY_GAMES
    analyses = (
        GameAnalysis.objects.filter(
            game__player_id=game.player_id,
            game__mode=Game.Mode.RANKED,
            game__status__in=_JUDGED,
            game__moves__gte=settings.PYRAMID_FLAG_MIN_MOVES,
            **on_board,
        )
        .select_related("game__deal")
        .order_by("-game__finished_at", "-game_id")[: _LOOK_BACK * window]
    )
    # a game with no move from a winnable position (an unwinnable deal) has nothing to judge: it is aside too
    found = [f for f in (game_accuracy(a.game, a) for a in analyses) if f.counted_before][:window]
    perfect = [f for f in found if f.followed_solver]
    return AccuracyFigures(
        board,
        len(found),
        len(perfect),
        sum(f.winnable_when_seen for f in perfect),
        sum(f.counted_before for f in perfect),
    )


def accuracy_check(*, game: Game) -> Flag | None:
    """Flag ``game`` (the player's latest analysed) when the rule fires on its board and no accuracy flag of the
    player's waits for review; safe to run twice."""
    if game.mode != Game.Mode.RANKED or game.status not in _JUDGED or game.moves < settings.PYRAMID_FLAG_MIN_MOVES:
        return None  # a game the rule does not judge is not the one to flag
    figures = player_accuracy(game=game)
    if (
        not figures.fires
        or Flag.objects.filter(
            game__player_id=game.player_id, kind=Flag.Kind.ACCURACY, reviewed_at__isnull=True
        ).exists()
    ):
        return None
    return flag_raise(game=game, kind=Flag.Kind.ACCURACY, detail=str(figures))


def accuracy_on_game_analysed(sender, *, game: Game, **kwargs) -> None:
    """The receiver of ``games.signals.game_analysed``."""
    accuracy_check(game=game)
