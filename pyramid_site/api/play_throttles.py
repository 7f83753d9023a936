"""Game creation and moves, throttled per account and per client address at once, at rates a person never
reaches (a program does): scope ``S`` of ``DEFAULT_THROTTLE_RATES`` is the account's rate, ``S_address`` the
address's, either ``None`` for none. Counted in the shared cache with atomic increments over a sliding window
(``sliding_window``), so several web processes see one count and a request that is refused counts too."""

from __future__ import annotations

import math

from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from pyramid_site.client import client_address
from pyramid_site.sliding_window import Estimate, SlidingWindow

from .rate_limits import note

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(text: str | None) -> tuple[int, int] | None:
    """ "120/min" as (120, 60); None for no limit."""
    if text is None:
        return None
    count, period = text.split("/")
    return int(count), _PERIODS[period[0]]


def note_count(request, *, policy: str, limit: int, seconds: int, counted: Estimate) -> float:
    """Note a sliding window's count for the RateLimit headers (``rate_limits``): ``r`` the requests that fit
    under ``limit`` now; ``t`` the seconds until one more than that fits (the counts fading), which with ``r=0``
    is the wait before the next request is taken (at least a second): that wait, 0 when ``r`` is not 0."""
    remaining = max(math.floor(limit - counted.used), 0)
    # the instant the count reaches the level that lets one more in (a hair less: float error at exact bounds)
    reset = max(counted.wait(limit - remaining - 1) - 1e-9, 0.0)
    if remaining == 0:
        reset = max(reset, 1.0)
    note(request, policy=policy, quota=limit, window=seconds, remaining=remaining, reset=reset)
    return reset if remaining == 0 else 0.0


class AccountAndAddressThrottle(BaseThrottle):
    """The view's ``throttle_scope`` counted for the account (policy ``S``) and for the client address
    (``S_address``)."""

    def __init__(self):
        self._wait = 0.0

    def policies(self, view) -> list[str]:
        """The policies it counts ``view``'s requests by: the account's (signed in) and the address's (declared
        whether or not they have a rate now)."""
        return [view.throttle_scope, f"{view.throttle_scope}_address"]

    def allow_request(self, request, view) -> bool:
        scope, rates = view.throttle_scope, api_settings.DEFAULT_THROTTLE_RATES
        user = getattr(request, "user", None)
        counters = [(f"ip:{client_address(request)}", f"{scope}_address")]
        if user is not None and user.is_authenticated:
            counters.append((f"user:{user.pk}", scope))
        self._wait = 0.0
        for ident, policy in counters:
            rate = parse_rate(rates.get(policy))
            if rate is None:
                continue
            limit, seconds = rate
            counted = SlidingWindow(f"throttle:{scope}", seconds).count(ident)
            wait = note_count(request, policy=policy, limit=limit, seconds=seconds, counted=counted)
            if counted.used > limit:  # room again once one more would not go over
                self._wait = max(self._wait, wait)
        return self._wait == 0

    def wait(self) -> float | None:
        return math.ceil(self._wait) if self._wait else None
