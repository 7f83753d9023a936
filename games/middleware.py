"""Without a beat (no Redis: the README's run command), the web process does the beat's work for ranked play
itself: it keeps the daily deals ready, and closes the ranked games whose window is over."""

from __future__ import annotations

import datetime as dt
import logging
import threading

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from pyramid_site.clock import utc_today

from .services.daily import daily_deals_ensure
from .services.play import games_close_expired

log = logging.getLogger(__name__)
CLOSING_BATCH, CLOSING_ROUNDS = 500, 20


class DailyDealsReadyMiddleware:
    """The first request of each UTC day in a process makes sure today's and tomorrow's daily deals exist
    (the solver needs milliseconds a candidate). Off where a Celery beat keeps them (``PYRAMID_DAILY_AUTO_PREPARE``)."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.ready_for = None

    def __call__(self, request):
        today = utc_today()
        if settings.PYRAMID_DAILY_AUTO_PREPARE and self.ready_for != today:
            try:
                daily_deals_ensure(today=today, budget_seconds=settings.PYRAMID_DAILY_AUTO_BUDGET_SECONDS)
                self.ready_for = today
            except Exception:  # the page still answers; the next request tries again
                log.exception("today's daily deals could not be prepared")
        return self.get_response(request)


class ExpiredGamesClosedMiddleware:
    """A request closes the ranked games whose window is over, as the beat job does, before it is answered (so a
    board or a calendar read then counts them): at most once every ``PYRAMID_CLOSE_GAMES_EVERY_SECONDS`` in a
    process (a request in between only compares two times), one thread at a time, and one process at a time
    where they share a cache. Closing is safe twice. Off where a Celery beat closes them
    (``PYRAMID_AUTO_CLOSE_GAMES``)."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.next_at: dt.datetime | None = None
        self.lock = threading.Lock()

    def __call__(self, request):
        if settings.PYRAMID_AUTO_CLOSE_GAMES and (self.next_at is None or timezone.now() >= self.next_at):
            self._close_expired()
        return self.get_response(request)

    def _close_expired(self) -> None:
        if not self.lock.acquire(blocking=False):
            return  # another thread of this process is at it
        try:
            now, every = timezone.now(), settings.PYRAMID_CLOSE_GAMES_EVERY_SECONDS
            if self.next_at is not None and now < self.next_at:
                return
            self.next_at = now + dt.timedelta(seconds=every)
            if cache.add(f"pyramid:close-expired:{int(now.timestamp() // every)}", True, timeout=int(every) + 1):
                for _ in range(CLOSING_ROUNDS):  # a backlog (a process asleep for hours) in bounded rounds
                    if games_close_expired(batch_size=CLOSING_BATCH) < CLOSING_BATCH:
                        break
        except Exception:  # the page still answers; the next period tries again
            log.exception("expired ranked games could not be closed")
        finally:
            self.lock.release()
