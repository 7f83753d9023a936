"""The fast solver: the compiled search of ``_core.c`` behind the same answers as the reference.

This module hands the core the geometry of ``engine.layout`` once, and for each solve the card
values and options of one position; the core plays the moves of ``engine.position`` on packed
states. Tests replay every line it returns through the engine and compare its answers with
``reference.solve_reference``.

The core checks every argument (ValueError naming the first bad one) and every allocation: when
memory runs out it frees all it holds and raises MemoryError, which ``solve_fast`` passes on (a
budget that runs out still gives ``unknown``). Its test hooks (``_fail_alloc_after``, ``_allocations``,
``_allocation_sites``, ``_successors``) exist only in builds with ``PYRAMID_TEST_HOOKS`` defined, which
tests/solver makes for itself; the module setup.py builds has none.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Sequence
from typing import Protocol, cast

from ..cards import card_value
from ..layout import ABOVE_MASK, BELOW_MASK, COVER_MASK, COVERS
from ..moves import move_from_code
from ..position import Position
from .result import UNKNOWN, UNWINNABLE, WINNABLE, Solution

# what ``_core.configure`` takes: the cover, covers, below and above masks of engine/layout.py
GEOMETRY = (COVER_MASK, tuple(sum(1 << q for q in qs) for qs in COVERS), BELOW_MASK, ABOVE_MASK)

# the arguments of ``_core.solve``: card values, options, the position's masks and counters, the bounds
CoreArgs = tuple[
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...],
    int,
    int,
    bool,
    bool,
    bool,
    bool,
    int,
    int,
    int,
    int,
    int,
    int,
    float,
]


class Core(Protocol):
    """The compiled module's functions, as the type checker knows them (their order and bounds: ``_core.c``)."""

    def configure(
        self, cover: Sequence[int], covers: Sequence[int], below: Sequence[int], above: Sequence[int], /
    ) -> None: ...

    def solve(self, *args: *CoreArgs) -> tuple[int, int, int, list[int], int, int]:
        """(0, else out of budget; won; best cards left; the line as move codes; nodes; peak bytes)"""
        ...


_core: Core | None
try:
    # by name: static import graphs (the layering check) cannot see a compiled module, and would read
    # ``from . import _core`` as an import of the package around it
    _core = cast(Core, importlib.import_module(f"{__package__}._core"))
except ImportError:  # not built: ``solve`` falls back to the reference search
    _core = None
else:
    _core.configure(*GEOMETRY)

# Positions the search may store before it answers unknown: about 16 bytes each, plus the index.
DEFAULT_MAX_NODES = 24_000_000

available = _core is not None


def move_text(code: int) -> str:
    """A move code of the core in docs/rules.md notation."""
    return str(move_from_code(code))


def solve_fast(position: Position, *, max_nodes: int | None = None, budget_seconds: float | None = None) -> Solution:
    return solve_measured(position, max_nodes=max_nodes, budget_seconds=budget_seconds)[0]


def core_args(position: Position, *, max_nodes: int | None = None, budget_seconds: float | None = None) -> CoreArgs:
    """The arguments of ``_core.solve`` for a position (their order and bounds: ``_core.c``)."""
    board, rules = position.board, position.rules
    return (
        board.values[:28],
        board.values[28:],
        tuple(card_value(c) for c in board.pile_cards),
        rules.passes,
        rules.draw,
        rules.stock_live,
        rules.waste_live,
        rules.goal == "all",
        rules.covered_pairs,
        position.pyramid,
        position.reserve,
        position.pile,
        position.pointer,
        position.pass_no if rules.passes else 0,  # unlimited: the pass decides nothing, and has no bound
        DEFAULT_MAX_NODES if max_nodes is None else max_nodes,
        budget_seconds or 0.0,
    )


def solve_measured(
    position: Position, *, max_nodes: int | None = None, budget_seconds: float | None = None
) -> tuple[Solution, int]:
    """The solution and the most memory in bytes the search held at once."""
    if _core is None:
        raise RuntimeError("the solver's compiled core is not built: run pip install -e .")
    started = time.perf_counter()
    args = core_args(position, max_nodes=max_nodes, budget_seconds=budget_seconds)
    status, won, best_left, line, nodes, peak_bytes = _core.solve(*args)
    seconds = time.perf_counter() - started
    if status:
        return Solution(UNKNOWN, None, None, None, [], nodes, seconds), peak_bytes
    moves = [move_text(code) for code in line]
    if won:
        return Solution(WINNABLE, len(moves), 0, len(moves), moves, nodes, seconds), peak_bytes
    return Solution(UNWINNABLE, None, best_left, len(moves), moves, nodes, seconds), peak_bytes
