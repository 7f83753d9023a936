"""Health and metrics, for load balancers, container engines and Prometheus.

``/health/`` answers 200 only when PostgreSQL answers (and Redis, where one is configured), with the
state of each part as JSON, the solver's among them: a service without the compiled core still runs,
but its solver is hundreds of times slower, and says so. ``/health/ready/`` also wants today's daily deal of
every featured preset (a service without one cannot start a daily game), and names the presets still
missing theirs. ``/health/live/`` only says the process answers (the load benchmark's trivial baseline).
All three are answered by ``HealthProbeMiddleware`` ahead of everything that reads the host: a probe from 127.0.0.1 or a
load balancer passes whatever ``DJANGO_ALLOWED_HOSTS`` says and is never redirected to HTTPS.
``/metrics`` is Prometheus' text format, for operators only: it answers the bearer token
``PYRAMID_METRICS_TOKEN``; without one set it is open while ``DJANGO_DEBUG`` is on and refused (403) otherwise.
"""

from __future__ import annotations

import hmac
import logging
import os

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpResponse, JsonResponse
from django.urls import resolve
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest, multiprocess

from engine.solver import fast
from games.services import daily_slots_open

from .clock import utc_today
from .errors import Code, error_json
from .metrics import DATABASE_COLLECTORS, redis_probe

log = logging.getLogger(__name__)


def solver_state() -> str:
    return "compiled" if fast.available else "plain-python: slow, the compiled core is not built"


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return "ok"
    except Exception as exc:  # noqa: BLE001 - any failure is the answer
        return f"down: {type(exc).__name__}"


def _redis() -> str:
    if not settings.REDIS_URL:
        return "not configured"
    try:
        redis_probe().ping()
        return "ok"
    except redis.RedisError as exc:
        return f"down: {type(exc).__name__}"


def _parts() -> tuple[bool, dict[str, str]]:
    parts = {"database": _database(), "redis": _redis(), "solver": solver_state()}
    return parts["database"] == "ok" and parts["redis"] in ("ok", "not configured"), parts


def health(request):
    ok, parts = _parts()
    return JsonResponse({"ok": ok, "parts": parts}, status=200 if ok else 503)


def ready(request):
    ok, parts = _parts()
    if parts["database"] == "ok":
        missing = sorted(preset for _, preset in daily_slots_open(today=utc_today(), days=1))
        parts["daily_deals"] = "ready" if not missing else f"none today for {', '.join(missing)}"
        ok = ok and not missing
    return JsonResponse({"ok": ok, "parts": parts}, status=200 if ok else 503)


def live(request):
    return JsonResponse({"ok": True})


PROBES = {"/health/": health, "/health/ready/": ready, "/health/live/": live}


class HealthProbeMiddleware:
    """Answers the health probes before any middleware that reads the request's host (the host check, the
    HTTPS redirect, CSRF): a container engine's probe to 127.0.0.1 or a load balancer's to an address is not a
    request for one of the service's host names, and must not be refused or redirected for it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        probe = PROBES.get(request.path_info)
        if probe is not None and request.method in ("GET", "HEAD"):
            request.resolver_match = resolve(request.path_info)  # counted under its route, as any answer
            return probe(request)
        return self.get_response(request)


def _metrics_refusal(request) -> JsonResponse | None:
    token = settings.PYRAMID_METRICS_TOKEN
    if not token:
        if settings.DEBUG:
            return None
        return error_json(
            Code.FORBIDDEN,
            message="/metrics is for operators: set PYRAMID_METRICS_TOKEN and send it as Authorization: Bearer TOKEN",
        )
    scheme, _, sent = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    if scheme.lower() == "bearer" and hmac.compare_digest(sent.strip().encode(), token.encode()):
        return None
    return error_json(
        Code.NOT_AUTHENTICATED,
        message="/metrics answers its bearer token (PYRAMID_METRICS_TOKEN) only",
        headers={"WWW-Authenticate": 'Bearer realm="metrics"'},
    )


def metrics(request):
    refusal = _metrics_refusal(request)
    if refusal is not None:
        return refusal
    registry = REGISTRY
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):  # every gunicorn worker's counts, summed
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        for collector in DATABASE_COLLECTORS:
            registry.register(collector)
    return HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
