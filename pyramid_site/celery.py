"""The Celery app: configuration comes from Django's settings (the CELERY_ names).

Beat's scheduler (``CELERY_BEAT_SCHEDULER``) is Celery's own, with two changes for a service that must be healthy
from its first minute: the jobs that keep the service ready are sent as beat starts (Celery's first run of an
interval job is otherwise one interval after the start: ten minutes without a daily deal on a fresh deployment),
and every tick touches ``PYRAMID_BEAT_HEARTBEAT_FILE``, whose age is beat's liveness (it serves no port to probe)."""

import os
from pathlib import Path

from celery import Celery
from celery.beat import PersistentScheduler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pyramid_site.settings")

app = Celery("pyramid_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# the jobs that keep the service ready, sent as beat starts (safe to run twice, as every job is); the daily
# re-check and the pruning keep their own rhythm
SENT_AT_START = {"prepare-daily-deals", "fill-practice-pools", "rebuild-board-cache", "close-expired-games"}


class HeartbeatScheduler(PersistentScheduler):
    def setup_schedule(self) -> None:
        super().setup_schedule()
        # due at once: each entry's last run pushed one period back (the jobs are safe to run twice)
        for name, entry in self.schedule.items():
            period = getattr(entry.schedule, "run_every", None)
            if name in SENT_AT_START and period is not None:
                entry.last_run_at = self.app.now() - period

    def tick(self, *args, **kwargs):
        from django.conf import settings

        Path(settings.PYRAMID_BEAT_HEARTBEAT_FILE).touch()
        return super().tick(*args, **kwargs)
