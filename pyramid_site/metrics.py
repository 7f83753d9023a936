"""What ``/metrics`` shows (Prometheus' client library): requests by route and status, their time,
every error answer by code (refused moves among them), validated moves, and the Celery queues' depth.

Each web process counts its own requests; behind gunicorn set ``PROMETHEUS_MULTIPROC_DIR`` to a shared
empty folder and the counts of every worker are summed (the client library's multiprocess mode).
Figures read from the database (daily deals ready ahead, the solver's times) are the games app's
collector (``games/metrics.py``), computed when Prometheus asks.
"""

from __future__ import annotations

import time
from functools import lru_cache

import redis
from django.conf import settings
from prometheus_client import REGISTRY, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily

REQUESTS = Counter("pyramid_requests", "Requests answered, by route, method and status", ["route", "method", "status"])
REQUEST_SECONDS = Histogram("pyramid_request_seconds", "Time to answer a request, by route", ["route"])
ERRORS = Counter("pyramid_api_errors", "Error answers of the API, by code (a refused move is one)", ["code"])
MOVES = Counter("pyramid_moves_validated", "Moves checked by the engine and stored")


class MetricsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        route = match.route if match is not None else "unmatched"
        REQUESTS.labels(route, request.method, str(response.status_code)).inc()
        REQUEST_SECONDS.labels(route).observe(time.perf_counter() - started)
        return response


@lru_cache(maxsize=4)
def _redis_for(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5)


def redis_probe() -> redis.Redis:
    """A client of ``REDIS_URL`` that gives up within half a second (health and metrics read through it), kept
    per process: each probe reuses its connection pool instead of connecting anew."""
    return _redis_for(settings.REDIS_URL)


class QueueDepthCollector:
    """Tasks waiting in each Celery queue (Redis lists), read when Prometheus asks."""

    def describe(self):
        yield GaugeMetricFamily("pyramid_celery_queue_depth", "", labels=["queue"])

    def collect(self):
        if not settings.REDIS_URL:
            return
        family = GaugeMetricFamily("pyramid_celery_queue_depth", "Tasks waiting in a Celery queue", labels=["queue"])
        try:
            client = redis_probe()
            for queue in settings.PYRAMID_CELERY_QUEUES:
                family.add_metric([queue], client.llen(queue))
        except redis.RedisError:
            return
        yield family


# collectors that read their figures when asked (the apps add theirs in ``ready``): registered once per process,
# and again in the registry the multiprocess mode builds for each scrape
DATABASE_COLLECTORS = [QueueDepthCollector()]


def collector_register(collector) -> None:
    DATABASE_COLLECTORS.append(collector)
    REGISTRY.register(collector)


REGISTRY.register(DATABASE_COLLECTORS[0])
