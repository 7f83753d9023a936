"""The task-failure record's figures for ``/metrics``, read from the database when Prometheus asks (so the
failures of every worker, on any host, are counted wherever ``/metrics`` is scraped)."""

from __future__ import annotations

import datetime as dt

from django.db.models import Count
from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily

from .models import TaskFailure

NAME = "pyramid_task_failures_last_day"


class TaskFailuresCollector:
    def describe(self):
        """The name alone: registering the collector must not read the database."""
        yield GaugeMetricFamily(NAME, "", labels=["task", "kind"])

    def collect(self):
        family = GaugeMetricFamily(
            NAME,
            "Celery task failures recorded in the last 24 hours, by task and kind "
            "(error, retries_exhausted, soft_time_limit, time_limit)",
            labels=["task", "kind"],
        )
        since = timezone.now() - dt.timedelta(days=1)
        rows = (
            TaskFailure.objects.filter(failed_at__gte=since)
            .values_list("task_name", "kind")
            .annotate(n=Count("pk"))
            .order_by("task_name", "kind")
        )
        for task, kind, count in rows:
            family.add_metric([task, kind], count)
        yield family
