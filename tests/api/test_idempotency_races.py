"""``Idempotency-Key`` under concurrency, against the real database: requests with one key sent at once from
threads with connections of their own do the work once (the others wait on the key's row lock and answer the
first answer), and a retry that waits longer than ``PYRAMID_IDEMPOTENCY_WAIT_SECONDS`` is told to come back."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections
from rest_framework.test import APIClient

import games.services
from games.models import Game
from pyramid_site.accounts.models import Guest
from pyramid_site.idempotency.models import IdempotencyKey
from tests.support import client_for

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL's row locks"),
]
KEY = "b1946ac9-2d3b-4d5b-8f2e-0c5a7a8f1d11"


@pytest.fixture(autouse=True)
def _schema_built_first():
    """The schema the conformance check reads, built before the threads start: drf-spectacular's first build
    (importing its optional extensions) is not safe to run in several threads at once."""
    from tests import conformance

    conformance.schema()
    conformance._routes()


def _race(requests):
    """Send each request (a function of a fresh client) from its own thread, all released at once."""
    barrier = threading.Barrier(len(requests))
    results = [None] * len(requests)

    def send(index, request):
        try:
            barrier.wait()
            results[index] = request()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(i, r)) for i, r in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.parametrize("round_", range(3))
def test_one_key_sent_six_times_at_once_makes_one_game(player, round_):
    def start():
        return client_for(player).post(
            "/api/games/", {"number": 7, "rules": "one-look"}, format="json", HTTP_IDEMPOTENCY_KEY=f"{KEY}-{round_}"
        )

    answers = _race([start] * 6)
    assert [answer.status_code for answer in answers] == [201] * 6
    assert len({answer.json()["id"] for answer in answers}) == 1
    assert sum("Idempotent-Replayed" not in answer for answer in answers) == 1  # the one that did the work
    assert Game.objects.count() == 1 and IdempotencyKey.objects.count() == 1


def test_one_key_sent_four_times_at_once_makes_one_guest():
    def guest():
        return APIClient(REMOTE_ADDR="198.51.100.4").post("/api/accounts/guest/", HTTP_IDEMPOTENCY_KEY=KEY)

    answers = _race([guest] * 4)
    assert [answer.status_code for answer in answers] == [201] * 4
    assert len({answer.json()["token"] for answer in answers}) == 1
    assert Guest.objects.count() == 1 and get_user_model().objects.count() == 1


def test_a_retry_while_the_first_is_held_up_is_told_to_come_back_then_answered(player, settings, monkeypatch):
    """The first request holds its key (its game being made) past the retry's wait: the retry is 409
    ``idempotency_key_in_flight`` with ``Retry-After``, and once the first is answered the retry answers it."""
    settings.PYRAMID_IDEMPOTENCY_WAIT_SECONDS = 0.2
    working, finish = threading.Event(), threading.Event()
    game_start = games.services.game_start

    def held_up(**kwargs):
        working.set()
        assert finish.wait(30), "the test never let the first request finish"
        return game_start(**kwargs)

    monkeypatch.setattr(games.services, "game_start", held_up)
    body, first = {"number": 9, "rules": "one-look"}, {}

    def send_first():
        try:
            first["answer"] = client_for(player).post("/api/games/", body, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
        finally:
            connections.close_all()

    thread = threading.Thread(target=send_first)
    thread.start()
    try:
        assert working.wait(30), "the first request never reached its work"
        retry = client_for(player).post("/api/games/", body, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
        assert retry.status_code == 409 and retry.json()["code"] == "idempotency_key_in_flight"
        assert int(retry["Retry-After"]) >= 1 and retry.json()["retry_after_seconds"] == int(retry["Retry-After"])
        assert not Game.objects.exists()  # nothing is visible of the first until it commits
    finally:
        finish.set()
        thread.join()
    assert first["answer"].status_code == 201
    again = client_for(player).post("/api/games/", body, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert again.status_code == 201 and again.json()["id"] == first["answer"].json()["id"]
    assert again["Idempotent-Replayed"] == "true" and Game.objects.count() == 1
