"""Accounts: sign up, log in for a token (or a session, for the web page), revoke the token, who am I."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model, login, logout
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.authentication import SessionAuthentication
from rest_framework.views import APIView

from pyramid_site.api.errors import Invalid
from pyramid_site.api.inputs import valid_input
from pyramid_site.api.names import clean_name
from pyramid_site.api.throttles import AddressThrottle, UsernameThrottle

from . import services

User = get_user_model()


USERNAME_CHARACTERS = re.compile(r"[\w.@+-]{3,30}")


class SignupInput(serializers.Serializer):
    username = serializers.CharField(max_length=60, help_text="3 to 30 letters, digits or . @ + - _ (NFKC: "
                                                              "fullwidth letters are kept as plain ones)")
    password = serializers.CharField(write_only=True, max_length=128)
    email = serializers.EmailField(required=False, allow_blank=True)

    def validate_username(self, value: str) -> str:
        try:
            name = clean_name(value, what="a username", code="invalid", max_length=30)
        except Invalid as exc:
            raise serializers.ValidationError(exc.message) from None
        if not USERNAME_CHARACTERS.fullmatch(name):
            raise serializers.ValidationError("3 to 30 letters, digits or . @ + - _, no spaces")
        return name

    def validate(self, data):
        try:
            validate_password(data["password"], User(username=data["username"], email=data.get("email", "")))
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": list(exc.messages)}) from None
        return data


class LoginInput(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(write_only=True, max_length=128)


class UserOutput(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ["id", "username", "email", "date_joined"]


def _account(request) -> User:
    data = valid_input(LoginInput, request)
    return services.account_login(request=request, username=data["username"], password=data["password"])


class SignupView(APIView):
    permission_classes = [AllowAny]
    authentication_classes = []
    throttle_classes = [AddressThrottle]
    throttle_scope = "signup"

    @extend_schema(request=SignupInput, responses={201: UserOutput}, summary="Create an account; returns a token")
    def post(self, request):
        data = valid_input(SignupInput, request)
        user, token = services.account_signup(username=data["username"], password=data["password"],
                                              email=data.get("email", ""))
        return Response(UserOutput(user).data | {"token": token.key}, status=status.HTTP_201_CREATED,
                        headers={"Location": f"/api/players/{user.username}/"})


class TokenLoginView(APIView):
    permission_classes = [AllowAny]
    authentication_classes = []
    # per address, and per account asked for (so a guesser spread over many addresses still meets a limit)
    throttle_classes = [AddressThrottle, UsernameThrottle]
    throttle_scope = "login"

    @extend_schema(request=LoginInput, responses={200: UserOutput}, summary="Log in for an API token")
    def post(self, request):
        user = _account(request)
        token = services.token_for(user=user)
        return Response(UserOutput(user).data | {"token": token.key})


class SessionLoginView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [AddressThrottle, UsernameThrottle]
    throttle_scope = "login"

    @extend_schema(request=LoginInput, responses={200: UserOutput}, summary="Log in with a session cookie (web page)")
    def post(self, request):
        # a session is a browser's: its log-in is checked for CSRF like every other session write
        SessionAuthentication().enforce_csrf(request)
        user = _account(request)
        login(request._request, user)
        return Response(UserOutput(user).data)

    @extend_schema(request=None, responses={204: None}, summary="Log out of the session")
    def delete(self, request):
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenRevokeView(APIView):
    @extend_schema(request=None, responses={204: None},
                   summary="Revoke my API token (log out everywhere it is used); log in again for a new one")
    def delete(self, request):
        services.token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(APIView):
    @extend_schema(responses=UserOutput, summary="Who am I")
    def get(self, request):
        return Response(UserOutput(request.user).data)
