"""Accounts: sign up, log in for a token (or a session, for the web page), revoke the token, who am I."""

from __future__ import annotations

from django.contrib.auth import authenticate, get_user_model, login, logout
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from pyramid_site.api.authentication import CachedTokenAuthentication
from pyramid_site.api.errors import Unauthorized

from . import services

User = get_user_model()


class SignupInput(serializers.Serializer):
    username = serializers.RegexField(r"^[\w.@+-]{3,30}$", help_text="3 to 30 letters, digits or . @ + - _")
    password = serializers.CharField(write_only=True, max_length=128)
    email = serializers.EmailField(required=False, allow_blank=True)

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


def _check_credentials(request) -> User:
    serializer = LoginInput(data=request.data)
    serializer.is_valid(raise_exception=True)
    user = authenticate(request, **serializer.validated_data)
    if user is None:
        raise Unauthorized("the username or password is wrong", code="bad_credentials")
    return user


class SignupView(APIView):
    permission_classes = [AllowAny]
    authentication_classes = []
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "signup"

    @extend_schema(request=SignupInput, responses={201: UserOutput}, summary="Create an account; returns a token")
    def post(self, request):
        serializer = SignupInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        user, token = services.account_signup(username=data["username"], password=data["password"],
                                              email=data.get("email", ""))
        return Response(UserOutput(user).data | {"token": token.key}, status=status.HTTP_201_CREATED)


class TokenLoginView(APIView):
    permission_classes = [AllowAny]
    authentication_classes = []
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "login"

    @extend_schema(request=LoginInput, responses={200: UserOutput}, summary="Log in for an API token")
    def post(self, request):
        user = _check_credentials(request)
        token = services.token_for(user=user)
        return Response(UserOutput(user).data | {"token": token.key})


class SessionLoginView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "login"

    @extend_schema(request=LoginInput, responses={200: UserOutput}, summary="Log in with a session cookie (web page)")
    def post(self, request):
        user = _check_credentials(request)
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
        for key in services.token_revoke(user=request.user):
            CachedTokenAuthentication.forget(key)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(APIView):
    @extend_schema(responses=UserOutput, summary="Who am I")
    def get(self, request):
        return Response(UserOutput(request.user).data)
