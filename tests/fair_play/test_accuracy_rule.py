"""The accuracy rule of fair play: a player whose ranked games follow the exact solver is flagged within
ten games, from the games' analyses alone (no timing); the rules-of-thumb bot and a player who strays from
the solver's line now and then are not."""

from __future__ import annotations

import datetime as dt
import random

import pytest

import engine
from engine.solver import WINNABLE, bot, solve
from engine.solver.analysis import accuracy, analyse, stock_seen_at
from games.models import GameAnalysis
from leaderboards.fair_play.accuracy import player_accuracy
from leaderboards.models import Flag
from tests.support import UserFactory, daily_game, make_daily

pytestmark = pytest.mark.django_db(transaction=True)
CLASSIC = engine.preset("classic")
GAMES = 10


def winnable_numbers(count: int) -> list[int]:
    numbers, number = [], 1
    while len(numbers) < count:
        start = engine.Position.start(engine.deal_from_number(number), CLASSIC)
        if solve(start, budget_seconds=10, grade=False).verdict == WINNABLE:
            numbers.append(number)
        number += 1
    return numbers


def solver_line(start: engine.Position, stray: float, seed: int) -> list[str]:
    """The solver's best move at every turn; with ``stray``, a random legal move instead that often."""
    rng, position, line = random.Random(seed), start.copy(), []
    while not position.is_over and len(line) < 300:
        best = solve(position, budget_seconds=5, grade=False).solution
        move = str(rng.choice(position.legal_moves())) if not best or rng.random() < stray else best[0]
        position.apply(move)
        line.append(move)
    return line


def bot_line(start: engine.Position, stray: float, seed: int) -> list[str]:
    return bot.play(start).moves


@pytest.fixture
def dailies():
    """Ten past days' classic daily deals, one a day."""
    first_day = dt.date.today() - dt.timedelta(days=GAMES + 1)
    return [make_daily(date=first_day + dt.timedelta(days=index), preset="classic", number=number)
            for index, number in enumerate(winnable_numbers(GAMES))]


def play_days(player, dailies, make_line, *, stray: float = 0.0) -> list[int]:
    """The player's game of each daily deal, in turn, played by ``make_line``; the flags after each."""
    flags_after = []
    for daily in dailies:
        number = daily.deal.number
        line = make_line(engine.Position.start(engine.deal_from_number(number), CLASSIC), stray, number)
        daily_game(player, daily, line=line)  # its analysis runs as the game ends
        flags_after.append(Flag.objects.filter(game__player=player, kind=Flag.Kind.ACCURACY).count())
    assert GameAnalysis.objects.filter(game__player=player).count() == GAMES
    return flags_after


def test_a_player_replaying_solver_lines_is_flagged_within_ten_games(dailies):
    player = UserFactory()
    flags_after = play_days(player, dailies, solver_line)
    assert flags_after[-1] == 1  # flagged once, not again while the flag waits for review
    flagged_at = flags_after.index(1) + 1
    flag = Flag.objects.get(game__player=player, kind=Flag.Kind.ACCURACY)
    assert flag.detail.startswith(f"last {flagged_at} analysed ranked games: ")  # the figures when it fired
    figures = player_accuracy(player_id=player.pk)
    assert figures.fires and figures.games == GAMES
    assert figures.seen_par == figures.seen_winnable >= 4 and figures.best_before == figures.counted_before >= 100


def test_the_bot_and_a_player_who_strays_now_and_then_are_not_flagged(dailies):
    for make_line, stray in ((bot_line, 0.0), (solver_line, 0.1)):
        player = UserFactory()
        assert play_days(player, dailies, make_line, stray=stray)[-1] == 0
        assert not player_accuracy(player_id=player.pk).fires


def test_accuracy_counts_before_the_stock_is_seen_and_the_finish_after_it():
    start = engine.Position.start(engine.deal_from_number(winnable_numbers(1)[0]), CLASSIC)
    line = [engine.parse_move(m) for m in solve(start, grade=False).solution]
    # the stock is seen at the first position with no stock left or a second pass, found by replaying
    position, seen = start.copy(), None
    for ply, move in enumerate([*line, None]):
        if seen is None and (position.stock_count == 0 or position.pass_no > 1):
            seen = ply
        if move is not None:
            position.apply(move)
    assert stock_seen_at(start, line) == seen
    perfect = accuracy(analyse(start, line).plies, seen)
    assert perfect.best_before == perfect.counted_before == seen
    assert perfect.winnable_when_seen and perfect.par_after_seen
    # a wasted draw after the stock was seen: still a win, not in the fewest moves
    wasted = [*line[:seen], engine.parse_move("draw"), *line[seen:]]
    replayed = engine.replay(start.deal, start.rules, wasted, start=start)
    if replayed.ok and replayed.position.is_won:
        assert not accuracy(analyse(start, wasted).plies, seen).par_after_seen
