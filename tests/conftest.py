"""Fixtures every folder of the service tests may use (the helpers behind them are in ``tests/support.py``).

Every test runs under a pinned clock (``pinned_clock``, autouse): noon UTC of the day the session started, running
on at its real pace, for every reader of the time in this process (``date.today``, ``datetime.now``,
``django.utils.timezone.now``, ``pyramid_site.clock.utc_today``, ``time.time``; ``time.monotonic`` is left alone).
No test crosses a UTC midnight, whenever it runs. The browser tests' Chromium reads it too (tests/web/conftest.py
installs Playwright's clock at the pinned time). Tests whose other processes read their own clock (a real Celery
worker, a second server) are marked ``real_clock`` and run on the machine's. ``tests/test_pinned_clock.py``
runs date-reading tests starting a moment before midnight, pinned and not, to prove it (the two environment
variables below are for that test).

A folder turns on what it needs in its own conftest: ``service_settings`` (the tests' settings) and the
after-test checks ``logs_replay_check`` and ``board_counts_check``. A test that edits rows behind the
services' back on purpose (the fair-play re-check's doctored results) is marked
``rows_edited_behind_the_services`` and skips those checks.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os

import pytest
import time_machine
from celery._state import _set_task_join_will_block

import engine
from pyramid_site.celery import app as celery_app

from .support import (
    PAR,
    TEST_DAILY_SECRET,
    TEST_TOURNAMENT_SECRET,
    WINNABLE_ONE_LOOK,
    WINNING_LINE,
    UserFactory,
    check_board_counts,
    check_logs_replay,
    client_for,
    database_for_check,
)

EDITED_BEHIND = "rows_edited_behind_the_services"
REAL_CLOCK = "real_clock"

# The session's day, at noon UTC: what every test's clock starts at (pinned_clock)
PINNED = dt.datetime.combine(dt.datetime.now(dt.UTC).date(), dt.time(12), tzinfo=dt.UTC)
# For tests/test_pinned_clock.py: each test starts with the machine's clock at this time of the session's day
# (say 23:59:59.999, a moment before midnight), and with PYRAMID_TEST_CLOCK_UNPINNED=1 without the pin on top
CLOCK_START = os.environ.get("PYRAMID_TEST_CLOCK_START", "")
UNPINNED = os.environ.get("PYRAMID_TEST_CLOCK_UNPINNED") == "1"


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        f"{EDITED_BEHIND}: the test changes rows behind the services on purpose; "
        "the after-test invariant checks are skipped",
    )
    config.addinivalue_line(
        "markers",
        f"{REAL_CLOCK}: the test runs on the machine's clock, not the pinned one "
        "(its other processes read their own clock)",
    )


@pytest.fixture(autouse=True)
def pinned_clock(request):
    """The test's clock: PINNED, running on (see the module's docstring)."""
    with contextlib.ExitStack() as clocks:
        if CLOCK_START:
            started = dt.datetime.combine(PINNED.date(), dt.time.fromisoformat(CLOCK_START), tzinfo=dt.UTC)
            clocks.enter_context(time_machine.travel(started, tick=True))
        if not UNPINNED and request.node.get_closest_marker(REAL_CLOCK) is None:
            clocks.enter_context(time_machine.travel(PINNED, tick=True))
        yield PINNED


@pytest.fixture
def service_settings(settings):
    """Tasks in-process, a private cache (throttle counts), the Redis board cache off unless a test
    turns it on, known secrets, quick test-only password hashes, small solver budgets."""
    from django.core.cache import cache

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.PYRAMID_BOARD_REDIS_URL = ""
    settings.PYRAMID_LIVE_REDIS_URL = ""  # live events on the in-process bus unless a test turns Redis on
    settings.PYRAMID_DAILY_SECRET = TEST_DAILY_SECRET
    settings.PYRAMID_TOURNAMENT_SECRET = TEST_TOURNAMENT_SECRET
    settings.PYRAMID_SOLVE_BUDGET_SECONDS = 10.0
    settings.PYRAMID_HINT_BUDGET_SECONDS = 5.0
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # a test of hashing sets its own
    # the service's tests play their games at machine speed: the speed rule's own tests turn it on
    settings.PYRAMID_FLAG_FASTEST_MOVE_MS = 0
    cache.clear()
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield settings
    celery_app.conf.task_always_eager = eager
    # Celery marks "inside a task" in one process-wide flag that each in-process task sets and puts back;
    # tasks run at once in several threads (games finishing together) can leave it set, and a later test
    # waiting on a real worker's result would be refused
    _set_task_join_will_block(False)


def _checked_after(request) -> bool:
    return database_for_check(request) and request.node.get_closest_marker(EDITED_BEHIND) is None


@pytest.fixture
def logs_replay_check(request):
    """After the test, if it touched the database: every game's move log replays to its stored state."""
    check = _checked_after(request)
    yield
    if check:
        check_logs_replay()


@pytest.fixture
def board_counts_check(request):
    """After the test, if it touched the database: every daily board's counts add up to its results."""
    check = _checked_after(request)
    yield
    if check:
        check_board_counts()


@pytest.fixture(scope="session")
def winning_line() -> list[str]:
    """WINNING_LINE, proved by the engine to win WINNABLE_ONE_LOOK under one-look in PAR moves."""
    replayed = engine.replay(engine.deal_from_number(WINNABLE_ONE_LOOK), engine.preset("one-look"), WINNING_LINE)
    assert replayed.ok and replayed.position.status == "won" and replayed.position.moves == PAR
    return list(WINNING_LINE)


@pytest.fixture
def player(db):
    return UserFactory()


@pytest.fixture
def other_player(db):
    return UserFactory()


@pytest.fixture
def users(db):
    return [UserFactory() for _ in range(8)]


@pytest.fixture
def staff(db):
    return UserFactory(is_staff=True)


@pytest.fixture
def api(player):
    """An API client logged in as ``player``."""
    return client_for(player)


@pytest.fixture
def schema_conformance_check(settings):
    """Every answer of an operation of the OpenAPI schema, checked against the schema while the test runs
    (``tests/conformance.py``): the test fails on an undeclared status or code, a body the schema does not describe,
    or a header sent but not declared (the check goes first in the stack: it sees every header)."""
    from . import conformance

    settings.MIDDLEWARE = [conformance.MIDDLEWARE, *settings.MIDDLEWARE]
    conformance.problems.clear()
    yield
    found, conformance.problems[:] = list(conformance.problems), []
    assert found == [], "answers that differ from the OpenAPI schema:\n" + "\n".join(found[:20])
