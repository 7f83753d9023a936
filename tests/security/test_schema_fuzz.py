"""Every operation of the OpenAPI schema, fed requests that schemathesis generates from it (valid and
invalid), by a logged-in staff player: no answer is a server error, and every answer is what the schema
declares for its status. The same requests again asking for other shapes (`?format=api`, `?format=zzz`,
`Accept: text/html`) are answered in JSON all the same: the browsable API is gone, and no `format` reaches a
500."""

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from pyramid_site.wsgi import application
from tests.support import UserFactory, make_daily

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)


@pytest.fixture
def token(db, settings):
    # the deal and tournament endpoints solve in-process here: keep every search short
    settings.PYRAMID_SOLVE_BUDGET_SECONDS = 0.05
    settings.PYRAMID_HINT_BUDGET_SECONDS = 0.05
    settings.PYRAMID_TOKEN_CACHE_SECONDS = 0
    # no throttle at all (every scope the settings name, hints and solving too): a run asks many times
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {"DEFAULT_THROTTLE_RATES": dict.fromkeys(rates)}
    # nor a solver budget: what a run spends would change the answers between hypothesis' runs of one case
    settings.PYRAMID_SOLVER_SECONDS_PER_ACCOUNT = settings.PYRAMID_SOLVER_SECONDS_PER_ADDRESS = 0
    settings.PYRAMID_SOLVER_AT_ONCE_PER_ACCOUNT = settings.PYRAMID_SOLVER_AT_ONCE_PER_ADDRESS = 0
    staff = UserFactory(is_staff=True)
    make_daily()  # something for the daily and board operations to find
    # the WSGI handler closes the database connection after each request; the test's transaction
    # needs it open (Django's test client does the same)
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield Token.objects.create(user=staff).key
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@schema.parametrize()
@hypothesis_settings(
    max_examples=15,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much],
)
def test_no_request_is_a_server_error(case, token):
    # a revoked token would leave the rest of the run unauthenticated: revoking is tested on its own
    if case.operation.path == "/api/accounts/token/":
        return
    # a handler built with the test's settings, so the suite's strict conformance check (tests/conformance.py:
    # each operation's own codes, closed objects, declared headers) sees every answer too
    # a live stream is served by the ASGI process alone: a WSGI handler answers it 503 live_unavailable, by design
    stream = case.operation.path.endswith("/events/")
    response = case.call_and_validate(
        headers={"Authorization": f"Bearer {token}"},
        app=WSGIHandler(),
        checks=[response_schema_conformance] if stream else [not_a_server_error, response_schema_conformance],
    )
    if stream:
        assert response.status_code < 500 or response.json()["code"] == "live_unavailable", response.text


# what asked the browsable API for its HTML, or any other shape, before it was turned off
OTHER_SHAPES = [
    ({"format": "api"}, None),
    ({"format": "zzz"}, None),
    ({}, "text/html"),
    ({"format": "api"}, "text/html,application/xhtml+xml"),
]


@schema.parametrize()
@hypothesis_settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much],
)
def test_no_format_or_accept_header_gets_anything_but_json(case, token):
    if case.operation.path == "/api/accounts/token/":
        return
    for query, accept in OTHER_SHAPES:
        case.query = {**(case.query or {}), **query}
        headers = {"Authorization": f"Bearer {token}"} | ({"Accept": accept} if accept else {})
        response = case.call(headers=headers)
        content_type = (response.headers.get("content-type") or response.headers.get("Content-Type") or [""])[0]
        where = f"{case.method} {case.formatted_path} {query} {accept}"
        # a live stream's 503 live_unavailable (served by the ASGI process alone) is JSON like any refusal
        unavailable = response.status_code == 503 and response.json().get("code") == "live_unavailable"
        assert response.status_code < 500 or unavailable, where
        if response.status_code != 204:
            assert content_type.startswith("application/json"), f"{where}: {content_type}"
            assert isinstance(response.json(), (dict, list)), where
