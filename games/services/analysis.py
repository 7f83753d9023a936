"""Post-game analysis: every position of a finished game solved once, after the game, and stored."""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext

import engine
from engine.solver import Solution, solve
from engine.solver.analysis import analyse, pack
from pyramid_site.errors import Code, DomainError
from pyramid_site.solver_budget import SolverPayer, spending

from ..engine_glue import game_position, start_position
from ..models import Deal, Game, GameAnalysis
from ..selectors import game_notations, game_of_player, replay_positions
from ..signals import game_analysed


def _deal_solution(deal: Deal) -> Solution | None:
    """The deal's stored verdict: the start position's answer, solved when the deal was."""
    if deal.status not in (Deal.Status.WINNABLE, Deal.Status.UNWINNABLE):
        return None
    return Solution(deal.status, deal.par_moves, deal.best_cards_left, deal.best_moves, deal.solution.split())


def game_analyse(*, game_id: int, again: bool = False, payer: SolverPayer | None = None) -> GameAnalysis | None:
    """Solve every position of a finished game and store the answers; None for a game that does not exist
    or is still being played. Safe to run twice, and concurrently: the first stored analysis stays, unless
    ``again`` replaces it (a re-run after a solver change or with a larger budget).

    The work is charged to ``payer``. A practice game's analysis is refused (``SolverBudgetSpent``) while the
    payer's budget is spent: it waits until the player asks for it with room in the budget. A ranked game's
    is never refused (fair play reads every ranked game's analysis: spending the budget must not dodge it)."""
    game = Game.objects.select_related("deal").filter(pk=game_id).first()
    if game is None or not game.is_over:
        return None
    if not again and (stored := GameAnalysis.objects.filter(game=game).first()) is not None:
        return stored
    start = start_position(game.deal)
    log = game_notations(game)
    played = engine.replay(start.deal, start.rules, log, start=start)
    if not played.ok:  # the server checked every move; a log that no longer replays is for the re-check
        raise ValueError(f"game {game_id}'s log does not replay: move {played.failed_at + 1}: {played.reason}")
    began = time.perf_counter()
    with spending(payer, refuse=game.mode == Game.Mode.PRACTICE, in_request=False):
        analysis = analyse(
            start,
            played.moves,
            budget_seconds_per_position=settings.PYRAMID_ANALYSIS_POSITION_SECONDS,
            budget_seconds=settings.PYRAMID_ANALYSIS_GAME_SECONDS,
            start_solution=_deal_solution(game.deal),
        )
    fields = {"plies": pack(analysis.plies), "seconds": time.perf_counter() - began}
    with transaction.atomic():
        if again:
            stored, _ = GameAnalysis.objects.update_or_create(game=game, defaults=fields)
        else:
            stored, _ = GameAnalysis.objects.get_or_create(game=game, defaults=fields)
        if game.mode == Game.Mode.RANKED:
            game_analysed.send(sender=Game, game=game, analysis=analysis)
    return stored


@dataclass(slots=True)
class BestLine:
    ply: int  # the game's ply it starts from
    verdict: str
    moves: list[str]
    positions: list[engine.Position]  # after each of the moves


def game_replay(
    *, game_id: int, user, best_from: int | None = None, budget_seconds: float = 5.0, payer: SolverPayer | None = None
) -> tuple[Game, list[str], list[engine.Position], BestLine | None]:
    """A finished game's moves and the position after each (the start first), on the analysis' terms; with
    ``best_from``, the solver's best line from that ply too, on the payer's solver budget."""
    game, moves, positions = replay_positions(game_id=game_id, user=user)
    if best_from is None:
        return game, moves, positions, None
    if not 0 <= best_from < len(positions):
        raise DomainError(
            Code.BAD_PARAMETER,
            gettext("the game has plies 0 to %(moves)s; there is no ply %(best_from)s")
            % {"moves": len(moves), "best_from": best_from},
        )
    with spending(payer):
        solution = solve(positions[best_from], budget_seconds=budget_seconds, grade=False)
    current, line = positions[best_from].copy(), []
    for notation in solution.solution:
        current.apply(notation)
        line.append(current.copy())
    return game, moves, positions, BestLine(best_from, solution.verdict, list(solution.solution), line)


@dataclass(frozen=True)
class PositionVerdict:
    """Whether a practice game's position can still be won (``VerdictOutput``)."""

    game: int
    ply: int  # the position after this many moves
    verdict: str
    moves_to_win: int | None
    best_cards_left: int | None


def game_verdict(*, game_id: int, player, budget_seconds: float, payer: SolverPayer | None = None) -> PositionVerdict:
    """Whether a practice game's position can still be won, for players who ask to see it after every move
    (never a ranked game: it would tell a player the deal's best play while the deal is live), on the payer's
    solver budget."""
    game = game_of_player(game_id=game_id, player=player)
    if game.mode != Game.Mode.PRACTICE:
        raise DomainError(
            Code.RANKED_NO_VERDICT, gettext("whether a position can still be won is shown in practice games only")
        )
    with spending(payer):
        solution = solve(game_position(game), budget_seconds=budget_seconds, grade=False)
    return PositionVerdict(game.pk, game.moves, solution.verdict, solution.par_moves, solution.best_cards_left)
