"""Health says what each part is doing; /metrics counts what happened; a slow solver is never silent."""

from __future__ import annotations

import re

import pytest
from django.core.management import CommandError, call_command
from django.db import OperationalError
from rest_framework.test import APIClient

import engine
from games.services.deals import deal_get_or_create
from tests.support import UserFactory, client_for, metrics_scrape

pytestmark = pytest.mark.django_db


def test_health_names_each_part_and_is_ready_only_with_the_database(settings, monkeypatch):
    settings.REDIS_URL = ""
    body = APIClient().get("/health/").json()
    assert body == {"ok": True, "parts": {"database": "ok", "redis": "not configured", "solver": "compiled"}}

    def unreachable(*args, **kwargs):
        raise OperationalError("connection refused")

    with monkeypatch.context() as patched:  # undone before the after-test checks read the database
        patched.setattr("django.db.backends.utils.CursorWrapper.execute", unreachable)
        down = APIClient().get("/health/")
        live = APIClient().get("/health/live/")
    assert down.status_code == 503 and down.json()["parts"]["database"] == "down: OperationalError"
    assert live.json() == {"ok": True}  # the process itself still answers


def test_health_is_not_ready_while_a_configured_redis_is_down(settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    down = APIClient().get("/health/")
    assert down.status_code == 503 and down.json()["parts"]["redis"].startswith("down:")


def test_health_says_when_the_solver_is_the_slow_one(monkeypatch):
    monkeypatch.setattr("engine.solver.fast.available", False)
    body = APIClient().get("/health/").json()
    assert body["ok"] is True and body["parts"]["solver"].startswith("plain-python: slow")


def test_preparing_daily_deals_refuses_the_slow_solver_unless_told(monkeypatch):
    monkeypatch.setattr("engine.solver.fast.available", False)
    with pytest.raises(CommandError, match="--accept-slow-solver"):
        call_command("prepare_daily_deals", "--days", "1")


def _figure(text: str, name: str, **labels) -> float:
    wanted = ",".join(f'{key}="{value}"' for key, value in sorted(labels.items()))
    for line in text.splitlines():
        match = re.fullmatch(rf"{name}(?:\{{(.*)\}})? (\S+)", line)
        if match and ",".join(sorted((match.group(1) or "").split(","))) == wanted:
            return float(match.group(2))
    return 0.0


def test_metrics_count_requests_moves_and_refusals():
    before = metrics_scrape()
    api = client_for(UserFactory())
    game = api.post("/api/games/", {"number": 3, "rules": "relaxed"}, format="json").json()
    legal = game["position"]["legal_moves"][0]
    assert api.post(f"/api/games/{game['id']}/moves/", {"ply": 1, "move": legal}, format="json").status_code == 201
    assert api.post(f"/api/games/{game['id']}/moves/", {"ply": 9, "move": "draw"}, format="json").status_code == 409
    # a deal waiting for the solver (a sequence's candidate; the practice game's own deal was solved as it started)
    deal_get_or_create(number=5, rules=engine.preset("relaxed"))
    after = metrics_scrape()
    assert _figure(after, "pyramid_moves_validated_total") == _figure(before, "pyramid_moves_validated_total") + 1
    assert (
        _figure(after, "pyramid_api_errors_total", code="wrong_ply")
        == _figure(before, "pyramid_api_errors_total", code="wrong_ply") + 1
    )
    route = "api/games/<game_id:game_id>/moves/"
    for status in ("201", "409"):
        assert (
            _figure(after, "pyramid_requests_total", method="POST", route=route, status=status)
            == _figure(before, "pyramid_requests_total", method="POST", route=route, status=status) + 1
        )
    assert _figure(after, "pyramid_deals_pending") >= 1  # read from the database when asked


def test_the_solver_times_come_from_hourly_tallies_not_from_every_deal(settings):
    """A scrape used to read every deal solved in the last day into Python (0.35 s of CPU at 300,000 solves);
    each solve now adds to its hour's tally, and the scrape sums a day of tallies."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    import engine
    from games.models import Deal, SolveHour
    from games.services.deals import deal_get_or_create, deal_solve

    before = metrics_scrape()
    deal = deal_get_or_create(number=5, rules=engine.Rules.parse("relaxed"))
    deal_solve(deal_id=deal.pk)
    deal_solve(deal_id=deal.pk)  # solved already: nothing more is counted
    assert SolveHour.objects.get().solves == 1
    Deal.objects.filter(pk=deal.pk).update(solve_seconds=1000.0)  # the deals themselves are not read again
    with CaptureQueriesContext(connection) as queries:
        after = metrics_scrape()
    assert (
        _figure(after, "pyramid_solve_seconds_last_day_count")
        == _figure(before, "pyramid_solve_seconds_last_day_count") + 1
    )
    assert _figure(after, "pyramid_solve_seconds_last_day_sum") < 1000
    deal_reads = [q["sql"] for q in queries if '"games_deal"' in q["sql"] and "solve_seconds" in q["sql"]]
    assert deal_reads == []
