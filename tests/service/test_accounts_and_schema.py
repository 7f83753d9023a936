"""Accounts (sign up, token and session log-in, who am I, throttles) and the OpenAPI schema."""

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def signup(client, username="alice", password="a-long-pass-phrase"):
    return client.post("/api/accounts/signup/", {"username": username, "password": password}, format="json")


def test_signup_gives_a_token_that_works():
    client = APIClient()
    response = signup(client)
    assert response.status_code == 201
    token = response.json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    me = client.get("/api/accounts/me/")
    assert me.status_code == 200 and me.json()["username"] == "alice"


def test_signup_refusals():
    client = APIClient()
    signup(client)
    taken = signup(client, username="ALICE")
    assert taken.status_code == 409 and taken.json()["code"] == "username_taken"
    weak = signup(client, username="bob", password="123")
    assert weak.status_code == 400 and weak.json()["code"] == "invalid" and "password" in weak.json()["fields"]
    bad_name = signup(client, username="no spaces allowed")
    assert bad_name.status_code == 400 and "username" in bad_name.json()["fields"]


def test_token_login():
    client = APIClient()
    token = signup(client).json()["token"]
    response = client.post("/api/accounts/login/", {"username": "alice", "password": "a-long-pass-phrase"}, format="json")
    assert response.status_code == 200 and response.json()["token"] == token
    wrong = client.post("/api/accounts/login/", {"username": "alice", "password": "nope"}, format="json")
    assert wrong.status_code == 401 and wrong.json()["code"] == "bad_credentials"


def test_session_login_for_the_web_page():
    client = APIClient()
    signup(client)
    response = client.post("/api/accounts/session/", {"username": "alice", "password": "a-long-pass-phrase"},
                           format="json")
    assert response.status_code == 200
    assert client.get("/api/accounts/me/").json()["username"] == "alice"
    client.delete("/api/accounts/session/")
    assert client.get("/api/accounts/me/").status_code in (401, 403)


def test_login_is_throttled(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK,
                               "DEFAULT_THROTTLE_RATES": {"login": "3/min", "signup": "2/min"}}
    from rest_framework.throttling import ScopedRateThrottle

    ScopedRateThrottle.THROTTLE_RATES = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    try:
        client = APIClient()
        codes = [client.post("/api/accounts/login/", {"username": "x", "password": "y"}, format="json").status_code
                 for _ in range(4)]
        assert codes == [401, 401, 401, 429]
        throttled = client.post("/api/accounts/login/", {"username": "x", "password": "y"}, format="json").json()
        assert throttled["code"] == "throttled" and throttled["retry_after_seconds"] > 0
        codes = [signup(client, username=f"user{i}").status_code for i in range(3)]
        assert codes == [201, 201, 429]
    finally:
        from rest_framework.settings import api_settings

        ScopedRateThrottle.THROTTLE_RATES = api_settings.DEFAULT_THROTTLE_RATES


def test_openapi_schema_and_docs_page():
    client = APIClient()
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    for path in ("/api/games/", "/api/games/{game_id}/moves/", "/api/daily/", "/api/accounts/signup/",
                 "/api/games/{game_id}/hint/", "/api/games/{game_id}/log/"):
        assert path in paths, path
    docs = client.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()


def test_unknown_addresses_answer_in_the_error_shape(settings):
    settings.DEBUG = False
    response = APIClient().get("/api/games/99999999999999999999/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"
