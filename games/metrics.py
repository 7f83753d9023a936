"""The games' figures for ``/metrics``, read from the database when Prometheus asks."""

from __future__ import annotations

import datetime as dt

from django.db.models import Count
from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily, HistogramMetricFamily

from pyramid_site.clock import utc_today

from .models import DailyDeal, Deal

SOLVE_BUCKETS = (0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 30.0, 60.0)


class GamesCollector:
    def describe(self):
        """The names alone: registering the collector must not read the database."""
        yield GaugeMetricFamily("pyramid_daily_deals_ready_ahead", "", labels=["preset"])
        yield GaugeMetricFamily("pyramid_deals", "", labels=["status"])
        yield HistogramMetricFamily("pyramid_solve_seconds_last_day", "")

    def collect(self):
        today = utc_today()
        ahead = GaugeMetricFamily("pyramid_daily_deals_ready_ahead", "Days from today whose daily deal is ready, "
                                  "by preset (0: not even today's)", labels=["preset"])
        days = DailyDeal.objects.filter(date__gte=today).values_list("preset", "date")
        ready: dict[str, set] = {}
        for preset, date in days:
            ready.setdefault(preset, set()).add(date)
        for preset, dates in ready.items():
            count = 0
            while today + dt.timedelta(days=count) in dates:
                count += 1
            ahead.add_metric([preset], count)
        yield ahead
        deals = GaugeMetricFamily("pyramid_deals", "Deals by the solver's verdict", labels=["status"])
        for status, count in Deal.objects.values_list("status").annotate(n=Count("id")).order_by():
            deals.add_metric([status], count)
        yield deals
        times = list(Deal.objects.filter(solved_at__gte=timezone.now() - dt.timedelta(days=1), solve_seconds__isnull=False)
                     .values_list("solve_seconds", flat=True))
        buckets = [(str(bound), sum(t <= bound for t in times)) for bound in SOLVE_BUCKETS] + [("+Inf", len(times))]
        yield HistogramMetricFamily("pyramid_solve_seconds_last_day", "Solver time of the deals solved in the last "
                                    "24 hours", buckets=buckets, sum_value=sum(times))
