"""The writes of the task-failure record: one failure kept (a short transaction of its own), old ones pruned."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .models import ARGS_MAX, MESSAGE_MAX, NAME_MAX, TRACEBACK_MAX, TaskFailure


def _clean(text: str) -> str:
    # PostgreSQL keeps no NUL character in text; an exception's message may hold one
    return text.replace("\x00", "\\x00")


def _head(text: str, limit: int) -> str:
    text = _clean(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _tail(text: str, limit: int) -> str:
    """The end of a traceback (where it was raised), cut at a line where it can be, saying so."""
    text = _clean(text)
    if len(text) <= limit:
        return text
    kept = text[-(limit - 40) :]
    kept = kept[kept.find("\n") + 1 :] if "\n" in kept else kept
    return f"… ({len(text) - len(kept)} characters cut)\n{kept}"


def task_failure_record(
    *,
    task_name: str,
    task_id: str,
    kind: str,
    args: str,
    kwargs: str,
    exception_type: str,
    exception_message: str,
    traceback: str,
    retries: int,
    worker: str,
    failed_at: dt.datetime | None = None,
) -> TaskFailure:
    """Keep one failed run of a task, every text cut to its column. Its own short transaction (a savepoint where
    the caller holds one open, as a task run in-process inside a request does)."""
    with transaction.atomic():
        return TaskFailure.objects.create(
            task_name=_head(task_name, NAME_MAX) or "unknown",
            task_id=_head(task_id, NAME_MAX) or "unknown",
            kind=kind,
            args=_head(args, ARGS_MAX),
            kwargs=_head(kwargs, ARGS_MAX),
            exception_type=_head(exception_type, NAME_MAX) or "unknown",
            exception_message=_head(exception_message, MESSAGE_MAX),
            traceback=_tail(traceback, TRACEBACK_MAX),
            retries=max(retries, 0),
            worker=_head(worker, NAME_MAX),
            failed_at=failed_at or timezone.now(),
        )


def task_failures_prune(*, now: dt.datetime | None = None) -> int:
    """Delete the failures older than ``PYRAMID_TASK_FAILURE_KEEP_DAYS``; the number deleted."""
    cutoff = (now or timezone.now()) - dt.timedelta(days=settings.PYRAMID_TASK_FAILURE_KEEP_DAYS)
    deleted, _ = TaskFailure.objects.filter(failed_at__lt=cutoff).delete()
    return deleted
