"""The probes a container engine or load balancer sends pass whatever host names the service answers to, and
are never redirected to HTTPS; readiness names the featured presets that have no daily deal today; every
featured preset has its ``pyramid_daily_deals_ready_ahead`` line, at 0 while it has no deal."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.test import Client

from tests.support import metrics_scrape

pytestmark = pytest.mark.django_db


@pytest.fixture
def production_hosts(settings):
    settings.REDIS_URL = ""
    settings.ALLOWED_HOSTS = ["pyramid.example"]
    settings.SECURE_SSL_REDIRECT = True  # DJANGO_HTTPS=true


@pytest.mark.parametrize("path", ["/health/", "/health/live/", "/health/ready/"])
def test_probes_from_an_address_pass_with_production_hosts(production_hosts, path):
    call_command("prepare_daily_deals", "--days", "1", stdout=None)
    probe = Client(HTTP_HOST="127.0.0.1:8000").get(path)
    assert probe.status_code == 200 and probe.json()["ok"] is True
    assert probe["X-Request-ID"] and probe["X-API-Version"]  # still an answer of the service's


def test_other_paths_still_check_the_host_and_redirect(production_hosts):
    assert Client(HTTP_HOST="127.0.0.1:8000").get("/api/").status_code == 400
    redirected = Client(HTTP_HOST="pyramid.example").get("/api/")
    assert redirected.status_code == 301 and redirected["Location"] == "https://pyramid.example/api/"
    assert Client(HTTP_HOST="127.0.0.1:8000").post("/health/").status_code == 400  # probes are GETs


def test_readiness_names_the_presets_without_todays_daily_deal(settings):
    settings.REDIS_URL = ""
    settings.PYRAMID_DAILY_PRESETS = ["classic", "relaxed"]
    not_ready = Client().get("/health/ready/")
    assert not_ready.status_code == 503
    assert not_ready.json()["parts"]["daily_deals"] == "none today for classic, relaxed"
    assert Client().get("/health/").status_code == 200  # the service itself is up: only readiness waits

    call_command("prepare_daily_deals", "--days", "1", "--preset", "classic", stdout=None)
    half = Client().get("/health/ready/").json()
    assert half["ok"] is False and half["parts"]["daily_deals"] == "none today for relaxed"

    call_command("prepare_daily_deals", "--days", "1", "--preset", "relaxed", stdout=None)
    ready = Client().get("/health/ready/")
    assert ready.status_code == 200 and ready.json()["parts"]["daily_deals"] == "ready"


def _ready_ahead(text: str) -> dict[str, float]:
    return {
        match.group(1): float(match.group(2))
        for match in re.finditer(r'^pyramid_daily_deals_ready_ahead\{preset="([^"]+)"\} (\S+)$', text, re.M)
    }


def test_every_featured_preset_has_its_ready_ahead_line_at_zero_without_a_deal(settings):
    settings.PYRAMID_DAILY_PRESETS = ["classic", "relaxed"]
    assert _ready_ahead(metrics_scrape()) == {"classic": 0.0, "relaxed": 0.0}
    call_command("prepare_daily_deals", "--days", "2", "--preset", "classic", stdout=None)
    assert _ready_ahead(metrics_scrape()) == {"classic": 2.0, "relaxed": 0.0}
