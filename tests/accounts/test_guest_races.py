"""Guest accounts made and signed up at once, against the real database: the guest's row lock lets one of two
sign-ups of a guest name it, and the case-insensitive unique index settles two guests asking for one name."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections
from rest_framework.test import APIClient

from pyramid_site.accounts.models import Guest

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL's row locks"),
]
PASSWORD = "a-long-pass-phrase"


def _race(requests):
    """Send each request (a function of a fresh client) from its own thread, all released at once."""
    barrier = threading.Barrier(len(requests))
    results = [None] * len(requests)

    def send(index, request):
        try:
            client = APIClient()
            barrier.wait()
            results[index] = request(client)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(i, r)) for i, r in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def _guest() -> dict:
    answer = APIClient().post("/api/accounts/guest/")
    assert answer.status_code == 201, answer.json()
    return answer.json()


def _sign_up(token, username):
    return lambda client: client.post(
        "/api/accounts/signup/",
        {"username": username, "password": PASSWORD},
        format="json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )


@pytest.mark.parametrize("round_", range(3))
def test_two_sign_ups_of_one_guest_at_once_name_it_once(round_):
    guest = _guest()
    answers = _race([_sign_up(guest["token"], f"first{round_}"), _sign_up(guest["token"], f"second{round_}")])
    assert sorted(a.status_code for a in answers) == [200, 409]
    winner = next(a for a in answers if a.status_code == 200).json()
    loser = next(a for a in answers if a.status_code == 409).json()
    assert loser["code"] == "already_signed_up" and winner["id"] == guest["id"]
    User = get_user_model()
    assert User.objects.count() == 1 and User.objects.get().username == winner["username"]
    assert Guest.objects.get(user_id=guest["id"]).signed_up_at is not None


@pytest.mark.parametrize("round_", range(3))
def test_two_guests_asking_for_one_name_at_once_one_gets_it(round_):
    one, two = _guest(), _guest()
    answers = _race([_sign_up(one["token"], f"wanted{round_}"), _sign_up(two["token"], f"WANTED{round_}")])
    assert sorted(a.status_code for a in answers) == [200, 409]
    assert next(a for a in answers if a.status_code == 409).json()["code"] == "username_taken"
    winner = next(a for a in answers if a.status_code == 200).json()
    loser_id = two["id"] if winner["id"] == one["id"] else one["id"]
    loser = get_user_model().objects.get(pk=loser_id)
    assert loser.username.startswith("guest-") and not loser.has_usable_password()
    assert Guest.objects.get(user_id=loser_id).signed_up_at is None


def test_many_guests_made_at_once_are_all_different(settings):
    settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {
        "DEFAULT_THROTTLE_RATES": settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] | {"guest": "100/hour"}
    }
    answers = _race([lambda client: client.post("/api/accounts/guest/")] * 8)
    assert [a.status_code for a in answers] == [201] * 8
    assert len({a.json()["username"] for a in answers}) == 8 == Guest.objects.count()
    assert get_user_model().objects.count() == 8
