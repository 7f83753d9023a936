"""Failures on a real Celery worker (prefork, one process) and Redis: a task that raises, one that gives up
retrying and one killed by its hard time limit are recorded; a failure that cannot be recorded (its process lost
the database) leaves the worker running.

Nothing is slept for: a failure record is waited for by its database notification (a trigger the tests add), and
"nothing more will be written" by the result of a task sent after (the worker runs one task at a time)."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid

import psycopg
import pytest
from celery.exceptions import SoftTimeLimitExceeded, TimeLimitExceeded
from django.conf import settings
from django.db import connection

from pyramid_site.celery import app as celery_app
from pyramid_site.operations.models import TaskFailure

from . import worker_tasks

pytestmark = [
    pytest.mark.real_clock,  # a real worker reads its own clock
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not settings.REDIS_URL or connection.vendor != "postgresql", reason="needs REDIS_URL and PostgreSQL"
    ),
]


@pytest.fixture(scope="module")
def worker_queue(django_db_setup):
    """A worker of its own queue: prefork (time limits are the pool's), one process, a fresh process per task
    (so a task that breaks its process's database leaves nothing behind), the tests' tasks imported."""
    queue = f"test-{uuid.uuid4().hex[:8]}"
    db = connection.settings_dict
    env = os.environ | {
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REDIS_URL": settings.REDIS_URL,
        "CELERY_QUEUE": queue,
        "CELERY_TASK_ALWAYS_EAGER": "false",
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "pyramid_site",
            "worker",
            "--pool",
            "prefork",
            "--concurrency",
            "1",
            "--max-tasks-per-child",
            "1",
            "-Q",
            queue,
            "--include",
            "tests.operations.worker_tasks",
            "--loglevel",
            "WARNING",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
        ],
        env=env,
        cwd=settings.BASE_DIR,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield queue
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture
def queue(worker_queue):
    celery_app.conf.task_always_eager = False
    return worker_queue


def settled(queue: str) -> None:
    """Wait until every task sent to the worker so far is over, its failure record included (the result of a task
    sent after them: ``worker_tasks.barrier``)."""
    assert worker_tasks.barrier.apply_async(queue=queue).get(timeout=60) == "after"


@pytest.fixture
def failures_written(queue):
    """A connection that hears of every failure record as it is written: a trigger of the test database notifies
    ``task_failure`` with the task's id (a run's record is written after its result is stored, so the result
    alone does not say it is there). Listening starts before the test sends anything."""
    table = TaskFailure._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"""
            CREATE OR REPLACE FUNCTION test_notify_task_failure() RETURNS trigger AS $$
            BEGIN PERFORM pg_notify('task_failure', NEW.task_id); RETURN NEW; END $$ LANGUAGE plpgsql;
            DROP TRIGGER IF EXISTS test_notify_task_failure ON {table};
            CREATE TRIGGER test_notify_task_failure AFTER INSERT ON {table}
                FOR EACH ROW EXECUTE FUNCTION test_notify_task_failure();""")
    db = connection.settings_dict
    listener = psycopg.connect(
        host=db["HOST"],
        port=db["PORT"],
        user=db["USER"],
        password=db["PASSWORD"] or None,
        dbname=db["NAME"],
        autocommit=True,
    )
    listener.execute("LISTEN task_failure")
    yield listener
    listener.close()
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TRIGGER IF EXISTS test_notify_task_failure ON {table}")


def recorded(task_id: str, listener, timeout: float = 60.0) -> TaskFailure:
    """The record of a run: there already, or waited for until its trigger's notification comes."""
    found = TaskFailure.objects.filter(task_id=task_id).first()
    if found is None:
        heard = [note.payload for note in listener.notifies(timeout=timeout, stop_after=1)]
        while heard and heard[-1] != task_id:  # another task's record: wait on for this one's
            heard += [note.payload for note in listener.notifies(timeout=timeout, stop_after=1)]
        assert heard, f"no failure recorded for task {task_id} within {timeout} s"
        found = TaskFailure.objects.filter(task_id=task_id).first()
    assert found is not None, f"no failure recorded for task {task_id}"
    return found


def test_a_task_that_raises_on_the_worker_is_recorded(queue, failures_written):
    result = worker_tasks.fail.apply_async(("the worker failed",), {"size": 3}, queue=queue)
    with pytest.raises(ValueError, match="the worker failed"):
        result.get(timeout=60)
    failure = recorded(result.id, failures_written)
    assert failure.task_name == "tests.operations.worker_tasks.fail" and failure.kind == "error"
    assert failure.args == "('the worker failed',)" and failure.kwargs == "{'size': 3}"
    assert failure.exception_type == "ValueError" and failure.exception_message == "the worker failedxxx"
    assert "worker_tasks.py" in failure.traceback and failure.worker.startswith("celery@")
    assert failure.retries == 0


def test_a_task_that_gives_up_retrying_is_recorded_once(queue, failures_written):
    result = worker_tasks.fail_then_give_up.apply_async(("still missing",), queue=queue)
    with pytest.raises(LookupError):
        result.get(timeout=60)
    failure = recorded(result.id, failures_written)
    assert failure.kind == "retries_exhausted" and failure.retries == 2
    assert failure.exception_type == "LookupError" and failure.exception_message == "still missing"
    settled(queue)  # the worker has run everything sent before: a second record would be there by now
    assert TaskFailure.objects.filter(task_id=result.id).count() == 1  # the retries themselves are not failures


def test_a_task_past_its_soft_time_limit_is_recorded(queue, failures_written):
    result = worker_tasks.stop_at_the_soft_limit.apply_async((30,), queue=queue, soft_time_limit=1, time_limit=20)
    with pytest.raises(SoftTimeLimitExceeded):
        result.get(timeout=60)
    failure = recorded(result.id, failures_written)
    assert failure.kind == "soft_time_limit"
    assert failure.exception_type == "billiard.exceptions.SoftTimeLimitExceeded"


def test_a_task_killed_by_its_hard_time_limit_is_recorded(queue, failures_written):
    result = worker_tasks.outlive_the_time_limit.apply_async((30,), queue=queue, soft_time_limit=1, time_limit=2)
    with pytest.raises(TimeLimitExceeded):
        result.get(timeout=60)
    failure = recorded(result.id, failures_written)
    assert failure.task_name == "tests.operations.worker_tasks.outlive_the_time_limit"
    assert failure.kind == "time_limit" and failure.exception_type == "billiard.exceptions.TimeLimitExceeded"
    assert failure.args == "(30,)" and failure.worker  # the worker's main process wrote it, after the kill


def test_a_failure_that_cannot_be_recorded_leaves_the_worker_running(queue, failures_written):
    lost = worker_tasks.fail_with_the_database_gone.apply_async(("unrecordable",), queue=queue)
    with pytest.raises(ValueError, match="unrecordable"):  # the task's own failure, as it was
        lost.get(timeout=60)
    after = worker_tasks.fail.apply_async(("the next one",), queue=queue)
    with pytest.raises(ValueError, match="the next one"):
        after.get(timeout=60)
    # the worker went on, and records again
    assert recorded(after.id, failures_written).exception_message == "the next one"
    assert not TaskFailure.objects.filter(task_id=lost.id).exists()
