"""Celery's ``task_failure`` signal, turned into a :class:`TaskFailure` record.

The signal is sent by the process that ran the task when it raised (its own exception, ``SoftTimeLimitExceeded``
past the soft limit, or the last exception of a task that gave up retrying), and by the worker's main process when
the hard time limit killed the task's process (``TimeLimitExceeded``). Recording never raises: a record that cannot
be written (the database down, say) is logged, and the worker carries on with the task's failure as it was.
"""

from __future__ import annotations

import logging
import socket
import traceback as tb

from celery.exceptions import MaxRetriesExceededError, SoftTimeLimitExceeded, TimeLimitExceeded
from celery.utils.saferepr import saferepr
from django.db import connection

from . import services
from .models import ARGS_MAX, TaskFailure

log = logging.getLogger(__name__)


def exception_type_name(exception: BaseException) -> str:
    """``ValueError`` for a built-in exception, ``module.Name`` for any other; an exception Celery could not pickle
    is named by the class it wraps."""
    module = getattr(exception, "exc_module", None)  # celery's UnpickleableExceptionWrapper
    name = getattr(exception, "exc_cls_name", None)
    if not name:
        module, name = type(exception).__module__, type(exception).__qualname__
    return name if module in (None, "builtins") else f"{module}.{name}"


def _text(value) -> str:
    try:
        return str(value)
    except Exception:  # noqa: BLE001 - an exception whose str() fails still gets recorded
        return saferepr(value)


def failure_kind(exception: BaseException, *, retries: int, max_retries: int | None) -> str:
    if isinstance(exception, TimeLimitExceeded):
        return TaskFailure.Kind.TIME_LIMIT
    if isinstance(exception, SoftTimeLimitExceeded):
        return TaskFailure.Kind.SOFT_TIME_LIMIT
    if isinstance(exception, MaxRetriesExceededError) or (
        retries > 0 and max_retries is not None and retries >= max_retries
    ):
        return TaskFailure.Kind.RETRIES_EXHAUSTED
    return TaskFailure.Kind.ERROR


def on_task_failure(sender=None, task_id=None, exception=None, args=None, kwargs=None, traceback=None, einfo=None, **_):
    """The receiver of ``celery.signals.task_failure`` (connected in ``OperationsConfig.ready``)."""
    name = getattr(sender, "name", None) or "unknown"
    try:
        request = getattr(sender, "request", None)
        retries = int(getattr(request, "retries", 0) or 0)
        if einfo is not None and getattr(einfo, "traceback", None):
            trace = einfo.traceback
        elif exception is not None:
            trace = "".join(tb.format_exception(type(exception), exception, traceback))
        else:
            trace = ""
        message = _text(exception) if exception is not None else ""
        if not message and exception is not None:
            message = repr(exception)
        if not connection.in_atomic_block:
            # the task may have left its connection broken (a database error is a common failure): start afresh
            connection.close_if_unusable_or_obsolete()
        services.task_failure_record(
            task_name=name,
            task_id=str(task_id or getattr(request, "id", None) or "unknown"),
            kind=failure_kind(exception, retries=retries, max_retries=getattr(sender, "max_retries", None)),
            args=saferepr(tuple(args or ()), maxlen=ARGS_MAX),
            kwargs=saferepr(dict(kwargs or {}), maxlen=ARGS_MAX),
            exception_type=exception_type_name(exception) if exception is not None else "unknown",
            exception_message=message,
            traceback=trace,
            retries=retries,
            worker=getattr(request, "hostname", None) or socket.gethostname(),
        )
    except Exception:  # recording a failure must never fail the worker
        log.exception("could not record the failure of task %s[%s]", name, task_id)
