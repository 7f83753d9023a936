"""Two web processes on two ports over one PostgreSQL and one Redis, as the service grows past one machine,
with a client switching between them on every request: accounts and tokens, a game's moves, a move sent to
both at once, a revoked token, a throttle and the daily board all stay one and the same."""

from __future__ import annotations

import concurrent.futures
import os
import subprocess
import sys
import time
import uuid

import httpx
import psycopg
import pytest
import redis
from django.conf import settings

import engine
from engine.solver import WINNABLE, solve

ROOT = settings.BASE_DIR
PG = "postgres://postgres@127.0.0.1:5432"
REDIS = os.environ["PYRAMID_TEST_SPARE_REDIS_URL"]  # emptied by the module: tests/worker_redis.py
PASSWORD = "a-long-pass-phrase"


def _answers(url: str) -> bool:
    try:
        return (
            bool(redis.Redis.from_url(url, socket_connect_timeout=0.5).ping())
            if url.startswith("redis")
            else psycopg.connect(f"{url}/postgres", connect_timeout=1).close() is None
        )
    except Exception:  # noqa: BLE001 - not there: skipped
        return False


pytestmark = [
    pytest.mark.skipif(not (_answers(PG) and _answers(REDIS)), reason="needs PostgreSQL and Redis on loopback"),
    pytest.mark.real_clock,
]  # its servers read their own clock


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def two_processes():
    """A fresh database, the spare Redis database emptied, and two gunicorn processes (one worker each) on it."""
    name = f"pyramid_two_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    redis.Redis.from_url(REDIS).flushdb()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYRAMID_", "CELERY_"))} | {
        "DATABASE_URL": f"{PG}/{name}",
        "REDIS_URL": REDIS,
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "two-processes",
        "PYRAMID_DAILY_SECRET": "two-processes",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SETTINGS_MODULE": "pyramid_site.settings",
        # no beat here: the first request of the day prepares today's daily deals, in the web process
        "PYRAMID_DAILY_AUTO_PREPARE": "true",
        "PYRAMID_DAILY_PRESETS": "classic",
        "PYRAMID_THROTTLE_SIGNUP": "1000/hour",
        "PYRAMID_THROTTLE_LOGIN": "10/min",
    }
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    ports = [_free_port(), _free_port()]
    servers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "pyramid_site.wsgi",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "1",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
        )
        for port in ports
    ]
    urls = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        for url in urls:
            for _ in range(150):
                try:
                    if httpx.get(f"{url}/health/", timeout=2).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                time.sleep(0.2)
            else:
                pytest.fail(f"{url} never became healthy")
        yield urls
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=20)
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        redis.Redis.from_url(REDIS).flushdb()


class Switching:
    """A client that sends each request to the other process than the last one."""

    def __init__(self, urls: list[str], token: str | None = None):
        self.urls, self.turn, self.token = urls, 0, token

    def __call__(self, method: str, path: str, body=None, *, to: int | None = None) -> httpx.Response:
        url = self.urls[self.turn % 2 if to is None else to]
        self.turn += 1
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        return httpx.request(method, f"{url}{path}", json=body, headers=headers, timeout=30)


def signed_up(urls, name: str) -> Switching:
    client = Switching(urls)
    answer = client("POST", "/api/accounts/signup/", {"username": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    client.token = answer.json()["token"]
    return client


def winnable_one_look() -> tuple[int, list[str]]:
    for number in range(1, 500):
        solution = solve(engine.Position.start(engine.deal_from_number(number), engine.preset("one-look")), grade=False)
        if solution.verdict == WINNABLE:
            return number, solution.solution
    pytest.fail("no winnable one-look deal")


def test_a_token_and_a_whole_game_are_the_same_on_both_processes(two_processes):
    client = signed_up(two_processes, "switcher")
    for _ in range(2):
        assert client("GET", "/api/accounts/me/").json()["username"] == "switcher"
    number, line = winnable_one_look()
    game = client("POST", "/api/games/", {"number": str(number), "rules": "one-look"}).json()
    for ply, move in enumerate(line, start=1):
        answer = client("POST", f"/api/games/{game['id']}/moves/", {"ply": ply, "move": move})
        assert answer.status_code == 201, (ply, answer.text)
    seen = [client("GET", f"/api/games/{game['id']}/", to=i).json() for i in (0, 1)]
    assert seen[0] == seen[1] and seen[0]["status"] == "won" and seen[0]["moves"] == len(line)
    assert client("GET", f"/api/games/{game['id']}/log/").json()["log"] == " ".join(line)


def test_one_move_sent_to_both_processes_at_once_is_played_once(two_processes):
    client = signed_up(two_processes, "twice")
    number, line = winnable_one_look()
    game = client("POST", "/api/games/", {"number": str(number), "rules": "one-look"}).json()
    for ply, move in enumerate(line[:10], start=1):
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            answers = list(
                pool.map(
                    lambda to, ply=ply, move=move: client(
                        "POST", f"/api/games/{game['id']}/moves/", {"ply": ply, "move": move}, to=to
                    ),
                    (0, 1),
                )
            )
        assert sorted(a.status_code for a in answers) in ([200, 201], [201, 201], [201, 409]), [a.text for a in answers]
        assert sum(a.status_code == 201 and a.json().get("applied", True) for a in answers) == 1
    log = client("GET", f"/api/games/{game['id']}/log/").json()
    assert [m["ply"] for m in log["moves"]] == list(range(1, 11)) and log["log"] == " ".join(line[:10])


def test_a_token_revoked_on_one_process_is_refused_at_once_by_the_other(two_processes):
    client = signed_up(two_processes, "revoker")
    assert client("GET", "/api/accounts/me/", to=1).status_code == 200  # remembered by the second process
    assert client("DELETE", "/api/accounts/token/", to=0).status_code in (200, 204)
    refused = client("GET", "/api/accounts/me/", to=1)
    assert refused.status_code == 401 and refused.json()["code"] == "authentication_failed"


def test_a_throttle_counts_the_requests_of_both_processes(two_processes):
    signed_up(two_processes, "throttled")
    client = Switching(two_processes)
    wrong = {"username": "throttled", "password": "wrong-pass-phrase"}
    codes = [client("POST", "/api/accounts/login/", wrong).status_code for _ in range(12)]
    assert codes[:10] == [401] * 10 and codes[10:] == [429, 429], codes  # 10 a minute across both


def test_the_daily_board_is_the_same_from_both_processes(two_processes):
    players = [signed_up(two_processes, f"daily{i}") for i in range(3)]
    listed = players[0]("GET", "/api/daily/").json()
    assert listed["results"], listed
    daily = listed["results"][0]
    for index, client in enumerate(players):
        game = client("POST", "/api/games/", {"daily": daily["id"]}).json()
        # each plays a different number of the first legal moves, then resigns: three different results
        for ply in range(1, 4 + 3 * index):
            current = client("GET", f"/api/games/{game['id']}/").json()
            if current["status"] != "playing":
                break
            client(
                "POST", f"/api/games/{game['id']}/moves/", {"ply": ply, "move": current["position"]["legal_moves"][0]}
            )
        client("POST", f"/api/games/{game['id']}/resign/")
    path = f"/api/boards/daily/{daily['date']}/{daily['preset']}/"
    boards = [players[0]("GET", path, to=i).json() for i in (0, 1)]
    assert [(b["total"], b["top"], b["me"]) for b in boards] == [
        (boards[0]["total"], boards[0]["top"], boards[0]["me"])
    ] * 2
    assert boards[0]["total"] == 3
    assert {row["player"]["username"] for row in boards[0]["top"]} == {"daily0", "daily1", "daily2"}
