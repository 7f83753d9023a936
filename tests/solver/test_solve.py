"""Whole deals under every preset: lines replay, the bot never beats the solver, budgets give unknown."""

from __future__ import annotations

import pytest

from engine import PRESETS, Position, deal_from_number, preset
from engine.solver import UNKNOWN, UNWINNABLE, WINNABLE, solve
from engine.solver.bot import play

from .test_cross_check import check_line


@pytest.mark.parametrize("name", list(PRESETS))
def test_start_positions_replay_and_beat_the_bot(name):
    rules = PRESETS[name]
    # goal "all" under one pass makes the fewest-cards-left search the long part: fewer deals there
    for number in range(1, 4 if rules.goal == "all" else 7):
        position = Position.start(deal_from_number(number), rules)
        solution = solve(position)
        assert solution.verdict in (WINNABLE, UNWINNABLE)
        check_line(position, solution)
        bot = play(position)
        assert solution.best_cards_left <= bot.position.cards_left
        if bot.won:
            assert solution.verdict == WINNABLE
            assert solution.par_moves <= len(bot.moves)
        if solution.verdict == WINNABLE:
            assert 1 <= solution.difficulty <= 5
        else:
            assert solution.difficulty is None and solution.par_moves is None


def test_a_won_position_has_par_zero():
    position = Position.start(deal_from_number(3), preset("relaxed"))
    line = solve(position).solution
    for move in line:
        position.apply(move)
    solution = solve(position)
    assert (solution.verdict, solution.par_moves, solution.solution) == (WINNABLE, 0, [])


def test_following_the_line_keeps_par_consistent():
    """From every position along a best line, the rest of the line is a best line."""
    position = Position.start(deal_from_number(3), preset("relaxed"))
    solution = solve(position)
    assert solution.verdict == WINNABLE
    for done, move in enumerate(solution.solution[:30]):
        assert solve(position, grade=False).par_moves == solution.par_moves - done
        position.apply(move)


def test_a_dead_card_makes_the_deal_unwinnable():
    """Seed 004's example: a 6 at the top with all four 7s below it can never go."""
    from engine import parse_deal

    sevens = ["7C", "7D", "7H", "7S"]
    rest = [f"{r}{s}" for r in "A23456789TJQK" for s in "CDHS" if f"{r}{s}" not in sevens + ["6C"]]
    deal = parse_deal(" ".join(["6C"] + rest[:3] + sevens + rest[3:]))
    solution = solve(Position.start(deal, preset("classic")))
    assert solution.verdict == UNWINNABLE
    assert solution.best_cards_left >= 1
    check_line(Position.start(deal, preset("classic")), solution)


def test_a_tight_budget_answers_unknown_not_a_guess():
    position = Position.start(deal_from_number(4), preset("relaxed"))
    solution = solve(position, max_nodes=50)
    assert solution.verdict == UNKNOWN
    assert (solution.par_moves, solution.best_cards_left, solution.solution) == (None, None, [])
