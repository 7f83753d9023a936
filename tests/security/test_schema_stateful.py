"""The API driven statefully by schemathesis: sequences of calls that follow the schema's links (start a
game, then move, undo, hint, resign, read its log; make a club, then its tournaments ...), with positive
and negative data. No answer is a server error, every error is JSON whose code is in the registry, and every
answer is what the schema declares for its status."""

from __future__ import annotations

from collections import Counter

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from pyramid_site.errors import CODE_NAMES
from pyramid_site.wsgi import application
from tests.support import UserFactory, make_daily

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
# revoking the token would leave the rest of a sequence unauthenticated (revocation has tests of its own)
schema = schema.exclude(path="/api/accounts/token/")
# the index and the health probes link nowhere: sequences spend their steps on the API's own flows
schema = schema.exclude(path=["/api/", "/health/", "/health/live/"])


def error_is_registered_json(ctx, response, case):
    """Every 4xx and 5xx answer is ``{code, message}`` with a registered code."""
    if response.status_code < 400:
        return None
    body = response.json()
    assert isinstance(body, dict) and isinstance(body.get("message"), str), body
    assert body.get("code") in CODE_NAMES, (
        f"{case.method} {case.formatted_path}: unregistered code {body.get('code')!r}"
    )
    return None


@pytest.fixture
def staff_token(db, settings):
    settings.PYRAMID_SOLVE_BUDGET_SECONDS = 0.05
    settings.PYRAMID_HINT_BUDGET_SECONDS = 0.05
    settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {
        "DEFAULT_THROTTLE_RATES": {
            "signup": None,
            "guest": None,
            "login": None,
            "hint": None,
            "verdict": None,
            "solve": None,
        }
    }
    # nor a solver budget: what a run spends would change the answers between hypothesis' runs of one case
    settings.PYRAMID_SOLVER_SECONDS_PER_ACCOUNT = settings.PYRAMID_SOLVER_SECONDS_PER_ADDRESS = 0
    settings.PYRAMID_SOLVER_AT_ONCE_PER_ACCOUNT = settings.PYRAMID_SOLVER_AT_ONCE_PER_ADDRESS = 0
    staff = UserFactory(is_staff=True)
    make_daily()
    # the WSGI handler closes the database connection after each request; the test's transaction needs it
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield Token.objects.create(user=staff).key
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def test_linked_sequences_never_fail_the_server(staff_token):
    links = sum(
        len(response.get("links", {}))
        for path in schema.raw_schema["paths"].values()
        for operation in path.values()
        if isinstance(operation, dict)
        for response in operation.get("responses", {}).values()
    )
    assert links >= 30  # the schema's links are what this test follows

    answered, problems = Counter(), []

    class Workflow(schema.as_state_machine()):
        # each sequence starts from the same database: what one changed is rolled back before the next, so
        # hypothesis sees the same answers when it replays a sequence
        def setup(self):
            self.savepoint = transaction.savepoint()

        def teardown(self):
            transaction.savepoint_rollback(self.savepoint)

        def get_call_kwargs(self, case):
            return {"headers": {"Authorization": f"Token {staff_token}"}}

        def validate_response(self, response, case, **kwargs):
            # problems are collected, not raised: a failing step would make hypothesis replay sequences
            # against a database the earlier ones changed, which it reports as flaky data generation
            answered[(case.operation.label, response.status_code // 100)] += 1
            try:
                case.validate_response(
                    response, checks=[not_a_server_error, error_is_registered_json, response_schema_conformance]
                )
            except Exception as exc:  # noqa: BLE001 - every kind of finding is reported below
                problems.append(f"{case.method} {case.formatted_path} -> {response.status_code}: {exc}"[:500])

    # the typed schema gives schemathesis more transitions to choose from (it infers links from the answers'
    # components too): 100 sequences of 8 steps follow the links in every run (60 of 6 missed them in 1 of 4)
    Workflow.run(
        settings=hypothesis_settings(
            max_examples=100,
            stateful_step_count=8,
            deadline=None,
            database=None,
            suppress_health_check=[
                HealthCheck.function_scoped_fixture,
                HealthCheck.too_slow,
                HealthCheck.filter_too_much,
            ],
        )
    )
    assert problems == []
    # the sequences went through links: a game's, club's or tournament's own addresses answered 2xx, which
    # random ids never do
    made = ("{game_id}", "{club_id}", "{tournament_id}")
    followed = {label for (label, kind), count in answered.items() if kind == 2 and any(p in label for p in made)}
    assert followed, sorted(answered)
