"""Counts over a sliding window, kept in the shared cache (Redis in production) so that every web process and
worker sees one count.

Each window of ``seconds`` has a counter of its own, raised by the cache's atomic increment (Redis ``INCRBY``),
so two processes counting at once never lose one another's counts. The count over the last ``seconds`` is
estimated from two counters, the current window's and the previous one's weighted by the share of it still
inside the sliding window: no burst at a window's edge gets twice the allowance (as fixed windows give), and no
list of timestamps is read and written back (as DRF's own throttles do, losing counts between processes). A
token bucket would need a read-modify-write (a script on Redis); this needs increments alone.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.core.cache import cache


def wall_seconds() -> float:
    """The clock the windows run on (a test may set it)."""
    return time.time()


@dataclass(frozen=True, slots=True)
class Estimate:
    """The count over the sliding window ending now, from its two counters."""

    previous: int
    current: int
    elapsed: float  # seconds into the current window
    seconds: float  # the window's length

    @property
    def used(self) -> float:
        return self.previous * (1 - self.elapsed / self.seconds) + self.current

    def wait(self, limit: float) -> float:
        """Seconds until the count is under ``limit``, if nothing more is counted meanwhile (0 when it is)."""
        if self.used < limit:
            return 0.0
        if limit <= 0:  # nothing is ever under it: the two windows that hold the count
            return 2 * self.seconds - self.elapsed
        if self.current >= limit:  # only the next window's start, and then the weight of this one fading, will do
            return (self.seconds - self.elapsed) + self.seconds * (1 - limit / self.current)
        # the previous window's weight fades until the sum is under the limit
        return max(self.seconds * (1 - (limit - self.current) / self.previous) - self.elapsed, 0.0)


@dataclass(frozen=True, slots=True)
class SlidingWindow:
    name: str  # the counters' key prefix
    seconds: float

    def _slot(self, now: float) -> int:
        return int(now // self.seconds)

    def _key(self, ident: str, slot: int) -> str:
        return f"{self.name}:{self.seconds:g}:{ident}:{slot}"

    def estimates(self, idents: list[str], now: float | None = None) -> dict[str, Estimate]:
        """The counts of several idents, read in one round trip."""
        now = wall_seconds() if now is None else now
        slot = self._slot(now)
        keys = {ident: (self._key(ident, slot - 1), self._key(ident, slot)) for ident in idents}
        found = cache.get_many([key for pair in keys.values() for key in pair])
        elapsed = now - slot * self.seconds
        return {
            ident: Estimate(int(found.get(previous, 0)), int(found.get(current, 0)), elapsed, self.seconds)
            for ident, (previous, current) in keys.items()
        }

    def add(self, ident: str, amount: int, now: float | None = None) -> int:
        """Count ``amount`` more for ``ident`` now, atomically; the current window's counter after it."""
        now = wall_seconds() if now is None else now
        key = self._key(ident, self._slot(now))
        # kept while it may still be the previous window's counter
        timeout = int(2 * self.seconds) + 60
        for _ in range(3):
            try:
                counted = cache.incr(key, amount)
            except ValueError:  # no counter yet in this window (or it expired just now)
                if cache.add(key, amount, timeout=timeout):
                    return amount
                continue  # another process made it first: add to theirs
            return amount if counted is None else counted  # None: the cache is down, nothing was kept
        return amount

    def count(self, ident: str, amount: int = 1, now: float | None = None) -> Estimate:
        """Count ``amount`` more for ``ident`` now, and the estimate that includes it."""
        now = wall_seconds() if now is None else now
        current = self.add(ident, amount, now)
        before = self.estimates([ident], now)[ident]
        return Estimate(before.previous, max(current, before.current), before.elapsed, self.seconds)
