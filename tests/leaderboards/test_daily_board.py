"""The daily board: ranks as docs/rules.md ranks (cards left, moves, time; ties share), par, my own
rank and neighbours, only finished server-validated ranked games, over the API."""

import datetime as dt

import pytest

from games import services as game_services
from games.models import Game
from leaderboards.boards.api.output import over_par_text
from leaderboards.boards.selectors.boards import daily_board
from leaderboards.models import Result
from tests.support import PAR, UserFactory, client_for, daily_game, make_daily, result_of

pytestmark = pytest.mark.django_db


def expected_ranks(results):
    """Competition ranking (1, 2, 2, 4) by the key, computed the plain way: count the better ones."""
    keys = {r.player_id: (r.cards_left, r.moves, r.duration_ms) for r in results}
    return {pid: 1 + sum(other < key for other in keys.values()) for pid, key in keys.items()}


@pytest.fixture
def board_games(users, winning_line):
    """Eight results: two wins (one faster), two equal resignations (a tie), and shorter games."""
    daily = make_daily()
    plan = [(None, 100), (None, 60), (20, 30), (20, 30), (20, 45), (12, 10), (5, 10), (0, 10)]
    return daily, [
        daily_game(user, daily, moves, seconds=seconds) for user, (moves, seconds) in zip(users, plan, strict=True)
    ]


def test_ranks_follow_cards_then_moves_then_time_and_ties_share(board_games, users):
    daily, _games = board_games
    board = daily_board(daily=daily, player=None, use_cache=False)
    got = {row.result.player_id: row.rank for row in board.top}
    assert got == expected_ranks(Result.objects.filter(daily=daily))
    assert board.total == 8
    assert [row.rank for row in board.top] == [1, 2, 3, 3, 5, 6, 7, 8]
    assert board.top[0].result.player_id == users[1].pk  # the faster of the two wins
    assert [row.result.cards_left for row in board.top] == sorted(row.result.cards_left for row in board.top)


def test_my_rank_and_neighbours(board_games, users):
    daily, _ = board_games
    board = daily_board(daily=daily, player=users[4], limit=3, around=2, use_cache=False)
    assert [row.rank for row in board.top] == [1, 2, 3]
    assert board.me.result.player_id == users[4].pk and board.me.rank == 5
    assert [row.rank for row in board.around] == [3, 3, 5, 6, 7]
    assert board.around[2] is board.me
    # a neighbourhood that starts inside a tie: the tie keeps its shared rank, the next row its place
    board = daily_board(daily=daily, player=users[4], limit=1, around=1, use_cache=False)
    assert [(row.result.player_id, row.rank) for row in board.around] == [
        (users[3].pk, 3),
        (users[4].pk, 5),
        (users[5].pk, 6),
    ]
    board = daily_board(daily=daily, player=users[2], limit=1, around=1, use_cache=False)
    assert [row.rank for row in board.around] == [2, 3, 3]


def test_top_of_the_board_has_par_beside_each_win(board_games):
    daily, _ = board_games
    top = daily_board(daily=daily, use_cache=False).top[0].result
    assert top.par_moves == PAR and top.over_par == 0 and over_par_text(top) == "par"
    top.moves, top.par_moves = 36, 33
    assert over_par_text(top) == "+3"


def test_games_still_played_and_practice_games_are_not_on_the_board(player, users, winning_line):
    daily = make_daily()
    daily_game(users[0], daily, 8)
    live = game_services.game_start(player=player, daily_id=daily.pk)
    game_services.move_submit(game_id=live.pk, player=player, ply=1, move=winning_line[0])
    board = daily_board(daily=daily, player=player, use_cache=False)
    assert board.total == 1 and board.me is None and board.around == []


def test_board_api(board_games, users):
    daily, _ = board_games
    body = client_for(users[5]).get(f"/api/boards/daily/{daily.date}/{daily.preset}/?limit=2&around=1").json()
    assert body["total"] == 8 and body["daily"]["par_moves"] == PAR
    assert [row["rank"] for row in body["top"]] == [1, 2]
    assert body["top"][0]["par_text"] == "par" and body["top"][0]["won"] is True
    assert body["me"]["rank"] == 6 and body["me"]["player"]["username"] == users[5].username
    assert [row["rank"] for row in body["around"]] == [5, 6, 7]
    assert body["me"]["par_text"] is None and body["me"]["cards_left"] > 0


@pytest.mark.parametrize(
    "url, code, status",
    [
        ("/api/boards/daily/yesterday/one-look/", "bad_date", 400),
        ("/api/boards/daily/2020-01-01/one-look/", "daily_not_found", 404),
        ("/api/boards/daily/{today}/one-look/?limit=0", "bad_parameter", 400),
        ("/api/boards/daily/{today}/one-look/?limit=x", "bad_parameter", 400),
        ("/api/boards/daily/{today}/one-look/?around=99", "bad_parameter", 400),
        ("/api/boards/daily/{tomorrow}/one-look/", "daily_not_found", 404),
        ("/api/boards/daily/{today}/one-look/?club=999", "club_not_found", 404),
        # a preset that is no preset: the same 400 on every board (the weekly and all-time ones answered an empty board)
        ("/api/boards/daily/{today}/nope/", "bad_parameter", 400),
        ("/api/boards/daily/{today}/custom/", "bad_parameter", 400),
        ("/api/boards/weekly/?preset=nope", "bad_parameter", 400),
        ("/api/boards/all-time/?preset=nope", "bad_parameter", 400),
        ("/api/boards/all-time/?preset=custom", "bad_parameter", 400),
        # a preset with no daily deal that day is no board of a day, and an empty board of a week
        ("/api/boards/daily/{today}/classic/", "daily_not_found", 404),
    ],
)
def test_board_api_errors(player, url, code, status):
    today = make_daily().date
    make_daily(date=today + dt.timedelta(days=1), number=5)
    response = client_for(player).get(url.format(today=today, tomorrow=today + dt.timedelta(days=1)))
    assert response.status_code == status and response.json()["code"] == code and response.json()["message"]
    if url.endswith("nope"):
        assert "preset" in response.json()["message"]


def test_a_preset_with_no_daily_deal_has_an_empty_weekly_board(player):
    make_daily()  # one-look only
    body = client_for(player).get("/api/boards/weekly/?preset=classic").json()
    assert body["preset"] == "classic" and body["results"] == [] and body["count"] == 0


def test_a_visitor_reads_the_board_without_an_account(db):
    today = make_daily().date
    answer = client_for(None).get(f"/api/boards/daily/{today}/one-look/")
    assert answer.status_code == 200 and answer.json()["me"] is None


def test_share_line_is_spoiler_free(player, winning_line, settings):
    settings.PYRAMID_FIRST_DAILY_DATE = dt.date(2025, 1, 1)
    daily = make_daily()
    game = daily_game(player, daily)
    number = (daily.date - dt.date(2025, 1, 1)).days + 1
    body = client_for(player).get(f"/api/games/{game.pk}/share/").json()
    assert body["share"] == f"Pyramid #{number} one-look: cleared, {PAR} moves (par {PAR})"
    other = daily_game(UserFactory(), daily, 10)
    line = client_for(other.player).get(f"/api/games/{other.pk}/share/").json()["share"]
    assert line == f"Pyramid #{number} one-look: {result_of(other).cards_left} cards left, 10 moves (par {PAR})"
    assert daily.deal.text.split()[0] not in line.split()  # no card of the deal


def test_share_line_errors(player, winning_line):
    practice = game_services.game_start(player=player, number=3, rules="classic")
    assert client_for(player).get(f"/api/games/{practice.pk}/share/").json()["code"] == "not_shareable"
    live = game_services.game_start(player=player, daily_id=make_daily().pk)
    assert client_for(player).get(f"/api/games/{live.pk}/share/").status_code == 409
    assert client_for(UserFactory()).get(f"/api/games/{live.pk}/share/").status_code == 404
    assert Game.objects.count() == 2
