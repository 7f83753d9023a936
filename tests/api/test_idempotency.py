"""Safe retries with ``Idempotency-Key`` (docs/api.md, "Retries"): the same key and request answer the first answer
without doing the work again; another request with the key is 422; a malformed key is 400; refusals keep nothing;
keys are per caller and kept ``PYRAMID_IDEMPOTENCY_KEEP_HOURS``. The races: tests/api/test_idempotency_races.py."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import time_machine
from rest_framework.test import APIClient

from games.models import Deal, Game
from leaderboards.models import Club
from pyramid_site.idempotency import services as key_services
from pyramid_site.idempotency.models import IdempotencyKey
from pyramid_site.idempotency.tasks import purge_idempotency_keys
from tests.support import client_for

pytestmark = pytest.mark.django_db
KEY = "8e03978e-40d5-43e8-bc93-6894a57f9324"


def start(client, body: dict | str, key: str | None = KEY, **extra):
    headers = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": key}
    if isinstance(body, str):
        return client.post("/api/games/", body, content_type="application/json", **headers, **extra)
    return client.post("/api/games/", body, format="json", **headers, **extra)


def test_a_retry_with_the_key_answers_the_first_game_and_makes_no_other(api):
    first = start(api, {"number": 7, "rules": "one-look"})
    again = start(api, {"number": 7, "rules": "one-look"})
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again.content == first.content
    assert again["Location"] == first["Location"] == f"/api/games/{first.json()['id']}/"
    assert again["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first
    assert Game.objects.count() == 1
    # without a key every request is a new one, as before
    assert start(api, {"number": 7, "rules": "one-look"}, key=None).json()["id"] != first.json()["id"]
    assert Game.objects.count() == 2


def test_the_same_json_spaced_or_ordered_otherwise_is_the_same_request(api):
    first = start(api, '{"number": 7, "rules": "one-look"}')
    again = start(api, '{  "rules":"one-look",\n "number":7}')
    assert again.status_code == 201 and again.json()["id"] == first.json()["id"] and Game.objects.count() == 1


def test_the_key_as_a_structured_field_string_is_the_same_key(api):
    first = start(api, {"number": 7}, key=KEY)
    again = start(api, {"number": 7}, key=f'"{KEY}"')  # as the draft writes it
    assert again["Idempotent-Replayed"] == "true" and again.json()["id"] == first.json()["id"]


def test_the_key_with_another_request_is_422_and_does_nothing(api):
    first = start(api, {"number": 7, "rules": "one-look"})
    assert first.status_code == 201
    other_body = start(api, {"number": 8, "rules": "one-look"})
    assert other_body.status_code == 422 and other_body.json()["code"] == "idempotency_key_reused"
    other_path = api.post("/api/clubs/", {"name": "Pairs"}, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert other_path.status_code == 422 and other_path.json()["code"] == "idempotency_key_reused"
    other_query = api.post(
        "/api/games/?x=1", {"number": 7, "rules": "one-look"}, format="json", HTTP_IDEMPOTENCY_KEY=KEY
    )
    assert other_query.status_code == 422
    assert Game.objects.count() == 1 and not Club.objects.exists()
    # the first request's answer is still what the key answers
    assert start(api, {"number": 7, "rules": "one-look"}).json()["id"] == first.json()["id"]


@pytest.mark.parametrize("key", ["", "   ", "x" * 256, "clé", "tab\there", '"unterminated', '"\\q"'])
def test_a_malformed_key_is_400(api, key):
    refused = start(api, {"number": 7}, key=key)
    assert refused.status_code == 400 and refused.json()["code"] == "bad_idempotency_key"
    assert not Game.objects.exists() and not IdempotencyKey.objects.exists()


def test_a_key_of_255_characters_is_taken(api):
    assert start(api, {"number": 7}, key="k" * 255).status_code == 201
    assert IdempotencyKey.objects.get().key == "k" * 255


def test_keys_are_each_callers_own(api, other_player):
    mine = start(api, {"number": 7})
    theirs = start(client_for(other_player), {"number": 7})
    assert theirs.status_code == 201 and "Idempotent-Replayed" not in theirs
    assert theirs.json()["id"] != mine.json()["id"] and Game.objects.count() == 2


def test_a_refusal_keeps_nothing_so_its_retry_may_succeed():
    """A guest may not create a club (403); once it has signed up, the same request with the same key does."""
    made = APIClient().post("/api/accounts/guest/")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {made.json()['token']}")
    create = {"name": "Retried club"}
    refused = client.post("/api/clubs/", create, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert refused.status_code == 403 and refused.json()["code"] == "guest_not_allowed"
    assert not IdempotencyKey.objects.exists()
    signed_up = client.post(
        "/api/accounts/signup/", {"username": "retrier", "password": "a-long-pass-phrase"}, format="json"
    )
    assert signed_up.status_code == 200
    created = client.post("/api/clubs/", create, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert created.status_code == 201 and Club.objects.get().name == "Retried club"
    again = client.post("/api/clubs/", create, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert (
        again.json() == created.json()
        and again["Location"] == created["Location"] == f"/api/clubs/{created.json()['id']}/"
        and Club.objects.count() == 1
    )


def test_guests_are_keyed_by_their_address():
    here, there = APIClient(REMOTE_ADDR="192.0.2.7"), APIClient(REMOTE_ADDR="192.0.2.8")
    first = here.post("/api/accounts/guest/", HTTP_IDEMPOTENCY_KEY=KEY)
    again = here.post("/api/accounts/guest/", HTTP_IDEMPOTENCY_KEY=KEY)
    elsewhere = there.post("/api/accounts/guest/", HTTP_IDEMPOTENCY_KEY=KEY)
    assert first.status_code == again.status_code == elsewhere.status_code == 201
    assert again.json() == first.json() and elsewhere.json()["id"] != first.json()["id"]
    # the raw address is not what is stored
    assert all("192.0.2" not in caller for caller in IdempotencyKey.objects.values_list("caller", flat=True))


def test_a_sign_up_retried_is_answered_as_the_first_not_as_a_taken_name():
    client, body = APIClient(), {"username": "once", "password": "a-long-pass-phrase"}
    first = client.post("/api/accounts/signup/", body, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    again = client.post("/api/accounts/signup/", body, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert first.status_code == again.status_code == 201 and again.json()["token"] == first.json()["token"]
    unkeyed = client.post("/api/accounts/signup/", body, format="json")
    assert unkeyed.status_code == 409 and unkeyed.json()["code"] == "username_taken"


def test_a_solve_request_retried_is_answered_as_the_first(api):
    first = api.post("/api/deals/0/solve/?rules=one-look", HTTP_IDEMPOTENCY_KEY=KEY)
    again = api.post("/api/deals/0/solve/?rules=one-look", HTTP_IDEMPOTENCY_KEY=KEY)
    assert first.status_code == again.status_code == 202 and again.content == first.content
    assert again["Location"] == first["Location"] and Deal.objects.count() == 1


def test_a_failure_after_the_work_leaves_neither_the_work_nor_the_key(api, monkeypatch):
    """The key is written in the transaction of the work: when keeping it fails, the game goes too."""

    def broken(**kwargs):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(key_services, "key_answer", broken)
    failed = start(api, {"number": 7})
    assert failed.status_code == 500
    assert not Game.objects.exists() and not IdempotencyKey.objects.exists()


def test_keys_are_kept_their_hours_then_purged(api, settings):
    settings.PYRAMID_IDEMPOTENCY_KEEP_HOURS = 24
    first = start(api, {"number": 7})
    kept = IdempotencyKey.objects.get()
    assert kept.expires_at - kept.created_at == dt.timedelta(hours=24)
    assert kept.status == 201 and json.loads(kept.body)["id"] == first.json()["id"]
    assert kept.headers == {"Location": first["Location"]}
    with time_machine.travel(dt.timedelta(hours=23, minutes=59)):
        assert start(api, {"number": 7})["Idempotent-Replayed"] == "true"
        assert purge_idempotency_keys() == 0
    with time_machine.travel(dt.timedelta(hours=24, seconds=1)):
        # past its time the key is a new one: a new game, and the key answers it from then on
        renewed = start(api, {"number": 7})
        assert renewed.status_code == 201 and renewed.json()["id"] != first.json()["id"]
        assert "Idempotent-Replayed" not in renewed and IdempotencyKey.objects.count() == 1
    IdempotencyKey.objects.create(
        caller="user:0",
        key="old",
        fingerprint="0" * 64,
        status=201,
        created_at=kept.created_at,
        expires_at=kept.expires_at,
    )
    with time_machine.travel(dt.timedelta(hours=24, seconds=1)):
        assert purge_idempotency_keys() == 1
        assert purge_idempotency_keys() == 0  # safe to run twice
    assert IdempotencyKey.objects.count() == 1


def test_the_schema_declares_the_key_on_every_creating_post_and_its_errors():
    schema = APIClient().get("/api/schema/?format=json").json()
    keyed = sorted(
        (path, method)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if any(p["name"] == "Idempotency-Key" and p["in"] == "header" for p in operation.get("parameters", []))
    )
    assert keyed == sorted(
        [
            ("/api/games/", "post"),
            ("/api/deals/{number}/solve/", "post"),
            ("/api/accounts/guest/", "post"),
            ("/api/accounts/signup/", "post"),
            ("/api/clubs/", "post"),
            ("/api/clubs/join/", "post"),
            ("/api/clubs/{club_id}/tournaments/", "post"),
            ("/api/tournaments/{tournament_id}/join/", "post"),
            ("/api/tournaments/{tournament_id}/games/", "post"),
            ("/api/fair-play/voids/", "post"),
        ]
    )
    for path, method in keyed:
        responses = schema["paths"][path][method]["responses"]
        created = next(answer for status, answer in responses.items() if status.startswith("2"))
        assert "Idempotent-Replayed" in created["headers"]
        # each status's body is the union of its codes, by `code`
        for status, code in (
            ("400", "bad_idempotency_key"),
            ("409", "idempotency_key_in_flight"),
            ("422", "idempotency_key_reused"),
        ):
            body = responses[status]["content"]["application/json"]["schema"]
            assert code in body.get("discriminator", {}).get("mapping", {code: None}), (path, method, status)
            assert f"`{code}`" in responses[status]["description"], (path, method, status)
        assert "Retry-After" in responses["409"]["headers"], (path, method)


def test_a_void_retried_by_staff_is_made_once(staff, player):
    from leaderboards.fair_play.models import Void

    staff_client = client_for(staff)
    body = {"player": player.pk, "reason": "a ring of accounts"}
    first = staff_client.post("/api/fair-play/voids/", body, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    again = staff_client.post("/api/fair-play/voids/", body, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert first.status_code == again.status_code == 201 and again.json() == first.json()
    assert Void.objects.count() == 1
    unkeyed = staff_client.post("/api/fair-play/voids/", body, format="json")
    assert unkeyed.status_code == 409 and unkeyed.json()["code"] == "already_void"
