"""Accounts: sign up, log in, and API tokens."""

from __future__ import annotations

import unicodedata

from django.contrib.auth import authenticate, get_user_model
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from pyramid_site.api.authentication import revocation_announce
from pyramid_site.api.errors import Conflict, Unauthorized


def account_signup(*, username: str, password: str, email: str = ""):
    """A new account and its API token. ``username`` is already clean (``clean_name``). Usernames are
    unique whatever their case: the check and the create are one transaction, and the database's
    case-insensitive unique index settles a race between two."""
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


def account_login(*, request, username: str, password: str):
    """The account these credentials open; the username is matched whatever its case."""
    User = get_user_model()
    username = unicodedata.normalize("NFKC", username).strip()  # as sign-up keeps it
    account = User.objects.filter(username__iexact=username).only("username").first()
    user = authenticate(request, username=account.username if account else username, password=password)
    if user is None:
        raise Unauthorized("the username or password is wrong", code="bad_credentials")
    return user


def token_for(*, user) -> Token:
    """The user's API token, made at the first log-in after a revoke."""
    token, _ = Token.objects.get_or_create(user=user)
    return token


def token_revoke(*, user) -> list[str]:
    """Delete the user's API tokens; once committed every web process stops taking them."""
    with transaction.atomic():
        keys = list(Token.objects.select_for_update().filter(user=user).values_list("key", flat=True))
        Token.objects.filter(key__in=keys).delete()
    revocation_announce()  # after the commit: a process that checks again finds the token gone
    return keys
