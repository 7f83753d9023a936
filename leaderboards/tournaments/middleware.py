"""Without a beat (no Redis: the README's run command), the web process sweeps the tournaments' announcements
(and the races whose end came) itself: its first request starts a timer of its own that queues the sweep every
``PYRAMID_TOURNAMENT_SWEEP_SECONDS`` (in-process tasks run it on their thread, and hold the tasks it queues with an
``eta`` until their moment), so a countdown open on a page gets its ``started`` with nobody else asking. Off where
a Celery beat sweeps (``PYRAMID_TOURNAMENT_SWEEP_IN_PROCESS``)."""

from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.db import connections

from .tasks import announce_tournaments, end_races

log = logging.getLogger(__name__)
_started = threading.Event()
_stop = threading.Event()  # set, the timer ends after its current sweep (tests)
_lock = threading.Lock()


def _sweep_for_ever() -> None:
    while True:
        try:
            announce_tournaments.delay()
            end_races.delay()
        except Exception:  # the next period tries again
            log.exception("the tournaments' announcements or races' ends could not be swept")
        finally:
            connections.close_all()  # this thread's own (a sweep run here, tasks not on their thread)
        if _stop.wait(settings.PYRAMID_TOURNAMENT_SWEEP_SECONDS):
            return


def sweep_timer_start() -> bool:
    """Start the process's sweep timer unless it runs already; whether this call started it."""
    with _lock:
        if _started.is_set():
            return False
        _started.set()
    threading.Thread(target=_sweep_for_ever, name="pyramid-announcements", daemon=True).start()
    return True


class AnnouncementsSweptMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if settings.PYRAMID_TOURNAMENT_SWEEP_IN_PROCESS and not _started.is_set():
            sweep_timer_start()
        return self.get_response(request)
