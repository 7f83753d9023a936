"""The fast solver against the plain-Python reference, and every line replayed through the engine."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import replay
from engine.solver import UNKNOWN, WINNABLE, solve_fast, solve_reference

from .positions import all_rules, random_position

RULE_SETS = list(all_rules())
# The reference search is slow; deeper positions keep it quick under rules with many states.
REMOVALS = {"unlimited": 18, "relaxed": 15, "par": 15, "overlap": 15, "overlap-all": 15}


def check_line(position, solution):
    """The line replays through the engine and reaches what the solution claims."""
    played = replay(position.deal, position.rules, solution.solution, start=position)
    assert played.ok, f"move {played.failed_at} of {solution.solution}: {played.reason}"
    assert len(solution.solution) == solution.best_moves
    if solution.verdict == WINNABLE:
        assert played.position.is_won
        assert solution.par_moves == len(solution.solution)
    else:
        assert played.position.cards_left == solution.best_cards_left


@pytest.mark.parametrize("name,rules", RULE_SETS, ids=[name for name, _ in RULE_SETS])
def test_fast_matches_reference(name, rules):
    compared = Counter()
    for number in range(30):
        position = random_position(number, rules, REMOVALS.get(name, 12) + number % 5, seed=number)
        reference = solve_reference(position, max_nodes=20_000)
        if reference.verdict == UNKNOWN:
            continue
        fast = solve_fast(position)
        assert (fast.verdict, fast.par_moves, fast.best_cards_left, fast.best_moves) == (
            reference.verdict,
            reference.par_moves,
            reference.best_cards_left,
            reference.best_moves,
        ), f"deal {number}, position {position.dumps()}"
        check_line(position, fast)
        compared[fast.verdict] += 1
    assert sum(compared.values()) >= 15, compared
