"""The exact solver: verdict, par, best reachable result and one line that reaches it; hints built on it.

``solve`` (in ``search``) runs the compiled search of ``_core.c`` (through ``fast``), or the plain-Python
``reference`` search when the core is not built. The reference defines what the answers are; tests hold
the fast one to it.
"""

from .fast import solve_fast
from .hints import Hint, hint
from .reference import solve_reference
from .result import UNKNOWN, UNWINNABLE, WINNABLE, Solution
from .search import solve

__all__ = ["Hint", "Solution", "UNKNOWN", "UNWINNABLE", "WINNABLE", "hint", "solve", "solve_fast", "solve_reference"]
