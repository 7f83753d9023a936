"""The operators' record of failed Celery tasks."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone

# the longest text kept of each part of a failure (longer ones are cut, saying so)
ARGS_MAX = 1000
MESSAGE_MAX = 2000
TRACEBACK_MAX = 10000
NAME_MAX = 255


class TaskFailure(models.Model):
    """One failed run of a Celery task: it raised, it was stopped or killed by its time limit, or it gave up
    retrying. Written by Celery's ``task_failure`` signal (``receivers``); read-only for operators."""

    class Kind(models.TextChoices):
        ERROR = "error"  # the task raised
        RETRIES_EXHAUSTED = "retries_exhausted"  # it retried up to its max_retries and raised again
        SOFT_TIME_LIMIT = "soft_time_limit"  # stopped by SoftTimeLimitExceeded (its transaction rolled back)
        TIME_LIMIT = "time_limit"  # past the hard limit: its process was killed

    task_name = models.CharField(max_length=NAME_MAX)
    task_id = models.CharField(max_length=NAME_MAX)
    kind = models.CharField(max_length=24, choices=Kind.choices)
    args = models.CharField(max_length=ARGS_MAX, blank=True, help_text="the positional arguments' repr, cut short")
    kwargs = models.CharField(max_length=ARGS_MAX, blank=True, help_text="the keyword arguments' repr, cut short")
    exception_type = models.CharField(
        max_length=NAME_MAX, help_text="e.g. ValueError, billiard.exceptions.TimeLimitExceeded"
    )
    exception_message = models.CharField(max_length=MESSAGE_MAX, blank=True)
    traceback = models.CharField(max_length=TRACEBACK_MAX, blank=True, help_text="its last lines, where it is long")
    retries = models.IntegerField(default=0, help_text="retries made before this failure")
    worker = models.CharField(max_length=NAME_MAX, help_text="the worker's name (celery@host), or the host's")
    failed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=~Q(task_name=""), name="task_failure_has_task_name"),
            models.CheckConstraint(condition=~Q(task_id=""), name="task_failure_has_task_id"),
            models.CheckConstraint(condition=~Q(exception_type=""), name="task_failure_has_exception_type"),
            models.CheckConstraint(
                condition=Q(kind__in=["error", "retries_exhausted", "soft_time_limit", "time_limit"]),
                name="task_failure_kind_valid",
            ),
            models.CheckConstraint(condition=Q(retries__gte=0), name="task_failure_retries_not_negative"),
        ]
        indexes = [
            models.Index(fields=["failed_at"], name="task_failure_failed_at"),  # the list, and the pruning
            models.Index(fields=["task_name", "exception_type", "failed_at"], name="task_failure_same_kind"),
        ]
        ordering = ["-failed_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.task_name}[{self.task_id}]: {self.exception_type}: {self.exception_message[:80]}"
