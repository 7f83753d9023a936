"""Post-game analysis: the exact solver's answer for every position of a played game, and where the game
slipped: the move after which a winnable position could no longer be won, and every move that made the
best reachable result worse.

Ply 0 is the start position, ply k the position after the game's k-th move. Each ply's answer is exactly
the solver's (``solve``): its verdict, the fewest cards left reachable from there (0 when winnable), the
fewest moves to win when winnable, and the first move of a line that reaches the best. The solver sees the
whole deal, face-down stock included, as any analysis after the game does.

A move that follows the previous ply's best line needs no new search: the rest of a shortest line is a
shortest line from the position it leads to, and reaches the same best result.
"""

from __future__ import annotations

import struct
import time
from dataclasses import dataclass

from ..moves import Move, move_code, move_from_code, parse_move
from ..position import Position
from .result import UNKNOWN, UNWINNABLE, WINNABLE, Solution
from .search import solve


@dataclass(slots=True, frozen=True)
class PlyAnswer:
    verdict: str  # winnable | unwinnable | unknown (a budget ran out)
    best_cards_left: int | None  # 0 when winnable; None when unknown
    moves_to_win: int | None  # when winnable
    best_move: str | None  # the first move of a line reaching the best; None when no move improves on here


@dataclass(slots=True, frozen=True)
class Costly:
    ply: int  # the move that made the best reachable result worse
    cost: int  # by how many cards


@dataclass(slots=True)
class Analysis:
    moves: list[str]  # the game's moves: moves[k - 1] leads to ply k
    plies: list[PlyAnswer]  # one more than moves: ply 0 is the start

    @property
    def lost_at(self) -> int | None:
        """The first move after which a winnable position was unwinnable; None if the game never had a win
        or kept it (or the budget hid where it went)."""
        for ply in range(1, len(self.plies)):
            if self.plies[ply - 1].verdict == WINNABLE and self.plies[ply].verdict == UNWINNABLE:
                return ply
        return None

    @property
    def keep_move(self) -> str | None:
        """A move that would have kept the win where ``lost_at`` lost it."""
        lost_at = self.lost_at
        return None if lost_at is None else self.plies[lost_at - 1].best_move

    @property
    def costly(self) -> list[Costly]:
        """Every move after which fewer cards could be cleared than before it (``lost_at`` among them)."""
        found = []
        for ply in range(1, len(self.plies)):
            before, after = self.plies[ply - 1].best_cards_left, self.plies[ply].best_cards_left
            if before is not None and after is not None and after > before:
                found.append(Costly(ply, after - before))
        return found


@dataclass(slots=True, frozen=True)
class Accuracy:
    """How closely a game followed the solver, for the fair-play rule (docs/fair-play.md, "Fair play"). A move is best
    when, from a winnable position, it keeps the win at its fewest moves (one move nearer). Counted apart
    before the whole stock had been seen, when only luck or knowledge of the hidden cards plays perfectly,
    and from then on, when any solver can play the rest perfectly."""

    best_before: int  # best moves, of the counted ones, before the stock had been seen
    counted_before: int  # moves made from a winnable position then
    winnable_when_seen: bool  # the position could still be won when the stock had been seen
    par_after_seen: bool  # and it was won from there in the fewest moves

    @property
    def followed_solver(self) -> bool:
        """Every counted move (one at least) was best, and a game still winnable once the stock had been seen
        was won from there in the fewest moves: the game the accuracy rule counts against a player."""
        return (
            self.counted_before > 0
            and self.best_before == self.counted_before
            and (self.par_after_seen or not self.winnable_when_seen)
        )


def stock_seen_at(start: Position, moves: list[Move]) -> int:
    """The ply from which every stock card has been turned over (the first pass is through); past the end
    of the game when it never was."""
    position = start.copy()
    for ply in range(len(moves) + 1):
        if position.pass_no > 1 or position.stock_count == 0:
            return ply
        if ply < len(moves):
            position.apply(moves[ply])
    return len(moves) + 1


def accuracy(plies: list[PlyAnswer], seen_at: int) -> Accuracy:
    best = counted = 0
    for ply in range(1, min(seen_at, len(plies) - 1) + 1):
        before, after = plies[ply - 1], plies[ply]
        if before.verdict != WINNABLE or after.verdict == UNKNOWN:
            continue
        counted += 1
        best += (
            after.verdict == WINNABLE
            and before.moves_to_win is not None  # known when winnable
            and after.moves_to_win == before.moves_to_win - 1
        )
    seen = plies[seen_at] if seen_at < len(plies) else None
    winnable_when_seen = seen is not None and seen.verdict == WINNABLE
    won = plies[-1].verdict == WINNABLE and plies[-1].moves_to_win == 0
    par_after_seen = seen is not None and winnable_when_seen and won and len(plies) - 1 - seen_at == seen.moves_to_win
    return Accuracy(best, counted, winnable_when_seen, par_after_seen)


def analyse(
    start: Position,
    moves: list[Move],
    *,
    budget_seconds_per_position: float | None = None,
    budget_seconds: float | None = None,
    start_solution: Solution | None = None,
) -> Analysis:
    """Solve every position of a game played from ``start`` by ``moves`` (legal moves: a replayed log).

    ``budget_seconds_per_position`` bounds each search; ``budget_seconds`` the whole game, after which the
    remaining plies are ``unknown``. ``start_solution``, the solver's answer for ``start`` already known (a
    solved deal's), saves the search that is often the longest.
    """
    started = time.perf_counter()
    position = start.copy()
    plies: list[PlyAnswer] = []
    line: list[str] = []  # the best line from the previous ply, when one is known
    for ply in range(len(moves) + 1):
        if ply:
            played = str(moves[ply - 1])
            position.apply(moves[ply - 1])
        else:
            played = None
        previous = plies[-1] if plies else None
        if previous is not None and previous.verdict != UNKNOWN and line and line[0] == played:
            line = line[1:]
            moves_to_win = None if previous.moves_to_win is None else previous.moves_to_win - 1
            plies.append(PlyAnswer(previous.verdict, previous.best_cards_left, moves_to_win, line[0] if line else None))
            continue
        left = None if budget_seconds is None else budget_seconds - (time.perf_counter() - started)
        if left is not None and left <= 0:
            plies.append(PlyAnswer(UNKNOWN, None, None, None))
            line = []
            continue
        budget = budget_seconds_per_position
        if left is not None:
            budget = left if budget is None else min(budget, left)
        if ply == 0 and start_solution is not None and start_solution.verdict != UNKNOWN:
            solution = start_solution
        else:
            solution = solve(position, budget_seconds=budget, grade=False)
        line = list(solution.solution)
        plies.append(
            PlyAnswer(solution.verdict, solution.best_cards_left, solution.par_moves, line[0] if line else None)
        )
    return Analysis([str(move) for move in moves], plies)


# Stored analyses: six bytes a ply (verdict, best cards left, moves to win, best move's code), little-endian.
_PLY = struct.Struct("<BBHH")
_VERDICTS = (WINNABLE, UNWINNABLE, UNKNOWN)
_NONE_BYTE, _NONE_WORD = 0xFF, 0xFFFF


def pack(plies: list[PlyAnswer]) -> bytes:
    return b"".join(
        _PLY.pack(
            _VERDICTS.index(p.verdict),
            _NONE_BYTE if p.best_cards_left is None else p.best_cards_left,
            _NONE_WORD if p.moves_to_win is None else p.moves_to_win,
            _NONE_WORD if p.best_move is None else move_code(parse_move(p.best_move)),
        )
        for p in plies
    )


def unpack(data: bytes) -> list[PlyAnswer]:
    if len(data) % _PLY.size:
        raise ValueError(f"a stored analysis is {_PLY.size} bytes a ply; got {len(data)} bytes")
    return [
        PlyAnswer(
            _VERDICTS[verdict],
            None if left == _NONE_BYTE else left,
            None if to_win == _NONE_WORD else to_win,
            None if code == _NONE_WORD else str(move_from_code(code)),
        )
        for verdict, left, to_win, code in _PLY.iter_unpack(data)
    ]
