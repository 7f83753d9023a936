"""The exact solver: verdict, par, best reachable result and one line that reaches it.

``solve`` is the entry point every caller uses; ``reference`` is the plain-Python breadth-first
search that defines what the answers are.
"""

from .result import UNKNOWN, UNWINNABLE, WINNABLE, Solution
from .reference import solve_reference

solve = solve_reference

from .hints import Hint, hint  # noqa: E402  (hints call solve)

__all__ = ["Hint", "Solution", "UNKNOWN", "UNWINNABLE", "WINNABLE", "hint", "solve", "solve_reference"]
