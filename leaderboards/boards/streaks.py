"""Daily streaks: runs of consecutive UTC days."""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

ONE_DAY = dt.timedelta(days=1)


class Streak(NamedTuple):
    current: int
    longest: int


def streak_of(days, *, today: dt.date) -> Streak:
    """``longest``: the longest run of consecutive days in ``days``. ``current``: the run that ends
    today, or yesterday when today has not been played yet (the streak is still alive until the
    day is over); 0 otherwise."""
    ordered = sorted(set(days))
    longest = run = 0
    previous = None
    for day in ordered:
        run = run + 1 if previous is not None and day - previous == ONE_DAY else 1
        longest = max(longest, run)
        previous = day
    current = run if previous is not None and today - previous <= ONE_DAY and previous <= today else 0
    return Streak(current=current, longest=longest)
