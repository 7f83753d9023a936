"""Reads of the task-failure record, newest first, each with how often its task failed the same way."""

from __future__ import annotations

from django.db.models import Count, IntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce

from .models import TaskFailure


def with_same_failures(found):
    """``same_failures`` on each row: the failures kept of the same task with the same exception type."""
    same = (
        TaskFailure.objects.filter(task_name=OuterRef("task_name"), exception_type=OuterRef("exception_type"))
        .order_by()
        .values("task_name")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return found.annotate(same_failures=Coalesce(Subquery(same, output_field=IntegerField()), Value(0)))


TASK_FAILURES_ORDER = ["-failed_at", "-id"]  # newest first; unique, for a cursor


def task_failures(*, task: str | None = None, exception: str | None = None, kind: str | None = None):
    found = TaskFailure.objects.order_by(*TASK_FAILURES_ORDER)
    if task:
        found = found.filter(task_name=task)
    if exception:
        found = found.filter(exception_type=exception)
    if kind:
        found = found.filter(kind=kind)
    return with_same_failures(found)


def task_failure(failure_id: int) -> TaskFailure | None:
    return with_same_failures(TaskFailure.objects.filter(pk=failure_id)).first()
