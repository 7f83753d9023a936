"""Reads about accounts beyond a filter."""

from __future__ import annotations

from .models import Guest, LanguageChoice


def is_guest(user) -> bool:
    """Whether ``user`` is a guest account that has not signed up. Read from the database every time: a
    user object kept by the token cache may be older than the guest's sign-up."""
    if user is None or not user.is_authenticated:
        return False
    return Guest.objects.filter(user_id=user.pk, signed_up_at__isnull=True).exists()


def started_as_guest(user) -> bool:
    """Whether ``user`` is a guest account, signed up since or not."""
    if user is None or not user.is_authenticated:
        return False
    return Guest.objects.filter(user_id=user.pk).exists()


def account_language(user) -> str | None:
    """The language the account chose (en, sv, de), or None."""
    if not getattr(user, "is_authenticated", False):
        return None
    return LanguageChoice.objects.filter(user=user).values_list("language", flat=True).first()
