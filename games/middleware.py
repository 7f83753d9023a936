"""Without a beat (no Redis: the README's run command), the service keeps its daily deals ready itself."""

from __future__ import annotations

import logging

from django.conf import settings

from pyramid_site.clock import utc_today

from .services.daily import daily_deals_ensure

log = logging.getLogger(__name__)


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
            except Exception:  # noqa: BLE001 - the page still answers; the next request tries again
                log.exception("today's daily deals could not be prepared")
        return self.get_response(request)
