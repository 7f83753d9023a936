"""What several benchmarks (and the tests) share: fresh PostgreSQL databases of their own, a seeded player, and
the service's clock set to a moment."""

from __future__ import annotations

import contextlib
import datetime as dt
import time
import types
from unittest import mock

import psycopg


# Load scripts play far faster than a person, from one address: the throttles on starting games and on moves
# (docs/fair-play.md, "Security") lifted for them, so that they measure the service and not its limits
UNTHROTTLED_PLAY = {f"PYRAMID_THROTTLE_{scope}": "1000000/min"
                    for scope in ("GAME_START", "GAME_START_ADDRESS", "MOVE", "MOVE_ADDRESS")}


def database_recreate(pg: str, name: str) -> None:
    """An empty database ``name`` on the server of ``pg`` (dropped first when it is there)."""
    with psycopg.connect(f"{pg}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def database_drop(pg: str, name: str) -> None:
    with psycopg.connect(f"{pg}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def seeded_line(position, rng) -> list[str]:
    """A whole game from ``position`` (played on a copy) by a seeded player that removes a pair whenever it can."""
    position, line = position.copy(), []
    while position.status == "playing":
        moves = position.legal_moves()
        removals = [m for m in moves if m.is_removal]
        move = rng.choice(removals) if removals else moves[0]
        position.apply(move)
        line.append(str(move))
    return line


@contextlib.contextmanager
def clock_at(moment: dt.datetime):
    """Inside the block the service's clock starts at ``moment`` and runs on at its real pace: both the
    moment (``django.utils.timezone.now``, which every service, every ``auto_now`` field and every window
    check reads) and the day (``pyramid_site.clock.utc_today``). A past day's games are played during
    that day, as they were; a window's end is passed as time passes, with no row edited."""
    started = time.monotonic()

    def now() -> dt.datetime:
        return moment + dt.timedelta(seconds=time.monotonic() - started)

    class Datetime:  # what pyramid_site.clock reads of the datetime class
        combine = staticmethod(dt.datetime.combine)

        @staticmethod
        def now(tz=None):
            return now().astimezone(tz)

    moved = types.SimpleNamespace(datetime=Datetime, time=dt.time, timedelta=dt.timedelta, timezone=dt.timezone,
                                  UTC=dt.UTC)
    with mock.patch("django.utils.timezone.now", now), mock.patch("pyramid_site.clock.dt", moved):
        yield
