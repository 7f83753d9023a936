"""Results are written when a ranked game finishes, from the engine's scores and the server clock."""

import pytest

import engine
from games import services as game_services
from games.engine_glue import game_position
from leaderboards.boards import services
from leaderboards.models import Result
from tests.support import PAR, daily_game, make_daily, result_of

pytestmark = pytest.mark.django_db


def test_a_won_daily_game_gets_its_result(player, winning_line):
    daily = make_daily()
    game = daily_game(player, daily)
    result = result_of(game)
    assert (result.won, result.cleared, result.cards_left, result.pyramid_left) == (True, True, 0, 0)
    assert result.moves == PAR and result.par_moves == PAR and result.over_par == 0
    assert result.date == daily.date and result.daily_id == daily.pk and result.preset == "one-look"
    assert result.duration_ms == int((game.finished_at - game.started_at).total_seconds() * 1000)
    assert result.match_score == engine.match_score(game_position(game))


def test_a_resigned_game_counts_with_the_cards_it_left(player, winning_line):
    game = daily_game(player, make_daily(), moves=10)
    position = game_position(game)
    result = result_of(game)
    assert game.status == "resigned"
    assert (result.cards_left, result.pyramid_left, result.moves) == (position.cards_left, position.pyramid_left, 10)
    assert not result.won and not result.cleared and result.over_par is None


def test_games_in_play_and_practice_games_have_no_result(player, winning_line):
    daily = make_daily()
    game = game_services.game_start(player=player, daily_id=daily.pk)
    game_services.move_submit(game_id=game.pk, player=player, ply=1, move=winning_line[0])
    practice = game_services.game_start(player=player, number=7, rules="classic")
    game_services.game_resign(game_id=practice.pk, player=player)
    assert not Result.objects.exists()


def test_rebuild_writes_missing_results_and_is_idempotent(users, winning_line):
    daily = make_daily()
    games = [daily_game(user, daily, moves=4 + i) for i, user in enumerate(users[:3])]
    before = {r.game_id: (r.cards_left, r.moves, r.duration_ms) for r in Result.objects.all()}
    Result.objects.all().delete()
    assert services.results_rebuild() == 3
    assert services.results_rebuild() == 0
    assert services.board_counts_rebuild() == 3  # the rows deleted by hand had left their counts behind
    assert services.period_standings_rebuild() == 6  # and their standings: three players' week and all time
    assert {r.game_id: (r.cards_left, r.moves, r.duration_ms) for r in Result.objects.all()} == before
    assert set(before) == {g.pk for g in games}
