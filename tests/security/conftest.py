import pytest

from pyramid_site.celery import app as celery_app
from tests.leaderboards.conftest import winning_line  # noqa: F401  (a fixture: the line proved by the engine)
from tests.service.factories import UserFactory


@pytest.fixture(autouse=True)
def _security_settings(settings):
    """Tasks in-process, a private cache (throttle counts), a known daily secret, quick test hashes."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.PYRAMID_BOARD_REDIS_URL = ""
    settings.PYRAMID_DAILY_SECRET = "pyramid-test-secret"
    settings.PYRAMID_SOLVE_BUDGET_SECONDS = 10.0
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # a test that checks hashing sets its own
    from django.core.cache import cache

    cache.clear()
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = eager


@pytest.fixture
def users(db):
    return [UserFactory() for _ in range(6)]
