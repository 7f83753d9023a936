"""Accounts are Django's users; a guest account is one the server made for a visitor who played at once,
without signing up. Its :class:`Guest` row says so, and stays when the guest signs up (``signed_up_at``), so
that the account's start as a guest is kept."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

# the names the server gives guests: "guest-" and eight letters or digits; nobody signs up with "guest-..."
GUEST_PREFIX = "guest-"
GUEST_NAME_PATTERN = r"^guest-[0-9a-z]{8}$"


class Guest(models.Model):
    """An account made for a visitor on their first game, kept by the token in their browser. It has no
    password (nobody can log in to it) until the guest signs up, which names the same account."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="guest"
    )
    name = models.CharField(max_length=14, unique=True, help_text="the name the server gave it (guest-XXXXXXXX)")
    created_at = models.DateTimeField(default=timezone.now)
    signed_up_at = models.DateTimeField(
        null=True, blank=True, help_text="when the guest signed up (then the account is a named one)"
    )

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(name__regex=GUEST_NAME_PATTERN), name="guest_name_pattern"),
            models.CheckConstraint(
                condition=Q(signed_up_at__isnull=True) | Q(signed_up_at__gte=F("created_at")),
                name="guest_signed_up_after_made",
            ),
        ]

    def __str__(self) -> str:
        return self.name if self.signed_up_at is None else f"{self.name} (signed up)"


class AccountName(models.Model):
    """An account's canonical name key (``pyramid_site.names.canonical_name``: NFKC, case folded, its
    confusable skeleton), unique: ``alice``, ``ALICE``, ``аlice`` with a Cyrillic ``а`` and ``a1ice`` are one name,
    so none of them can be taken beside another. Written with the user's row whatever writes it (a receiver of
    the user's saves), and looked up by log-in and its throttle. Accounts that shared a key when the rule came in
    kept their names; all but the oldest got the key ``KEY#ID``, which no name can have."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="name_key"
    )
    key = models.TextField(unique=True)

    def __str__(self) -> str:
        return self.key


# the languages a player may choose (settings.LANGUAGES): a check constraint keeps the column to these
LANGUAGE_CHOICES = [("en", "English"), ("sv", "Svenska"), ("de", "Deutsch")]


class LanguageChoice(models.Model):
    """The language a player chose for their account: answers to a client that names none (no
    `Accept-Language`) are in it, and the web page uses it in a browser that has no choice of its own.
    No row: no choice."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="language_choice"
    )
    language = models.CharField(max_length=2, choices=LANGUAGE_CHOICES)
    chosen_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(language__in=[code for code, _ in LANGUAGE_CHOICES]), name="language_choice_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language}"
