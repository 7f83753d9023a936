"""Accounts: sign up, log in, API tokens, and guest accounts (made on a visitor's first game, named when the
guest signs up)."""

from __future__ import annotations

import secrets

from django.contrib.auth import authenticate, get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext
from rest_framework.authtoken.models import Token

from pyramid_site.errors import Code, DomainError
from pyramid_site.names import canonical_name
from pyramid_site.token_revocations import revocation_announce

from .models import GUEST_PREFIX, AccountName, Guest, LanguageChoice
from .selectors import is_guest, started_as_guest

# the letters of a guest's name: lower case and digits, without the ones easily taken for others (0 o 1 l i)
GUEST_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
GUEST_NAME_LENGTH = 8
GUEST_NAME_TRIES = 5


def account_signup(*, username: str, password: str, email: str = "", signed_in=None):
    """``(account, token, named_guest)``: a guest's sign-up (``signed_in`` is the guest account the request came
    with) names that guest account (``guest_sign_up``; sent again once it is named, it is refused, so a sign-up
    sent twice at once never makes a second account); anyone else's makes a new account and its API token.
    ``username`` is already clean (``clean_name``). Usernames are unique by their canonical key (whatever their
    case or look-alike letters): the check and the create are one transaction, and the key's unique column
    (``AccountName``) settles a race between two."""
    if started_as_guest(signed_in):
        return *guest_sign_up(user=signed_in, username=username, password=password, email=email), True
    User = get_user_model()
    try:
        with transaction.atomic():
            if AccountName.objects.filter(key=canonical_name(username)).exists():
                raise IntegrityError
            user = User.objects.create_user(username, email, password)
            token = Token.objects.create(user=user)
    except IntegrityError:
        raise DomainError(
            Code.USERNAME_TAKEN, gettext("the username %(username)s is taken") % {"username": repr(username)}
        ) from None
    return user, token, False


def new_guest_name() -> str:
    """A fresh guest name, ``guest-`` and eight random letters or digits (31**8, about 10**12 of them)."""
    return GUEST_PREFIX + "".join(secrets.choice(GUEST_ALPHABET) for _ in range(GUEST_NAME_LENGTH))


def guest_create():
    """A new guest account and its API token: a user named ``guest-XXXXXXXX`` without a usable password (nobody
    logs in to it; its token is its key) and its :class:`Guest` row, in one transaction. A name that happens to
    be taken (the database's case-insensitive unique index says so) is drawn again."""
    User = get_user_model()
    for _ in range(GUEST_NAME_TRIES):
        name = new_guest_name()
        try:
            with transaction.atomic():
                user = User(username=name)
                user.set_unusable_password()
                user.save()
                Guest.objects.create(user=user, name=name, created_at=user.date_joined)
                token = Token.objects.create(user=user)
            return user, token
        except IntegrityError:
            continue
    raise DomainError(Code.CONFLICT, gettext("no free guest name was found; send the same request again"))


def guest_sign_up(*, user, username: str, password: str, email: str = ""):
    """The guest account ``user`` becomes a named one: the same account (its id, games, results, streaks, board
    places and clubs stay), now with this username, password and email, and its API token kept. ``username`` is
    already clean (``clean_name``). The guest's row is locked, so of two sign-ups of one guest at once one
    names it and the other is refused; a username taken meanwhile is settled by the database's unique index.
    Every web process reads the account again at its next request (the token cache is told)."""
    User = get_user_model()
    try:
        with transaction.atomic():
            guest = Guest.objects.select_for_update().filter(user_id=user.pk).first()
            if guest is None or guest.signed_up_at is not None:
                raise DomainError(
                    Code.ALREADY_SIGNED_UP,
                    gettext("this account has signed up already: log in with its username and password"),
                )
            if AccountName.objects.filter(key=canonical_name(username)).exclude(user_id=user.pk).exists():
                raise IntegrityError
            account = User.objects.get(pk=user.pk)
            account.username, account.email = username, email
            account.set_password(password)
            account.save(update_fields=["username", "email", "password"])
            guest.signed_up_at = timezone.now()
            guest.save(update_fields=["signed_up_at"])
            token, _ = Token.objects.get_or_create(user=account)
    except IntegrityError:
        raise DomainError(
            Code.USERNAME_TAKEN, gettext("the username %(username)s is taken") % {"username": repr(username)}
        ) from None
    # after the commit: a process that remembers the token remembers the guest too, and looks again
    revocation_announce()
    return account, token


def guests_delete_idle(*, created_before) -> int:
    """Delete the guest accounts made before ``created_before`` that never signed up and never started a game
    (nothing of them is on any board); the number deleted. Guests who played are kept: their results count."""
    User = get_user_model()
    with transaction.atomic():
        idle = User.objects.filter(
            guest__signed_up_at__isnull=True, guest__created_at__lt=created_before, games__isnull=True
        )
        ids = list(idle.values_list("pk", flat=True))
        deleted = User.objects.filter(pk__in=ids).delete()[1].get(User._meta.label, 0)  # their tokens with them
    if ids:
        revocation_announce()  # no process keeps taking a deleted guest's token
    return deleted


def account_login(*, request, username: str, password: str):
    """The account these credentials open: the one of exactly this name, or else the one whose canonical key
    the name has (whatever its case, width or look-alike letters)."""
    User = get_user_model()
    account = (
        User.objects.filter(username=username).only("username").first()
        or User.objects.filter(name_key__key=canonical_name(username)).only("username").first()
    )
    user = authenticate(request, username=account.username if account else username, password=password)
    if user is None:
        raise DomainError(Code.BAD_CREDENTIALS, gettext("the username or password is wrong"))
    return user


def token_for(*, user) -> Token:
    """The user's API token, made at the first log-in after a revoke."""
    token, _ = Token.objects.get_or_create(user=user)
    return token


def token_revoke(*, user) -> list[str]:
    """Delete the user's API tokens; once committed every web process stops taking them. Refused to a guest
    that has not signed up: its token is its only key (it has no password to log in with), so revoking it would
    lose the account and its games for good."""
    if is_guest(user):
        raise DomainError(
            Code.SIGN_UP_FIRST,
            gettext(
                "a guest account's token is its only key: sign up first (your games stay yours), "
                "then log in again whenever you like"
            ),
        )
    with transaction.atomic():
        keys = list(Token.objects.select_for_update().filter(user=user).values_list("key", flat=True))
        Token.objects.filter(key__in=keys).delete()
    revocation_announce()  # after the commit: a process that checks again finds the token gone
    return keys


def language_choose(*, user, language: str | None) -> str | None:
    """The account's language (``en``, ``sv``, ``de``), or none (None): answers and the page follow the request
    again."""
    with transaction.atomic():
        if language is None:
            LanguageChoice.objects.filter(user=user).delete()
        else:
            LanguageChoice.objects.update_or_create(
                user=user, defaults={"language": language, "chosen_at": timezone.now()}
            )
    return language
