"""Doors closed: every log-in route throttled by address and by the account's canonical name, no browsable
API, no HTML and no 500 for a format, an Accept header, a NUL byte or a date at the calendar's end, and
``/metrics`` only to its bearer token. Each test is a request that used to get through (or fail with a 500)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from tests.support import UserFactory, client_for

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-phrase"
User = get_user_model()


@pytest.fixture
def rates(settings):
    def set_rates(**scopes: str) -> None:
        current = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
        settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {"DEFAULT_THROTTLE_RATES": current | scopes}

    return set_rates


def test_sixty_wrong_admin_passwords_then_the_right_one_meet_the_throttle():
    """Old hole: /admin/login/ took 60 wrong passwords and then logged the right one in."""
    User.objects.create_superuser("root", "root@example.org", PASSWORD)
    browser = Client()
    codes = [
        browser.post("/admin/login/", {"username": "root", "password": f"guess{i}"}).status_code for i in range(60)
    ]
    assert codes[:30] == [200] * 30 and set(codes[30:]) == {429}  # the form again, then PYRAMID_THROTTLE_LOGIN
    right = browser.post("/admin/login/", {"username": "root", "password": PASSWORD})
    assert right.status_code == 429 and right.json()["code"] == "throttled" and right.json()["retry_after_seconds"] > 0
    assert "_auth_user_id" not in browser.session


def test_admin_guesses_spread_over_addresses_and_spellings_meet_the_per_account_limit(rates):
    rates(login="3/min")
    User.objects.create_superuser("root", "root@example.org", PASSWORD)
    spellings = ["root", "ROOT", "r\u043eot", "r0ot"]  # Cyrillic о, digit zero: the same canonical name
    codes = [
        Client(REMOTE_ADDR=f"192.0.2.{i}").post("/admin/login/", {"username": name, "password": "x"}).status_code
        for i, name in enumerate(spellings)
    ]
    assert codes == [200, 200, 200, 429]
    assert Client().get("/admin/login/").status_code == 200  # the page itself still shows


def test_the_browsable_apis_log_in_is_gone():
    for method in ("get", "post"):
        answer = getattr(APIClient(), method)("/api-auth/login/")
        assert answer.status_code == 404 and answer.json()["code"] == "not_found"


@pytest.mark.parametrize("path", ["/api/accounts/login/", "/api/accounts/session/"])
def test_a_look_alike_spelling_is_no_fresh_allowance(rates, path):
    """Old hole: the throttle's key was casefold while the database compared UPPER: ``alıce`` (dotless ı)
    guessed again at ``alice``'s password with a fresh allowance."""
    rates(login="3/min")
    UserFactory(username="alice")
    spellings = ["alice", "al\u0131ce", "\u0430lice", "ALICE"]
    codes = [
        APIClient(REMOTE_ADDR=f"198.51.100.{i}")
        .post(path, {"username": name, "password": "x"}, format="json")
        .status_code
        for i, name in enumerate(spellings)
    ]
    assert codes == [401, 401, 401, 429]


def test_a_username_that_is_not_text_is_refused_and_counted_by_address(rates):
    """Old hole: ``{"username": 123}`` was read as the name "123" and skipped the per-name throttle."""
    rates(login="3/min")
    User.objects.create_user("123", password=PASSWORD)
    client = APIClient()
    for username in (123, ["alice"], {"a": 1}):
        refused = client.post("/api/accounts/login/", {"username": username, "password": PASSWORD}, format="json")
        assert refused.status_code == 400 and refused.json()["code"] == "invalid", username
        assert "username" in refused.json()["fields"]
    throttled = client.post("/api/accounts/login/", {"username": "123", "password": PASSWORD}, format="json")
    assert throttled.status_code == 429  # the three refusals were counted against this address


@pytest.mark.parametrize("path", ["/api/accounts/login/", "/api/accounts/session/", "/api/accounts/signup/"])
def test_a_lone_surrogate_in_a_username_is_a_400(path):
    """Old hole: ``"\\ud800"`` in the log-in's username was a 500 (the throttle's hash could not encode it)."""
    answer = Client().post(
        path, '{"username": "a\\ud800b", "password": "a-long-pass-phrase"}', content_type="application/json"
    )
    assert answer.status_code == 400 and answer.json()["code"] == "invalid"


@pytest.mark.parametrize(
    "query, accept",
    [
        ("?format=api", None),
        ("?format=zzz", None),
        ("?format=json", None),
        ("", "text/html"),
        ("?format=api", "text/html,*/*;q=0.8"),
    ],
)
@pytest.mark.parametrize("logged_in", [False, True])
def test_no_format_or_accept_header_gets_html_or_a_500(query, accept, logged_in):
    """Old holes: ``?format=zzz`` was a 500 on every route (anonymous too); ``?format=api`` and
    ``Accept: text/html`` answered the browsable API's HTML page."""
    client = client_for(UserFactory()) if logged_in else APIClient()
    headers = {"HTTP_ACCEPT": accept} if accept else {}
    for path in ("/api/daily/", "/api/games/", "/api/clubs/", "/api/boards/all-time/", "/api/accounts/me/"):
        answer = client.get(path + query, **headers)
        assert answer.status_code < 500, path
        assert answer["Content-Type"].startswith("application/json"), (path, answer["Content-Type"])
        if accept == "text/html":
            assert answer.status_code == 406 and answer.json()["code"] == "not_acceptable"


@pytest.mark.parametrize(
    "path",
    [
        "/api/players/a%00b/",
        "/api/players/a%00b/stats/",
        "/api/daily/?x=a%00b",
        "/api/boards/weekly/?preset=cl%00assic",
        "/api/boards/all-time/?preset=%00",
        "/api/clubs/?%00=1",
        "/api/dai%00ly/",
    ],
)
def test_a_nul_byte_in_the_address_is_a_400(path):
    """Old hole: a NUL reached PostgreSQL, which refuses it in text: a 500."""
    answer = client_for(UserFactory()).get(path)
    assert answer.status_code == 400 and answer.json()["code"] == "bad_request", path


@pytest.mark.parametrize(
    "path",
    [
        "/api/boards/weekly/?week=9999-12-27",
        "/api/boards/weekly/?week=9999-12-31",
        "/api/daily/9999-12-31/",
        "/api/boards/daily/9999-12-31/classic/",
        "/api/boards/weekly/?week=0001-01-01",
    ],
)
def test_a_date_at_the_calendars_end_is_a_400(path):
    """Old hole: the week of 9999-12-27 ends past the last date Python has: a 500."""
    answer = client_for(UserFactory()).get(path)
    assert answer.status_code == 400 and answer.json()["code"] == "bad_date", path


def test_metrics_answer_their_bearer_token_alone(settings):
    settings.DEBUG = False
    settings.PYRAMID_METRICS_TOKEN = ""
    refused = APIClient().get("/metrics")  # no token set in production: nobody reads them
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    settings.PYRAMID_METRICS_TOKEN = "s3cret-scraper-token"
    for header in (
        {},
        {"HTTP_AUTHORIZATION": "Bearer wrong"},
        {"HTTP_AUTHORIZATION": "s3cret-scraper-token"},
        {"HTTP_AUTHORIZATION": f"Token {client_token()}"},
    ):
        answer = APIClient().get("/metrics", **header)
        assert answer.status_code == 401 and answer.json()["code"] == "not_authenticated", header
        assert answer["WWW-Authenticate"].startswith("Bearer")
    scraped = APIClient().get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-scraper-token")
    assert scraped.status_code == 200 and b"pyramid_requests_total" in scraped.content
    settings.DEBUG, settings.PYRAMID_METRICS_TOKEN = True, ""
    assert APIClient().get("/metrics").status_code == 200  # development: open without a token


def client_token() -> str:
    from rest_framework.authtoken.models import Token

    return Token.objects.create(user=UserFactory(is_staff=True)).key


@pytest.mark.parametrize("query", ["?format=json", "?format=zzz&x=1", "?format=api"])
def test_the_schema_keeps_its_own_formats_and_no_format_is_a_500(query):
    answer = APIClient().get("/api/schema/" + query)
    assert answer.status_code == 200
    if query == "?format=json":
        assert answer.json()["info"]["title"] == "Pyramid API"
    else:
        assert answer.content.startswith(b"openapi:")  # the YAML it answers by default
    html_only = APIClient().get("/api/schema/", HTTP_ACCEPT="text/html")
    assert html_only.status_code == 200 and html_only["Content-Type"].startswith("application/json")
    assert html_only.json()["info"]["title"] == "Pyramid API"
