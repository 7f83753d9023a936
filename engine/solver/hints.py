"""Hints: the next move of a best line, with a short explanation in a player's words."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from ..position import Position
from .result import WINNABLE
from . import solve_reference


@dataclass(slots=True)
class Hint:
    move: str | None  # None when nothing helps any more
    explanation: str
    locations: list[str] = field(default_factory=list)  # the cards the move names, to highlight
    verdict: str = "unknown"  # can the position still be won?
    moves_to_win: int | None = None
    best_cards_left: int | None = None

    def to_dict(self) -> dict:
        return asdict(self)


def hint(position: Position, *, budget_seconds: float | None = 5.0) -> Hint:
    solution = solve_reference(position, budget_seconds=budget_seconds)
    if not solution.solution:
        return Hint(None, "No move improves this position.", [], solution.verdict, solution.par_moves,
                    solution.best_cards_left)
    move = solution.solution[0]
    locations = [] if move in ("draw", "redeal") else move.split("+")
    if solution.verdict == WINNABLE:
        why = f"This starts a line that clears the deal in {solution.par_moves} moves."
    else:
        why = f"No win is possible from here; this starts the line that leaves {solution.best_cards_left} cards."
    return Hint(move, why, locations, solution.verdict, solution.par_moves, solution.best_cards_left)
