"""Plain-Python breadth-first search: slow, short and obviously right.

Breadth-first order makes the first winning position found a fewest-moves win, and, for a
position that cannot be won, the first position met with the fewest cards left is reached in the
fewest moves. The fast solver is checked against this one.
"""

from __future__ import annotations

import time

from ..position import Position
from .result import UNKNOWN, UNWINNABLE, WINNABLE, Solution

Key = tuple[int, int, int, int, int]  # Position.key()


def solve_reference(position: Position, *, max_nodes: int = 2_000_000, budget_seconds: float | None = None) -> Solution:
    started = time.perf_counter()
    root = position.copy()
    root.moves = 0
    parents: dict[Key, tuple[Key, str] | None] = {root.key(): None}
    frontier = [root]
    best_left, best_key, best_depth = root.cards_left, root.key(), 0
    nodes = 0
    depth = 0
    while frontier:
        following = []
        for current in frontier:
            if current.is_won:
                return _finish(WINNABLE, parents, current.key(), depth, 0, nodes, started)
            nodes += 1
            if nodes > max_nodes or (
                budget_seconds and nodes % 1024 == 0 and time.perf_counter() - started > budget_seconds
            ):
                return Solution(UNKNOWN, None, None, None, [], nodes, time.perf_counter() - started)
            for move in current.legal_moves():
                child = current.copy()
                child._make(move)
                key = child.key()
                if key in parents:
                    continue
                parents[key] = (current.key(), str(move))
                following.append(child)
                left = child.cards_left
                if left < best_left:
                    best_left, best_key, best_depth = left, key, depth + 1
        frontier = following
        depth += 1
    return _finish(UNWINNABLE, parents, best_key, best_depth, best_left, nodes, started)


def _finish(
    verdict: str,
    parents: dict[Key, tuple[Key, str] | None],
    key: Key,
    depth: int,
    best_left: int,
    nodes: int,
    started: float,
) -> Solution:
    line = []
    step = parents[key]
    while step is not None:
        key, move = step
        line.append(move)
        step = parents[key]
    line.reverse()
    assert len(line) == depth
    par = depth if verdict == WINNABLE else None
    return Solution(verdict, par, best_left, depth, line, nodes, time.perf_counter() - started)
