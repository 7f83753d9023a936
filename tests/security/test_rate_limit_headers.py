"""The RateLimit-Policy and RateLimit headers (docs/api.md, "Rate limits") against the requests counted here: a
list of timestamps for DRF's throttles (per account, per address), and the two weighted windows of the play
throttles' sliding window, evaluated second by second; the clock frozen and moved with time_machine."""

from __future__ import annotations

import datetime as dt
import math
import time

import pytest
import time_machine
from rest_framework.test import APIClient

from games import services as game_services
from tests.conftest import PINNED
from tests.support import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def rates(settings):
    def set_rates(**scopes: str) -> None:
        current = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
        settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {"DEFAULT_THROTTLE_RATES": current | scopes}

    return set_rates


@pytest.fixture
def frozen():
    """The clock stopped 10 s into a minute (noon is a window's start), moved on by the test."""
    with time_machine.travel(PINNED + dt.timedelta(seconds=10), tick=False) as clock:
        yield clock


def _now() -> float:
    return time.time()


class Log:
    """DRF's throttle as a client counts it: the times of the requests taken in the last ``window`` seconds."""

    def __init__(self, quota: int, window: int):
        self.quota, self.window, self.taken = quota, window, []

    def send(self, now: float) -> tuple[bool, int, int]:
        self.taken = [t for t in self.taken if t > now - self.window]
        allowed = len(self.taken) < self.quota
        if allowed:
            self.taken.append(now)
        reset = math.ceil(self.taken[0] + self.window - now) if self.taken else 0
        return allowed, self.quota - len(self.taken), reset


class Windows:
    """The play throttles' count: a counter per window of ``window`` seconds, every request counted (a refused
    one too), the previous window's count weighted by the share of it still inside the last ``window`` seconds."""

    def __init__(self, quota: int, window: int):
        self.quota, self.window, self.counts = quota, window, {}

    def used(self, now: float) -> float:
        slot, elapsed = divmod(now, self.window)
        return self.counts.get(slot - 1, 0) * (1 - elapsed / self.window) + self.counts.get(slot, 0)

    def send(self, now: float) -> tuple[bool, int, int]:
        slot = now // self.window
        self.counts[slot] = self.counts.get(slot, 0) + 1
        used = self.used(now)
        remaining = max(math.floor(self.quota - used), 0)
        # the first whole second from which one more request than `remaining` fits
        reset = next(t for t in range(0, 3 * self.window) if self.used(now + t) <= self.quota - remaining - 1)
        return used <= self.quota, remaining, max(reset, 1) if remaining == 0 else reset


def test_a_per_account_throttle_announces_its_quota_and_what_is_left(rates, player, frozen):
    rates(hint="3/min")
    game = game_services.game_start(player=player, number=0, rules="one-look")
    api, reference = client_for(player), Log(3, 60)
    for moved in (0, 0, 5, 0, 30, 25, 0, 1, 0, 61):
        frozen.shift(moved)
        answer = api.get(f"/api/games/{game.pk}/hint/")
        allowed, remaining, reset = reference.send(_now())
        assert answer.status_code == (200 if allowed else 429)
        assert answer["RateLimit-Policy"] == '"hint";q=3;w=60'
        assert answer["RateLimit"] == f'"hint";r={remaining};t={reset}'
        if not allowed:
            assert answer["Retry-After"] == str(reset)


def test_the_play_throttles_announce_both_policies_as_their_windows_count(rates, player, frozen):
    rates(game_start="4/min", game_start_address="6/min")
    api = client_for(player)
    account, address = Windows(4, 60), Windows(6, 60)
    statuses = []
    for moved in (0, 0, 0, 0, 0, 20, 30, 1, 9, 0, 12, 30, 60, 0):
        frozen.shift(moved)
        answer = api.post("/api/games/", {"number": 7, "rules": "one-look"}, format="json")
        now = _now()
        (by_address, address_left, address_reset), (by_account, account_left, account_reset) = (
            address.send(now),
            account.send(now),
        )
        statuses.append(answer.status_code)
        assert answer.status_code == (201 if by_address and by_account else 429), (now, answer.json())
        assert answer["RateLimit-Policy"] == '"game_start_address";q=6;w=60, "game_start";q=4;w=60'
        assert answer["RateLimit"] == (
            f'"game_start_address";r={address_left};t={address_reset}, "game_start";r={account_left};t={account_reset}'
        )
        if answer.status_code == 429:
            assert int(answer["Retry-After"]) == max(
                reset for allowed, reset in ((by_address, address_reset), (by_account, account_reset)) if not allowed
            )
    assert 201 in statuses and 429 in statuses  # both sides of the limit were met


def test_a_visitors_reads_are_announced_and_a_signed_in_read_is_not(rates, player):
    rates(visitor_read="5/min")
    visitor = APIClient()
    answers = [visitor.get("/api/boards/all-time/") for _ in range(6)]
    assert [a.status_code for a in answers] == [200] * 5 + [429]
    assert {a["RateLimit-Policy"] for a in answers} == {'"visitor_read";q=5;w=60'}
    assert [a["RateLimit"].split(";t=")[0] for a in answers] == [f'"visitor_read";r={n}' for n in (4, 3, 2, 1, 0, 0)]
    signed_in = client_for(player).get("/api/boards/all-time/")
    assert signed_in.status_code == 200 and "RateLimit" not in signed_in and "RateLimit-Policy" not in signed_in
    assert "RateLimit" not in client_for(player).get("/api/games/")  # not throttled: nothing announced


def test_a_log_in_lists_its_address_and_name_policies(rates, frozen):
    rates(login="3/min")
    client = APIClient()
    answers = [
        client.post("/api/accounts/login/", {"username": "nobody", "password": "wrong"}, format="json")
        for _ in range(4)
    ]
    assert [a.status_code for a in answers] == [401, 401, 401, 429]
    assert {a["RateLimit-Policy"] for a in answers} == {'"login";q=3;w=60, "login_name";q=3;w=60'}
    assert answers[0]["RateLimit"] == '"login";r=2;t=60, "login_name";r=2;t=60'
    assert answers[3]["RateLimit"] == '"login";r=0;t=60, "login_name";r=0;t=60'
    # a body without a name is counted by the address alone
    nameless = client.post("/api/accounts/login/", {"password": "wrong"}, format="json")
    assert nameless["RateLimit"] == '"login";r=0;t=60'


def test_the_schema_declares_the_headers_on_the_throttled_operations_answers():
    schema = APIClient().get("/api/schema/?format=json").json()

    for path, method, policies in [
        ("/api/games/", "post", "`game_start`, `game_start_address`"),
        ("/api/games/{game_id}/hint/", "get", "`hint`"),
        ("/api/accounts/login/", "post", "`login`, `login_name`"),
        ("/api/boards/all-time/", "get", "`visitor_read`"),
    ]:
        operation = schema["paths"][path][method]
        assert f"Rate limits: {policies} " in operation["description"], path
        for answer in operation["responses"].values():
            assert {"RateLimit", "RateLimit-Policy"} <= set(answer.get("headers", {})), (path, method)
    assert "Rate limits" not in schema["paths"]["/api/games/"]["get"].get("description", "")
    listed = schema["paths"]["/api/games/"]["get"]["responses"]["200"]["headers"]
    assert not {"RateLimit", "RateLimit-Policy"} & set(listed)
