"""``solve``: the entry point every caller of the exact solver uses: the compiled search of ``_core.c`` (through
``fast``), or the plain-Python ``reference`` search when the core is not built. The reference
defines what the answers are; tests hold the fast one to it.
"""

from __future__ import annotations

from ..position import Position
from .bot import grade as grade_position
from .fast import available as fast_available
from .fast import solve_fast
from .reference import solve_reference
from .result import WINNABLE, Solution


def solve(
    position: Position, *, budget_seconds: float | None = None, max_nodes: int | None = None, grade: bool = True
) -> Solution:
    """Solve a position: verdict, par or best reachable cards_left, and a line that reaches it.

    ``grade`` fills ``difficulty`` for a winnable position (the bot plays it out; a few ms).
    """
    search = solve_fast if fast_available else solve_reference
    options = {} if max_nodes is None else {"max_nodes": max_nodes}
    solution = search(position, budget_seconds=budget_seconds, **options)
    if grade and solution.verdict == WINNABLE and solution.par_moves is not None:  # a winnable one has its par
        solution.difficulty = grade_position(position, solution.par_moves)
    return solution
