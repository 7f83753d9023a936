"""The record of failed Celery tasks: what a failure leaves (run in-process here; on a real worker in
test_worker.py), that recording never gets in the task's way, the retention, the staff-only API and the metric."""

from __future__ import annotations

import datetime as dt
import logging
import re

import pytest
from django.contrib.admin.sites import site
from django.db import IntegrityError, OperationalError, transaction
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from pyramid_site.operations import receivers, services
from pyramid_site.operations.models import ARGS_MAX, MESSAGE_MAX, TRACEBACK_MAX, TaskFailure
from pyramid_site.operations.tasks import prune_task_failures
from tests.support import UserFactory, client_for, metrics_scrape

from . import worker_tasks

pytestmark = pytest.mark.django_db
LIST = "/api/operations/task-failures/"


def run_in_process(task, *args, **kwargs):
    """The task run here as a worker runs it (a task run in-process whose error propagates to its caller leaves
    no record: Celery sends no signal then, and the caller has the error)."""
    result = task.apply(args, kwargs, throw=False)
    assert result.state == "FAILURE"
    return result


def failure(**fields) -> TaskFailure:
    values = {
        "task_name": "games.tasks.solve_deal",
        "task_id": "id-1",
        "kind": "error",
        "args": "(1,)",
        "kwargs": "{}",
        "exception_type": "ValueError",
        "exception_message": "no",
        "traceback": "Traceback",
        "retries": 0,
        "worker": "celery@here",
    }
    return services.task_failure_record(**(values | fields))


def test_a_task_that_raises_is_recorded_with_its_fields():
    result = run_in_process(worker_tasks.fail, "the deal is gone", size=0)
    assert isinstance(result.result, ValueError)
    recorded = TaskFailure.objects.get()
    assert recorded.task_name == "tests.operations.worker_tasks.fail"
    assert re.fullmatch(r"[0-9a-f-]{36}", recorded.task_id)
    assert recorded.kind == "error" and recorded.retries == 0
    assert recorded.args == "('the deal is gone',)" and recorded.kwargs == "{'size': 0}"
    assert recorded.exception_type == "ValueError" and recorded.exception_message == "the deal is gone"
    assert recorded.traceback.startswith("Traceback") and 'raise ValueError(message + "x" * size)' in recorded.traceback
    assert recorded.worker  # the host's name: a task run in-process has no worker name
    assert abs((timezone.now() - recorded.failed_at).total_seconds()) < 60


def test_long_arguments_messages_and_tracebacks_are_cut_to_size():
    run_in_process(worker_tasks.fail, "m" * 10, size=50_000)
    recorded = TaskFailure.objects.get()
    assert len(recorded.exception_message) == MESSAGE_MAX and recorded.exception_message.endswith("…")
    assert len(recorded.kwargs) <= ARGS_MAX
    long = failure(
        args=repr(tuple(range(5000))),
        traceback="frame\n" * 5000 + "ValueError: at the end",
        exception_message="nul \x00 inside",
    )
    assert len(long.args) == ARGS_MAX and len(long.traceback) <= TRACEBACK_MAX
    assert long.traceback.startswith("… (") and long.traceback.endswith("ValueError: at the end")
    assert TaskFailure.objects.get(pk=long.pk).exception_message == "nul \\x00 inside"


def test_the_kinds_of_failure():
    from celery.exceptions import MaxRetriesExceededError, SoftTimeLimitExceeded, TimeLimitExceeded

    kind = receivers.failure_kind
    assert kind(ValueError(), retries=0, max_retries=3) == "error"
    assert kind(ValueError(), retries=3, max_retries=3) == "retries_exhausted"
    assert kind(MaxRetriesExceededError(), retries=0, max_retries=None) == "retries_exhausted"
    assert kind(SoftTimeLimitExceeded(), retries=0, max_retries=3) == "soft_time_limit"
    assert kind(TimeLimitExceeded(5), retries=0, max_retries=3) == "time_limit"
    assert receivers.exception_type_name(TimeLimitExceeded(5)) == "billiard.exceptions.TimeLimitExceeded"
    assert receivers.exception_type_name(KeyError("k")) == "KeyError"


def test_an_exception_that_cannot_be_written_as_text_is_recorded_all_the_same():
    run_in_process(worker_tasks.fail_unreadably)
    recorded = TaskFailure.objects.get()
    assert recorded.exception_type == "tests.operations.worker_tasks.UnreadableError"
    assert recorded.exception_message  # its safe repr


def test_a_failure_to_record_never_gets_in_the_way_of_the_task(monkeypatch, caplog):
    def database_down(**fields):
        raise OperationalError("the database is not answering")

    monkeypatch.setattr(services, "task_failure_record", database_down)
    with caplog.at_level(logging.ERROR, logger="pyramid_site.operations.receivers"):
        result = run_in_process(worker_tasks.fail, "the task's own error")
    assert isinstance(result.result, ValueError)  # the task's failure, as it was
    assert not TaskFailure.objects.exists()
    assert "could not record the failure of task tests.operations.worker_tasks.fail" in caplog.text
    # the receiver itself never raises, whatever it is handed
    receivers.on_task_failure(sender=None, task_id=None, exception=None)


def test_a_record_the_database_refuses_leaves_the_callers_transaction_usable():
    """Where a transaction is open (a task run in-process inside one), the record is a savepoint of its own: a
    record refused does not spoil the caller's transaction."""
    with transaction.atomic():
        failure(task_id="kept", task_name="")  # a task without a name is kept as "unknown"
        with pytest.raises(IntegrityError):
            failure(kind="not-a-kind")  # refused by the check constraint
        assert TaskFailure.objects.count() == 1  # the transaction goes on
    assert TaskFailure.objects.get().task_name == "unknown"


def test_retention_deletes_only_the_failures_older_than_the_setting(settings):
    settings.PYRAMID_TASK_FAILURE_KEEP_DAYS = 30
    now = timezone.now()
    old = failure(failed_at=now - dt.timedelta(days=30, minutes=1))
    older = failure(failed_at=now - dt.timedelta(days=400))
    kept = [failure(failed_at=now - dt.timedelta(days=29, hours=23)), failure(failed_at=now)]
    assert prune_task_failures.delay().get() == 2
    assert sorted(TaskFailure.objects.values_list("pk", flat=True)) == sorted(f.pk for f in kept)
    assert not TaskFailure.objects.filter(pk__in=[old.pk, older.pk]).exists()
    assert prune_task_failures.delay().get() == 0  # safe to run again
    settings.PYRAMID_TASK_FAILURE_KEEP_DAYS = 1
    assert services.task_failures_prune(now=now + dt.timedelta(days=2)) == 2


def test_the_prune_job_is_on_the_beat_schedule(settings):
    jobs = {job["task"]: job for job in settings.CELERY_BEAT_SCHEDULE.values()}
    assert jobs["pyramid_site.operations.tasks.prune_task_failures"]["schedule"] > 0
    from pyramid_site.celery import app

    assert "pyramid_site.operations.tasks.prune_task_failures" in app.tasks


def test_staff_list_the_failures_newest_first_with_how_often_each_happened(staff):
    now = timezone.now()
    first = failure(task_id="a", failed_at=now - dt.timedelta(hours=3))
    failure(task_id="b", failed_at=now - dt.timedelta(hours=2))
    other = failure(
        task_id="c",
        task_name="games.tasks.settle_sequence",
        exception_type="KeyError",
        kind="retries_exhausted",
        retries=3,
        failed_at=now - dt.timedelta(hours=1),
    )
    api = client_for(staff)
    body = api.get(LIST).json()
    assert body["count"] == 3 and body["next"] is None and body["previous"] is None
    assert [row["task_id"] for row in body["results"]] == ["c", "b", "a"]
    assert [row["same_failures"] for row in body["results"]] == [1, 2, 2]
    row = body["results"][0]
    assert row == {
        "id": other.pk,
        "task_name": "games.tasks.settle_sequence",
        "task_id": "c",
        "kind": "retries_exhausted",
        "args": "(1,)",
        "kwargs": "{}",
        "exception_type": "KeyError",
        "exception_message": "no",
        "retries": 3,
        "worker": "celery@here",
        "failed_at": row["failed_at"],
        "same_failures": 1,
    }
    assert "traceback" not in row
    assert [r["task_id"] for r in api.get(LIST, {"task": "games.tasks.solve_deal"}).json()["results"]] == ["b", "a"]
    assert [r["task_id"] for r in api.get(LIST, {"exception": "KeyError"}).json()["results"]] == ["c"]
    assert [r["task_id"] for r in api.get(LIST, {"kind": "retries_exhausted"}).json()["results"]] == ["c"]
    page = api.get(LIST, {"limit": 1, "offset": 1}).json()
    assert [r["task_id"] for r in page["results"]] == ["b"] and page["next"] and page["previous"]
    # (a NUL byte is refused before any view reads the query: 400 bad_request, tests/security/test_doors.py)
    for query in ({"kind": "exploded"}, {"task": "x\x07y"}, {"exception": "e" * 300}, {"limit": 0}):
        refused = api.get(LIST, query)
        assert (refused.status_code, refused.json()["code"]) == (400, "bad_parameter"), query
    detail = api.get(f"{LIST}{first.pk}/").json()
    assert detail["traceback"] == "Traceback" and detail["same_failures"] == 2 and detail["task_id"] == "a"
    missing = api.get(f"{LIST}{other.pk + 100}/")
    assert (missing.status_code, missing.json()["code"]) == (404, "task_failure_not_found")
    assert api.get(f"{LIST}99999999999999999999/").status_code == 404


def test_the_failures_are_for_staff_only(player):
    recorded = failure()
    for url in (LIST, f"{LIST}{recorded.pk}/"):
        refused = client_for(player).get(url)
        assert (refused.status_code, refused.json()["code"]) == (403, "forbidden"), url
        anonymous = APIClient().get(url)
        assert (anonymous.status_code, anonymous.json()["code"]) == (401, "not_authenticated"), url
        assert "message" in anonymous.json()


def test_the_admin_lists_filters_and_searches_them():
    now = timezone.now()
    failure(task_id="a", failed_at=now - dt.timedelta(hours=1))
    failure(
        task_id="b",
        task_name="games.tasks.settle_sequence",
        exception_type="KeyError",
        exception_message="no candidate left",
    )
    admin_user = UserFactory(is_staff=True, is_superuser=True)
    admin_user.save()  # the factory leaves the password set in memory alone; the session checks its hash
    browser = Client()
    browser.force_login(admin_user)
    url = "/admin/operations/taskfailure/"
    listed = browser.get(url)
    assert listed.status_code == 200 and b"games.tasks.settle_sequence" in listed.content
    assert b"?task_name=" in listed.content and b"?exception_type=" in listed.content  # the filters
    filtered = browser.get(url, {"exception_type": "KeyError"}).content.decode()
    assert "no candidate left" in filtered and "id-1" not in filtered
    assert "no candidate left" in browser.get(url, {"q": "candidate"}).content.decode()
    assert not site._registry[TaskFailure].has_add_permission(None)


def test_metrics_count_the_last_days_failures_by_task_and_kind():
    failure()
    failure()
    failure(kind="time_limit", exception_type="billiard.exceptions.TimeLimitExceeded")
    failure(failed_at=timezone.now() - dt.timedelta(days=2))  # outside the day
    text = metrics_scrape()
    assert 'pyramid_task_failures_last_day{kind="error",task="games.tasks.solve_deal"} 2.0' in text
    assert 'pyramid_task_failures_last_day{kind="time_limit",task="games.tasks.solve_deal"} 1.0' in text
