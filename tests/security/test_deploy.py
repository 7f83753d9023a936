"""Deployment: a production configuration that `manage.py check --deploy` passes, with its secrets from
the environment; a production start without the daily deals' own secret, or with an environment value
that does not read, is refused with a message naming the variable.
(Accounts, hashed passwords and revocable tokens are tested in tests/accounts/.)"""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _clean_env(**env) -> dict:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYRAMID_", "CELERY_"))}
    return clean | {"DJANGO_SETTINGS_MODULE": "pyramid_site.settings"} | env


def _check_deploy(**env) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_clean_env(**env),
        capture_output=True,
        text=True,
        timeout=120,
    )


def _settings_of(**env) -> subprocess.CompletedProcess:
    """Load the settings in a fresh process under ``env``; print the two secrets' names' values."""
    code = (
        "from django.conf import settings; "
        "print(settings.PYRAMID_DAILY_SECRET); print(settings.PYRAMID_TOURNAMENT_SECRET)"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=_clean_env(**env), capture_output=True, text=True, timeout=120
    )


PRODUCTION = {"DJANGO_DEBUG": "false", "DJANGO_HTTPS": "true", "DJANGO_ALLOWED_HOSTS": "pyramid.example.org"}


def test_check_deploy_is_clean_with_production_settings():
    production = PRODUCTION | {
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "PYRAMID_DAILY_SECRET": secrets.token_urlsafe(32),
    }
    checked = _check_deploy(**production)
    assert checked.returncode == 0, checked.stderr
    assert "System check identified no issues" in checked.stdout


def test_check_deploy_refuses_the_development_key():
    """No secret is written in the code: without a secret key from the environment the deploy check fails."""
    checked = _check_deploy(**PRODUCTION, PYRAMID_DAILY_SECRET=secrets.token_urlsafe(32))
    assert checked.returncode != 0 and "security.W009" in checked.stderr


def test_production_without_a_daily_secret_does_not_start():
    """The daily deals need a secret of their own in production: the secret key is not used for them."""
    loaded = _settings_of(**PRODUCTION, DJANGO_SECRET_KEY=secrets.token_urlsafe(50))
    assert loaded.returncode != 0
    assert "ImproperlyConfigured" in loaded.stderr and "PYRAMID_DAILY_SECRET" in loaded.stderr


def test_the_tournament_secret_is_its_own_or_falls_back_to_the_daily_one():
    both = _settings_of(PYRAMID_DAILY_SECRET="daily-one", PYRAMID_TOURNAMENT_SECRET="tournament-one")
    assert both.returncode == 0, both.stderr
    assert both.stdout.split() == ["daily-one", "tournament-one"]
    daily_only = _settings_of(PYRAMID_DAILY_SECRET="daily-one")
    assert daily_only.returncode == 0, daily_only.stderr
    assert daily_only.stdout.split() == ["daily-one", "daily-one"]


@pytest.mark.parametrize(
    "name, value",
    [
        ("DJANGO_DEBUG", "perhaps"),
        ("PYRAMID_DAILY_DAYS_AHEAD", "seven"),
        ("PYRAMID_DAILY_DAYS_AHEAD", "0"),
        ("PYRAMID_SOLVE_BUDGET_SECONDS", "nan"),
        ("PYRAMID_FIRST_DAILY_DATE", "2025-13-01"),
    ],
)
def test_an_environment_value_that_does_not_read_is_refused_by_name(name, value):
    loaded = _settings_of(**{name: value})
    assert loaded.returncode != 0
    last_line = loaded.stderr.strip().splitlines()[-1]
    assert last_line.startswith("django.core.exceptions.ImproperlyConfigured") and name in last_line
    assert repr(value) in last_line
