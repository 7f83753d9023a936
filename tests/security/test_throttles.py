"""Throttles nobody dodges by sending a header, changing address or changing account name's case: each
test is a request that used to get past its limit, and the 429 it meets now. The client address is the
socket's (``REMOTE_ADDR``) unless ``DJANGO_PROXY_COUNT`` trusted proxies stand in front."""

import pytest
from rest_framework.test import APIClient

from games import services as game_services
from tests.support import UserFactory, client_for

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-phrase"


@pytest.fixture
def rates(settings):
    """Set some scopes' rates for the test; the throttles read them from the settings as they are."""

    def set_rates(**scopes: str) -> None:
        current = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
        settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {"DEFAULT_THROTTLE_RATES": current | scopes}

    return set_rates


def log_in(client, username, password="wrong", **headers):
    return client.post("/api/accounts/login/", {"username": username, "password": password}, format="json", **headers)


def test_x_forwarded_for_does_not_reset_the_log_in_throttle(rates):
    """Old hole: once log-in was throttled, the same request with ``X-Forwarded-For: 203.0.113.9`` was
    counted as another client's and got a token."""
    rates(login="3/min")
    client = APIClient()
    assert (
        client.post("/api/accounts/signup/", {"username": "victim", "password": PASSWORD}, format="json").status_code
        == 201
    )
    assert [log_in(client, "victim").status_code for _ in range(3)] == [401, 401, 401]
    dodged = log_in(client, "victim", PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert dodged.status_code == 429 and dodged.json()["code"] == "throttled" and "token" not in dodged.json()


def test_sign_ups_claiming_other_addresses_meet_the_limit(rates):
    """Old hole: 32 sign-ups, each with another ``X-Forwarded-For``, met no 429."""
    rates(signup="5/hour")
    client = APIClient()
    codes = [
        client.post(
            "/api/accounts/signup/",
            {"username": f"sock{i}", "password": PASSWORD},
            format="json",
            HTTP_X_FORWARDED_FOR=f"198.51.100.{i}",
        ).status_code
        for i in range(32)
    ]
    assert codes == [201] * 5 + [429] * 27


def test_log_in_guesses_spread_over_addresses_meet_the_per_account_limit(rates):
    """A guesser with many addresses, and the name's case and width changed each time, still meets the
    limit of the one account guessed at; someone else, from yet another address, is not held up."""
    rates(login="3/min")
    spellings = ["victim", "VICTIM", "Ｖｉｃｔｉｍ", " victim "]
    codes = [log_in(APIClient(REMOTE_ADDR=f"192.0.2.{i}"), name).status_code for i, name in enumerate(spellings)]
    assert codes == [401, 401, 401, 429]
    assert log_in(APIClient(REMOTE_ADDR="192.0.2.200"), "someone-else").status_code == 401


def test_behind_a_trusted_proxy_its_forwarded_address_counts(settings, rates):
    """With ``DJANGO_PROXY_COUNT=1`` the proxy's own address stands for every client: the address it
    forwards is the one counted."""
    settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {"NUM_PROXIES": 1}
    rates(signup="2/hour")
    proxy = APIClient(REMOTE_ADDR="10.0.0.1")

    def sign_up(name: str, client_address: str) -> int:
        return proxy.post(
            "/api/accounts/signup/",
            {"username": name, "password": PASSWORD},
            format="json",
            HTTP_X_FORWARDED_FOR=client_address,
        ).status_code

    assert [sign_up(f"alpha{i}", "203.0.113.1") for i in range(3)] == [201, 201, 429]
    assert sign_up("bravo", "203.0.113.2") == 201  # another client behind the same proxy


def test_hints_are_counted_per_account_whatever_the_address(rates, player, other_player):
    rates(hint="2/hour")
    game = game_services.game_start(player=player, number=0, rules="one-look")
    codes = [
        client_for(player).get(f"/api/games/{game.pk}/hint/", REMOTE_ADDR=f"192.0.2.{i}").status_code for i in range(3)
    ]
    assert codes == [200, 200, 429]
    game.refresh_from_db()
    assert game.hint_count == 1  # the same position asked again is one hint (tests/games/test_games_api.py)
    theirs = game_services.game_start(player=other_player, number=0, rules="one-look")
    assert client_for(other_player).get(f"/api/games/{theirs.pk}/hint/").status_code == 200


def test_solving_on_request_is_counted_per_account(rates, player):
    rates(solve="2/hour")
    api = client_for(player)
    codes = [api.post("/api/deals/0/solve/?rules=one-look", REMOTE_ADDR=f"192.0.2.{i}").status_code for i in range(3)]
    assert codes == [202, 202, 429]
    assert client_for(UserFactory()).post("/api/deals/0/solve/?rules=one-look").status_code == 202
