"""The API's shared plumbing: its OpenAPI schema and docs page, and every error in one shape,
``{"code", "message", ...}`` with a stable code, whatever raised it."""

import datetime as dt

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from pyramid_site.api import schema as api_schema
from pyramid_site.errors import Code, DomainError
from tests import conformance
from tests.support import client_for

pytestmark = pytest.mark.django_db


def test_openapi_schema_and_docs_page():
    client = APIClient()
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    for path in (
        "/api/games/",
        "/api/games/{game_id}/moves/",
        "/api/daily/",
        "/api/accounts/signup/",
        "/api/games/{game_id}/hint/",
        "/api/games/{game_id}/log/",
        "/api/fair-play/voids/",
        "/api/fair-play/flags/{flag_id}/review/",
    ):
        assert path in paths, path
    docs = client.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()


@pytest.mark.parametrize("debug", [False, True], ids=["production", "DEBUG"])
def test_unknown_addresses_answer_in_the_error_shape_in_every_mode(settings, debug):
    """Old: with ``DJANGO_DEBUG=1`` Django answered an unknown address with its HTML page of URL patterns."""
    settings.DEBUG = debug
    client = APIClient()
    for path in ("/api/games/99999999999999999999/", "/api/no/such/thing/", "/no/such/page/"):
        response = client.get(path, HTTP_ACCEPT="application/json")
        assert (response.status_code, response["Content-Type"]) == (404, "application/json"), path
        assert response.json() == {"code": "not_found", "message": f"there is nothing at {path}"}
        assert response["X-Request-ID"] and response["X-API-Version"] and response["Content-Language"] == "en"
    # the slash Django adds to an address that lacks it still comes first
    redirected = client.get("/api/daily")
    assert redirected.status_code == 301 and redirected["Location"] == "/api/daily/"


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
    answers = [
        api.get("/health/"),
        api.get("/api/"),
        api.get("/api/games/424242/"),
        api.delete("/api/daily/"),
        APIClient().get("/api/accounts/me/"),
        api.get("/"),
    ]
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
    made = {
        "game": owner.post("/api/games/", {"number": 7, "rules": "one-look"}, format="json"),
        "signup": APIClient().post(
            "/api/accounts/signup/", {"username": "newcomer", "password": "a-long-pass-phrase"}, format="json"
        ),
        "club": owner.post("/api/clubs/", {"name": "Located"}, format="json"),
        "guest": APIClient().post("/api/accounts/guest/"),
    }
    made["join"] = member.post("/api/clubs/join/", {"invite_code": made["club"].json()["invite_code"]}, format="json")
    made["tournament"] = owner.post(
        f"/api/clubs/{made['club'].json()['id']}/tournaments/",
        {
            "name": "Cup",
            "rules": "one-look",
            "format": "match",
            "starts_at": (now - dt.timedelta(hours=1)).isoformat(),
            "ends_at": (now + dt.timedelta(hours=1)).isoformat(),
        },
        format="json",
    )
    cup = made["tournament"].json()["id"]
    TournamentDeal.objects.create(tournament_id=cup, index=0, deal=winnable_deal())
    Tournament.objects.filter(pk=cup).update(status=Tournament.Status.READY, deal_count=1)
    made["entry"] = member.post(f"/api/tournaments/{cup}/join/")
    made["tournament game"] = member.post(f"/api/tournaments/{cup}/games/", {}, format="json")
    assert {name: answer.status_code for name, answer in made.items()} == dict.fromkeys(made, 201)
    club = made["club"].json()["id"]
    assert {name: answer["Location"] for name, answer in made.items()} == {
        "game": f"/api/games/{made['game'].json()['id']}/",
        "signup": "/api/players/newcomer/",
        "guest": f"/api/players/{made['guest'].json()['username']}/",
        "club": f"/api/clubs/{club}/",
        "join": f"/api/clubs/{club}/",
        "tournament": f"/api/tournaments/{cup}/",
        "entry": f"/api/tournaments/{cup}/",
        "tournament game": f"/api/games/{made['tournament game'].json()['id']}/",
    }
    for name in ("game", "club", "tournament"):
        assert owner.get(made[name]["Location"]).json()["id"] == made[name].json()["id"], name
    assert owner.get(made["guest"]["Location"]).json()["player"]["id"] == made["guest"].json()["id"]
    assert member.get(made["tournament game"]["Location"]).json()["mode"] == "ranked"


def _codes(operation: dict, status: str) -> list[str]:
    body = operation["responses"][status]["content"]["application/json"]["schema"]
    if "oneOf" in body:
        return list(body["discriminator"]["mapping"])
    return [conformance.schema()["components"]["schemas"][body["$ref"].split("/")[-1]]["properties"]["code"]["const"]]


def test_each_operation_declares_the_codes_it_can_answer():
    """Old: every operation's 409 listed every conflict of the registry (29 on a move). Now a move's 409 names
    the four a move can meet, and a status a view never answers is not declared at all."""
    paths = conformance.schema()["paths"]
    move = paths["/api/games/{game_id}/moves/"]["post"]
    assert _codes(move, "409") == ["wrong_ply", "game_over", "daily_over", "tournament_over"]
    assert _codes(move, "422") == ["illegal_move"]
    assert _codes(move, "401") == ["not_authenticated", "authentication_failed"]
    assert _codes(move, "403") == ["forbidden"]  # a session write's CSRF check
    assert set(_codes(move, "400")) == {"invalid", "malformed_body", "bad_request", "bad_notation"}
    assert {"406", "413", "415", "429", "500", "503"} <= set(move["responses"])
    login = paths["/api/accounts/login/"]["post"]
    assert _codes(login, "401") == ["bad_credentials"] and "403" not in login["responses"]  # no session, no CSRF
    today = paths["/api/daily/"]["get"]
    assert _codes(today, "401") == ["authentication_failed"]  # no credentials needed, but a wrong token is refused
    assert "403" not in today["responses"] and "404" not in today["responses"]
    assert _codes(paths["/api/fair-play/voids/"]["get"], "403") == ["forbidden"]  # staff only


def test_no_operation_names_its_errors_the_older_way():
    """``ERROR`` (every code of a status) is left for branches still using it: the schema builds, this fails."""
    api_schema.LEGACY_OPERATIONS.clear()
    SchemaGenerator().get_schema(request=None, public=True)
    assert api_schema.LEGACY_OPERATIONS == set(), "name the codes with errors(Code.X, ...) instead of ERROR"


def test_every_answer_declares_the_headers_it_carries():
    headers = conformance.schema()["components"]["headers"]
    assert {"X-Request-ID", "X-API-Version", "Content-Language", "Location", "Retry-After", "WWW-Authenticate"} <= set(
        headers
    )
    creates = {
        ("/api/games/", "post", "201"),
        ("/api/deals/{number}/solve/", "post", "202"),
        ("/api/accounts/signup/", "post", "201"),
        ("/api/accounts/guest/", "post", "201"),
        ("/api/clubs/", "post", "201"),
        ("/api/clubs/join/", "post", "201"),
        ("/api/clubs/{club_id}/tournaments/", "post", "201"),
        ("/api/tournaments/{tournament_id}/join/", "post", "201"),
        ("/api/tournaments/{tournament_id}/games/", "post", "201"),
    }
    for path, item in conformance.schema()["paths"].items():
        for method, operation in item.items():
            for status, response in operation["responses"].items():
                where = (path, method, status)
                # a 409 may say when to try again (`idempotency_key_in_flight`): that Retry-After is optional
                sometimes = status == "409" and "idempotency_key_in_flight" in response["description"]
                declared = {
                    name: header.get("$ref")
                    for name, header in response["headers"].items()
                    if not (sometimes and name == "Retry-After")
                }
                # a health probe is answered before the request's language is read
                if not path.startswith("/health/"):
                    assert "Content-Language" in declared, where
                assert {"X-Request-ID", "X-API-Version"} <= set(declared), where
                assert all(ref == f"#/components/headers/{name}" for name, ref in declared.items()), where
                assert ("Location" in declared) == (where in creates), where
                assert ("WWW-Authenticate" in declared) == (status == "401"), where
                assert ("Retry-After" in declared) == (status == "429" or (status == "503" and path != "/health/"))


def test_the_conformance_check_finds_an_undeclared_code_field_and_header(player, monkeypatch):
    """What the suite-wide check (tests/conformance.py) holds every answer to, shown failing: a view that
    answers a code its operation does not declare, a field its code's component does not declare, and a header
    its response does not declare."""
    from games.api import views

    def refuse(**kwargs):
        raise refusal

    monkeypatch.setattr(views.selectors, "game_for_viewer", refuse)
    api = client_for(player)
    refusal = DomainError(Code.CLUB_NOT_FOUND, "not this operation's")
    assert api.get("/api/games/1/").status_code == 404
    refusal = DomainError(Code.GAME_NOT_FOUND, "with a field no game_not_found has", retry_after_seconds=3)
    answer = api.get("/api/games/1/")
    assert answer.status_code == 404 and answer["Retry-After"] == "3"
    found, conformance.problems[:] = list(conformance.problems), []
    assert found == [
        "GET /api/games/1/ -> 404: code club_not_found not declared for GET /api/games/{game_id}/ 404",
        "GET /api/games/1/ -> 404: header retry-after sent but not declared for GET /api/games/{game_id}/ 404",
        "GET /api/games/1/ -> 404: at <body>: Additional properties are not allowed ('retry_after_seconds' was "
        "unexpected)",
    ]
