"""The accuracy rule of fair play: a player whose ranked games follow the exact solver is flagged within
ten games, from the games' analyses alone (no timing); the rules-of-thumb bot and a player who strays from
the solver's line now and then are not."""

from __future__ import annotations

import datetime as dt
import random

import pytest

import engine
from engine.solver import WINNABLE, bot, solve
from engine.solver.analysis import Accuracy, accuracy, analyse, stock_seen_at
from games.models import Game, GameAnalysis
from leaderboards.clubs.services import club_create, club_join
from leaderboards.fair_play.accuracy import AccuracyFigures, player_accuracy
from leaderboards.models import Flag, Result
from leaderboards.tournaments.services import tournament_game_start, tournament_join
from tests.leaderboards.test_tournaments import create, ready
from tests.support import WINNABLE_ONE_LOOK, UserFactory, daily_game, make_daily, play

pytestmark = pytest.mark.django_db(transaction=True)
CLASSIC = engine.preset("classic")
GAMES = 10
PERFECT = 9  # PYRAMID_FLAG_ACCURACY_PERFECT


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
    return [
        make_daily(date=first_day + dt.timedelta(days=index), preset="classic", number=number)
        for index, number in enumerate(winnable_numbers(GAMES))
    ]


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
    assert flagged_at == PERFECT  # k of the last n: the k-th game that followed the solver on the board
    assert flag.detail.startswith(
        f"last {flagged_at} analysed ranked games of the classic daily boards: {PERFECT} followed the solver"
    )  # the figures when it fired
    figures = player_accuracy(game=Game.objects.filter(player=player).latest("finished_at"))
    assert figures.fires and figures.games == figures.perfect == GAMES
    assert figures.perfect_seen >= 4 and figures.perfect_moves >= 100


def test_the_bot_and_a_player_who_strays_now_and_then_are_not_flagged(dailies):
    for make_line, stray in ((bot_line, 0.0), (solver_line, 0.1)):
        player = UserFactory()
        assert play_days(player, dailies, make_line, stray=stray)[-1] == 0
        assert not player_accuracy(game=Game.objects.filter(player=player).latest("finished_at")).fires


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


def best_line(start: engine.Position) -> list[str]:
    """The solver's line from ``start``: every move keeps the win at its fewest moves."""
    return list(solve(start, budget_seconds=10, grade=False).solution)


def one_stray_line(start: engine.Position) -> list[str]:
    """The solver's line but for one move, early on, that keeps the win at more than its fewest moves."""
    line, position = best_line(start), start.copy()
    for ply, best in enumerate(line):
        for move in position.legal_moves():
            if str(move) == best:
                continue
            after = position.copy()
            after.apply(move)
            rest = solve(after, budget_seconds=10, grade=False)
            if rest.verdict == WINNABLE and len(rest.solution) > len(line) - ply - 1:
                return [*line[:ply], str(move), *rest.solution]
        position.apply(engine.parse_move(best))
    raise AssertionError("no move keeps the win at more than its fewest moves")


def test_one_stray_move_or_a_throwaway_game_on_another_board_no_longer_resets_the_rule(dailies, winning_line):
    """The issue's dodges: a throwaway tournament game (a move off the solver's line, then resigned) and one game
    with a move that keeps the win off its fewest moves, among solver games. The rule counts games per board,
    k of the last n: the throwaway is aside and the stray costs one game. (It never fired before.)"""
    player, owner = UserFactory(), UserFactory()
    club = club_create(user=owner, name="Dodgers")
    club_join(user=player, invite_code=club.invite_code)
    cup = create(owner, club)
    cup.deals.all().delete()  # whatever the preparation job (run at once here) made of it: the test's deal instead
    cup = ready(cup, [WINNABLE_ONE_LOOK])
    tournament_join(user=player, tournament_id=cup.pk)
    throwaway = play(tournament_game_start(user=player, tournament_id=cup.pk), ["draw"])  # not the best move
    assert throwaway.status == Game.Status.RESIGNED and GameAnalysis.objects.filter(game=throwaway).exists()
    flags_after = []
    for index, daily in enumerate(dailies):
        start = engine.Position.start(engine.deal_from_number(daily.deal.number), CLASSIC)
        daily_game(player, daily, line=one_stray_line(start) if index == 0 else best_line(start))
        flags_after.append(Flag.objects.filter(game__player=player, kind=Flag.Kind.ACCURACY).count())
    # the stray game is the first of the board's games: the flag comes with the k-th that followed the solver
    assert flags_after == [0] * PERFECT + [1] * (GAMES - PERFECT)
    figures = player_accuracy(game=Game.objects.filter(player=player, daily__isnull=False).latest("finished_at"))
    assert figures.games == GAMES and figures.perfect == GAMES - 1
    flag = Flag.objects.get(kind=Flag.Kind.ACCURACY)
    assert flag.game.daily_id == dailies[PERFECT].pk and Result.objects.get(game=flag.game).voided  # held
    # the tournament's board is judged on its own: one resigned game, nothing to judge
    tournament_figures = player_accuracy(game=throwaway)
    assert tournament_figures.games == 0 and tournament_figures.board == f"tournament {cup.pk}"


@pytest.mark.parametrize(
    "found, follows",
    [
        (Accuracy(30, 30, True, True), True),
        (Accuracy(30, 30, False, False), True),  # won before the stock was seen through: every counted move best
        (Accuracy(29, 30, True, True), False),
        (Accuracy(30, 30, True, False), False),
        (Accuracy(0, 0, False, False), False),  # nothing to judge: an unwinnable deal
    ],
)
def test_a_game_follows_the_solver_when_every_counted_move_was_best_and_the_finish_at_par(found, follows):
    assert found.followed_solver is follows


@pytest.mark.parametrize(
    "perfect, seen, moves, fires",
    [
        (9, 9, 200, True),
        (8, 8, 200, False),
        (9, 3, 200, False),
        (9, 9, 99, False),
        (10, 4, 100, True),
    ],
)
def test_k_of_the_last_n(perfect, seen, moves, fires):
    assert AccuracyFigures("b", GAMES, perfect, seen, moves).fires is fires
