"""The OpenAPI schema as a contract clients generate from: valid; every answer a named component; one Error
model whose codes are the registry's; the errors each operation can answer declared where they can happen;
auth a generator understands (HTTP bearer, ``security: []`` where none is needed); formats, enums, examples,
descriptions; the API's version in the schema, on every answer, and in the changelog."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from openapi_spec_validator import validate
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from pyramid_site.api.version import HEADER
from pyramid_site.errors import Code
from tests import conformance

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
METHODS = ("get", "post", "put", "patch", "delete")
NO_AUTH = {
    ("/api/", "get"),
    ("/health/", "get"),
    ("/health/live/", "get"),
    ("/api/daily/", "get"),
    ("/api/daily/{date}/", "get"),
    ("/api/daily/{date}/{preset}/verify/", "get"),
    ("/api/deals/{number}/", "get"),
    ("/api/accounts/signup/", "post"),
    ("/api/accounts/login/", "post"),
    ("/api/accounts/guest/", "post"),
    ("/api/accounts/session/", "post"),
    ("/api/accounts/session/", "delete"),
}
# what a visitor reads without an account (pyramid_site/api/visitors.py): throttled per address
VISITOR_READS = {
    (path, "get")
    for path in (
        "/api/boards/daily/{date}/{preset}/",
        "/api/boards/weekly/",
        "/api/boards/all-time/",
        "/api/players/{username}/",
        "/api/players/{username}/stats/",
        "/api/players/{username}/calendar/",
        "/api/clubs/",
        "/api/clubs/{club_id}/",
        "/api/clubs/{club_id}/members/",
        "/api/clubs/{club_id}/tournaments/",
        "/api/tournaments/{tournament_id}/",
        "/api/tournaments/{tournament_id}/standings/",
        "/api/boards/daily/{date}/{preset}/events/",
        "/api/tournaments/{tournament_id}/events/",
    )
}
NO_AUTH |= VISITOR_READS
THROTTLED = {
    ("/api/accounts/signup/", "post"),
    ("/api/accounts/guest/", "post"),
    ("/api/accounts/login/", "post"),
    ("/api/accounts/session/", "post"),
    ("/api/accounts/session/", "delete"),  # the session view counts against the log-in allowance
    ("/api/games/{game_id}/hint/", "get"),
    ("/api/games/{game_id}/replay/", "get"),
    ("/api/games/{game_id}/verdict/", "get"),
    ("/api/deals/{number}/solve/", "post"),
    # games started and moves played (per account and address), a practice analysis (the solver budget)
    ("/api/games/", "post"),
    ("/api/games/{game_id}/moves/", "post"),
    ("/api/games/{game_id}/analysis/", "get"),
    ("/api/games/{game_id}/events/", "get"),  # the cap on live streams open at once
    ("/api/accounts/me/events/", "get"),
    *VISITOR_READS,
}


@pytest.fixture(scope="module")
def schema() -> dict:
    return json.loads(json.dumps(conformance.schema()))  # as served: plain JSON


def operations(schema):
    for path, item in schema["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]


def resolve(schema, node):
    while isinstance(node, dict) and ("$ref" in node or len(node.get("allOf", [])) == 1):
        if "allOf" in node:
            node = node["allOf"][0]
            continue
        target = schema
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def free_form_parts(schema, node, where="", seen=None):
    """Where a schema leaves an object untyped (no properties, no alternatives, no typed values)."""
    seen = set() if seen is None else seen
    if isinstance(node, dict) and "$ref" in node:
        if node["$ref"] in seen:
            return []
        seen.add(node["$ref"])
    node = resolve(schema, node)
    found = []
    for key in ("oneOf", "anyOf", "allOf"):
        for alternative in node.get(key, []):
            found += free_form_parts(schema, alternative, where, seen)
    types = node.get("type") if isinstance(node.get("type"), list) else [node.get("type")]
    if (
        "object" in types
        and not node.get("properties")
        and not isinstance(node.get("additionalProperties"), dict)
        and not any(key in node for key in ("oneOf", "anyOf", "allOf"))
    ):
        found.append(where or "<body>")
    for name, value in node.get("properties", {}).items():
        found += free_form_parts(schema, value, f"{where}.{name}", seen)
    if "items" in node:
        found += free_form_parts(schema, node["items"], f"{where}[]", seen)
    return found


def test_the_schema_is_valid_openapi_with_servers_license_version_and_tags(schema):
    validate(schema)
    assert schema["openapi"].startswith("3.1") and schema["servers"] == [{"url": "/", "description": "this server"}]
    assert schema["info"]["license"]["name"] and schema["info"]["version"]
    tags = {tag["name"]: tag.get("description") for tag in schema["tags"]}
    used = {tag for _, _, operation in operations(schema) for tag in operation["tags"]}
    assert used <= set(tags) and all(tags[tag] for tag in used)


def test_every_operation_has_a_description_and_every_answer_a_named_component(schema):
    untyped, undescribed = [], []
    for path, method, operation in operations(schema):
        if not operation.get("description") or not operation.get("summary"):
            undescribed.append(f"{method} {path}")
        for status, response in operation["responses"].items():
            content = resolve(schema, response).get("content", {})
            # the live streams (Server-Sent Events): each event's payload, a named union
            body = (content.get("application/json") or content.get("text/event-stream") or {}).get("schema")
            if body is None:
                assert status == "204", f"{method} {path} {status} declares no JSON body"
                continue
            # an error status whose operation can answer several codes: their union, each a named component
            alternatives = body["oneOf"] if status[0] in "45" and "oneOf" in body else [body]
            assert all("$ref" in alternative for alternative in alternatives), f"{method} {path} {status}: not named"
            untyped += [f"{method} {path} {status}: {part}" for part in free_form_parts(schema, body)]
    assert undescribed == [] and untyped == []


def test_one_error_component_per_registered_code_and_their_union(schema):
    components = schema["components"]["schemas"]
    error = components["Error"]
    mapping = error["discriminator"]["mapping"]
    assert error["discriminator"]["propertyName"] == "code" and list(mapping) == [code.value for code in Code]
    assert [alternative["$ref"] for alternative in error["oneOf"]] == list(mapping.values())
    for code in Code:
        component = resolve(schema, {"$ref": mapping[code.value]})
        assert component["properties"]["code"]["const"] == code.value
        assert set(component["required"]) == {"code", "message"} | {
            name for name, field in code.fields.items() if field.required
        }, code
    wrong_ply = resolve(schema, {"$ref": mapping["wrong_ply"]})
    assert wrong_ply["required"] == ["code", "message", "expected_ply"]
    assert wrong_ply["properties"]["expected_ply"]["type"] == "integer"
    assert "responses" not in schema["components"]  # each operation's errors are its own
    # every error response of every operation: the union of its codes, by the discriminator
    for path, method, operation in operations(schema):
        for status, response in operation["responses"].items():
            if status[0] in "45" and not (path == "/health/" and status == "503"):
                body = response["content"]["application/json"]["schema"]
                refs = [body["$ref"]] if "$ref" in body else list(body["discriminator"]["mapping"].values())
                assert refs and all(
                    resolve(schema, {"$ref": ref})["properties"]["code"]["const"] in mapping for ref in refs
                ), f"{method} {path} {status}"


def test_errors_are_declared_where_they_can_happen(schema):
    for path, method, operation in operations(schema):
        statuses = set(operation["responses"])
        where = f"{method} {path}"
        assert "500" in statuses, where
        if path not in ("/api/", "/health/", "/health/live/"):
            assert "503" in statuses, where
        if (path, method) not in NO_AUTH:
            assert operation["security"] and "401" in statuses, where
        else:
            assert operation["security"] == [], where
        if "requestBody" in operation:
            assert {"400", "413", "415"} <= statuses, where
            assert list(operation["requestBody"]["content"]) == ["application/json"], where
        assert ("429" in statuses) == ((path, method) in THROTTLED), where
        if path.startswith(("/api/fair-play/", "/api/operations/")):
            assert "403" in statuses, where
    login = schema["paths"]["/api/accounts/login/"]["post"]["responses"]
    assert "401" in login  # bad credentials, though no credentials are needed to ask


def test_auth_is_http_bearer_and_sign_up_and_log_in_answer_the_token(schema):
    schemes = schema["components"]["securitySchemes"]
    assert schemes["bearerAuth"]["type"] == "http" and schemes["bearerAuth"]["scheme"] == "bearer"
    for path in ("/api/accounts/signup/", "/api/accounts/login/", "/api/accounts/guest/"):
        answer = next(r for s, r in schema["paths"][path]["post"]["responses"].items() if s in ("200", "201"))
        body = resolve(schema, answer["content"]["application/json"]["schema"])
        assert "token" in body["properties"] and "token" in body["required"]


def test_formats_enums_ids_and_deal_numbers(schema):
    components = schema["components"]["schemas"]
    assert components["GameDaily"]["properties"]["date"]["format"] == "date"
    assert components["DailyCommitment"]["properties"]["date"]["format"] == "date"
    assert resolve(schema, components["Game"]["properties"]["status"])["enum"] == [
        "playing",
        "won",
        "stuck",
        "resigned",
        "closed",
    ]
    presets = resolve(schema, components["GameDeal"]["properties"]["preset"])["enum"]
    assert presets == ["classic", "strict", "one-look", "relaxed", "par", "tuts-tomb", "reserve", "overlap", "custom"]
    number = components["Deal"]["properties"]["number"]
    assert number["format"] == "uint64" and number["maximum"] == 2**64 - 1
    assert components["Deal"]["properties"]["number_text"]["pattern"] == "^[0-9]{1,20}$"
    given = components["GameStartInput"]["properties"]["number"]["oneOf"]
    assert [alternative["type"] for alternative in given] == ["integer", "string"]
    for path, method, operation in operations(schema):
        for parameter in operation.get("parameters", []):
            if parameter["in"] == "path" and parameter["name"].endswith("_id"):
                assert parameter["schema"]["type"] == "integer", f"{method} {path} {parameter['name']}"
            if parameter["in"] == "path" and parameter["name"] == "date":
                assert parameter["schema"]["format"] == "date", f"{method} {path}"


def test_the_main_bodies_have_examples(schema):
    for path in ("/api/games/", "/api/games/{game_id}/moves/", "/api/accounts/signup/", "/api/accounts/login/"):
        body = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        assert body.get("examples"), path


@pytest.mark.parametrize("scheme", [None, "Bearer not-a-token", "Token not-a-token"])
def test_every_401_asks_for_a_bearer_token_in_the_same_words(player, scheme):
    """Old bug: a 401 said ``Token`` to one request and ``Bearer`` to another, and nothing on a wrong password."""
    headers = {"HTTP_AUTHORIZATION": scheme} if scheme else {}
    refused = {
        "not_authenticated" if scheme is None else "authentication_failed": APIClient().get(
            "/api/accounts/me/", **headers
        ),
        "bad_credentials": APIClient().post(
            "/api/accounts/login/", {"username": player.username, "password": "not the password"}, format="json"
        ),
    }
    for code, answer in refused.items():
        assert answer.status_code == 401 and answer.json()["code"] == code
        assert answer["WWW-Authenticate"] == 'Bearer realm="api"', code
    # the session log-in, whose view takes no token: its 401 says the same
    session = APIClient().post(
        "/api/accounts/session/", {"username": player.username, "password": "nope"}, format="json"
    )
    assert session.status_code == 401 and session["WWW-Authenticate"] == 'Bearer realm="api"'


def test_bearer_and_token_both_authenticate(player, settings):
    settings.PYRAMID_TOKEN_CACHE_SECONDS = 0
    key = Token.objects.create(user=player).key
    for scheme in ("Bearer", "Token", "bearer"):
        answer = APIClient().get("/api/accounts/me/", HTTP_AUTHORIZATION=f"{scheme} {key}")
        assert answer.status_code == 200 and answer.json()["username"] == player.username, scheme
    refused = APIClient().get("/api/accounts/me/", HTTP_AUTHORIZATION="Bearer not-a-token")
    assert refused.status_code == 401 and refused.json()["code"] == "authentication_failed"
    assert refused["WWW-Authenticate"] == 'Bearer realm="api"'
    assert APIClient().get("/api/accounts/me/", HTTP_AUTHORIZATION=f"Basic {key}").status_code == 401


def test_a_deal_number_may_be_sent_as_text_and_is_answered_as_text_too(api):
    game = api.post("/api/games/", {"number": "18446744073709551615", "rules": "one-look"}, format="json")
    assert game.status_code == 201
    deal = game.json()["deal"]
    assert deal["number"] == 2**64 - 1 and deal["number_text"] == "18446744073709551615"
    too_big = api.post("/api/games/", {"number": "18446744073709551616"}, format="json")
    assert too_big.status_code == 400 and too_big.json()["code"] == "invalid" and "number" in too_big.json()["fields"]


def test_every_answer_states_the_api_version_of_the_schema(schema, api):
    version = schema["info"]["version"]
    for answer in (
        api.get("/api/daily/"),
        api.get("/api/games/424242/"),
        APIClient().get("/api/"),
        APIClient().get("/health/live/"),
    ):
        assert answer[HEADER] == version
    changelog = (ROOT / "docs" / "api-changelog.md").read_text()
    assert f"## {version}" in changelog  # every version's breaking changes are listed
