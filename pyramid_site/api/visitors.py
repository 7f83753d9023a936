"""Reads open to visitors: the boards, player pages, public clubs and their tournaments answer a request with no
credentials, as they answer any signed-in outsider (a private club or its tournaments stay 404); every write
still needs an account (401 ``not_authenticated``).

A visitor's reads are counted per client address (``client_address``: the socket's, or the one the nearest
trusted proxy saw, an IPv6 address by its /64, as the play throttles and fair play count it), over a sliding
window in the shared cache (``sliding_window``), at the rate ``visitor_read`` of ``DEFAULT_THROTTLE_RATES``; past
it, 429 ``throttled`` with ``retry_after_seconds``. Signed-in reads are not counted here."""

from __future__ import annotations

import math

from rest_framework.permissions import SAFE_METHODS, IsAuthenticatedOrReadOnly
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from pyramid_site.client import client_address
from pyramid_site.sliding_window import SlidingWindow

from .play_throttles import note_count, parse_rate

SCOPE = "visitor_read"


class VisitorReadThrottle(BaseThrottle):
    """A visitor's reads (no account), counted per client address."""

    def __init__(self):
        self._wait = 0.0

    def policies(self, view) -> list[str]:
        """The policy it counts a visitor's reads by."""
        return [SCOPE]

    def allow_request(self, request, view) -> bool:
        self._wait = 0.0
        user = getattr(request, "user", None)
        if request.method not in SAFE_METHODS or (user is not None and user.is_authenticated):
            return True
        rate = parse_rate(api_settings.DEFAULT_THROTTLE_RATES.get(SCOPE))
        if rate is None:
            return True
        limit, seconds = rate
        counted = SlidingWindow(f"throttle:{SCOPE}", seconds).count(f"ip:{client_address(request)}")
        wait = note_count(request, policy=SCOPE, limit=limit, seconds=seconds, counted=counted)
        if counted.used > limit:  # room again once one more would not go over (the RateLimit header's t)
            self._wait = wait
        return self._wait == 0

    def wait(self) -> float | None:
        return math.ceil(self._wait) if self._wait else None


class VisitorReadable:
    """A view whose GETs answer visitors too (throttled per address); its writes need an account."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    throttle_classes = [VisitorReadThrottle]
    throttled_methods = frozenset({"get"})  # what the schema declares 429 for: writes are not counted here
