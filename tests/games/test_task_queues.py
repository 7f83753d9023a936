"""Solver work goes to the queues the settings name, and the Celery app reads its configuration cleanly."""

from __future__ import annotations

import pytest

from games import tasks
from pyramid_site.celery import app

pytestmark = pytest.mark.django_db


def test_the_celery_configuration_builds_its_queues():
    # a setting named CELERY_QUEUES would be read by Celery as its own task_queues (and crash every send)
    assert app.conf.task_queues is None
    assert app.amqp.queues[app.conf.task_default_queue].name == app.conf.task_default_queue


def test_solves_go_to_the_solver_queues(settings, monkeypatch):
    settings.PYRAMID_SOLVER_QUEUE, settings.PYRAMID_DAILY_QUEUE = "solver", "daily"
    sent = []
    monkeypatch.setattr(tasks.solve_deal, "apply_async", lambda args, queue: sent.append((args, queue)))
    tasks.solve_deal_soon(424242)
    assert sent == [((424242,), "solver")]
