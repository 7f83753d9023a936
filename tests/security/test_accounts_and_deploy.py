"""Accounts and deployment: hashed passwords, revocable tokens, and a production configuration that
`manage.py check --deploy` passes, with its secrets from the environment.
(Throttled sign-up and log-in are tested in tests/service/test_accounts_and_schema.py.)"""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import identify_hasher
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.api.authentication import CachedTokenAuthentication

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "a-long-pass-phrase"


def signup(client, username):
    return client.post("/api/accounts/signup/", {"username": username, "password": PASSWORD}, format="json")


@pytest.mark.django_db
def test_passwords_are_stored_hashed_by_django(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]  # Django's default
    assert signup(APIClient(), "hashed").status_code == 201
    user = get_user_model().objects.get(username="hashed")
    assert PASSWORD not in user.password and identify_hasher(user.password).algorithm == "pbkdf2_sha256"
    assert user.check_password(PASSWORD) and not user.check_password(PASSWORD.upper())


@pytest.mark.django_db
def test_a_revoked_token_stops_working_at_once(settings):
    settings.PYRAMID_TOKEN_CACHE_SECONDS = 300  # the process remembers tokens: revoking must forget it too
    key = signup(APIClient(), "revoker").json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get("/api/accounts/me/").status_code == 200
    assert key in CachedTokenAuthentication._known
    assert client.delete("/api/accounts/token/").status_code == 204
    refused = client.get("/api/accounts/me/")
    assert refused.status_code == 401 and refused.json()["code"] == "authentication_failed"
    assert not Token.objects.filter(key=key).exists() and key not in CachedTokenAuthentication._known
    assert client.delete("/api/accounts/token/").status_code == 401
    fresh = APIClient().post("/api/accounts/login/", {"username": "revoker", "password": PASSWORD}, format="json")
    assert fresh.status_code == 200 and fresh.json()["token"] != key
    client.credentials(HTTP_AUTHORIZATION=f"Token {fresh.json()['token']}")
    assert client.get("/api/accounts/me/").json()["username"] == "revoker"


@pytest.mark.django_db
def test_revoking_touches_only_ones_own_token():
    mine, theirs = (signup(APIClient(), name).json()["token"] for name in ("mine", "theirs"))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {mine}")
    assert client.delete("/api/accounts/token/").status_code == 204
    assert Token.objects.filter(key=theirs).exists()
    assert APIClient().delete("/api/accounts/token/").status_code == 401


def _check_deploy(**env) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYRAMID_"))}
    return subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], cwd=ROOT,
                          env=clean | env, capture_output=True, text=True, timeout=120)


def test_check_deploy_is_clean_with_production_settings():
    production = {"DJANGO_DEBUG": "false", "DJANGO_HTTPS": "true", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
                  "PYRAMID_DAILY_SECRET": secrets.token_urlsafe(32), "DJANGO_ALLOWED_HOSTS": "pyramid.example.org"}
    checked = _check_deploy(**production)
    assert checked.returncode == 0, checked.stderr
    assert "System check identified no issues" in checked.stdout


def test_check_deploy_refuses_the_development_key():
    """No secret is written in the code: without one from the environment the deploy check fails."""
    checked = _check_deploy(DJANGO_DEBUG="false", DJANGO_HTTPS="true")
    assert checked.returncode != 0 and "security.W009" in checked.stderr
