"""Beat sends the jobs that keep the service ready as it starts (Celery's own scheduler sends an interval job
first one interval after its start), and touches its heartbeat file at every tick."""

from __future__ import annotations

import os

from celery.beat import PersistentScheduler

from pyramid_site.celery import SENT_AT_START, HeartbeatScheduler
from pyramid_site.celery import app as celery_app


def test_the_jobs_that_keep_the_service_ready_are_due_at_start_and_the_rest_keep_their_rhythm(tmp_path):
    plain = PersistentScheduler(app=celery_app, schedule_filename=str(tmp_path / "plain"), lazy=False)
    ours = HeartbeatScheduler(app=celery_app, schedule_filename=str(tmp_path / "ours"), lazy=False)
    try:
        assert SENT_AT_START <= set(ours.schedule)
        assert not any(plain.schedule[name].is_due().is_due for name in SENT_AT_START)  # the reason for ours
        assert all(ours.schedule[name].is_due().is_due for name in SENT_AT_START)
        assert not ours.schedule["recheck-ranked-day"].is_due().is_due
    finally:
        plain.close()
        ours.close()


def test_every_tick_touches_the_heartbeat_file(tmp_path, settings, monkeypatch):
    settings.PYRAMID_BEAT_HEARTBEAT_FILE = str(tmp_path / "heartbeat")
    monkeypatch.setattr(PersistentScheduler, "tick", lambda self, *args, **kwargs: 7.0)  # nothing sent
    scheduler = HeartbeatScheduler(app=celery_app, schedule_filename=str(tmp_path / "schedule"), lazy=False)
    try:
        assert scheduler.tick() == 7.0
        first = os.stat(settings.PYRAMID_BEAT_HEARTBEAT_FILE).st_mtime_ns
        os.utime(settings.PYRAMID_BEAT_HEARTBEAT_FILE, ns=(first - 10**10, first - 10**10))
        scheduler.tick()
        assert os.stat(settings.PYRAMID_BEAT_HEARTBEAT_FILE).st_mtime_ns > first - 10**10
    finally:
        scheduler.close()
