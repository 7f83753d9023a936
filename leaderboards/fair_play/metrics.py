"""The latest daily re-check's progress for ``/metrics``, read from its chunks when Prometheus asks."""

from __future__ import annotations

from prometheus_client.core import GaugeMetricFamily

from .models import RecheckChunk
from .recheck import recheck_day_report


class RecheckCollector:
    def describe(self):
        """The names alone: registering the collector must not read the database."""
        yield GaugeMetricFamily("pyramid_recheck_chunks", "", labels=["date", "state"])
        yield GaugeMetricFamily("pyramid_recheck_games", "", labels=["date", "outcome"])

    def collect(self):
        latest = RecheckChunk.objects.order_by("-date").values_list("date", flat=True).first()
        if latest is None:
            return
        report, done, planned = recheck_day_report(date=latest)
        day = latest.isoformat()
        chunks = GaugeMetricFamily(
            "pyramid_recheck_chunks", "Chunks of the latest re-checked day, done and waiting", labels=["date", "state"]
        )
        chunks.add_metric([day, "done"], done)
        chunks.add_metric([day, "waiting"], planned - done)
        yield chunks
        games = GaugeMetricFamily(
            "pyramid_recheck_games",
            "Games of the latest re-checked day replayed so far, by what the re-check found",
            labels=["date", "outcome"],
        )
        games.add_metric([day, "replayed"], report.games)
        games.add_metric([day, "mismatched"], len(report.mismatched))
        games.add_metric([day, "suspicious"], len(report.suspicious))
        yield games
