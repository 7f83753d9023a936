"""Fault: Redis killed while players play the daily deal and read its board, then started again empty.

gunicorn runs with a private Redis as ``REDIS_URL`` (Django's cache, the board cache, the Celery broker)
and a private PostgreSQL. Players sign up, play today's daily deal move by move and read its board:
first with Redis up (the board from Redis after a rebuild), then with Redis killed (play, move
validation and the board must go on, the board from PostgreSQL), then with Redis back but empty (the
board from PostgreSQL until ``rebuild_boards`` runs, then from Redis again, and the same as
PostgreSQL's). Before the kill, Redis is paused (SIGSTOP) while a few games finish and then resumed
with its old boards, which lack those results: the board must not be served from Redis while it is
behind.

    .venv/bin/python benchmarks/faults_redis_gone.py --players 12
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from fault_servers import free_port, migrate, missing_binaries, private_postgres, private_redis  # noqa: E402
from load_games import engine_line  # noqa: E402

import engine  # noqa: E402
from benchmarks.common import UNTHROTTLED_PLAY  # noqa: E402

DAILY_NUMBER = 1116761698452426220  # a winnable one-look deal
PRESET = "one-look"


def make_today_daily() -> int:
    from games.daily import commitment, new_salt
    from games.models import DailyDeal
    from games.services import deal_get_or_create

    deal = deal_get_or_create(number=DAILY_NUMBER, rules=engine.preset(PRESET))
    salt = new_salt()
    daily = DailyDeal.objects.create(
        date=dt.datetime.now(dt.UTC).date(),
        preset=PRESET,
        deal=deal,
        attempt=0,
        salt=salt,
        commitment=commitment(deal.text, salt),
    )
    return daily.pk


class Players:
    """Clients that sign up and play the daily deal through the API, counting what they see."""

    def __init__(self, client: httpx.Client, daily_id: int):
        self.client, self.daily_id = client, daily_id
        self.count = 0
        self.headers: dict = {}  # the last player's, for reading the board between games
        self.figures = Counter()

    def play_one(self, phase: str) -> None:
        self.count += 1
        response = self.client.post(
            "/api/accounts/signup/", json={"username": f"player{self.count}", "password": "fault-pass-phrase-1"}
        )
        if not self.answered(phase, "signup", response, 201):
            return
        headers = self.headers = {"Authorization": f"Token {response.json()['token']}"}
        response = self.client.post("/api/games/", json={"daily": self.daily_id}, headers=headers)
        if not self.answered(phase, "start", response, 201):
            return
        game_id = response.json()["id"]
        line = engine_line(DAILY_NUMBER, engine.preset(PRESET), seed=self.count)
        for ply, move in enumerate(line, start=1):
            response = self.client.post(
                f"/api/games/{game_id}/moves/", json={"ply": ply, "move": move}, headers=headers
            )
            if not self.answered(phase, "move", response, 201):
                return
        # a move out of turn is still refused with its reason: validation does not lean on Redis
        response = self.client.post(
            f"/api/games/{game_id}/moves/", json={"ply": len(line) + 5, "move": line[0]}, headers=headers
        )
        self.answered(phase, "refusal", response, 409)
        # a practice deal asked for queues its solve (a cache mark, then the broker)
        self.answered(phase, "deal", self.client.get(f"/api/deals/{self.count}/", headers=headers), 200)
        self.read_board(phase, headers)

    def read_board(self, phase: str, headers: dict | None = None) -> dict | None:
        today = dt.datetime.now(dt.UTC).date().isoformat()
        response = self.client.get(f"/api/boards/daily/{today}/{PRESET}/", headers=headers or self.headers)
        if self.answered(phase, "board", response, 200):
            board = response.json()
            self.figures[f"{phase} board from {board['source']}"] += 1
            return board
        return None

    def answered(self, phase: str, what: str, response: httpx.Response, expected: int) -> bool:
        ok = response.status_code == expected
        self.figures[f"{phase} {what} {'ok' if ok else response.status_code}"] += 1
        return ok


def boards_agree(daily_id: int) -> bool:
    """The board in Redis ranks every player as PostgreSQL does. Players who tie share a rank and may
    stand in either order (PostgreSQL lists them by result, Redis by member), so the pairs are compared
    as sets."""
    from games.models import DailyDeal
    from leaderboards.boards import cache
    from leaderboards.boards.selectors.boards import daily_board

    daily = DailyDeal.objects.get(pk=daily_id)
    from_postgres = daily_board(daily=daily, limit=200, use_cache=False)
    top, _, _, total = cache.board_ranks(daily_id, limit=200, player_id=None, around=0)
    return total == from_postgres.total and sorted(top) == sorted(
        (row.result.player_id, row.rank) for row in from_postgres.top
    )


def run(args, database_url: str, redis_server) -> dict:
    env = (
        os.environ
        | {
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_server.url,
            "DJANGO_SETTINGS_MODULE": "pyramid_site.settings",
            "DJANGO_DEBUG": "false",
            "PYRAMID_DAILY_SECRET": "pyramid-fault-secret",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "LOG_LEVEL": "ERROR",
            "PYRAMID_THROTTLE_SIGNUP": "100000/hour",
        }
        | UNTHROTTLED_PLAY
    )
    migrate(database_url, env)
    os.environ.update(env)
    import django

    django.setup()
    daily_id = make_today_daily()
    port = free_port()
    gunicorn = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "pyramid_site.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        stderr=subprocess.DEVNULL,
    )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            for _ in range(100):
                try:
                    if client.get("/health/").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.2)
            players = Players(client, daily_id)
            for _ in range(args.players):
                players.play_one("redis up:")
            rebuild = subprocess.run(
                [sys.executable, "manage.py", "rebuild_boards"],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            players.read_board("redis up, rebuilt:")

            # a blip first: Redis stops answering but keeps its boards, which miss the results written meanwhile
            redis_server.pause()
            for _ in range(args.paused_players):
                players.play_one("redis paused:")
            redis_server.resume()
            players.read_board("redis resumed, behind:")
            behind = players.read_board("redis resumed, behind:")

            redis_server.kill()
            killed = time.perf_counter()
            for _ in range(args.players):
                players.play_one("redis gone:")
            seconds_without = time.perf_counter() - killed

            redis_server.start()  # empty: nothing was saved
            players.read_board("redis back, empty:")
            started = time.perf_counter()
            rebuild = subprocess.run(
                [sys.executable, "manage.py", "rebuild_boards"],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            rebuild_seconds = time.perf_counter() - started
            players.read_board("redis back, rebuilt:")
            for _ in range(2):
                players.play_one("redis back:")
            agree = boards_agree(daily_id)
    finally:
        gunicorn.terminate()
        gunicorn.wait(timeout=20)
    figures = dict(sorted(players.figures.items()))
    failures = {key: count for key, count in figures.items() if not key.endswith((" ok", "postgresql", "redis"))}
    expected_sources = (
        figures.get("redis gone: board from postgresql") == args.players
        and figures.get("redis resumed, behind: board from postgresql") == 2
        and behind is not None
        and behind["total"] == args.players + args.paused_players
        and figures.get("redis back, empty: board from postgresql") == 1
        and figures.get("redis back, rebuilt: board from redis") == 1
    )
    return {
        "counts": figures,
        "failures": failures,
        "seconds_without_redis": round(seconds_without, 1),
        "rebuild_seconds": round(rebuild_seconds, 2),
        "rebuild_output": rebuild.stdout.strip(),
        "redis_agrees_with_postgresql": agree,
        "ok": not failures and expected_sources and agree,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=12, help="players in each phase")
    parser.add_argument("--paused-players", type=int, default=2, help="players while Redis is paused")
    args = parser.parse_args()
    if reason := missing_binaries():
        print("cannot run:", reason)
        return 2
    with private_postgres() as postgres, private_redis() as redis_server:
        figures = run(args, postgres.create_database("pyramid_faults"), redis_server)
    for key, count in figures["counts"].items():
        print(f"{key}: {count}")
    print(
        f"played {args.players} whole games without Redis in {figures['seconds_without_redis']}s; "
        f"rebuild_boards took {figures['rebuild_seconds']}s ({figures['rebuild_output']})"
    )
    print("board in Redis agrees with PostgreSQL:", figures["redis_agrees_with_postgresql"])
    print("PASS" if figures["ok"] else "FAIL", "(no request failed without Redis; boards rebuilt and agreeing)")
    print("FIGURES", json.dumps(figures))
    return 0 if figures["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
