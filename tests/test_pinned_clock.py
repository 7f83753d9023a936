"""Every test runs under a pinned clock (``pinned_clock`` in tests/conftest.py): noon UTC of the session's day.

The proof runs date-reading tests in a pytest of their own whose every test starts with the machine's clock a
millisecond before midnight (``PYRAMID_TEST_CLOCK_START``): pinned, they pass; with the pin taken away
(``PYRAMID_TEST_CLOCK_UNPINNED=1``) the day turns under them and one of them fails, which shows the proof can fail
and what the pin saves them from (tried from a few starts, the earliest 40 ms before midnight, as the turn has to
fall between two of its reads). The child runs on a test database of its own (this one's name and
``_midnight``), kept between runs (``--reuse-db``).
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone

from pyramid_site.clock import utc_today

from .conftest import PINNED

ROOT = Path(__file__).resolve().parents[1]
BEFORE_MIDNIGHT = "23:59:59.999"
# tests that read today's date more than once, a moment apart, through the services and in the test itself
PINNED_SAMPLE = (
    "tests/games/test_daily.py::test_beat_job_fills_the_open_days",
    "tests/games/test_daily.py::test_daily_api_reveals_a_deal_only_in_its_time",
    "tests/games/test_daily_ready.py",
)
# the one of them that fails when the day turns under it, and the times its tries start at
UNPINNED_SAMPLE = ("tests/games/test_daily.py::test_beat_job_fills_the_open_days",)
UNPINNED_STARTS = (BEFORE_MIDNIGHT, "23:59:59.995", "23:59:59.990", "23:59:59.980", "23:59:59.960")


def test_every_reader_of_the_time_reads_the_pinned_day():
    assert PINNED.time() == dt.time(12) and PINNED.tzinfo == dt.UTC
    assert utc_today() == dt.date.today() == timezone.now().date() == dt.datetime.now(dt.UTC).date() == PINNED.date()
    now = timezone.now()
    assert PINNED <= now < PINNED + dt.timedelta(hours=1)  # running on from noon, at the real pace
    assert abs(time.time() - now.timestamp()) < 1


def run_sample(tests: tuple[str, ...], **env: str) -> subprocess.CompletedProcess:
    test_db = os.environ.get("DATABASE_TEST_NAME") or "test_pyramid"
    child = {key: value for key, value in os.environ.items() if not key.startswith("PYRAMID_TEST_CLOCK_")}
    child |= {"DATABASE_TEST_NAME": f"{test_db}_midnight", "PYRAMID_TEST_CLOCK_START": BEFORE_MIDNIGHT} | env
    return subprocess.run(
        [sys.executable, "-m", "pytest", *tests, "-q", "-p", "no:cacheprovider", "--reuse-db"],
        cwd=ROOT,
        env=child,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"),
    reason="the child's test database of its own needs a database server",
)
def test_date_reading_tests_pass_when_the_machine_clock_crosses_midnight_and_fail_without_the_pin():
    pinned = run_sample(PINNED_SAMPLE)
    assert pinned.returncode == 0 and " passed" in pinned.stdout and "failed" not in pinned.stdout, (
        pinned.stdout[-3000:] + pinned.stderr[-2000:]
    )
    # the day has to turn between two of the test's reads, a few milliseconds apart: a loaded machine may take
    # longer than the first start's millisecond to reach the first read, so the later tries start earlier
    tries = []
    for start in UNPINNED_STARTS:
        unpinned = run_sample(UNPINNED_SAMPLE, PYRAMID_TEST_CLOCK_UNPINNED="1", PYRAMID_TEST_CLOCK_START=start)
        tries.append(f"{start}: {unpinned.stdout[-1500:]}{unpinned.stderr[-1000:]}")
        assert unpinned.returncode in (0, 1), tries[-1]
        if unpinned.returncode == 1:
            break
    assert unpinned.returncode == 1 and "1 failed" in unpinned.stdout, "\n".join(tries)


def kernel_time(folder: Path) -> float:
    """The machine's time as the kernel stamps a file it writes, which no clock in this process can move."""
    stamp = folder / "now"
    stamp.write_text("")
    return stamp.stat().st_mtime


@pytest.mark.real_clock
def test_a_test_marked_real_clock_reads_the_machines_clock(tmp_path):
    assert abs(time.time() - kernel_time(tmp_path)) < 5


def test_a_test_reads_the_pinned_clock_not_the_machines(tmp_path):
    machine = dt.datetime.fromtimestamp(kernel_time(tmp_path), dt.UTC)
    if abs(machine - PINNED) < dt.timedelta(hours=1):
        pytest.skip("the machine's clock is within the hour after noon, where the pinned one is too")
    assert abs(time.time() - machine.timestamp()) > 3000 and utc_today() == PINNED.date()
