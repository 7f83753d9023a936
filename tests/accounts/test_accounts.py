"""Accounts: sign up, token and session log-in, who am I, throttles; passwords stored hashed by Django;
tokens that are revoked stop working at once, and revoking touches only one's own."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import identify_hasher
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from pyramid_site.api.authentication import CachedTokenAuthentication

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-phrase"


def signup(client, username="alice", password=PASSWORD):
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
    response = client.post(
        "/api/accounts/login/", {"username": "alice", "password": "a-long-pass-phrase"}, format="json"
    )
    assert response.status_code == 200 and response.json()["token"] == token
    wrong = client.post("/api/accounts/login/", {"username": "alice", "password": "nope"}, format="json")
    assert wrong.status_code == 401 and wrong.json()["code"] == "bad_credentials"


def test_session_login_for_the_web_page():
    client = APIClient()
    signup(client)
    response = client.post(
        "/api/accounts/session/", {"username": "alice", "password": "a-long-pass-phrase"}, format="json"
    )
    assert response.status_code == 200
    assert client.get("/api/accounts/me/").json()["username"] == "alice"
    client.delete("/api/accounts/session/")
    # token authentication comes first, so no credentials at all is a 401 (with WWW-Authenticate)
    after = client.get("/api/accounts/me/")
    assert after.status_code == 401 and after.json()["code"] == "not_authenticated"
    assert after["WWW-Authenticate"] == 'Bearer realm="api"'


def test_login_is_throttled(settings):
    # the throttles read the rates from the settings as they are now: overriding them is enough
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "login": "3/min",
            "signup": "2/min",
        },
    }
    client = APIClient()
    codes = [
        client.post("/api/accounts/login/", {"username": "x", "password": "y"}, format="json").status_code
        for _ in range(4)
    ]
    assert codes == [401, 401, 401, 429]
    throttled = client.post("/api/accounts/login/", {"username": "x", "password": "y"}, format="json").json()
    assert throttled["code"] == "throttled" and throttled["retry_after_seconds"] > 0
    codes = [signup(client, username=f"user{i}").status_code for i in range(3)]
    assert codes == [201, 201, 429]


def test_passwords_are_stored_hashed_by_django(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]  # Django's default
    assert signup(APIClient(), "hashed").status_code == 201
    user = get_user_model().objects.get(username="hashed")
    assert PASSWORD not in user.password and identify_hasher(user.password).algorithm == "pbkdf2_sha256"
    assert user.check_password(PASSWORD) and not user.check_password(PASSWORD.upper())


def test_a_revoked_token_stops_working_at_once(settings):
    settings.PYRAMID_TOKEN_CACHE_SECONDS = 300  # the process remembers tokens: revoking must outweigh that
    key = signup(APIClient(), "revoker").json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get("/api/accounts/me/").status_code == 200
    assert key in CachedTokenAuthentication._known
    assert client.delete("/api/accounts/token/").status_code == 204
    refused = client.get("/api/accounts/me/")
    assert refused.status_code == 401 and refused.json()["code"] == "authentication_failed"
    assert not Token.objects.filter(key=key).exists()
    assert client.delete("/api/accounts/token/").status_code == 401
    fresh = APIClient().post("/api/accounts/login/", {"username": "revoker", "password": PASSWORD}, format="json")
    assert fresh.status_code == 200 and fresh.json()["token"] != key
    client.credentials(HTTP_AUTHORIZATION=f"Token {fresh.json()['token']}")
    assert client.get("/api/accounts/me/").json()["username"] == "revoker"


def test_revoking_touches_only_ones_own_token():
    mine, theirs = (signup(APIClient(), name).json()["token"] for name in ("mine", "theirs"))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {mine}")
    assert client.delete("/api/accounts/token/").status_code == 204
    assert Token.objects.filter(key=theirs).exists()
    assert APIClient().delete("/api/accounts/token/").status_code == 401


def test_a_lookalike_of_a_taken_username_is_taken():
    """Old hole: ``ＡＬＩＣＥ`` (fullwidth) was another account beside ``Alice``, and shown as the same name.
    Names are NFKC-normalised now, and unique whatever their case."""
    assert signup(APIClient(), "Alice").status_code == 201
    for lookalike in ("ＡＬＩＣＥ", "alice", "ALICE", "Ａｌｉｃｅ"):
        taken = signup(APIClient(), lookalike)
        assert taken.status_code == 409 and taken.json()["code"] == "username_taken", lookalike
    assert get_user_model().objects.count() == 1
    kept = signup(APIClient(), "Ｂｏｂ").json()
    assert kept["username"] == "Bob"


@pytest.mark.parametrize(
    "username, character",
    [
        ("ali\nce", "U+000A"),
        ("ali\u202ece", "U+202E"),
        ("ali\u200bce", "U+200B"),
        ("ali\tce", "U+0009"),
        ("ali\x1bce", "U+001B"),
    ],
)
def test_a_username_with_control_or_invisible_characters_is_refused(username, character):
    """Names go through the one check of names (``clean_name``): a control or invisible character is
    refused, and the answer names it."""
    refused = signup(APIClient(), username)
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"
    assert character in refused.json()["message"]
    assert not get_user_model().objects.exists()


def test_a_refused_username_is_named_in_the_fields():
    refused = signup(APIClient(), "ali\u202ece")
    assert refused.status_code == 400 and "username" in refused.json()["fields"]


def test_usernames_are_unique_whatever_their_case_in_the_database_too():
    from django.db import IntegrityError, transaction

    User = get_user_model()
    User.objects.create_user(username="Carol", password=PASSWORD)
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="CAROL", password=PASSWORD)


def test_log_in_matches_the_username_whatever_its_case():
    token = signup(APIClient(), "Alice").json()["token"]
    for spelling in ("alice", "ALICE", "aLiCe"):
        client = APIClient()
        answer = client.post("/api/accounts/login/", {"username": spelling, "password": PASSWORD}, format="json")
        assert answer.status_code == 200 and answer.json()["token"] == token and answer.json()["username"] == "Alice"


def test_a_token_revoked_elsewhere_stops_working_in_every_process(settings):
    """Old: a token revoked by another process (or through the service) went on working here for as long
    as this process remembered it (``PYRAMID_TOKEN_CACHE_SECONDS``). Revoking bumps a counter in the shared
    cache; a remembered token checked under an older count is checked again."""
    from pyramid_site.accounts import services

    settings.PYRAMID_TOKEN_CACHE_SECONDS = 300
    key = signup(APIClient(), "roamer").json()["token"]
    here = APIClient()
    here.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert here.get("/api/accounts/me/").status_code == 200
    assert key in CachedTokenAuthentication._known  # this process remembers the token
    # "another process": the service revokes without touching this process's memory
    services.token_revoke(user=get_user_model().objects.get(username="roamer"))
    assert key in CachedTokenAuthentication._known
    refused = here.get("/api/accounts/me/")
    assert refused.status_code == 401 and refused.json()["code"] == "authentication_failed"


@pytest.mark.parametrize("path", ["/api/accounts/signup/", "/api/accounts/login/", "/api/accounts/session/"])
def test_a_body_that_is_not_an_object_is_malformed(path):
    """Accounts bodies go through the common checks: ``[]`` is ``malformed_body`` (was ``invalid``)."""
    for body in ([], ["alice", PASSWORD], "alice"):
        refused = APIClient().post(path, body, format="json")
        assert refused.status_code == 400 and refused.json()["code"] == "malformed_body", body


def test_log_in_reads_the_username_as_sign_up_does():
    assert signup(APIClient(), "ＡＬＩＣＥ").json()["username"] == "ALICE"
    answer = APIClient().post("/api/accounts/login/", {"username": "ＡＬＩＣＥ", "password": PASSWORD}, format="json")
    assert answer.status_code == 200 and answer.json()["username"] == "ALICE"


def test_sign_up_says_where_the_new_player_is():
    created = signup(APIClient(), "Ｄａｖｅ")
    assert created.status_code == 201 and created["Location"] == "/api/players/Dave/"
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {created.json()['token']}")
    assert client.get(created["Location"]).json()["player"]["username"] == "Dave"
