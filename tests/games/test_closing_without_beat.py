"""Every ranked game ends with its window, with or without a beat: without one (no Redis, the README's run command)
a request closes the games whose window is over before it is answered, at most once a minute per process
(``games.middleware.ExpiredGamesClosedMiddleware``), and a closed game counts as played everywhere."""

import datetime as dt

import pytest
from django.core.cache import cache
from django.http import HttpResponse
from django.test import RequestFactory

from games import middleware
from games.models import Game
from leaderboards.models import Result
from pyramid_site.clock import day_end
from tests.support import UserFactory, client_for, clock_at, make_daily

pytestmark = pytest.mark.django_db
SECOND = dt.timedelta(seconds=1)


@pytest.fixture
def no_beat(settings):
    settings.PYRAMID_AUTO_CLOSE_GAMES = True
    settings.PYRAMID_CLOSE_GAMES_EVERY_SECONDS = 60.0


def abandoned_and_resigned(winning_line):
    """Today's daily deal; one player stops five moves in (and never comes back), another plays the same five
    moves and resigns."""
    daily = make_daily()
    quitter, resigner = UserFactory(), UserFactory()
    games = []
    for user in (quitter, resigner):
        api = client_for(user)
        game = api.post("/api/games/", {"daily": daily.pk}, format="json").json()
        for ply, notation in enumerate(winning_line[:5], start=1):
            assert (
                api.post(f"/api/games/{game['id']}/moves/", {"ply": ply, "move": notation}, format="json").status_code
                == 201
            )
        games.append(game["id"])
    assert client_for(resigner).post(f"/api/games/{games[1]}/resign/").status_code == 200
    return daily, quitter, resigner, games


def day_row(calendar: dict, date: dt.date) -> dict:
    return next(day for day in calendar["days"] if day["date"] == date.isoformat())["deals"][0]


def test_without_a_beat_the_next_request_closes_an_abandoned_daily_game_and_it_counts(no_beat, winning_line):
    """Old hole: without a beat nothing closed an abandoned daily game, so a player who stopped before each loss
    stayed off the day's board, ranked better on the week's (fewer cards in total) and the calendar said "not
    played" where the same play resigned counted as lost."""
    daily, quitter, resigner, (abandoned, resigned) = abandoned_and_resigned(winning_line)
    end = day_end(daily.date)
    with clock_at(end + 5 * SECOND):
        client_for(None).get("/api/daily/")  # any request, by anyone
        game = Game.objects.get(pk=abandoned)
        assert (game.status, game.finished_at) == ("closed", end)
        reader = client_for(UserFactory())
        board = reader.get(f"/api/boards/daily/{daily.date}/{daily.preset}/").json()
        assert board["total"] == 2
        cards = Result.objects.get(game_id=resigned).cards_left
        assert Result.objects.get(game_id=abandoned).cards_left == cards
        week = reader.get(f"/api/boards/weekly/?week={daily.date.isoformat()}&preset={daily.preset}").json()
        rows = {row["player"]["id"]: row for row in week["results"]}
        assert rows[quitter.pk]["played"] == rows[resigner.pk]["played"] == 1
        assert rows[quitter.pk]["cards_left_total"] == rows[resigner.pk]["cards_left_total"] == cards
        assert rows[quitter.pk]["rank"] == rows[resigner.pk]["rank"]
        for user in (quitter, resigner):
            calendar = reader.get(f"/api/players/{user.username}/calendar/?months=2").json()
            assert day_row(calendar, daily.date)["outcome"] == "lost"
            page = reader.get(f"/api/players/{user.username}/stats/").json()
            assert page["ranked"]["total"]["played"] == 1 and page["streak"]["current"] == 1


def test_the_closing_runs_at_most_once_a_minute_in_a_process(no_beat, monkeypatch):
    """Cheap: a request in between compares two times and asks the database nothing."""
    calls = []
    monkeypatch.setattr(middleware, "games_close_expired", lambda **kwargs: calls.append(kwargs) or 0)
    api = client_for(None)  # one client: one handler, one middleware, as one web process has
    start = day_end(make_daily().date) + 5 * SECOND
    for offset, expected in ((0, 1), (10, 1), (59, 1), (61, 2), (62, 2), (125, 3)):
        with clock_at(start + offset * SECOND):
            api.get("/api/daily/")
        assert len(calls) == expected, offset


def test_the_closing_costs_no_query_between_its_runs(no_beat, django_assert_num_queries):
    respond = middleware.ExpiredGamesClosedMiddleware(lambda request: HttpResponse())
    request = RequestFactory().get("/")
    respond(request)  # the first closes (nothing to close here)
    with django_assert_num_queries(0):
        for _ in range(100):
            respond(request)


def test_two_processes_close_once_and_closing_again_changes_nothing(no_beat, winning_line):
    daily, _, _, (abandoned, _) = abandoned_and_resigned(winning_line)
    first, second = (middleware.ExpiredGamesClosedMiddleware(lambda request: HttpResponse()) for _ in range(2))
    request = RequestFactory().get("/")
    with clock_at(day_end(daily.date) + 5 * SECOND):
        first(request)
        closed = Game.objects.get(pk=abandoned)
        assert closed.status == "closed"
        second(request)  # the same minute, a process sharing the cache: left to the first
        cache.clear()  # a process with a cache of its own (no Redis): it closes again, which changes nothing
        middleware.ExpiredGamesClosedMiddleware(lambda request: HttpResponse())(request)
    again = Game.objects.get(pk=abandoned)
    assert (again.status, again.version, again.finished_at) == ("closed", closed.version, closed.finished_at)
    assert Result.objects.filter(game_id=abandoned).count() == 1


def test_with_a_beat_the_web_process_leaves_closing_to_it(settings, winning_line):
    settings.PYRAMID_AUTO_CLOSE_GAMES = False
    daily, _, _, (abandoned, _) = abandoned_and_resigned(winning_line)
    with clock_at(day_end(daily.date) + 5 * SECOND):
        client_for(None).get("/api/daily/")
    assert Game.objects.get(pk=abandoned).status == "playing"
