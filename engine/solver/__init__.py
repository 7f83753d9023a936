"""The exact solver: verdict, par, best reachable result and one line that reaches it.

``solve`` is the entry point every caller uses; ``reference`` is the plain-Python breadth-first
search that defines what the answers are.
"""

from .result import UNKNOWN, UNWINNABLE, WINNABLE, Solution
from .reference import solve_reference
from .fast import available as _fast_available, solve_fast

solve = solve_fast if _fast_available else solve_reference

from .hints import Hint, hint  # noqa: E402  (hints call solve)

__all__ = ["Hint", "Solution", "UNKNOWN", "UNWINNABLE", "WINNABLE", "hint", "solve", "solve_fast", "solve_reference"]
