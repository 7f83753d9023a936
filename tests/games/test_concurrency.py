"""Two requests for the same ply at once, against the real database (row lock on the game)."""

import threading

import pytest
from django.db import connection, connections

from games.models import Game
from tests.support import client_for, logged, make_daily

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL's row locks"),
]


def _at_once(player, requests):
    """Each ``request(client)`` sent from its own thread with the player's client, all released at once; the
    answers in the order of the requests."""
    barrier = threading.Barrier(len(requests))
    answers = [None] * len(requests)

    def send(index, request):
        try:
            client = client_for(player)
            barrier.wait()
            answers[index] = request(client)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(i, request)) for i, request in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def _race(player, game_id, bodies):
    """Each body sent as a move at once; the responses in order."""
    return _at_once(
        player,
        [lambda client, body=body: client.post(f"/api/games/{game_id}/moves/", body, format="json") for body in bodies],
    )


def _practice_game(player):
    response = client_for(player).post("/api/games/", {"number": 0, "rules": "one-look"}, format="json")
    return response.json()


@pytest.mark.parametrize("round_", range(5))
def test_same_ply_different_moves_exactly_one_applies(player, round_):
    game = _practice_game(player)
    removal = next(m for m in game["position"]["legal_moves"] if m != "draw")
    responses = _race(player, game["id"], [{"ply": 1, "move": "draw"}, {"ply": 1, "move": removal}])
    codes = sorted(r.status_code for r in responses)
    assert codes == [201, 409]
    loser = next(r for r in responses if r.status_code == 409).json()
    assert loser["code"] == "wrong_ply" and loser["expected_ply"] == 2
    bodies = [{"ply": 1, "move": "draw"}, {"ply": 1, "move": removal}]
    winner = next(body for r, body in zip(responses, bodies, strict=True) if r.status_code == 201)
    assert [move.notation for move in logged(game["id"])] == [winner["move"]]
    stored = Game.objects.get(pk=game["id"])
    assert stored.moves == 1 and stored.version == 1


def test_same_move_sent_many_times_at_once_applies_once(player):
    game = _practice_game(player)
    responses = _race(player, game["id"], [{"ply": 1, "move": "draw"}] * 6)
    assert sorted(r.status_code for r in responses) == [200] * 5 + [201]
    assert {r.json()["version"] for r in responses} == {1}
    assert len(logged(game["id"])) == 1


def test_a_ranked_deal_started_twice_at_once_makes_one_game(player):
    daily = make_daily()
    answers = _at_once(player, [lambda client: client.post("/api/games/", {"daily": daily.pk}, format="json")] * 4)
    assert sorted(answer.status_code for answer in answers) == [201, 409, 409, 409]
    assert Game.objects.filter(player=player, daily=daily).count() == 1


def test_a_hint_asked_many_times_at_once_for_one_position_is_counted_once(player, settings):
    # one search at a time per account would refuse all but the first (429): the four are let through here
    settings.PYRAMID_SOLVER_AT_ONCE_PER_ACCOUNT = settings.PYRAMID_SOLVER_AT_ONCE_PER_ADDRESS = 0
    game = _practice_game(player)
    answers = _at_once(player, [lambda client: client.get(f"/api/games/{game['id']}/hint/")] * 4)
    assert [answer.status_code for answer in answers] == [200] * 4
    assert len({answer.content for answer in answers}) == 1  # the same advice, four times
    assert Game.objects.get(pk=game["id"]).hint_count == 1
