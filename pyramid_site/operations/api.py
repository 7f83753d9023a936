"""The task-failure record in the API, for operators (staff): the failures newest first, in pages, and one
failure with its traceback."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAdminUser
from rest_framework.response import Response
from rest_framework.views import APIView

from pyramid_site.api.error_schema import errors
from pyramid_site.api.pagination import cursor_page_parameters, cursor_paged, page_schema
from pyramid_site.api.params import choice_param, text_param
from pyramid_site.errors import Code, DomainError

from . import selectors
from .models import TaskFailure

TASK_FAILURE_KINDS = TaskFailure.Kind.values


class TaskFailureOutput(serializers.Serializer):
    """A failed run of a Celery task (``task_failure_output``); the traceback is in ``TaskFailureDetail``."""

    id = serializers.IntegerField()
    task_name = serializers.CharField(help_text="the task's registered name, e.g. games.tasks.solve_deal")
    task_id = serializers.CharField(help_text="Celery's id of this run")
    kind = serializers.ChoiceField(
        choices=TASK_FAILURE_KINDS,
        help_text="error: it raised; retries_exhausted: it "
        "retried up to its limit and raised again; soft_time_limit: stopped past its soft "
        "time limit; time_limit: its process killed past the hard one",
    )
    args = serializers.CharField(
        allow_blank=True, help_text="the positional arguments, as Python's repr (cut at 1,000 characters)"
    )
    kwargs = serializers.CharField(
        allow_blank=True, help_text="the keyword arguments, as Python's repr (cut at 1,000 characters)"
    )
    exception_type = serializers.CharField(help_text="e.g. ValueError, billiard.exceptions.TimeLimitExceeded")
    exception_message = serializers.CharField(allow_blank=True, help_text="cut at 2,000 characters")
    retries = serializers.IntegerField(min_value=0, help_text="retries made before this failure")
    worker = serializers.CharField(help_text="the worker that ran it (celery@host), or its host")
    failed_at = serializers.DateTimeField()
    same_failures = serializers.IntegerField(
        min_value=1, help_text="failures kept of the same task with the same exception type, this one included"
    )

    class Meta:
        ref_name = "TaskFailure"


class TaskFailureDetailOutput(TaskFailureOutput):
    """A failed run of a Celery task with its traceback (``task_failure_output(..., traceback=True)``)."""

    traceback = serializers.CharField(allow_blank=True, help_text="its last 10,000 characters where it is longer")

    class Meta:
        ref_name = "TaskFailureDetail"


def task_failure_output(failure: TaskFailure, *, traceback: bool = False) -> dict:
    body = {
        "id": failure.pk,
        "task_name": failure.task_name,
        "task_id": failure.task_id,
        "kind": failure.kind,
        "args": failure.args,
        "kwargs": failure.kwargs,
        "exception_type": failure.exception_type,
        "exception_message": failure.exception_message,
        "retries": failure.retries,
        "worker": failure.worker,
        "failed_at": failure.failed_at,
        "same_failures": failure.same_failures,
    }
    if traceback:
        body["traceback"] = failure.traceback
    return body


class TaskFailureListView(APIView):
    """Failed Celery tasks (raised, past a time limit, or given up after retries), newest first, in pages; each
    with how many failures of the same task and exception type are kept. Staff only."""

    permission_classes = [IsAdminUser]

    @extend_schema(
        parameters=[
            *cursor_page_parameters(),
            OpenApiParameter("task", str, description="only this task (its registered name)"),
            OpenApiParameter("exception", str, description="only this exception type, as `exception_type` writes it"),
            OpenApiParameter("kind", str, enum=TASK_FAILURE_KINDS, description="only this kind of failure"),
        ],
        responses={200: page_schema(TaskFailureOutput)},
        summary="Failed Celery tasks, newest first",
        operation_id="operations_task_failures_list",
    )
    def get(self, request):
        found = selectors.task_failures(
            task=text_param(request, "task"),
            exception=text_param(request, "exception"),
            kind=choice_param(request, "kind", TASK_FAILURE_KINDS),
        )
        return cursor_paged(request, found, task_failure_output, key=selectors.TASK_FAILURES_ORDER)


class TaskFailureView(APIView):
    """One failed Celery task with its traceback. Staff only."""

    permission_classes = [IsAdminUser]

    @extend_schema(
        responses={200: TaskFailureDetailOutput, **errors(Code.TASK_FAILURE_NOT_FOUND)},
        summary="One failed Celery task, with its traceback",
        operation_id="operations_task_failures_retrieve",
    )
    def get(self, request, failure_id: int):
        failure = selectors.task_failure(failure_id)
        if failure is None:
            raise DomainError(
                Code.TASK_FAILURE_NOT_FOUND,
                gettext("no task failure %(failure_id)s (failures are kept a limited time)")
                % {"failure_id": failure_id},
            )
        return Response(task_failure_output(failure, traceback=True))
