"""A creating request sent with an ``Idempotency-Key``, and the answer a retry of it is given."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

KEY_MAX = 255  # the longest key taken (docs/api.md, "Retries")
CALLER_MAX = 80


class IdempotencyKey(models.Model):
    """One key of one caller: the request it came with (its fingerprint) and the answer that request got.

    The row is claimed at the start of the request and answered at its end in the same transaction as the work,
    so a committed row always holds an answer (``status`` is null only inside that transaction), and work that
    committed always has its row. Only successful answers are kept: a refusal rolls the row back with the work."""

    caller = models.CharField(
        max_length=CALLER_MAX, help_text="user:ID, or ip:HASH of the client address for a caller with no account"
    )
    key = models.CharField(max_length=KEY_MAX)
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of the method, path and body, in hex")
    status = models.PositiveSmallIntegerField(null=True, help_text="the answer's status (2xx)")
    headers = models.JSONField(default=dict, help_text="the answer's own headers (Location)")
    body = models.TextField(blank=True, help_text="the answer's JSON body as it was sent (empty: no body)")
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["caller", "key"], name="idempotency_key_once_per_caller"),
            models.CheckConstraint(condition=~Q(key=""), name="idempotency_key_not_empty"),
            models.CheckConstraint(condition=~Q(caller=""), name="idempotency_key_has_caller"),
            models.CheckConstraint(
                condition=Q(status__isnull=True) | Q(status__gte=200, status__lt=300),
                name="idempotency_key_keeps_successes",
            ),
            models.CheckConstraint(
                condition=Q(expires_at__gt=models.F("created_at")), name="idempotency_key_expires_after_creation"
            ),
        ]
        indexes = [models.Index(fields=["expires_at"], name="idempotency_key_expires_at")]  # the purge

    def __str__(self) -> str:
        return f"{self.caller} {self.key!r} -> {self.status}"
