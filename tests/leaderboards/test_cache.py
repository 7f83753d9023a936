"""The Redis daily boards: rebuilt from PostgreSQL by a command and a Celery job, agreeing with it,
kept up to date as games finish and are voided, and never in the way when Redis is down."""

import datetime as dt
import io
import os

import pytest
from django.core.management import call_command

from games import services as game_services
from leaderboards.boards import cache, services
from leaderboards.boards.selectors.boards import daily_board
from leaderboards.boards.services.board_counts import board_count_move, counted
from leaderboards.boards.services.period_standings import period_standings_refresh
from leaderboards.fair_play.services import game_void
from leaderboards.models import Result
from leaderboards.tasks import rebuild_board_cache
from tests.support import daily_game, make_daily

pytestmark = pytest.mark.django_db
TEST_REDIS = os.environ["PYRAMID_TEST_SPARE_REDIS_URL"]  # emptied by each test: tests/worker_redis.py


@pytest.fixture
def redis_board(settings):
    settings.PYRAMID_BOARD_REDIS_URL = TEST_REDIS
    try:
        cache.client().flushdb()
    except Exception:  # noqa: BLE001
        pytest.skip("no Redis on 127.0.0.1:6379")
    yield cache.client()
    cache.client().flushdb()


def ranks(board):
    return {row.result.player_id: row.rank for row in board.top}


@pytest.fixture
def busy_board(users, winning_line):
    daily = make_daily()
    plan = [(None, 90), (None, 90), (20, 30), (20, 30), (20, 45), (12, 10), (5, 10), (0, 10)]
    for user, (moves, seconds) in zip(users, plan, strict=True):
        daily_game(user, daily, moves, seconds=seconds)
    return daily


def test_pack_orders_as_the_ranking_does():
    keys = [(0, 30, 5), (0, 30, 6), (0, 31, 0), (1, 0, 0), (3, 65535, 2**31 - 1)]
    assert [cache.pack(*k) for k in keys] == sorted(cache.pack(*k) for k in keys)
    assert all(cache.pack(*k) < 2**53 for k in keys)
    assert cache.pack(0, 2**16, 0) is None and cache.pack(0, 0, 2**31) is None


def test_command_and_job_rebuild_boards_that_agree_with_postgresql(busy_board, users, redis_board):
    daily = busy_board
    assert daily_board(daily=daily).source == "postgresql"  # nothing cached yet
    out = io.StringIO()
    call_command("rebuild_boards", stdout=out)
    assert "Redis boards: 1" in out.getvalue()
    for user in [None, *users]:
        for limit, around in [(50, 5), (3, 1), (1, 0)]:
            cached = daily_board(daily=daily, player=user, limit=limit, around=around)
            truth = daily_board(daily=daily, player=user, limit=limit, around=around, use_cache=False)
            assert cached.source == "redis" and cached.total == truth.total
            assert [r.rank for r in cached.top] == [r.rank for r in truth.top]
            assert ranks(cached) == ranks(truth) or limit < 8  # a tie cut at the limit may show either
            assert (cached.me and cached.me.rank) == (truth.me and truth.me.rank)
            assert [r.rank for r in cached.around] == [r.rank for r in truth.around]
    redis_board.flushdb()
    lost = Result.objects.get(player=users[7])
    lost.delete()  # as if the process died between a game's last move and its result...
    board_count_move(counted(lost), None)  # ...which it counts in the same transaction
    period_standings_refresh(player_id=lost.player_id, preset=lost.preset, day=lost.date)
    assert rebuild_board_cache.delay(days=2).get() == 1
    assert Result.objects.filter(player=users[7]).exists()
    assert ranks(daily_board(daily=daily)) == ranks(daily_board(daily=daily, use_cache=False))


def test_finished_games_and_voids_reach_the_cached_board(
    users, redis_board, winning_line, django_capture_on_commit_callbacks
):
    daily = make_daily()
    daily_game(users[0], daily, 10)
    services.board_cache_rebuild(daily_id=daily.pk)
    with django_capture_on_commit_callbacks(execute=True):
        winner = daily_game(users[1], daily)
    board = daily_board(daily=daily, player=users[0])
    assert board.source == "redis" and ranks(board) == {users[1].pk: 1, users[0].pk: 2}
    with django_capture_on_commit_callbacks(execute=True):
        game_void(game_id=winner.pk, reason="test")
    board = daily_board(daily=daily, player=users[0])
    assert board.source == "redis" and ranks(board) == {users[0].pk: 1} and board.me.rank == 1


def test_a_stale_cache_falls_back_to_postgresql(users, redis_board, winning_line):
    daily = make_daily()
    daily_game(users[0], daily, 10)
    services.board_cache_rebuild(daily_id=daily.pk)
    Result.objects.update(voided=True)  # behind the back of the cache and of the board's counts
    board = daily_board(daily=daily)
    assert board.source == "postgresql" and board.top == []
    assert services.board_counts_rebuild() == 0  # the counts, rebuilt from the results, are empty again
    assert services.period_standings_rebuild() == 0


def test_redis_down_breaks_nothing(users, settings, winning_line, django_capture_on_commit_callbacks):
    settings.PYRAMID_BOARD_REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    daily = make_daily()
    with django_capture_on_commit_callbacks(execute=True):
        daily_game(users[0], daily, 10)
        game = game_services.game_start(player=users[1], daily_id=daily.pk)
        game_services.game_resign(game_id=game.pk, player=users[1])
    assert services.board_cache_rebuild(daily_id=daily.pk) is False
    board = daily_board(daily=daily, player=users[1])
    assert board.source == "postgresql" and board.total == 2 and board.me is not None


def test_a_result_too_long_to_pack_keeps_its_board_in_postgresql(users, redis_board, winning_line):
    daily = make_daily()
    daily_game(users[0], daily, 3, seconds=30 * 24 * 3600)  # a month, past what the cache packs
    assert services.board_cache_rebuild(daily_id=daily.pk) is False
    assert daily_board(daily=daily).source == "postgresql"
    assert services.boards_cache_rebuild(days=None, today=daily.date + dt.timedelta(days=1)) == 0
