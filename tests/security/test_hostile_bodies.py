"""Bodies a hostile client sends, each the request that used to get through (or to crash the server)
and the answer it gets now: the API reads JSON alone, bounded in size and in depth before it is
parsed, and a browser's session log-in is checked for CSRF like every other session write."""

import json

import pytest
from django.conf import settings as django_settings
from rest_framework.test import APIClient

from games.models import Game
from tests.support import client_for

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-phrase"


def code_of(response) -> tuple[int, str]:
    return response.status_code, response.json()["code"]


def signed_up(username: str = "victim") -> None:
    response = APIClient().post("/api/accounts/signup/", {"username": username, "password": PASSWORD}, format="json")
    assert response.status_code == 201


def test_json_nested_past_the_limit_is_refused_before_it_is_parsed():
    """Old hole: ``"[" * 100000`` as the log-in body drove the JSON decoder into Python's recursion limit,
    an HTML 500. A body that size is over the size limit now (413, unread); one within the size limit but
    nested past ``PYRAMID_API_MAX_JSON_DEPTH`` is a 400 ``malformed_body``."""
    client = APIClient()
    huge = client.post("/api/accounts/login/", "[" * 100_000, content_type="application/json")
    assert code_of(huge) == (413, "body_too_large") and huge["Content-Type"] == "application/json"
    depth = django_settings.PYRAMID_API_MAX_JSON_DEPTH
    for body in (
        "[" * 60_000,
        "[" * (depth + 1) + "]" * (depth + 1),
        '{"username": ' + '{"a": ' * depth + "1" + "}" * (depth + 1),
    ):
        refused = client.post("/api/accounts/login/", body, content_type="application/json")
        assert code_of(refused) == (400, "malformed_body") and "deeper" in refused.json()["message"]


def test_json_just_within_the_depth_limit_is_read(player):
    depth = django_settings.PYRAMID_API_MAX_JSON_DEPTH
    nested = "[" * (depth - 1) + "]" * (depth - 1)  # the object around it is one level more
    answer = client_for(player).post("/api/games/", f'{{"rules": {nested}}}', content_type="application/json")
    # read, and refused by the body's checks for what it says, not for how it is nested
    assert code_of(answer) == (400, "invalid") and "rules" in answer.json()["fields"]
    # brackets inside a string are text, not depth
    text = json.dumps({"rules": "[" * 150})
    assert code_of(client_for(player).post("/api/games/", text, content_type="application/json")) == (400, "bad_rules")


def test_a_body_over_the_size_limit_is_413_and_one_at_the_limit_is_read(player):
    limit = django_settings.PYRAMID_API_MAX_BODY_BYTES
    api = client_for(player)

    def padded(size: int) -> str:
        start = '{"number": 7, "rules": "one-look", "pad": "'
        return start + "x" * (size - len(start) - 2) + '"}'

    assert len(padded(limit)) == limit
    over = api.post("/api/games/", padded(limit + 1), content_type="application/json")
    assert code_of(over) == (413, "body_too_large") and not Game.objects.exists()
    at_limit = api.post("/api/games/", padded(limit), content_type="application/json")
    assert at_limit.status_code == 201 and Game.objects.get().deal.number == 7


@pytest.mark.parametrize("path", ["/api/accounts/login/", "/api/accounts/signup/", "/api/games/"])
def test_form_and_multipart_bodies_are_415(path, player):
    """Old: every DRF parser was on, so HTML forms (form-encoded, multipart) reached the views."""
    api = client_for(player)
    form = api.post(
        path, f"username=eve&password={PASSWORD}&number=7", content_type="application/x-www-form-urlencoded"
    )
    multipart = api.post(path, {"username": "eve", "password": PASSWORD, "number": 7}, format="multipart")
    for answer in (form, multipart):
        assert code_of(answer) == (415, "unsupported_media_type")
    assert not Game.objects.exists() and not api.cookies.get("sessionid")


def test_a_form_log_in_from_a_foreign_origin_logs_nobody_in():
    """Old hole: a page anywhere could post a form to the session log-in (no CSRF token, a foreign
    Origin) and log the browser in to an account of the attacker's choosing (login CSRF)."""
    signed_up()
    browser = APIClient(enforce_csrf_checks=True)
    answer = browser.post(
        "/api/accounts/session/",
        f"username=victim&password={PASSWORD}",
        content_type="application/x-www-form-urlencoded",
        HTTP_ORIGIN="https://evil.example",
    )
    assert code_of(answer) == (415, "unsupported_media_type")
    assert "sessionid" not in browser.cookies and browser.get("/api/accounts/me/").status_code == 401


def test_the_session_log_in_checks_csrf():
    signed_up()
    browser = APIClient(enforce_csrf_checks=True)
    body = {"username": "victim", "password": PASSWORD}
    no_token = browser.post("/api/accounts/session/", body, format="json")
    assert no_token.status_code == 403 and no_token.json()["code"] == "forbidden"
    assert "CSRF" in no_token.json()["message"] and "sessionid" not in browser.cookies
    assert browser.get("/").status_code == 200  # the web page hands out the csrftoken cookie
    token = browser.cookies["csrftoken"].value
    # the right token, sent from another site's page: refused by its Origin
    foreign = browser.post(
        "/api/accounts/session/", body, format="json", HTTP_X_CSRFTOKEN=token, HTTP_ORIGIN="https://evil.example"
    )
    assert foreign.status_code == 403 and "sessionid" not in browser.cookies
    logged_in = browser.post("/api/accounts/session/", body, format="json", HTTP_X_CSRFTOKEN=token)
    assert logged_in.status_code == 200 and browser.get("/api/accounts/me/").json()["username"] == "victim"


def test_djangos_own_csrf_refusal_is_json():
    """A CSRF failure outside DRF (the admin's log-in form) answers in the API's error shape."""
    answer = APIClient(enforce_csrf_checks=True).post(
        "/admin/login/", "username=x&password=y", content_type="application/x-www-form-urlencoded"
    )
    assert code_of(answer) == (403, "csrf_failed") and "X-CSRFToken" in answer.json()["message"]
