"""Tasks that fail on purpose, for the task-failure tests: imported by the tests and by the real worker they
start (``celery worker --include tests.operations.worker_tasks``). Not part of the service. Their results are kept
(the service's own tasks keep none): the tests wait on them."""

from __future__ import annotations

import time

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import connection


class UnreadableError(Exception):
    def __str__(self):
        raise RuntimeError("this exception cannot be written as text")


@shared_task(ignore_result=False)
def barrier() -> str:
    """Does nothing. The tests' worker runs one task at a time, each in a process of its own that ends with it
    (``--concurrency 1 --max-tasks-per-child 1``), so by the time this one's result is stored every task sent
    before it is over, its failure signal and record included: its result is the event the tests wait for."""
    return "after"


@shared_task(ignore_result=False)
def fail(message: str, *, size: int = 0) -> None:
    raise ValueError(message + "x" * size)


@shared_task(ignore_result=False)
def fail_unreadably() -> None:
    raise UnreadableError()


@shared_task(ignore_result=False, bind=True, max_retries=2, default_retry_delay=0)
def fail_then_give_up(self, message: str) -> None:
    raise self.retry(exc=LookupError(message), countdown=0)


@shared_task(ignore_result=False)
def outlive_the_time_limit(seconds: float) -> str:
    """Sleeps through its soft time limit (it catches SoftTimeLimitExceeded): only the hard limit stops it."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            time.sleep(0.05)
        except SoftTimeLimitExceeded:
            pass
    return "outlived"


@shared_task(ignore_result=False)
def stop_at_the_soft_limit(seconds: float) -> str:
    time.sleep(seconds)
    return "not stopped"


@shared_task(ignore_result=False)
def fail_with_the_database_gone(message: str) -> None:
    """Takes the database away from its own process (a port nothing listens on), then fails: its failure cannot
    be recorded. Run by a worker whose processes each run one task (``--max-tasks-per-child 1``)."""
    connection.close()
    connection.settings_dict["PORT"] = 1
    raise ValueError(message)
