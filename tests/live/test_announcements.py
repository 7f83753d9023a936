"""A tournament's moments announced on time and once each: ``soon``, ``started`` and ``ended`` on its channel,
``tournament_soon`` and ``tournament_started`` on the channel of every member of its club (and nobody else's), with
the clock moved to each moment; two sweeps at once send each once; a moved window is announced as moved; the bell's
read lists what the stream announced."""

from __future__ import annotations

import datetime as dt
import threading
from types import SimpleNamespace

import pytest
import time_machine
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from leaderboards.clubs import services as clubs
from leaderboards.models import Tournament, TournamentAnnouncement
from leaderboards.tournaments import middleware, services, tasks
from leaderboards.tournaments.live import tournament_channel, wire_time
from leaderboards.tournaments.services import tournaments
from pyramid_site.live import player_channel
from pyramid_site.live.bus import bus
from tests.support import UserFactory, client_for

from .conftest import collect

pytestmark = pytest.mark.django_db(transaction=True)  # announcements are published once their claim commits
MINUTE = dt.timedelta(minutes=1)
SECOND = dt.timedelta(seconds=1)


def events(channel: str) -> list[dict]:
    return [d.event for d in collect(bus(), channel, quiet_seconds=0.05) if d.event is not None]


@pytest.fixture
def club(users, monkeypatch):
    """A club of four (the owner users[0]), its tournaments' deals never prepared (not needed to announce them)."""
    monkeypatch.setattr(tournaments, "settle_sequence", SimpleNamespace(delay=lambda *args: None))
    club = clubs.club_create(user=users[0], name="Bell Club", is_private=True)
    for user in users[1:4]:
        clubs.club_join(user=user, invite_code=club.invite_code)
    return club


def create(club, owner, starts_at, length=dt.timedelta(hours=1)) -> Tournament:
    return services.tournament_create(
        actor=owner,
        club_id=club.pk,
        name="Bell Cup",
        rules="one-look",
        format="match",
        starts_at=starts_at,
        ends_at=starts_at + length,
    )


def record_queued(monkeypatch) -> list:
    """The etas the announcement tasks are queued with; each run at once, as in-process tasks are."""
    queued = []

    def apply_async(args, eta):
        queued.append(eta)
        return tasks.announce_tournament(*args)

    monkeypatch.setattr(tasks.announce_tournament, "apply_async", apply_async)
    return queued


def sweep() -> dict:
    return tasks.announce_tournaments.apply().get()


def test_each_moment_goes_out_on_time_once_to_the_channel_and_to_members_only(club, users):
    outsider = UserFactory()
    now = timezone.now().replace(microsecond=0)
    start = now + dt.timedelta(hours=2)
    cup = create(club, users[0], start)
    channel = tournament_channel(cup.pk)

    with time_machine.travel(start - 15 * MINUTE - SECOND, tick=False):
        assert sweep()["sent"] == 0
    assert events(channel) == []
    with time_machine.travel(start - 15 * MINUTE, tick=False) as clock:
        assert sweep()["sent"] == 1
        assert sweep()["sent"] == 0 and tasks.announce_tournament(cup.pk) == []  # again: nothing more
        soon_at = timezone.now()
        clock.shift(14 * MINUTE)
        assert sweep()["sent"] == 0
    with time_machine.travel(start, tick=False):
        assert sweep()["sent"] == 1
        started_at = timezone.now()
    with time_machine.travel(start + 30 * MINUTE, tick=False):
        assert sweep()["sent"] == 0
    with time_machine.travel(cup.ends_at, tick=False):
        assert tasks.announce_tournament(cup.pk) == ["ended"]
        assert sweep()["sent"] == 0

    window = {"starts_at": wire_time(start), "ends_at": wire_time(cup.ends_at)}
    assert events(channel) == [
        {"type": "soon", "tournament": cup.pk, **window, "server_time": wire_time(soon_at), "version": 1},
        {"type": "started", "tournament": cup.pk, **window, "server_time": wire_time(started_at), "version": 1},
        {"type": "ended", "tournament": cup.pk, "ends_at": window["ends_at"], "version": 1},
    ]
    notice = {
        "tournament": cup.pk,
        "name": "Bell Cup",
        "club": club.pk,
        "club_name": "Bell Club",
        "format": "match",
        **window,
        "version": 1,
    }
    for member in users[:4]:
        assert events(player_channel(member.pk)) == [
            {"type": "tournament_soon", **notice, "server_time": wire_time(soon_at)},
            {"type": "tournament_started", **notice, "server_time": wire_time(started_at)},
        ]
    # a private club's tournament reaches its members alone: not an outsider, nor its own stream's reader
    assert events(player_channel(outsider.pk)) == []
    refused = client_for(outsider).get(f"/api/tournaments/{cup.pk}/events/")
    assert refused.status_code == 404 and refused.json()["code"] == "tournament_not_found"


def test_a_tournament_created_within_the_soon_window_is_announced_at_once(club, users):
    cup = create(club, users[0], timezone.now() + 10 * MINUTE)
    assert [e["type"] for e in events(tournament_channel(cup.pk))] == ["soon"]
    assert [e["type"] for e in events(player_channel(users[2].pk))] == ["tournament_soon"]


def test_a_task_run_before_its_moment_sends_nothing(club, users, monkeypatch):
    """In-process (eager) tasks run at once, whatever their eta: the task looks at the clock, not at its eta."""
    queued = record_queued(monkeypatch)
    now = timezone.now()
    cup = create(club, users[0], now + 16 * MINUTE)
    assert queued == [cup.starts_at - 15 * MINUTE]  # within the next two sweeps: its task queued with its eta
    assert events(tournament_channel(cup.pk)) == []  # ... and run early, it sent nothing
    with time_machine.travel(queued[0], tick=False):
        assert tasks.announce_tournament(cup.pk) == ["soon"]


def test_two_sweeps_at_once_announce_once(club, users):
    start = timezone.now() + dt.timedelta(hours=3)
    cups = [create(club, users[0], start + n * SECOND) for n in range(3)]
    ready = threading.Barrier(2)
    counts = []

    def run():
        try:
            ready.wait(timeout=30)
            counts.append(sweep()["sent"])
        finally:
            connection.close()

    with time_machine.travel(start + 2 * SECOND, tick=False):
        threads = [threading.Thread(target=run) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    assert len(counts) == 2 and sum(counts) == 3  # however they split the work, each moment once
    for cup in cups:
        assert [e["type"] for e in events(tournament_channel(cup.pk))] == ["started"]
    assert [e["type"] for e in events(player_channel(users[1].pk))] == ["tournament_started"] * 3
    assert TournamentAnnouncement.objects.filter(kind="started").count() == 3


def test_the_database_refuses_a_second_claim_of_a_moment(club, users):
    cup = create(club, users[0], timezone.now() + dt.timedelta(hours=3))
    TournamentAnnouncement.objects.create(tournament=cup, kind="soon", at=cup.starts_at)
    with pytest.raises(IntegrityError), transaction.atomic():
        TournamentAnnouncement.objects.create(tournament=cup, kind="soon", at=cup.starts_at)


def test_a_moved_window_is_announced_as_moved(club, users, monkeypatch):
    now = timezone.now().replace(microsecond=0)
    cup = create(club, users[0], now + 10 * MINUTE)  # soon at once, for this start
    queued = record_queued(monkeypatch)
    later = now + 30 * MINUTE
    services.tournament_update(actor=users[0], tournament_id=cup.pk, starts_at=later, ends_at=later + 2 * MINUTE)
    assert queued == []  # its moments are past the next two sweeps: the sweep queues them when they come near
    with time_machine.travel(now + 10 * MINUTE, tick=False):  # the old start: nothing starts
        assert sweep()["sent"] == 0
    with time_machine.travel(later - 15 * MINUTE, tick=False):
        assert sweep()["sent"] == 1  # a soon of its own for the new start
    with time_machine.travel(later - 3 * MINUTE, tick=False):
        sweep()
        assert queued == []  # the start is past the next sweep but one
    with time_machine.travel(later - SECOND, tick=False):
        sweep()  # the sweep queues the moments coming before the next sweep but one, with their eta
        assert queued == [later]
    with time_machine.travel(later, tick=False):
        assert tasks.announce_tournament(cup.pk) == ["started"]
    assert [(e["type"], e["starts_at"]) for e in events(tournament_channel(cup.pk))] == [
        ("soon", wire_time(now + 10 * MINUTE)),
        ("soon", wire_time(later)),
        ("started", wire_time(later)),
    ]
    # the end moved while it runs: the new end comes within the next two sweeps, its task queued for it
    with time_machine.travel(later + MINUTE, tick=False):
        services.tournament_update(actor=users[0], tournament_id=cup.pk, ends_at=later + 2 * MINUTE + SECOND)
        assert queued[-1] == later + 2 * MINUTE + SECOND


def test_the_bell_lists_my_clubs_tournaments_soon_or_running(club, users):
    outsider = UserFactory()
    now = timezone.now().replace(microsecond=0)
    running = create(club, users[0], now - MINUTE)
    soon = create(club, users[0], now + 10 * MINUTE)
    create(club, users[0], now + 20 * MINUTE)  # not yet
    failed = create(club, users[0], now + 5 * MINUTE)
    Tournament.objects.filter(pk=failed.pk).update(status=Tournament.Status.FAILED)
    member = client_for(users[3])
    answer = member.get("/api/accounts/me/notifications/")
    assert answer.status_code == 200
    assert [(row["kind"], row["tournament"]) for row in answer.json()["results"]] == [
        ("tournament_started", running.pk),
        ("tournament_soon", soon.pk),
    ]
    assert answer.json()["results"][1] == {
        "kind": "tournament_soon",
        "tournament": soon.pk,
        "name": "Bell Cup",
        "club": club.pk,
        "club_name": "Bell Club",
        "format": "match",
        "starts_at": wire_time(soon.starts_at),
        "ends_at": wire_time(soon.ends_at),
    }
    assert answer["Cache-Control"] == "private, no-cache"
    again = member.get("/api/accounts/me/notifications/", HTTP_IF_NONE_MATCH=answer["ETag"])
    assert again.status_code == 304
    with time_machine.travel(soon.starts_at, tick=False):  # it starts: the answer changes, and its ETag
        moved = member.get("/api/accounts/me/notifications/", HTTP_IF_NONE_MATCH=answer["ETag"])
        assert moved.status_code == 200 and moved.json()["results"][1]["kind"] == "tournament_started"
    assert client_for(outsider).get("/api/accounts/me/notifications/").json() == {"results": []}
    anonymous = client_for(None).get("/api/accounts/me/notifications/")
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "not_authenticated"


def test_my_events_stream_is_mine_alone(users):
    anonymous = client_for(None).get("/api/accounts/me/events/")
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "not_authenticated"
    # Django's test client is a WSGI request: the stream itself is the ASGI process's
    answer = client_for(users[0]).get("/api/accounts/me/events/")
    assert answer.status_code == 503 and answer.json()["code"] == "live_unavailable"


def test_without_a_beat_the_first_request_starts_the_process_sweeping(club, users, settings, monkeypatch):
    settings.PYRAMID_TOURNAMENT_SWEEP_IN_PROCESS = True
    start = timezone.now() + dt.timedelta(hours=3)
    cup = create(club, users[0], start)
    swept = threading.Event()
    sweep_task = middleware.announce_tournaments

    def sweep_and_tell():
        sweep_task.apply()
        swept.set()

    monkeypatch.setattr(middleware, "announce_tournaments", SimpleNamespace(delay=sweep_and_tell))
    monkeypatch.setattr(middleware, "_started", threading.Event())
    monkeypatch.setattr(middleware, "_stop", threading.Event())
    answered = middleware.AnnouncementsSweptMiddleware(lambda request: "answered")
    try:
        with time_machine.travel(start - 10 * MINUTE, tick=False):
            assert answered(None) == "answered"
            assert swept.wait(30)
            assert middleware.sweep_timer_start() is False  # one timer a process
    finally:
        middleware._stop.set()
    assert [e["type"] for e in events(tournament_channel(cup.pk))] == ["soon"]


def test_in_process_a_task_queued_with_an_eta_waits_for_it_from_any_thread(club, users, settings, monkeypatch):
    """Without a broker tasks run eagerly, eta or not: on the tasks' thread (the README's way) one queued with an
    eta is held on a timer until then, whoever queued it (a request, or the sweep on that thread)."""
    from pyramid_site import celery as tasks_thread

    settings.PYRAMID_TASKS_IN_THREAD = True
    cup = create(club, users[0], timezone.now() + 10 * MINUTE)  # its soon sent at once (on the calling thread)
    timers = []

    class Held:
        def __init__(self, delay, function, args):
            timers.append((delay, function, args))

        def start(self):
            pass

    monkeypatch.setattr(tasks_thread.threading, "Timer", Held)
    eta = cup.starts_at
    tasks.announce_tournament.apply_async((cup.pk,), eta=eta)  # from this thread
    tasks_thread.run_on_task_thread(lambda: tasks.announce_tournament.apply_async((cup.pk,), eta=eta)).result(30)
    tasks_thread.task_thread_idle(30)
    assert len(timers) == 2 and all(9 * 60 < delay <= 10 * 60 for delay, _, _ in timers)
    assert [e["type"] for e in events(tournament_channel(cup.pk))] == ["soon"]  # nothing ran early
    with time_machine.travel(eta, tick=False):
        _, function, args = timers[1]
        function(*args).result(30)  # the timer goes off: the task runs on the tasks' thread, at its moment
        tasks_thread.task_thread_idle(30)
    assert [e["type"] for e in events(tournament_channel(cup.pk))] == ["soon", "started"]
