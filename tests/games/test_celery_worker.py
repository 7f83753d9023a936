"""End to end on a real Celery worker and Redis: a deal is created, the worker solves it, the row
shows the verdict."""

import os
import subprocess
import sys
import uuid

import engine
import pytest
from django.conf import settings
from django.db import connection

from games import services
from games.models import Deal
from games.tasks import solve_deal
from pyramid_site.celery import app as celery_app

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not settings.REDIS_URL or connection.vendor != "postgresql",
                       reason="needs REDIS_URL and PostgreSQL"),
]


@pytest.fixture
def worker():
    queue = f"test-{uuid.uuid4().hex[:8]}"
    db = connection.settings_dict
    env = os.environ | {
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REDIS_URL": settings.REDIS_URL,
        "CELERY_QUEUE": queue,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "PYRAMID_SOLVE_BUDGET_SECONDS": "20",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "pyramid_site", "worker", "--pool", "solo", "--concurrency", "1",
         "-Q", queue, "--loglevel", "WARNING", "--without-heartbeat", "--without-gossip", "--without-mingle"],
        env=env, cwd=settings.BASE_DIR, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    celery_app.conf.task_always_eager = False
    try:
        yield queue
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def test_worker_solves_a_deal(worker):
    deal = services.deal_get_or_create(number=0, rules=engine.preset("one-look"))
    assert deal.status == Deal.Status.PENDING
    result = solve_deal.apply_async((deal.pk,), queue=worker)
    assert result.get(timeout=90) == "unwinnable"
    deal.refresh_from_db()
    assert deal.status == Deal.Status.UNWINNABLE and deal.solved_at is not None
    replayed = engine.replay(engine.deal_from_number(0), engine.preset("one-look"), deal.solution)
    assert replayed.ok and replayed.position.cards_left == deal.best_cards_left
