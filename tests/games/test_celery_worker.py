"""End to end on a real Celery worker and Redis: a deal is created, the worker solves it, the row
shows the verdict."""

import os
import subprocess
import sys
import uuid

import pytest
from django.conf import settings
from django.db import connection

import engine
from games import services
from games.models import Deal
from games.tasks import solve_deal
from pyramid_site.celery import app as celery_app

pytestmark = [
    pytest.mark.real_clock,  # a real worker reads its own clock
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not settings.REDIS_URL or connection.vendor != "postgresql", reason="needs REDIS_URL and PostgreSQL"
    ),
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
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "pyramid_site",
            "worker",
            "--pool",
            "solo",
            "--concurrency",
            "1",
            "-Q",
            queue,
            "--loglevel",
            "WARNING",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
        ],
        env=env,
        cwd=settings.BASE_DIR,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
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
    result = solve_deal.apply_async((deal.pk,), queue=worker, ignore_result=False)  # the service keeps none
    assert result.get(timeout=90) == "unwinnable"
    deal.refresh_from_db()
    assert deal.status == Deal.Status.UNWINNABLE and deal.solved_at is not None
    replayed = engine.replay(engine.deal_from_number(0), engine.preset("one-look"), deal.solution)
    assert replayed.ok and replayed.position.cards_left == deal.best_cards_left


def test_a_workers_solve_is_charged_to_whoever_asked_and_waits_when_their_budget_is_spent(worker, settings):
    """The worker is given the asker's account and address with the task, charges the solve's CPU time to both
    in the shared Redis, and puts a solve back (the deal stays pending) once the asker's budget is spent."""
    from pyramid_site import solver_budget

    settings.CACHES = {
        "default": {"BACKEND": "pyramid_site.cache.ForgivingRedisCache", "LOCATION": settings.REDIS_URL}
    }  # the worker's cache: the counts it keeps
    payer = solver_budget.SolverPayer(10**12 + uuid.uuid4().int % 10**9, f"test-{uuid.uuid4().hex}")
    counters = [f"user:{payer.account_id}", f"ip:{payer.address}"]
    deal = services.deal_get_or_create(number=5, rules=engine.preset("one-look"))
    solved = solve_deal.apply_async((deal.pk, *payer.task_args()), queue=worker, ignore_result=False)
    assert solved.get(timeout=90) != "pending"
    charged = solver_budget._window().estimates(counters)
    assert all(estimate.previous + estimate.current > 0 for estimate in charged.values())
    solver_budget.charge(payer, settings.PYRAMID_SOLVER_SECONDS_PER_ACCOUNT)  # spent now
    waiting = services.deal_get_or_create(number=6, rules=engine.preset("one-look"))
    assert (
        solve_deal.apply_async((waiting.pk, *payer.task_args()), queue=worker, ignore_result=False)
        .get(timeout=90)
        .startswith("deferred")
    )
    waiting.refresh_from_db()
    assert waiting.status == Deal.Status.PENDING
