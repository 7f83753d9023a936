"""The API's shared plumbing: its OpenAPI schema and docs page, and every error in one shape,
``{"code", "message", ...}`` with a stable code, whatever raised it."""

import datetime as dt

import pytest
from rest_framework.test import APIClient

from tests.support import client_for

pytestmark = pytest.mark.django_db


def test_openapi_schema_and_docs_page():
    client = APIClient()
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    for path in ("/api/games/", "/api/games/{game_id}/moves/", "/api/daily/", "/api/accounts/signup/",
                 "/api/games/{game_id}/hint/", "/api/games/{game_id}/log/", "/api/fair-play/voids/",
                 "/api/fair-play/flags/{flag_id}/review/"):
        assert path in paths, path
    docs = client.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()


def test_unknown_addresses_answer_in_the_error_shape(settings):
    settings.DEBUG = False
    response = APIClient().get("/api/games/99999999999999999999/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_every_kind_of_refusal_has_the_one_shape(player):
    """A service's refusal, a body the serializer refuses, a body that is not JSON, no credentials, a
    method the address does not take, a bad query parameter: each a JSON body with its own stable code."""
    api, anonymous = client_for(player), client_for(None)
    answers = {
        "service": api.get("/api/games/424242/"),
        "serializer": api.post("/api/games/", {"number": -1}, format="json"),
        "not json": api.post("/api/games/", "{not json", content_type="application/json"),
        "not an object": api.post("/api/games/", [1], format="json"),
        "no credentials": anonymous.get("/api/games/424242/"),
        "method": api.delete("/api/daily/"),
        "parameter": api.get("/api/clubs/?limit=x"),
    }
    codes = {name: (answer.status_code, answer.json()["code"]) for name, answer in answers.items()}
    assert codes == {
        "service": (404, "game_not_found"),
        "serializer": (400, "invalid"),
        "not json": (400, "malformed_body"),
        "not an object": (400, "malformed_body"),
        "no credentials": (401, "not_authenticated"),
        "method": (405, "method_not_allowed"),
        "parameter": (400, "bad_parameter"),
    }
    assert all(isinstance(answer.json()["message"], str) and answer.json()["message"] for answer in answers.values())
    assert "number" in answers["serializer"].json()["fields"]


def test_an_error_nobody_foresaw_is_a_json_500_with_the_request_id(player, monkeypatch, caplog):
    """Old: an exception the handler did not know (a bug) fell through to Django's HTML error page.
    Now it is JSON ``server_error`` naming the request's id, which is also on the answer's header, and
    the traceback is logged."""
    from games.api import views

    game = client_for(player).post("/api/games/", {"number": 7, "rules": "one-look"}, format="json").json()

    def bug(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(views, "game_position", bug)
    answer = client_for(player).get(f"/api/games/{game['id']}/")
    assert answer.status_code == 500 and answer["Content-Type"] == "application/json"
    body = answer.json()
    assert body["code"] == "server_error" and body["message"] and body["request_id"] == answer["X-Request-ID"]
    assert "a bug" not in answer.content.decode()  # the reason stays in the log
    logged = [r for r in caplog.records if r.name == "pyramid_site.api.exceptions"]
    assert logged and logged[0].exc_info[0] is RuntimeError and "GameDetailView" in logged[0].getMessage()


def test_djangos_own_error_pages_are_json(settings, monkeypatch):
    """The answers Django gives itself, outside DRF: an unknown address (404), a Host it refuses (400),
    and a view outside DRF that fails (500), each in the API's error shape with its request id."""
    settings.DEBUG = False
    client = APIClient(raise_request_exception=False)
    missing = client.get("/no/such/page/")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found" and missing["X-Request-ID"]
    bad_host = client.get("/api/", HTTP_HOST="not a host!")
    assert bad_host.status_code == 400 and bad_host.json()["code"] == "bad_request"

    def broken(*args, **kwargs):
        raise RuntimeError("the index broke")

    monkeypatch.setattr("pyramid_site.urls.JsonResponse", broken)  # the API index is a plain Django view
    failed = client.get("/api/")
    assert failed.status_code == 500 and failed["Content-Type"] == "application/json"
    assert failed.json()["code"] == "server_error" and failed.json()["request_id"] == failed["X-Request-ID"]


def test_every_answer_carries_a_request_id_of_its_own(player):
    api = client_for(player)
    answers = [api.get("/health/"), api.get("/api/"), api.get("/api/games/424242/"), api.delete("/api/daily/"),
               APIClient().get("/api/accounts/me/"), api.get("/")]
    ids = [answer["X-Request-ID"] for answer in answers]
    assert all(len(i) == 32 and int(i, 16) >= 0 for i in ids) and len(set(ids)) == len(ids)


def test_the_api_root_is_an_index_of_where_to_start(player):
    """Old: ``GET /api/`` was a 404."""
    index = APIClient().get("/api/")
    assert index.status_code == 200
    links = index.json()
    assert {"schema", "docs", "daily", "games", "guest", "signup", "login", "boards", "clubs"} <= set(links)
    api = client_for(player)
    for name in ("schema", "docs", "daily", "games", "boards", "clubs"):
        assert api.get(links[name]).status_code == 200, name
    for name in ("guest", "signup", "login"):  # POST-only: there, and saying which method
        assert api.get(links[name]).status_code == 405, name


def test_every_201_says_where_the_new_thing_is(users):
    """Each create answers ``Location``, and the address it gives answers the thing made."""
    from django.utils import timezone

    from leaderboards.models import Tournament, TournamentDeal
    from tests.support import winnable_deal

    owner, member = client_for(users[0]), client_for(users[1])
    now = timezone.now()
    made = {"game": owner.post("/api/games/", {"number": 7, "rules": "one-look"}, format="json"),
            "signup": APIClient().post("/api/accounts/signup/", {"username": "newcomer",
                                                                  "password": "a-long-pass-phrase"}, format="json"),
            "club": owner.post("/api/clubs/", {"name": "Located"}, format="json"),
            "guest": APIClient().post("/api/accounts/guest/")}
    made["join"] = member.post("/api/clubs/join/", {"invite_code": made["club"].json()["invite_code"]}, format="json")
    made["tournament"] = owner.post(f"/api/clubs/{made['club'].json()['id']}/tournaments/",
                                    {"name": "Cup", "rules": "one-look", "format": "match",
                                     "starts_at": (now - dt.timedelta(hours=1)).isoformat(),
                                     "ends_at": (now + dt.timedelta(hours=1)).isoformat()}, format="json")
    cup = made["tournament"].json()["id"]
    TournamentDeal.objects.create(tournament_id=cup, index=0, deal=winnable_deal())
    Tournament.objects.filter(pk=cup).update(status=Tournament.Status.READY, deal_count=1)
    made["entry"] = member.post(f"/api/tournaments/{cup}/join/")
    made["tournament game"] = member.post(f"/api/tournaments/{cup}/games/", {}, format="json")
    assert {name: answer.status_code for name, answer in made.items()} == dict.fromkeys(made, 201)
    club = made["club"].json()["id"]
    assert {name: answer["Location"] for name, answer in made.items()} == {
        "game": f"/api/games/{made['game'].json()['id']}/", "signup": "/api/players/newcomer/",
        "guest": f"/api/players/{made['guest'].json()['username']}/",
        "club": f"/api/clubs/{club}/", "join": f"/api/clubs/{club}/", "tournament": f"/api/tournaments/{cup}/",
        "entry": f"/api/tournaments/{cup}/", "tournament game": f"/api/games/{made['tournament game'].json()['id']}/"}
    for name in ("game", "club", "tournament"):
        assert owner.get(made[name]["Location"]).json()["id"] == made[name].json()["id"], name
    assert owner.get(made["guest"]["Location"]).json()["player"]["id"] == made["guest"].json()["id"]
    assert member.get(made["tournament game"]["Location"]).json()["mode"] == "ranked"
