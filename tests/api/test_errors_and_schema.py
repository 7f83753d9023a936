"""The API's shared plumbing: its OpenAPI schema and docs page, and every error in one shape,
``{"code", "message", ...}`` with a stable code, whatever raised it."""

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
