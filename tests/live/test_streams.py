"""The live streams served by real uvicorn processes on a fresh database: a second device follows a game while its
moves are made through the API, across two processes over Redis and in one process without it; a client resumes
after a disconnect with nothing missed; the caps per account and per address; keep-alives; a server told to stop
ends its streams with ``retry:``. Every wait is for an event (a queue's get with a deadline), never a sleep."""

from __future__ import annotations

import datetime as dt
import http.client
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid

import httpx
import psycopg
import pytest
import redis
from django.conf import settings

import engine
from tests.asgi_server import AsgiServer

from .conftest import REDIS_URL, redis_answers

ROOT = settings.BASE_DIR
PG = "postgres://postgres@127.0.0.1:5432"
WAIT = 20  # seconds any one awaited event may take on a loaded machine before the test fails


def _pg_answers() -> bool:
    try:
        psycopg.connect(f"{PG}/postgres", connect_timeout=1).close()
        return True
    except psycopg.Error:
        return False


pytestmark = [
    pytest.mark.skipif(not (_pg_answers() and redis_answers()), reason="needs PostgreSQL and Redis"),
    pytest.mark.real_clock,
]  # the servers read their own clock


@pytest.fixture(scope="module")
def servers():
    """Three uvicorn processes on one fresh database: ``a`` and ``b`` over one Redis (a key prefix of their own),
    ``memory`` without Redis (the README's way: its own bus, in-process jobs)."""
    name = f"pyramid_live_{uuid.uuid4().hex[:8]}"
    prefix = f"test-live-{uuid.uuid4().hex[:8]}:"
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYRAMID_", "CELERY_", "REDIS_"))} | {
        "DATABASE_URL": f"{PG}/{name}",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "live-streams",
        "PYRAMID_DAILY_SECRET": "live-streams",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SETTINGS_MODULE": "pyramid_site.settings",
        "PYRAMID_THROTTLE_SIGNUP": "1000/hour",
        "PYRAMID_THROTTLE_GUEST": "1000/hour",
        "PYRAMID_LIVE_KEEPALIVE_SECONDS": "0.5",
        # the play throttles count per address in the shared Redis, where other processes on this machine count too
        "PYRAMID_THROTTLE_GAME_START_ADDRESS": "100000/min",
        "PYRAMID_THROTTLE_MOVE_ADDRESS": "100000/min",
        "PYRAMID_LIVE_RETRY_MS": "1234",
    }
    shared = base | {
        "REDIS_URL": REDIS_URL,
        "PYRAMID_LIVE_KEY_PREFIX": prefix,
        "CELERY_QUEUE": f"{prefix}jobs",
        "PYRAMID_LIVE_STREAMS_PER_ACCOUNT": "2",
        "PYRAMID_LIVE_STREAMS_PER_ADDRESS": "1000",
    }
    alone = base | {"PYRAMID_LIVE_STREAMS_PER_ACCOUNT": "1000", "PYRAMID_LIVE_STREAMS_PER_ADDRESS": "3"}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=alone, check=True)
    started = {"a": AsgiServer(shared), "b": AsgiServer(shared), "memory": AsgiServer(alone)}
    try:
        for server in started.values():
            server.spawn()
        for server in started.values():
            server.wait_healthy()
        yield started
    finally:
        for server in started.values():
            server.stop()
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        client = redis.Redis.from_url(REDIS_URL)
        for key in client.scan_iter(f"{prefix}*"):
            client.delete(key)


class Follower:
    """An open stream read on a thread of its own: each block (event, id alone, comment, retry) onto a queue."""

    def __init__(self, server: AsgiServer, path: str, token: str | None = None, last_event_id: str | None = None):
        self.blocks: queue.Queue = queue.Queue()
        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        headers = {"Accept": "text/event-stream"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if last_event_id:
            headers["Last-Event-ID"] = last_event_id
        self.connection.request("GET", path, headers=headers)
        self.response = self.connection.getresponse()
        assert self.response.status == 200, self.response.read()
        assert self.response.getheader("Content-Type").startswith("text/event-stream")
        self.ended = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        block: dict = {}
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\r\n")
                if line == "":
                    if block:
                        self.blocks.put(block)
                    block = {}
                    continue
                field, _, value = line.partition(":")
                block.setdefault(field or "comment", value.removeprefix(" "))
        except (OSError, ValueError, AttributeError):
            pass  # closed under it (http.client is not made to be closed from another thread mid-read)
        finally:
            self.ended.set()
            self.blocks.put({"end": True})

    def next(self, *, kind: str = "event") -> dict:
        """The next block holding ``kind`` (``event``, ``id``, ``comment`` or ``retry``), skipping others."""
        deadline = time.monotonic() + WAIT
        while True:
            block = self.blocks.get(timeout=max(0.01, deadline - time.monotonic()))
            if kind in block:
                return block
            if "end" in block:
                raise AssertionError(f"the stream ended while waiting for {kind}")

    def event(self) -> dict:
        block = self.next()
        payload = json.loads(block["data"])
        assert payload["type"] == block["event"] and payload["version"] == 1
        return {"id": block["id"], **payload}

    def close(self):
        self.connection.sock.shutdown(socket.SHUT_RDWR)
        self.connection.close()
        assert self.ended.wait(WAIT)


def guest(server: AsgiServer) -> str:
    answer = httpx.post(f"{server.url}/api/accounts/guest/", timeout=30)
    assert answer.status_code == 201, answer.text
    return answer.json()["token"]


def line_of(number: int, length: int) -> list[str]:
    position = engine.Position.start(engine.deal_from_number(number), engine.Rules.parse("classic"))
    line = []
    while position.status == "playing" and len(line) < length:
        move = position.legal_moves()[0]
        position.apply(move)
        line.append(str(move))
    assert len(line) == length
    return line


def start_game(server: AsgiServer, token: str, number: int = 5) -> int:
    answer = httpx.post(
        f"{server.url}/api/games/",
        json={"number": number, "rules": "classic"},
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )
    assert answer.status_code == 201, answer.text
    return answer.json()["id"]


def play(server: AsgiServer, token: str, game_id: int, line: list[str], first_ply: int = 1) -> None:
    for ply, move in enumerate(line, start=first_ply):
        answer = httpx.post(
            f"{server.url}/api/games/{game_id}/moves/",
            json={"ply": ply, "move": move},
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        )
        assert answer.status_code == 201, answer.text


def test_a_second_device_on_another_process_follows_every_move(servers):
    a, b = servers["a"], servers["b"]
    token = guest(a)
    game_id = start_game(a, token)
    follower = Follower(b, f"/api/games/{game_id}/events/", token)
    assert follower.next(kind="retry")["retry"] == "1234"
    follower.next(kind="id")  # where it starts: before any event, so a reconnect misses nothing
    line = line_of(5, 6)
    play(a, token, game_id, line)  # every move through the other process
    events = [follower.event() for _ in line]
    assert [(e["type"], e["ply"], e["move"], e["game_version"]) for e in events] == [
        ("move", ply, move, ply) for ply, move in enumerate(line, start=1)
    ]
    game = httpx.get(f"{a.url}/api/games/{game_id}/", headers={"Authorization": f"Bearer {token}"}).json()
    assert (events[-1]["moves"], events[-1]["cards_left"], events[-1]["status"]) == (
        game["moves"],
        game["cards_left"],
        game["status"],
    )
    assert follower.next(kind="comment")["comment"] == "keep-alive"  # nothing more: kept alive
    follower.close()


@pytest.mark.parametrize("which", ["a", "memory"])
def test_a_client_that_reconnects_with_last_event_id_misses_nothing(servers, which):
    server = servers[which]
    token = guest(server)
    game_id = start_game(server, token)
    line = line_of(5, 8)
    follower = Follower(server, f"/api/games/{game_id}/events/", token)
    follower.next(kind="id")
    play(server, token, game_id, line[:2])
    seen = [follower.event(), follower.event()]
    follower.close()
    play(server, token, game_id, line[2:6], first_ply=3)  # while it is away
    back = Follower(server, f"/api/games/{game_id}/events/", token, last_event_id=seen[-1]["id"])
    assert back.next(kind="id")["id"] == seen[-1]["id"]
    play(server, token, game_id, line[6:], first_ply=7)
    seen += [back.event() for _ in line[2:]]
    assert [e["move"] for e in seen] == line and [e["ply"] for e in seen] == list(range(1, 9))
    ids = [e["id"] for e in seen]
    assert len(set(ids)) == len(ids)
    back.close()


def test_an_id_it_cannot_resume_from_is_answered_with_reset(servers):
    server = servers["b"]
    token = guest(server)
    game_id = start_game(server, token)
    follower = Follower(server, f"/api/games/{game_id}/events/", token, last_event_id="99999999999999-0")
    reset = follower.event()
    assert reset["type"] == "reset" and reset["channel"] == f"game:{game_id}"
    follower.close()


def test_only_the_games_player_follows_it(servers):
    server = servers["a"]
    owner, other = guest(server), guest(server)
    game_id = start_game(server, owner)
    path = f"{server.url}/api/games/{game_id}/events/"
    refused = httpx.get(path, headers={"Authorization": f"Bearer {other}"})
    assert refused.status_code == 404 and refused.json()["code"] == "game_not_found"
    anonymous = httpx.get(path)
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "not_authenticated"


def test_streams_per_account_are_capped_across_processes(servers):
    a, b = servers["a"], servers["b"]
    token = guest(a)
    game_id = start_game(a, token)
    path = f"/api/games/{game_id}/events/"
    open_ = [Follower(a, path, token), Follower(b, path, token)]
    refused = httpx.get(f"{a.url}{path}", headers={"Authorization": f"Bearer {token}"})
    assert refused.status_code == 429 and refused.json()["code"] == "too_many_streams"
    assert set(refused.json()) == {"code", "message"}
    other = guest(b)  # another account is not held back by it
    mine = Follower(b, f"/api/games/{start_game(b, other)}/events/", other)
    for follower in [*open_, mine]:
        follower.close()


def test_streams_per_address_are_capped(servers):
    server = AsgiServer(servers["memory"].env)  # a process of its own: no stream of another test still counted
    try:
        server.start()
        tokens = [guest(server) for _ in range(4)]
        followers = [Follower(server, f"/api/games/{start_game(server, t)}/events/", t) for t in tokens[:3]]
        refused = httpx.get(
            f"{server.url}/api/games/{start_game(server, tokens[3])}/events/",
            headers={"Authorization": f"Bearer {tokens[3]}"},
        )
        assert refused.status_code == 429 and refused.json()["code"] == "too_many_streams"
        for follower in followers:
            follower.close()
    finally:
        server.stop()


def test_a_server_told_to_stop_ends_its_streams_with_retry(servers):
    server = AsgiServer(servers["memory"].env)  # a process of its own, to stop
    try:
        server.start()
        token = guest(server)
        follower = Follower(server, f"/api/games/{start_game(server, token)}/events/", token)
        follower.next(kind="id")
        started = time.monotonic()
        assert server.process is not None
        server.process.send_signal(signal.SIGTERM)
        assert follower.next(kind="retry")["retry"] == "1234"
        assert follower.ended.wait(WAIT)
        assert server.process.wait(timeout=WAIT) in (0, -signal.SIGTERM)  # uvicorn exits by the signal it got
        assert time.monotonic() - started < 15  # long before the graceful timeout (30 s) would have cut it
    finally:
        server.stop()


def signed_up(server: AsgiServer, name: str) -> str:
    answer = httpx.post(
        f"{server.url}/api/accounts/signup/",
        json={"username": f"{name}{uuid.uuid4().hex[:6]}", "password": "a-long-pass-phrase"},
        timeout=30,
    )
    assert answer.status_code == 201, answer.text
    return answer.json()["token"]


def api(server: AsgiServer, token: str, method: str, path: str, **body) -> dict:
    answer = httpx.request(
        method, f"{server.url}{path}", json=body or None, headers={"Authorization": f"Bearer {token}"}, timeout=30
    )
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


def test_members_are_told_a_tournament_starts_on_time_by_the_process_alone(servers):
    """The README's way (no Redis, no beat): a tournament a few seconds ahead is announced to its club's members
    as it is created (``tournament_soon``) and at its start (``tournament_started``) with no request in between:
    the process holds the task queued for the start until then; an outsider hears nothing."""
    server = servers["memory"]
    owner, member, outsider = (signed_up(server, who) for who in ("owner", "member", "outsider"))
    club = api(server, owner, "POST", "/api/clubs/", name=f"Bell {uuid.uuid4().hex[:6]}")
    api(server, member, "POST", "/api/clubs/join/", invite_code=club["invite_code"])
    mine, theirs = (
        Follower(server, "/api/accounts/me/events/", member),
        Follower(server, "/api/accounts/me/events/", outsider),
    )
    mine.next(kind="id")
    now = dt.datetime.now(dt.UTC)
    cup = api(
        server,
        owner,
        "POST",
        f"/api/clubs/{club['id']}/tournaments/",
        name="Bell Cup",
        format="match",
        deal_count=1,
        starts_at=(now + dt.timedelta(seconds=3)).isoformat(),
        ends_at=(now + dt.timedelta(hours=1)).isoformat(),
    )
    soon, started = mine.event(), mine.event()
    assert (soon["type"], started["type"]) == ("tournament_soon", "tournament_started")
    for event in soon, started:
        assert (event["tournament"], event["club"], event["name"]) == (cup["id"], club["id"], "Bell Cup")
        assert (event["starts_at"], event["ends_at"]) == (cup["starts_at"], cup["ends_at"])
    assert dt.datetime.fromisoformat(started["server_time"]) >= dt.datetime.fromisoformat(cup["starts_at"])
    # the outsider's stream, open all along: kept alive, and nothing else came
    heard = list(theirs.blocks.queue)
    assert any("comment" in block for block in heard) and not any("event" in block for block in heard)
    bell = api(server, member, "GET", "/api/accounts/me/notifications/")["results"]
    assert [(row["kind"], row["tournament"]) for row in bell] == [("tournament_started", cup["id"])]
    mine.close()
    theirs.close()
