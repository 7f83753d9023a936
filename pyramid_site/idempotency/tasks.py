"""The keys' Celery job: a few lines, safe to run twice."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task
def purge_idempotency_keys() -> int:
    """Beat job: delete the keys kept past ``PYRAMID_IDEMPOTENCY_KEEP_HOURS``."""
    return services.keys_purge()
