"""The writes of the idempotency keys: a key claimed for a request, its answer kept, a claim let go, old keys
purged. Claiming and answering run inside the caller's transaction, the one that does the work: the key and the
work commit together or not at all."""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Iterator

from django.conf import settings
from django.db import OperationalError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext

from pyramid_site.errors import Code, DomainError

from .models import IdempotencyKey

LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's SQLSTATE for a lock_timeout that ran out


@contextlib.contextmanager
def _lock_wait(seconds: float) -> Iterator[None]:
    """Wait at most ``seconds`` for a row lock (PostgreSQL's ``lock_timeout``, set inside the caller's savepoint:
    put back after it, and undone with it when it rolls back); SQLite has one writer at a time and no such
    setting."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('lock_timeout')")
        before = cursor.fetchone()[0]
        cursor.execute("SELECT set_config('lock_timeout', %s, true)", [f"{max(int(seconds * 1000), 1)}ms"])
    yield
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('lock_timeout', %s, true)", [before])


def key_claim(*, caller: str, key: str, fingerprint: str) -> tuple[IdempotencyKey, bool]:
    """The caller's key for this request, and whether it is new (then this request does the work, and
    ``key_answer`` keeps its answer before the transaction commits). A key sent before with the same request
    (``fingerprint``) is its kept answer; with another request, 422 ``idempotency_key_reused``. While another
    transaction holds the key (its request is being answered) this waits for it, up to
    ``PYRAMID_IDEMPOTENCY_WAIT_SECONDS``, then 409 ``idempotency_key_in_flight``. A key kept past its time is
    taken as new."""
    if not connection.in_atomic_block:
        raise RuntimeError("a key is claimed inside the transaction of the work it records")
    now = timezone.now()
    expires_at = now + dt.timedelta(hours=settings.PYRAMID_IDEMPOTENCY_KEEP_HOURS)
    try:
        # a savepoint: a lock wait that runs out undoes this claim alone, not the caller's transaction
        with transaction.atomic(), _lock_wait(settings.PYRAMID_IDEMPOTENCY_WAIT_SECONDS):
            for _ in range(2):
                # the insert waits on the unique index while another transaction holds the same key uncommitted,
                # then finds the row it committed (or makes its own, if that one rolled back)
                record, created = IdempotencyKey.objects.get_or_create(
                    caller=caller,
                    key=key,
                    defaults={"fingerprint": fingerprint, "created_at": now, "expires_at": expires_at},
                )
                if created or record.expires_at > now:
                    break
                IdempotencyKey.objects.filter(pk=record.pk, expires_at__lte=now).delete()  # out of time: anew
    except OperationalError as exc:
        if getattr(exc.__cause__, "sqlstate", None) != LOCK_NOT_AVAILABLE:
            raise
        wait = max(round(settings.PYRAMID_IDEMPOTENCY_WAIT_SECONDS), 1)
        raise DomainError(
            Code.IDEMPOTENCY_KEY_IN_FLIGHT,
            gettext("a request with this Idempotency-Key is still being answered: send it again in a moment"),
            retry_after_seconds=wait,
        ) from None
    if record.fingerprint != fingerprint:
        raise DomainError(
            Code.IDEMPOTENCY_KEY_REUSED,
            gettext("this Idempotency-Key was sent before with another request: use a new key for a new request"),
        )
    return record, created


def key_answer(*, record: IdempotencyKey, status: int, headers: dict[str, str], body: str) -> None:
    """Keep the answer of the request that claimed ``record`` (in its transaction)."""
    record.status, record.headers, record.body = status, headers, body
    record.save(update_fields=["status", "headers", "body"])


def key_release(*, record: IdempotencyKey) -> None:
    """Let the claim go (the request was refused: a retry may do the work)."""
    IdempotencyKey.objects.filter(pk=record.pk).delete()


def keys_purge(*, now: dt.datetime | None = None) -> int:
    """Delete the keys past their time; how many."""
    deleted, _ = IdempotencyKey.objects.filter(expires_at__lte=now or timezone.now()).delete()
    return deleted
