"""Accounts: sign up and API tokens."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from pyramid_site.api.errors import Conflict


def account_signup(*, username: str, password: str, email: str = ""):
    """A new account and its API token. Usernames are unique whatever their case: the check and the
    create are one transaction, and the database's unique constraint settles a race between two."""
    User = get_user_model()
    try:
        with transaction.atomic():
            if User.objects.filter(username__iexact=username).exists():
                raise IntegrityError
            user = User.objects.create_user(username, email, password)
            token = Token.objects.create(user=user)
    except IntegrityError:
        raise Conflict(f"the username {username!r} is taken", code="username_taken") from None
    return user, token


def token_for(*, user) -> Token:
    """The user's API token, made at the first log-in after a revoke."""
    token, _ = Token.objects.get_or_create(user=user)
    return token


def token_revoke(*, user) -> list[str]:
    """Delete the user's API tokens; the keys that stopped working."""
    with transaction.atomic():
        keys = list(Token.objects.select_for_update().filter(user=user).values_list("key", flat=True))
        Token.objects.filter(key__in=keys).delete()
    return keys
