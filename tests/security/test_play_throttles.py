"""Game creation and moves, throttled per account and per client address at rates no person reaches: each test
is a flood that used to go through, and the 429 it meets now. The windows' clock is held still unless a test
moves it."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from pyramid_site import sliding_window
from tests.support import WINNABLE_ONE_LOOK, client_for, guest_from

pytestmark = pytest.mark.django_db
HOME, ELSEWHERE = "198.51.100.7", "203.0.113.9"


@pytest.fixture
def wall(monkeypatch):
    """The windows' clock, a few seconds into a window, moved by hand."""
    now = [60.0 * 50_000_000 + 3.0]
    monkeypatch.setattr(sliding_window, "wall_seconds", lambda: now[0])
    return now


@pytest.fixture
def rates(settings, wall):
    def set_rates(**scopes: str | None) -> None:
        current = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
        settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {"DEFAULT_THROTTLE_RATES": current | scopes}

    return set_rates


def start(client: APIClient, **extra):
    return client.post("/api/games/", {"number": str(WINNABLE_ONE_LOOK), "rules": "one-look"}, format="json", **extra)


def assert_throttled(answer) -> int:
    body = answer.json()
    assert answer.status_code == 429 and body["code"] == "throttled", body
    assert body["retry_after_seconds"] >= 1 and int(answer["Retry-After"]) == body["retry_after_seconds"]
    return body["retry_after_seconds"]


def test_games_started_are_counted_per_account_and_per_address(rates):
    """Old hole: nothing limited game creation; each new game is a row, and each that ends an analysis."""
    rates(game_start="3/min", game_start_address="5/min")
    first, second = guest_from(HOME), guest_from(HOME)
    answers = [start(first) for _ in range(4)]
    assert [answer.status_code for answer in answers] == [201, 201, 201, 429]  # the account's 3
    assert_throttled(answers[-1])
    assert [start(second).status_code for _ in range(2)] == [201, 429]  # the address's 5 (refused ones count)
    assert start(guest_from(ELSEWHERE)).status_code == 201
    assert first.get("/api/games/").status_code == 200  # the list is not counted


def test_an_account_changing_address_keeps_its_count(rates, player):
    rates(game_start="2/min", game_start_address="100/min")
    api = client_for(player)
    codes = [start(api, REMOTE_ADDR=f"192.0.2.{i}").status_code for i in range(3)]
    assert codes == [201, 201, 429]


def test_moves_are_counted_and_the_count_fades_with_the_window(rates, wall, player, winning_line):
    """Old hole: moves were not limited at all."""
    rates(move="5/min", move_address="100/min")
    api = client_for(player)
    game_id = start(api).json()["id"]

    def move(ply: int):
        return api.post(f"/api/games/{game_id}/moves/", {"ply": ply, "move": winning_line[ply - 1]}, format="json")

    assert [move(ply).status_code for ply in range(1, 6)] == [201] * 5
    wait = assert_throttled(move(6))
    wall[0] += wait + 1
    assert move(6).status_code == 201


def test_moves_of_many_guests_from_one_address_share_its_count(rates, winning_line):
    rates(move="100/min", move_address="6/min")
    games = [(client, start(client).json()["id"]) for client in (guest_from(HOME), guest_from(HOME), guest_from(HOME))]
    codes = [
        client.post(
            f"/api/games/{game_id}/moves/", {"ply": ply, "move": winning_line[ply - 1]}, format="json"
        ).status_code
        for ply in (1, 2, 3)
        for client, game_id in games[:2]
    ]
    assert codes == [201] * 6
    client, game_id = games[2]
    assert_throttled(client.post(f"/api/games/{game_id}/moves/", {"ply": 1, "move": winning_line[0]}, format="json"))
    other = guest_from(ELSEWHERE)
    theirs = start(other).json()["id"]
    assert (
        other.post(f"/api/games/{theirs}/moves/", {"ply": 1, "move": winning_line[0]}, format="json").status_code == 201
    )


def test_a_scope_without_a_rate_is_not_throttled(rates, player):
    rates(game_start=None, game_start_address=None)
    api = client_for(player)
    assert {start(api).status_code for _ in range(40)} == {201}


def test_the_default_rates_leave_a_fast_player_alone(player, winning_line):
    """A whole game at once, far quicker than any person plays it, meets no limit."""
    api = client_for(player)
    game_id = start(api).json()["id"]
    codes = {
        api.post(f"/api/games/{game_id}/moves/", {"ply": ply, "move": move}, format="json").status_code
        for ply, move in enumerate(winning_line, start=1)
    }
    assert codes == {201}
