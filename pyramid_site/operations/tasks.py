"""Operations' Celery job: a few lines, safe to run twice."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task
def prune_task_failures() -> int:
    """Beat job (daily): delete the recorded task failures older than ``PYRAMID_TASK_FAILURE_KEEP_DAYS``."""
    return services.task_failures_prune()
