"""A ranked game's window: a daily game's is its UTC day, a tournament game's its tournament. Once the
window is over the game takes no move (its deal is public by then): it is closed as it stood, at the end
of its window, and scored like any finished game. The clock is moved with ``clock_at``, as time passes."""

import datetime as dt

import pytest

from games import services
from games.models import Game
from games.tasks import close_expired_games
from leaderboards.models import Result
from pyramid_site.clock import day_end
from tests.support import UserFactory, client_for, clock_at, make_daily

pytestmark = pytest.mark.django_db
SECOND = dt.timedelta(seconds=1)


def move(api, game_id, ply, notation):
    return api.post(f"/api/games/{game_id}/moves/", {"ply": ply, "move": notation}, format="json")


@pytest.fixture
def daily_in_play(player, winning_line):
    """Today's daily deal, and the player's game on it five moves in, still playing."""
    daily = make_daily()
    api = client_for(player)
    game = api.post("/api/games/", {"daily": daily.pk}, format="json").json()
    for ply, notation in enumerate(winning_line[:5], start=1):
        assert move(api, game["id"], ply, notation).status_code == 201
    return daily, Game.objects.get(pk=game["id"])


def test_a_move_after_the_day_is_over_closes_the_game_and_is_refused(player, daily_in_play, winning_line):
    """Old hole: a daily game took moves after its day was over, when its deal (and the solver's line
    for it) was public: a player could look the line up and finish at par."""
    daily, game = daily_in_play
    end = day_end(daily.date)
    assert game.closes_at == end
    with clock_at(end + SECOND):
        late = move(client_for(player), game.pk, 6, winning_line[5])
    assert late.status_code == 409 and late.json()["code"] == "daily_over" and late.json()["status"] == "closed"
    game.refresh_from_db()
    assert (game.status, game.finished_at, game.moves) == ("closed", end, 5)
    # scored as it stood: on the day's board, and a day played for the streak
    result = Result.objects.get(game=game)
    assert (result.cards_left, result.moves, result.won) == (game.cards_left, 5, False)
    board = client_for(UserFactory()).get(f"/api/boards/daily/{daily.date}/{daily.preset}/").json()
    assert board["total"] == 1 and board["top"][0]["player"]["id"] == player.pk
    page = client_for(player).get(f"/api/players/{player.username}/").json()
    assert page["stats"]["played"] == 1 and page["streak"]["current"] == 1
    shown = client_for(player).get(f"/api/games/{game.pk}/").json()
    assert shown["status"] == "closed" and shown["position"]["status"] == "closed"
    assert shown["position"]["legal_moves"] == []
    # the same move sent again is still refused as too late, not taken
    again = move(client_for(player), game.pk, 6, winning_line[5])
    assert again.status_code == 409 and again.json()["code"] == "daily_over"


def test_resigning_after_the_day_is_over_closes_the_game_instead(player, daily_in_play):
    daily, game = daily_in_play
    with clock_at(day_end(daily.date) + SECOND):
        late = client_for(player).post(f"/api/games/{game.pk}/resign/")
    assert late.status_code == 409 and late.json()["code"] == "daily_over"
    game.refresh_from_db()
    assert game.status == "closed" and game.finished_at == day_end(daily.date)


def test_a_move_just_before_the_end_is_taken(player, daily_in_play, winning_line):
    daily, game = daily_in_play
    with clock_at(day_end(daily.date) - SECOND):
        assert move(client_for(player), game.pk, 6, winning_line[5]).status_code == 201
        assert services.game_close(game_id=game.pk) is None  # not over yet: nothing to close
    game.refresh_from_db()
    assert game.status == "playing" and game.moves == 6


def test_the_beat_job_closes_every_game_whose_window_is_over_once(settings, users, daily_in_play):
    daily, first = daily_in_play
    second = services.game_start(player=users[0], daily_id=daily.pk)
    practice = services.game_start(player=users[1], number=7, rules="one-look")
    finished = services.game_resign(game_id=services.game_start(player=users[1], daily_id=daily.pk).pk, player=users[1])
    entry = settings.CELERY_BEAT_SCHEDULE["close-expired-games"]
    assert entry["task"] == close_expired_games.name == "games.tasks.close_expired_games"
    with clock_at(day_end(daily.date) - SECOND):
        assert close_expired_games.delay().get() == 0
    with clock_at(day_end(daily.date) + dt.timedelta(hours=5)):  # late: the job had not run for hours
        assert close_expired_games.delay().get() == 2
        before = dict(Game.objects.values_list("pk", "version"))
        assert close_expired_games.delay().get() == 0  # twice: nothing more
        assert services.game_close(game_id=first.pk) is None
        assert dict(Game.objects.values_list("pk", "version")) == before
    statuses = dict(Game.objects.values_list("pk", "status"))
    assert statuses == {first.pk: "closed", second.pk: "closed", practice.pk: "playing", finished.pk: "resigned"}
    for game in Game.objects.filter(status="closed"):
        assert game.finished_at == game.closes_at == day_end(daily.date)
        assert Result.objects.filter(game=game).exists()
    assert Game.objects.get(pk=practice.pk).closes_at is None


def test_a_game_says_when_it_closes_and_a_resigned_one_offers_no_move(player):
    api = client_for(player)
    daily = make_daily()
    ranked = api.post("/api/games/", {"daily": daily.pk}, format="json")
    practice = api.post("/api/games/", {"number": 7, "rules": "one-look"}, format="json")
    assert ranked.json()["closes_at"] == day_end(daily.date).isoformat().replace("+00:00", "Z")
    assert practice.json()["closes_at"] is None
    resigned = api.post(f"/api/games/{practice.json()['id']}/resign/").json()
    assert resigned["status"] == "resigned" and resigned["position"]["status"] == "resigned"
    assert resigned["position"]["legal_moves"] == []
    assert api.get(f"/api/games/{practice.json()['id']}/").json()["position"]["legal_moves"] == []


def test_resigning_a_game_won_on_its_day_is_game_over_after_the_day_too(player, winning_line):
    daily = make_daily()
    api = client_for(player)
    game = api.post("/api/games/", {"daily": daily.pk}, format="json").json()
    for ply, notation in enumerate(winning_line, start=1):
        assert move(api, game["id"], ply, notation).status_code == 201
    with clock_at(day_end(daily.date) + SECOND):
        late = api.post(f"/api/games/{game['id']}/resign/")
    assert late.status_code == 409 and late.json()["code"] == "game_over" and late.json()["status"] == "won"
