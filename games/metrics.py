"""The games' figures for ``/metrics``, read from the database when Prometheus asks. Each read is bounded
whatever the service's size: the daily deals from today on (days ahead x presets), the solver's backlog by its
partial index and capped, the deals' total as PostgreSQL estimates it, and the day's solves from their hourly
tallies (``SolveHour``, 24 x 9 rows), never from the deals themselves."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import connection
from django.db.models import Sum
from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily, HistogramMetricFamily

from pyramid_site.clock import utc_today

from .models import SOLVE_BUCKETS, DailyDeal, Deal, SolveHour

# the backlog is counted up to this many (a figure past it says "at least")
PENDING_COUNTED_UP_TO = 100_000


def deals_estimate() -> int:
    """How many deals there are: PostgreSQL's estimate (kept by autovacuum's ANALYZE; no scan), counted
    elsewhere (SQLite, the README's run command)."""
    if connection.vendor != "postgresql":
        return Deal.objects.count()
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples::bigint FROM pg_class WHERE oid = %s::regclass", [Deal._meta.db_table])
        row = cursor.fetchone()
    return max(int(row[0]), 0) if row else 0


class GamesCollector:
    def describe(self):
        """The names alone: registering the collector must not read the database."""
        yield GaugeMetricFamily("pyramid_daily_deals_ready_ahead", "", labels=["preset"])
        yield GaugeMetricFamily("pyramid_deals_pending", "")
        yield GaugeMetricFamily("pyramid_deals_estimate", "")
        yield HistogramMetricFamily("pyramid_solve_seconds_last_day", "")

    def collect(self):
        today = utc_today()
        ahead = GaugeMetricFamily(
            "pyramid_daily_deals_ready_ahead",
            "Days from today whose daily deal is ready, by preset (0: not even today's)",
            labels=["preset"],
        )
        days = DailyDeal.objects.filter(date__gte=today).values_list("preset", "date")
        # every featured preset has its line, at 0 while it has no deal at all: an alert on "< 1" fires for it
        ready: dict[str, set] = {preset: set() for preset in settings.PYRAMID_DAILY_PRESETS}
        for preset, date in days:
            ready.setdefault(preset, set()).add(date)
        for preset, dates in ready.items():
            count = 0
            while today + dt.timedelta(days=count) in dates:
                count += 1
            ahead.add_metric([preset], count)
        yield ahead
        pending = Deal.objects.filter(status=Deal.Status.PENDING).values("id")[:PENDING_COUNTED_UP_TO].count()
        yield GaugeMetricFamily(
            "pyramid_deals_pending",
            f"Deals waiting for the solver (counted up to {PENDING_COUNTED_UP_TO:,})",
            value=pending,
        )
        yield GaugeMetricFamily(
            "pyramid_deals_estimate", "Deals kept, all verdicts (PostgreSQL's estimate)", value=deals_estimate()
        )
        hour = timezone.now().replace(minute=0, second=0, microsecond=0)
        tallies = (
            SolveHour.objects.filter(hour__gt=hour - dt.timedelta(hours=24))
            .values("bucket")
            .annotate(solves=Sum("solves"), seconds=Sum("seconds"))
            .order_by()
        )
        per_bucket = {row["bucket"]: row for row in tallies}
        buckets, running = [], 0
        for index, bound in enumerate([*SOLVE_BUCKETS, "+Inf"]):
            running += per_bucket.get(index, {}).get("solves", 0)
            buckets.append((str(bound), running))
        seconds = sum(row["seconds"] for row in per_bucket.values())
        yield HistogramMetricFamily(
            "pyramid_solve_seconds_last_day",
            "Solver time of the deals solved this hour and the 23 before it",
            buckets=buckets,
            sum_value=seconds,
        )
