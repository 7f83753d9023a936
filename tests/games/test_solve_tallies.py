"""The hourly solve tallies /metrics reads: solves stored at once by several workers all count, in the hour's
bucket of their time, against the real database (the first insert of an hour wins, the others add to it)."""

import datetime as dt
import threading

import pytest
from django.db import connection, connections
from django.utils import timezone

from games.models import SolveHour
from games.services.deals import solve_count

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL's concurrency"),
]


def test_solves_counted_at_once_in_a_fresh_hour_all_count():
    hour = timezone.now().replace(minute=0, second=0, microsecond=0) + dt.timedelta(hours=5)
    workers, each = 6, 20
    barrier = threading.Barrier(workers)
    failures = []

    def count(index):
        try:
            barrier.wait()
            for n in range(each):
                solve_count(at=hour + dt.timedelta(minutes=n % 60), seconds=0.02)
        except Exception as exc:  # noqa: BLE001 - reported below
            failures.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=count, args=(i,)) for i in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    tally = SolveHour.objects.get(hour=hour)
    assert tally.bucket == 1 and tally.solves == workers * each  # 0.02 s: the bucket up to 0.05 s
    assert tally.seconds == pytest.approx(0.02 * workers * each)
    solve_count(at=hour + dt.timedelta(hours=1), seconds=61.0)
    assert SolveHour.objects.get(hour=hour + dt.timedelta(hours=1)).bucket == 8  # past the last bound
