"""A tournament's deals are prepared after the answer that creates it, in every mode: with no broker the
in-process tasks run on a thread of their own (``PYRAMID_TASKS_IN_THREAD``, on in the README's run mode), so the
request never waits for the solver (a 30-deal arena took 6.5 s and more inside it: past a client's timeout, whose
retry made a second tournament)."""

import datetime as dt
import threading

import pytest
from django.utils import timezone

from leaderboards.clubs import services
from leaderboards.models import Tournament
from pyramid_site.celery import run_on_task_thread, task_thread_idle
from tests.support import client_for

HOUR = dt.timedelta(hours=1)


@pytest.mark.django_db(transaction=True)  # the tasks' thread reads what the request committed
def test_an_arena_is_answered_preparing_and_its_deals_are_prepared_after(settings, users):
    settings.PYRAMID_TASKS_IN_THREAD = True  # tasks in-process (the tests' settings), on their own thread
    club = services.club_create(user=users[0], name="Busy Club")
    services.club_join(user=users[1], invite_code=club.invite_code)
    now = timezone.now()
    gate = threading.Event()
    run_on_task_thread(gate.wait)  # the tasks' thread is busy: what the request queues runs after the answer
    try:
        created = client_for(users[0]).post(
            f"/api/clubs/{club.pk}/tournaments/",
            {
                "name": "Arena",
                "format": "arena",
                "rules": "classic",
                "deal_count": 3,
                "starts_at": (now - HOUR).isoformat(),
                "ends_at": (now + HOUR).isoformat(),
            },
            format="json",
        )
        assert created.status_code == 201 and created.json()["status"] == "preparing"
        tournament_id = created.json()["id"]
        polled = client_for(users[1]).get(created["Location"]).json()
        assert polled["status"] == "preparing"
        # joining needs no deal; a game does: a clear 409 until they are ready
        assert client_for(users[1]).post(f"/api/tournaments/{tournament_id}/join/").status_code == 201
        early = client_for(users[1]).post(f"/api/tournaments/{tournament_id}/games/", {}, format="json")
        assert early.status_code == 409 and early.json()["code"] == "not_ready"
    finally:
        gate.set()
    task_thread_idle(timeout=300)
    tournament = Tournament.objects.get(pk=tournament_id)
    assert tournament.status == Tournament.Status.READY and tournament.deals.count() == 3
    assert client_for(users[1]).get(f"/api/tournaments/{tournament_id}/").json()["status"] == "ready"
    game = client_for(users[1]).post(f"/api/tournaments/{tournament_id}/games/", {}, format="json")
    assert game.status_code == 201


@pytest.mark.django_db(transaction=True)
def test_without_the_thread_a_task_runs_inside_the_call_that_queues_it(settings, users):
    """The tests' own mode (and a broker's worker is the other): the preparation is over when the request is."""
    settings.PYRAMID_TASKS_IN_THREAD = False
    club = services.club_create(user=users[0], name="Quick Club")
    now = timezone.now()
    created = client_for(users[0]).post(
        f"/api/clubs/{club.pk}/tournaments/",
        {
            "name": "Match",
            "format": "match",
            "rules": "classic",
            "deal_count": 1,
            "starts_at": (now - HOUR).isoformat(),
            "ends_at": (now + HOUR).isoformat(),
        },
        format="json",
    )
    assert created.status_code == 201
    assert Tournament.objects.get(pk=created.json()["id"]).status == Tournament.Status.READY
