"""Accounts: play at once as a guest, sign up (a guest's sign-up names the guest account), log in for a token
(or a session, for the web page), revoke the token, who am I."""

from __future__ import annotations

import re

from django.conf import settings
from django.contrib.auth import get_user_model, login, logout, update_session_auth_hash
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils import translation
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from pyramid_site.api.error_schema import errors, location
from pyramid_site.api.idempotency import idempotent
from pyramid_site.api.inputs import TextField, no_body, valid_input
from pyramid_site.api.throttles import AddressThrottle, UsernameThrottle
from pyramid_site.errors import Code, DomainError
from pyramid_site.names import canonical_name, clean_name

from . import services
from .language import LANGUAGE_CODES
from .models import GUEST_PREFIX
from .selectors import account_language, is_guest

User = get_user_model()


USERNAME_CHARACTERS = re.compile(r"[\w.@+-]{3,30}")


class SignupInput(serializers.Serializer):
    username = TextField(
        max_length=60,
        help_text="3 to 30 letters, digits or . @ + - _ (NFKC: fullwidth letters "
        "are kept as plain ones); unique by its look, whatever its case",
    )
    password = TextField(write_only=True, max_length=128)
    email = serializers.EmailField(required=False, allow_blank=True)

    def validate_username(self, value: str) -> str:
        try:
            name = clean_name(value, what=gettext("a username"), code=Code.INVALID, max_length=30)
        except DomainError as exc:
            raise serializers.ValidationError(exc.message) from None
        if not USERNAME_CHARACTERS.fullmatch(name):
            raise serializers.ValidationError(gettext("3 to 30 letters, digits or . @ + - _, no spaces"))
        if canonical_name(name).startswith(canonical_name(GUEST_PREFIX)):
            raise serializers.ValidationError(
                gettext("names starting %(prefix)s are the server's names for guests") % {"prefix": repr(GUEST_PREFIX)}
            )
        return name

    def validate(self, data):
        try:
            validate_password(data["password"], User(username=data["username"], email=data.get("email", "")))
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": list(exc.messages)}) from None
        return data


class LoginInput(serializers.Serializer):
    username = TextField(max_length=150)
    password = TextField(write_only=True, max_length=128)


class UserOutput(serializers.ModelSerializer):
    """An account, as its owner sees it."""

    # as the account has it (the model's own pattern is Python's \w, which JSON Schema reads as ASCII only)
    username = serializers.CharField(help_text="unique whatever its case")
    email = serializers.CharField(allow_blank=True, help_text="empty when none was given")
    guest = serializers.SerializerMethodField(
        help_text="a guest account, made on a first game: it has no password until it signs up (which keeps its games)"
    )
    language = serializers.SerializerMethodField(
        help_text="the language the account chose (en, sv, de), or null: "
        "answers to a request without Accept-Language are in "
        "it, and the web page uses it in a browser without a "
        "choice of its own"
    )

    class Meta:
        model = User
        ref_name = "User"
        fields = ["id", "username", "email", "date_joined", "guest", "language"]

    def get_guest(self, user) -> bool:
        return is_guest(user)

    @extend_schema_field({"type": ["string", "null"], "enum": [*LANGUAGE_CODES, None]})
    def get_language(self, user) -> str | None:
        return account_language(user)


class MeInput(serializers.Serializer):
    language = serializers.ChoiceField(
        choices=LANGUAGE_CODES, allow_null=True, help_text="en, sv or de; null for no choice"
    )


class UserWithTokenOutput(UserOutput):
    """An account and its API token: send it as `Authorization: Bearer KEY` (or `Token KEY`)."""

    token = serializers.CharField(help_text="the API token")

    class Meta(UserOutput.Meta):
        ref_name = "UserWithToken"
        fields = [*UserOutput.Meta.fields, "token"]


SIGNUP_EXAMPLES = [
    OpenApiExample(
        "an account",
        request_only=True,
        value={"username": "alice", "password": "a-long-pass-phrase", "email": "alice@example.org"},
    )
]
LOGIN_EXAMPLES = [
    OpenApiExample("a log-in", request_only=True, value={"username": "alice", "password": "a-long-pass-phrase"})
]


def _account(request) -> User:
    data = valid_input(LoginInput, request)
    return services.account_login(request=request, username=data["username"], password=data["password"])


def _uses_session(request) -> bool:
    return isinstance(request.successful_authenticator, SessionAuthentication)


class SignupView(APIView):
    """Create an account: 201 with the account and its API token (throttled per client address). Usernames
    are unique whatever their case, and none starts `guest-`. Sent with a guest account's credentials, sign-up
    names that same account instead (200): its id, games, results, streaks, board places and clubs stay, and so
    does its token."""

    permission_classes = [AllowAny]
    throttle_classes = [AddressThrottle]
    throttle_scope = "signup"

    @extend_schema(
        request=SignupInput,
        examples=SIGNUP_EXAMPLES,
        parameters=[location()],
        responses={
            201: UserWithTokenOutput,
            200: UserWithTokenOutput,
            **errors(Code.USERNAME_TAKEN, Code.ALREADY_SIGNED_UP),
        },
        summary="Create an account, or name my guest account; returns a token",
    )
    @idempotent
    def post(self, request):
        data = valid_input(SignupInput, request)
        user, token, named_guest = services.account_signup(
            username=data["username"], password=data["password"], email=data.get("email", ""), signed_in=request.user
        )
        body = UserOutput(user).data | {"token": token.key}
        if named_guest:
            if _uses_session(request):  # the new password would end the session: it goes on under it
                update_session_auth_hash(request._request, user)
            return Response(body)
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": f"/api/players/{user.username}/"})


class GuestView(APIView):
    """Play at once, without signing up: 201 with a new guest account (`guest-XXXXXXXX`, no password) and its API
    token, throttled per client address. Keep the token: it is the only key to the account until the guest signs
    up (`POST /api/accounts/signup/` with the token names this account and keeps its games). A request carrying
    the site's `csrftoken` cookie (a browser on the web page) is checked for CSRF and logged in with a session
    too. Someone logged in already is refused (409 `already_logged_in`). It takes no body (or `{}`): a field sent
    is refused (400 `invalid`, naming it), since the server picks the name and nothing else is set here."""

    permission_classes = [AllowAny]
    throttle_classes = [AddressThrottle]
    throttle_scope = "guest"

    @extend_schema(
        request=None,
        parameters=[location()],
        responses={
            201: UserWithTokenOutput,
            **errors(
                Code.INVALID,
                Code.MALFORMED_BODY,
                Code.UNSUPPORTED_MEDIA_TYPE,
                Code.BODY_TOO_LARGE,
                Code.CONFLICT,
                Code.ALREADY_LOGGED_IN,
            ),
        },
        summary="Play without signing up: a guest account and its token",
    )
    @idempotent
    def post(self, request):
        no_body(
            request,
            gettext("a guest account takes nothing: its name is the server's; sign up afterwards to choose one"),
        )
        if request.user.is_authenticated:
            raise DomainError(
                Code.ALREADY_LOGGED_IN,
                gettext("you are logged in already, as %(username)s") % {"username": request.user.username},
            )
        browser = settings.CSRF_COOKIE_NAME in request.COOKIES
        if browser:  # a session is a browser's: its log-in is checked for CSRF like every other session write
            SessionAuthentication().enforce_csrf(request)
        user, token = services.guest_create()
        if browser:
            login(request._request, user, backend="django.contrib.auth.backends.ModelBackend")
        return Response(
            UserOutput(user).data | {"token": token.key},
            status=status.HTTP_201_CREATED,
            headers={"Location": f"/api/players/{user.username}/"},
        )


class TokenLoginView(APIView):
    """Log in for the account's API token (the same token until it is revoked); throttled per client address
    and per username."""

    permission_classes = [AllowAny]
    authentication_classes = []
    # per address, and per account asked for (so a guesser spread over many addresses still meets a limit)
    throttle_classes = [AddressThrottle, UsernameThrottle]
    throttle_scope = "login"

    @extend_schema(
        request=LoginInput,
        examples=LOGIN_EXAMPLES,
        responses={200: UserWithTokenOutput, **errors(Code.BAD_CREDENTIALS)},
        summary="Log in for an API token",
    )
    def post(self, request):
        user = _account(request)
        token = services.token_for(user=user)
        return Response(UserOutput(user).data | {"token": token.key})


class SessionLoginView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [AddressThrottle, UsernameThrottle]
    throttle_scope = "login"

    @extend_schema(
        request=LoginInput,
        examples=LOGIN_EXAMPLES,
        responses={200: UserOutput, **errors(Code.BAD_CREDENTIALS)},
        summary="Log in with a session cookie (web page)",
        description="Log in with a session cookie, for the web page: checked for CSRF like every session "
        "write (send the csrftoken cookie's value as `X-CSRFToken`). API clients use "
        "`/api/accounts/login/` and its token instead.",
    )
    def post(self, request):
        # a session is a browser's: its log-in is checked for CSRF like every other session write
        SessionAuthentication().enforce_csrf(request)
        user = _account(request)
        login(request._request, user)
        return Response(UserOutput(user).data)

    @extend_schema(
        request=None,
        responses={204: None},
        summary="Log out of the session",
        description="End the session of the web page (nothing happens without one).",
    )
    def delete(self, request):
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenRevokeView(APIView):
    """Revoke my API token: it stops working at once everywhere it is used. Log in again for a new one. A guest
    account that has not signed up is refused (409 `sign_up_first`): its token is its only key."""

    @extend_schema(
        request=None,
        responses={204: None, **errors(Code.SIGN_UP_FIRST)},
        summary="Revoke my API token (log out everywhere it is used); log in again for a new one",
    )
    def delete(self, request):
        services.token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(APIView):
    """The account the request is authenticated as."""

    @extend_schema(responses={200: UserOutput}, summary="Who am I")
    def get(self, request):
        return Response(UserOutput(request.user).data)

    @extend_schema(
        request=MeInput,
        responses={200: UserOutput},
        examples=[OpenApiExample("Swedish", request_only=True, value={"language": "sv"})],
        summary="Choose my account's language",
        description="The account's language: answers to a request that sends no `Accept-Language` are "
        "in it, and the web page uses it in a browser that has no choice of its own. The "
        "answer to this request is already in the new language unless it named one.",
    )
    def patch(self, request):
        data = valid_input(MeInput, request)
        language = services.language_choose(user=request.user, language=data["language"])
        if language and not request.META.get("HTTP_ACCEPT_LANGUAGE"):
            translation.activate(language)
        return Response(UserOutput(request.user).data)
