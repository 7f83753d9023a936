"""The Celery app: configuration comes from Django's settings (the CELERY_ names).

Beat's scheduler (``CELERY_BEAT_SCHEDULER``) is Celery's own, with two changes for a service that must be healthy
from its first minute: the jobs that keep the service ready are sent as beat starts (Celery's first run of an
interval job is otherwise one interval after the start: ten minutes without a daily deal on a fresh deployment),
and every tick touches ``PYRAMID_BEAT_HEARTBEAT_FILE``, whose age is beat's liveness (it serves no port to probe).

Without a broker the tasks run in-process (``CELERY_TASK_ALWAYS_EAGER``). Run as they are queued, a request that
queues work would wait for all of it (a 30-deal arena's deals: seconds); with ``PYRAMID_TASKS_IN_THREAD`` a task
queued from anywhere but that thread runs on one thread of its own instead, in the order queued, and what it
queues in turn runs there at once, as a worker would run a chain; a task queued with an ``eta`` (or ``countdown``)
waits on a timer until then (in this process only: a restart forgets it, and the sweep that queued it sends it).
"""

import logging
import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

from celery import Celery, Task
from celery.beat import PersistentScheduler
from celery.utils import uuid

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pyramid_site.settings")

log = logging.getLogger(__name__)
_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()
_on_task_thread = threading.local()


def _run_on_task_thread(work) -> None:
    from django.db import connections

    _on_task_thread.active = True
    try:
        work()
    except Exception:  # nobody waits for it: logged, as a worker logs a failed task
        log.exception("an in-process task failed")
    finally:
        _on_task_thread.active = False
        connections.close_all()  # this thread's own connections


def run_on_task_thread(work) -> Future:
    """Run ``work`` on the in-process tasks' thread, after what was queued before it."""
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pyramid-tasks")
    return _executor.submit(_run_on_task_thread, work)


def task_thread_idle(timeout: float | None = None) -> None:
    """Wait until every in-process task queued so far has run (tests, and a process about to stop)."""
    run_on_task_thread(lambda: None).result(timeout=timeout)


class InProcessTask(Task):
    """A task that, in-process with ``PYRAMID_TASKS_IN_THREAD``, is queued for the tasks' thread."""

    def apply_async(self, args=None, kwargs=None, task_id=None, *rest, **options):
        from django.conf import settings

        if not self.app.conf.task_always_eager or not settings.PYRAMID_TASKS_IN_THREAD:
            return super().apply_async(args, kwargs, task_id, *rest, **options)
        delay = _seconds_until(options)
        if delay <= 0 and getattr(_on_task_thread, "active", False):
            return super().apply_async(args, kwargs, task_id, *rest, **options)
        task_id = task_id or uuid()

        def run():
            super(InProcessTask, self).apply_async(args, kwargs, task_id, *rest, **options)

        if delay > 0:
            # an eager task runs at once whatever its eta: held on a timer until then, as a worker holds it (queued
            # from the tasks' thread too: the sweep queues the moments coming near)
            timer = threading.Timer(delay, run_on_task_thread, (run,))
            timer.daemon = True
            timer.start()
        else:
            run_on_task_thread(run)
        return self.AsyncResult(task_id)


def _seconds_until(options: dict) -> float:
    """How long a task's ``eta`` or ``countdown`` asks it to wait."""
    if options.get("countdown") is not None:
        return float(options["countdown"])
    eta = options.get("eta")
    if eta is None:
        return 0.0
    if isinstance(eta, str):
        eta = datetime.fromisoformat(eta)
    if eta.tzinfo is None:
        eta = eta.replace(tzinfo=UTC)
    return (eta - datetime.now(UTC)).total_seconds()


app = Celery("pyramid_site", task_cls=InProcessTask)
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
