"""Guest accounts: a visitor plays at once (``POST /api/accounts/guest/``), throttled per address; signing up
with the guest's token names that same account and keeps its games, results, streak, board places and clubs;
guests show on the boards under their ``guest-`` name; they may not found clubs or tournaments; the names,
the forged requests and the odd ones."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

import engine
from games.services.deals import deal_get_or_create, deal_solve
from leaderboards.models import Membership
from pyramid_site.accounts import services
from pyramid_site.accounts.models import Guest
from pyramid_site.api.authentication import CachedTokenAuthentication
from pyramid_site.token_revocations import revocation_announce
from tests.support import PAR, WINNABLE_ONE_LOOK, WINNING_LINE, UserFactory, client_for, daily_game, make_daily

PRACTICE_NUMBER = 46  # a one-look deal the solver wins in a few milliseconds

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-phrase"
GUEST_NAME = re.compile(r"^guest-[0-9a-z]{8}$")
User = get_user_model()


def new_guest(**headers) -> tuple[APIClient, dict]:
    """A guest made through the API, and a client that holds its token as the web page does."""
    answer = APIClient().post("/api/accounts/guest/", **headers)
    assert answer.status_code == 201, answer.json()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {answer.json()['token']}")
    return client, answer.json()


def sign_up(client, username, password=PASSWORD, **extra):
    return client.post("/api/accounts/signup/", {"username": username, "password": password, **extra}, format="json")


def play_practice_to_the_end(client, number: int = WINNABLE_ONE_LOOK) -> dict:
    """A practice game of ``number`` under one-look, won by the solver's line."""
    rules = engine.preset("one-look")
    line = (
        WINNING_LINE
        if number == WINNABLE_ONE_LOOK
        else deal_solve(deal_id=deal_get_or_create(number=number, rules=rules).pk).solution.split()
    )
    game = client.post("/api/games/", {"number": str(number), "rules": "one-look"}, format="json").json()
    for ply, move in enumerate(line, start=1):
        answer = client.post(f"/api/games/{game['id']}/moves/", {"ply": ply, "move": move}, format="json")
        assert answer.status_code == 201, answer.json()
    return answer.json()


def play_daily(client, daily) -> dict:
    game = client.post("/api/games/", {"daily": daily.pk}, format="json")
    assert game.status_code == 201, game.json()
    for ply, move in enumerate(WINNING_LINE, start=1):
        answer = client.post(f"/api/games/{game.json()['id']}/moves/", {"ply": ply, "move": move}, format="json")
    return answer.json()


@pytest.fixture
def rates(settings):
    def set_rates(**scopes: str) -> None:
        current = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
        settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {"DEFAULT_THROTTLE_RATES": current | scopes}

    return set_rates


# --- made on the first game ---------------------------------------------------------------------------


def test_a_visitor_gets_a_guest_account_and_a_token_that_plays():
    client, guest = new_guest()
    assert GUEST_NAME.fullmatch(guest["username"]) and guest["guest"] is True and guest["email"] == ""
    me = client.get("/api/accounts/me/").json()
    assert me == {key: guest[key] for key in ("id", "username", "email", "date_joined", "guest", "language")}
    row = Guest.objects.get(user_id=guest["id"])
    assert row.name == guest["username"] and row.signed_up_at is None
    user = User.objects.get(pk=guest["id"])
    assert not user.has_usable_password() and not user.is_staff and Token.objects.get(user=user).key == guest["token"]
    game = client.post("/api/games/", {"number": 7, "rules": "one-look"}, format="json")
    assert game.status_code == 201 and game.json()["mode"] == "practice"
    # two visitors, two accounts
    _, second = new_guest()
    assert second["id"] != guest["id"] and second["username"] != guest["username"]


def test_a_guest_request_takes_no_body_and_refuses_what_it_would_not_read():
    users = User.objects.count()
    sent = APIClient().post(
        "/api/accounts/guest/", {"username": "admin", "is_staff": True, "password": "x"}, format="json"
    )
    assert sent.status_code == 400 and sent.json()["code"] == "invalid"
    assert set(sent.json()["fields"]) == {"username", "is_staff", "password"}  # each field sent is named
    assert "sign up" in sent.json()["message"]
    listed = APIClient().post("/api/accounts/guest/", [], format="json")
    assert listed.status_code == 400 and listed.json()["code"] == "malformed_body"
    assert User.objects.count() == users  # nobody was made
    for body in ({}, None):  # nothing, or an empty object: a guest and nothing more
        answer = APIClient().post("/api/accounts/guest/", body, format="json")
        assert answer.status_code == 201 and GUEST_NAME.fullmatch(answer.json()["username"])
        assert not User.objects.get(pk=answer.json()["id"]).is_staff


def test_nobody_logs_in_to_a_guest_account_with_a_password():
    _, guest = new_guest()
    for password in ("", "!", guest["token"], guest["username"]):
        refused = APIClient().post(
            "/api/accounts/login/", {"username": guest["username"], "password": password or "x"}, format="json"
        )
        assert refused.status_code == 401 and refused.json()["code"] == "bad_credentials"


def test_someone_logged_in_is_not_made_a_guest():
    client, _guest = new_guest()
    again = client.post("/api/accounts/guest/")
    assert again.status_code == 409 and again.json()["code"] == "already_logged_in"
    named = client_for(UserFactory()).post("/api/accounts/guest/")
    assert named.status_code == 409 and named.json()["code"] == "already_logged_in"
    forged = APIClient().post("/api/accounts/guest/", HTTP_AUTHORIZATION="Bearer not-a-token")
    assert forged.status_code == 401 and forged.json()["code"] == "authentication_failed"
    assert Guest.objects.count() == 1


def test_guest_accounts_are_throttled_per_client_address(rates):
    rates(guest="3/hour")
    assert [APIClient().post("/api/accounts/guest/").status_code for _ in range(3)] == [201] * 3
    refused = APIClient().post("/api/accounts/guest/")
    assert refused.status_code == 429
    body = refused.json()
    assert body["code"] == "throttled" and body["retry_after_seconds"] > 0 and "token" not in body
    assert int(refused["Retry-After"]) > 0
    # no header makes another client of the same socket address
    assert APIClient().post("/api/accounts/guest/", HTTP_X_FORWARDED_FOR="203.0.113.9").status_code == 429
    # another address has its own allowance
    assert APIClient().post("/api/accounts/guest/", REMOTE_ADDR="198.51.100.7").status_code == 201
    assert Guest.objects.count() == 4


def test_a_browser_on_the_page_is_checked_for_csrf_and_gets_a_session_too():
    browser = APIClient(enforce_csrf_checks=True)
    assert browser.get("/").status_code == 200  # the page hands out the csrftoken cookie
    forged = browser.post("/api/accounts/guest/")  # the cookie without its header: another site's form
    assert forged.status_code == 403 and forged.json()["code"] == "forbidden" and "CSRF" in forged.json()["message"]
    assert Guest.objects.count() == 0 and "sessionid" not in browser.cookies
    made = browser.post("/api/accounts/guest/", HTTP_X_CSRFTOKEN=browser.cookies["csrftoken"].value)
    assert made.status_code == 201 and "sessionid" in browser.cookies
    assert browser.get("/api/accounts/me/").json()["username"] == made.json()["username"]
    # an API client (no cookie at all) gets the token alone
    client = APIClient(enforce_csrf_checks=True)
    assert client.post("/api/accounts/guest/").status_code == 201 and "sessionid" not in client.cookies


def test_a_taken_guest_name_is_drawn_again(monkeypatch):
    UserFactory(username="Guest-AAAAAAAA")  # an account named so before the names were kept for guests
    names = iter(["guest-aaaaaaaa", "guest-bbbbbbbb"])
    monkeypatch.setattr(services, "new_guest_name", lambda: next(names))
    user, _ = services.guest_create()
    assert user.username == "guest-bbbbbbbb" and Guest.objects.get(user=user).name == "guest-bbbbbbbb"
    assert User.objects.filter(username__istartswith="guest-").count() == 2


def test_the_database_keeps_guest_rows_to_their_shape():
    user = UserFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Guest.objects.create(user=user, name="alice")  # not a name the server gives
    now = timezone.now()
    with pytest.raises(IntegrityError), transaction.atomic():
        Guest.objects.create(user=user, name="guest-abcdefgh", created_at=now, signed_up_at=now - dt.timedelta(1))
    Guest.objects.create(user=user, name="guest-abcdefgh", created_at=now)
    with pytest.raises(IntegrityError), transaction.atomic():
        Guest.objects.create(user=UserFactory(), name="guest-abcdefgh")  # one account per name


# --- signing up keeps everything ----------------------------------------------------------------------


def test_signing_up_names_the_guest_account_and_keeps_games_results_streak_places_and_clubs():
    client, guest = new_guest()
    # another deal than the daily's: a practice game of a number that turns daily is hidden until the day is over
    practice = play_practice_to_the_end(client, number=PRACTICE_NUMBER)
    daily = make_daily()
    ranked = play_daily(client, daily)
    assert practice["status"] == "won" and ranked["status"] == "won" and ranked["moves"] == PAR
    rival = UserFactory()
    daily_game(rival, daily, 4)  # resigned after 4 moves: below the guest on the board
    owner = client_for(UserFactory())
    club = owner.post("/api/clubs/", {"name": "Tuesday"}, format="json").json()
    assert client.post("/api/clubs/join/", {"invite_code": club["invite_code"]}, format="json").status_code == 201
    board_url = f"/api/boards/daily/{daily.date.isoformat()}/one-look/"
    before = client.get(board_url).json()
    assert [row["player"]["username"] for row in before["top"]] == [guest["username"], rival.username]
    token = guest["token"]

    named = sign_up(client, "Cleopatra", email="cleo@example.org")
    assert named.status_code == 200, named.json()
    body = named.json()
    assert body["id"] == guest["id"] and body["username"] == "Cleopatra" and body["guest"] is False
    assert body["token"] == token and body["email"] == "cleo@example.org"
    assert body["date_joined"] == guest["date_joined"]  # the account's start is when the guest first played
    assert User.objects.count() == 3 and Guest.objects.get(user_id=guest["id"]).signed_up_at is not None

    # the same token goes on working, now for the named account
    assert client.get("/api/accounts/me/").json()["username"] == "Cleopatra"
    games = client.get("/api/games/").json()
    assert [(g["id"], g["mode"], g["status"]) for g in games["results"]] == [
        (ranked["id"], "ranked", "won"),
        (practice["id"], "practice", "won"),
    ]
    page = client.get("/api/players/Cleopatra/").json()
    assert page["player"]["id"] == guest["id"] and page["stats"]["played"] == 1 and page["stats"]["won"] == 1
    assert page["streak"]["current"] == 1 and [r["game"] for r in page["history"]] == [ranked["id"]]
    assert [c["id"] for c in page["clubs"]] == [club["id"]]
    after = client.get(board_url).json()
    assert [(row["rank"], row["player"]["username"]) for row in after["top"]] == [(1, "Cleopatra"), (2, rival.username)]
    assert after["me"]["game"] == ranked["id"]
    # the guest name is gone; the password now opens the account
    assert client.get(f"/api/players/{guest['username']}/").json()["code"] == "player_not_found"
    login = APIClient().post("/api/accounts/login/", {"username": "cleopatra", "password": PASSWORD}, format="json")
    assert login.status_code == 200 and login.json()["token"] == token and login.json()["id"] == guest["id"]
    # a ranked deal stays played once
    again = client.post("/api/games/", {"daily": daily.pk}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "already_played"


def test_every_process_sees_the_new_name_at_once(settings):
    settings.PYRAMID_TOKEN_CACHE_SECONDS = 300  # the process remembers the token and its account
    client, guest = new_guest()
    assert client.get("/api/accounts/me/").json()["username"] == guest["username"]
    assert guest["token"] in CachedTokenAuthentication._known
    assert sign_up(client, "quickly").status_code == 200
    me = client.get("/api/accounts/me/").json()
    assert me["username"] == "quickly" and me["guest"] is False
    club = client.post("/api/clubs/", {"name": "Quick club"}, format="json")
    assert club.status_code == 201  # no longer a guest, in this process either


def test_a_refused_sign_up_leaves_the_guest_as_it_was():
    UserFactory(username="Taken")
    client, guest = new_guest()
    for username, password, status, code, field in [
        ("taken", PASSWORD, 409, "username_taken", None),
        ("TAKEN", PASSWORD, 409, "username_taken", None),
        ("fine-name", "123", 400, "invalid", "password"),
        ("no spaces here", PASSWORD, 400, "invalid", "username"),
        (guest["username"], PASSWORD, 400, "invalid", "username"),
    ]:
        refused = sign_up(client, username, password)
        assert (refused.status_code, refused.json()["code"]) == (status, code), username
        if field:
            assert field in refused.json()["fields"], username
    me = client.get("/api/accounts/me/").json()
    assert me["username"] == guest["username"] and me["guest"] is True
    assert not User.objects.get(pk=guest["id"]).has_usable_password()


@pytest.mark.parametrize("username", ["guest-abc", "GUEST-x1y2", "Guest-Someone", "ｇｕｅｓｔ-abcd", "guest-abcdefgh"])
def test_nobody_signs_up_with_a_guest_name(username):
    refused = sign_up(APIClient(), username)
    assert refused.status_code == 400 and refused.json()["code"] == "invalid" and "username" in refused.json()["fields"]
    assert "guest" in refused.json()["fields"]["username"][0]
    assert not User.objects.exists()


@pytest.mark.parametrize("username", ["guest", "guests", "guest_1", "guest.house", "myguest-1"])
def test_names_near_the_guest_names_are_anyones(username):
    assert sign_up(APIClient(), username).status_code == 201


def test_a_named_account_signing_up_makes_another_account_and_a_guest_signs_up_once():
    player = UserFactory()
    made = sign_up(client_for(player), "second")
    assert made.status_code == 201 and made.json()["id"] != player.pk
    player.refresh_from_db()
    assert player.username != "second"
    client, guest = new_guest()
    assert sign_up(client, "first-name").status_code == 200
    # the sign-up form sent again (a second click, a retry) names nothing and makes nothing
    again = sign_up(client, "other-name")
    assert again.status_code == 409 and again.json()["code"] == "already_signed_up"
    assert User.objects.get(pk=guest["id"]).username == "first-name"
    assert not User.objects.filter(username="other-name").exists()


def test_a_sign_up_with_a_forged_or_revoked_token_is_refused_and_makes_nothing():
    _client, guest = new_guest()
    # a guest cannot revoke its own token (sign_up_first); the admin deleting it is the way left
    Token.objects.filter(user_id=guest["id"]).delete()
    revocation_announce()
    for header in ("Bearer " + guest["token"], "Bearer forged", "Token " + "0" * 40):
        refused = APIClient().post(
            "/api/accounts/signup/",
            {"username": "sneaky", "password": PASSWORD},
            format="json",
            HTTP_AUTHORIZATION=header,
        )
        assert refused.status_code == 401 and refused.json()["code"] == "authentication_failed", header
    assert not User.objects.filter(username="sneaky").exists()
    assert Guest.objects.get(user_id=guest["id"]).signed_up_at is None


def test_a_session_guest_signs_up_and_stays_logged_in():
    browser = APIClient(enforce_csrf_checks=True)
    browser.get("/")
    made = browser.post("/api/accounts/guest/", HTTP_X_CSRFTOKEN=browser.cookies["csrftoken"].value).json()
    csrf = browser.cookies["csrftoken"].value  # the log-in gave the session a fresh one
    without = browser.post("/api/accounts/signup/", {"username": "sessioned", "password": PASSWORD}, format="json")
    assert without.status_code == 403 and without.json()["code"] == "forbidden"
    named = browser.post(
        "/api/accounts/signup/", {"username": "sessioned", "password": PASSWORD}, format="json", HTTP_X_CSRFTOKEN=csrf
    )
    assert named.status_code == 200 and named.json()["id"] == made["id"]
    me = browser.get("/api/accounts/me/")  # the password changed, and the session goes on under it
    assert me.status_code == 200 and me.json()["username"] == "sessioned"


# --- what guests may not do, and the boards -----------------------------------------------------------


def test_guests_play_and_join_but_found_no_club_or_tournament():
    client, guest = new_guest()
    club = client.post("/api/clubs/", {"name": "Guests' club"}, format="json")
    assert club.status_code == 403 and club.json()["code"] == "guest_not_allowed"
    owner = client_for(UserFactory())
    real = owner.post("/api/clubs/", {"name": "Real club"}, format="json").json()
    assert client.post("/api/clubs/join/", {"invite_code": real["invite_code"]}, format="json").status_code == 201
    promote = owner.patch(f"/api/clubs/{real['id']}/members/{guest['id']}/", {"role": "admin"}, format="json")
    assert promote.status_code == 403 and promote.json()["code"] == "guest_not_allowed"
    hand_over = owner.patch(f"/api/clubs/{real['id']}/members/{guest['id']}/", {"role": "owner"}, format="json")
    assert hand_over.status_code == 403 and hand_over.json()["code"] == "guest_not_allowed"
    assert Membership.objects.get(club_id=real["id"], user_id=guest["id"]).role == "member"
    now = timezone.now()
    cup = client.post(
        f"/api/clubs/{real['id']}/tournaments/",
        {
            "name": "Cup",
            "rules": "one-look",
            "format": "match",
            "starts_at": now.isoformat(),
            "ends_at": (now + dt.timedelta(hours=2)).isoformat(),
        },
        format="json",
    )
    assert cup.status_code == 403 and cup.json()["code"] == "guest_not_allowed"
    assert sign_up(client, "founder").status_code == 200
    assert client.post("/api/clubs/", {"name": "Guests' club"}, format="json").status_code == 201
    assert (
        owner.patch(f"/api/clubs/{real['id']}/members/{guest['id']}/", {"role": "admin"}, format="json").status_code
        == 200
    )


def test_guests_show_on_the_boards_under_their_guest_name():
    daily = make_daily()
    client, guest = new_guest()
    play_daily(client, daily)
    viewer = client_for(UserFactory())
    board = viewer.get(f"/api/boards/daily/{daily.date.isoformat()}/one-look/").json()
    assert [(row["rank"], row["player"]["username"]) for row in board["top"]] == [(1, guest["username"])]
    weekly = viewer.get("/api/boards/weekly/", {"preset": "one-look"}).json()
    assert [row["player"]["username"] for row in weekly["results"]] == [guest["username"]]
    page = viewer.get(f"/api/players/{guest['username']}/").json()
    assert page["stats"]["played"] == 1 and page["streak"]["current"] == 1


def test_my_games_are_mine_alone_and_hide_a_ranked_deal_in_its_day():
    daily = make_daily()
    client, _guest = new_guest()
    play_daily(client, daily)
    other = client_for(UserFactory())
    other.post("/api/games/", {"number": 5, "rules": "classic"}, format="json")
    mine = client.get("/api/games/").json()
    assert mine["count"] == 1 and mine["results"][0]["daily"]["id"] == daily.pk
    assert mine["results"][0]["deal"]["number"] is None and mine["results"][0]["deal"]["number_text"] is None
    assert other.get("/api/games/").json()["results"][0]["deal"]["number"] == 5
    assert APIClient().get("/api/games/").status_code == 401


# --- operators ---------------------------------------------------------------------------------------


def test_idle_guests_are_deleted_and_guests_who_played_are_kept(capsys):
    old = timezone.now() - dt.timedelta(days=40)
    idle, _ = services.guest_create()
    played, _ = services.guest_create()
    fresh, _ = services.guest_create()
    named, _ = services.guest_create()
    Guest.objects.filter(user__in=[idle, played, named]).update(created_at=old)
    client_for(played).post("/api/games/", {"number": 7, "rules": "one-look"}, format="json")
    services.guest_sign_up(user=named, username="stays", password=PASSWORD)
    call_command("delete_idle_guests", "--days", "30")
    assert "1 idle guest account deleted" in capsys.readouterr().out
    assert set(User.objects.values_list("pk", flat=True)) == {played.pk, fresh.pk, named.pk}
    assert not Token.objects.filter(user_id=idle.pk).exists()
