"""Soak: minutes of mixed clients against gunicorn, a Celery worker, PostgreSQL and Redis, with a worker
killed and PostgreSQL restarted once each.

Clients, all at once until the time is up:
- players sign up and play practice games move by move (the load benchmark's retrying clients: after a
  connection error or a 5xx they send the same ``{ply, move}`` again);
- visitors (no account) read today's deals, the boards, deal texts and the schema;
- solvers ask for practice deals to be solved (the Celery worker solves them);
- staff read the fair-play record;
- hostile clients send what a hostile client sends: bodies nested 100,000 deep, bodies over the limit,
  form bodies, forged ``X-Forwarded-For``, garbage JSON, other players' game ids, odd methods.

A third of the way in the Celery worker is SIGKILLed (and started again); two thirds in PostgreSQL is
restarted (``pg_ctl restart -m fast``). Afterwards: every move acknowledged is stored once (no gap, no
double, every game replays to its state), every deal asked for was solved (none left pending), no answer
was a 5xx other than the documented 503 ``database_unavailable``, every error answer was JSON with a
``code``, and the web processes' memory (RSS, summed) grew by under 10 % from the first minute to the end.

    .venv/bin/python benchmarks/soak.py --minutes 10

Everything runs on a private PostgreSQL cluster and a private Redis started for the run.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import httpx
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from fault_servers import gunicorn, migrate, missing_binaries, private_postgres, private_redis  # noqa: E402
from faults_postgres_restart import check_logs  # noqa: E402
from load_games import engine_line, play_games, sign_up  # noqa: E402

import engine  # noqa: E402
from benchmarks.common import UNTHROTTLED_PLAY  # noqa: E402

PASSWORD = "soak-test-pass-phrase-1"
HOSTILE = [
    ("POST", "/api/accounts/login/", {"content": b"[" * 100_000, "headers": {"Content-Type": "application/json"}}),
    (
        "POST",
        "/api/clubs/",
        {
            "content": b'{"name": ' + b'{"a": ' * 30_000 + b"1" + b"}" * 30_001,
            "headers": {"Content-Type": "application/json"},
        },
    ),
    (
        "POST",
        "/api/games/",
        {
            "content": b'{"number": 1, "pad": "' + b"x" * 200_000 + b'"}',
            "headers": {"Content-Type": "application/json"},
        },
    ),
    ("POST", "/api/accounts/login/", {"data": {"username": "x", "password": "y"}}),
    (
        "POST",
        "/api/accounts/signup/",
        {"json": {"username": "ＡＬＩＣＥ\u202e", "password": PASSWORD}, "headers": {"X-Forwarded-For": "203.0.113.9"}},
    ),
    ("POST", "/api/games/", {"content": b"{not json", "headers": {"Content-Type": "application/json"}}),
    ("POST", "/api/games/", {"json": {"number": 2**64, "rules": "classic;passes=2147483648"}}),
    ("GET", "/api/deals/-1", {}),
    ("GET", "/api/deals/7?rules=classic;draw=0", {}),
    ("PATCH", "/api/daily/", {"json": {}}),
    ("GET", "/api/games/1/log/", {}),
    ("GET", "/api/games/99999999999999999999/", {}),
    ("POST", "/api/games/1/moves/", {"json": {"ply": "1", "move": "\x00"}}),
    ("GET", "/api/boards/weekly/?limit=0", {}),
    ("GET", "/api/boards/daily/2026-02-30/classic/", {}),
]


class Tally:
    """What every answer was, by status; the 5xx other than 503 and the errors that were not JSON."""

    def __init__(self):
        self.status = Counter()
        self.bad = []

    def answer(self, what: str, response: httpx.Response | None, error: Exception | None = None) -> None:
        if response is None:
            self.status[f"transport {type(error).__name__}"] += 1
            return
        self.status[response.status_code] += 1
        if what == "health":  # its own shape: 503 {"ok": false, "parts": ...} while a part is down
            if response.status_code not in (200, 503) or "parts" not in response.json():
                self.bad.append((what, response.status_code, "not the health answer", response.text[:120]))
            return
        if response.status_code >= 400:
            try:
                code = response.json().get("code")
            except ValueError:
                code = None
            if code is None:
                self.bad.append((what, response.status_code, "not JSON {code}", response.text[:120]))
            elif response.status_code >= 500 and code != "database_unavailable":
                self.bad.append((what, response.status_code, code, response.text[:200]))


async def request(client, tally: Tally, what: str, method: str, path: str, **kwargs) -> httpx.Response | None:
    try:
        response = await client.request(method, path, **kwargs)
    except httpx.TransportError as exc:
        tally.answer(what, None, exc)
        return None
    tally.answer(what, response)
    return response


async def visitor(client, tally: Tally, until: float, rng: random.Random) -> None:
    paths = ["/api/daily/", "/api/", "/health/", "/api/deals/{n}?rules=classic", "/api/schema/"]
    while time.monotonic() < until:
        path = rng.choice(paths).format(n=rng.randrange(2**64))
        await request(client, tally, "health" if path.startswith("/health/") else "visitor", "GET", path)
        await asyncio.sleep(0.05)


async def reader(client, tally: Tally, token: str, until: float, rng: random.Random) -> None:
    headers = {"Authorization": f"Token {token}"}
    paths = ["/api/boards/all-time/", "/api/boards/weekly/", "/api/clubs/", "/api/accounts/me/"]
    while time.monotonic() < until:
        await request(client, tally, "reader", "GET", rng.choice(paths), headers=headers)
        await asyncio.sleep(0.05)


async def solver(client, tally: Tally, token: str, until: float, asked: set, rng: random.Random) -> None:
    headers = {"Authorization": f"Token {token}"}
    while time.monotonic() < until:
        number = rng.randrange(10_000, 20_000)
        response = await request(
            client, tally, "solve", "POST", f"/api/deals/{number}/solve/?rules=relaxed", headers=headers
        )
        if response is not None and response.status_code == 202:
            asked.add(number)
        await asyncio.sleep(1.0)


async def staff(client, tally: Tally, token: str, until: float) -> None:
    headers = {"Authorization": f"Token {token}"}
    while time.monotonic() < until:
        for path in ("/api/fair-play/voids/", "/api/fair-play/flags/?open=1"):
            await request(client, tally, "staff", "GET", path, headers=headers)
        await asyncio.sleep(0.5)


async def hostile(client, tally: Tally, token: str, until: float, rng: random.Random) -> None:
    while time.monotonic() < until:
        method, path, options = rng.choice(HOSTILE)
        headers = dict(options.get("headers", {}))
        if rng.random() < 0.5:
            headers["Authorization"] = f"Token {token}"
        await request(
            client,
            tally,
            f"hostile {method} {path}",
            method,
            path,
            **{k: v for k, v in options.items() if k != "headers"},
            headers=headers,
        )
        await asyncio.sleep(0.1)


def web_rss_kib(master_pid: int) -> int:
    """RSS of gunicorn's master and workers, summed (from /proc)."""
    pids = [master_pid]
    children = Path(f"/proc/{master_pid}/task/{master_pid}/children")
    if children.exists():
        pids += [int(pid) for pid in children.read_text().split()]
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except FileNotFoundError:
            pass
    return total


def start_worker(env: dict) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "pyramid_site", "worker", "--pool", "solo", "--loglevel", "WARNING"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


async def soak(args, base_url: str, dsn: str, postgres, env: dict, gunicorn_pid: int, staff_token: str) -> int:
    rng = random.Random(args.seed)
    rules = engine.Rules.parse(args.rules)
    seconds = args.minutes * 60
    tally, asked = Tally(), set()
    worker = start_worker(env)
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=30) as client:
        tokens = await sign_up(client, args.players + 4, "soak")
        players, (reader_token, solver_token, hostile_token, extra) = tokens[: args.players], tokens[args.players :]
        numbers = itertools.count(args.first_deal)
        latencies, errors, sent, acknowledged, retries = [], [], {}, {}, Counter()
        started = time.monotonic()
        until = started + seconds
        rss = {}
        events = {}

        async def faults():
            await asyncio.sleep(min(60, seconds / 6))
            rss["first_minute_kib"] = web_rss_kib(gunicorn_pid)
            await asyncio.sleep(max(0.0, started + seconds / 3 - time.monotonic()))
            nonlocal worker
            worker.send_signal(signal.SIGKILL)
            worker.wait(timeout=30)
            events["worker_killed_at_s"] = round(time.monotonic() - started, 1)
            worker = start_worker(env)
            await asyncio.sleep(max(0.0, started + 2 * seconds / 3 - time.monotonic()))
            events["postgres_restart_s"] = round(await asyncio.to_thread(postgres.restart), 2)
            events["postgres_restarted_at_s"] = round(time.monotonic() - started, 1)

        async def player(token):
            while time.monotonic() < until:
                number = next(numbers)
                one = asyncio.Queue()
                one.put_nowait((number, engine_line(number, rules, seed=number)))
                await play_games(
                    client, token, one, latencies, errors, sent, args.rules, acknowledged=acknowledged, retries=retries
                )

        await asyncio.gather(
            faults(),
            *(player(token) for token in players),
            *(visitor(client, tally, until, random.Random(rng.random())) for _ in range(args.visitors)),
            reader(client, tally, reader_token, until, random.Random(rng.random())),
            solver(client, tally, solver_token, until, asked, random.Random(rng.random())),
            staff(client, tally, staff_token, until),
            *(
                hostile(client, tally, hostile_token if i % 2 else extra, until, random.Random(rng.random()))
                for i in range(args.hostile)
            ),
        )
        rss["end_kib"] = web_rss_kib(gunicorn_pid)
        # the deals asked for are all solved once the worker catches up (none pending for ever)
        deadline = time.monotonic() + 300
        pending = set(asked)
        while pending and time.monotonic() < deadline:
            with psycopg.connect(dsn) as connection:
                pending = {
                    n
                    for (n,) in connection.execute(
                        "SELECT number + 9223372036854775808 FROM games_deal"
                        " WHERE status = 'pending' AND preset = 'relaxed'"
                    )
                } & asked
            await asyncio.sleep(2)
    worker.terminate()
    worker.wait(timeout=30)
    figures = check_logs(dsn, sent, acknowledged)
    moves_acknowledged = sum(acknowledged.values())
    server_errors = [e for e in errors if e[0] == "server" and e[1] != 503]
    growth = (rss["end_kib"] - rss["first_minute_kib"]) / rss["first_minute_kib"]
    print(f"{seconds / 60:.0f} min; players {args.players}, visitors {args.visitors}, hostile {args.hostile}; {events}")
    print(
        f"moves sent {len(latencies)}, acknowledged {moves_acknowledged}, stored {figures['moves_stored']}; "
        f"resent {retries['resent']} ({retries['already_applied']} answered 'already applied')"
    )
    print(f"other answers by status: {dict(tally.status)}")
    print(f"answers that break the rules (5xx other than 503, or no JSON code): {len(tally.bad) + len(server_errors)}")
    for bad in (tally.bad + server_errors)[:10]:
        print("  ", bad)
    print(f"deals asked to be solved: {len(asked)}, still pending: {len(pending)}")
    print(
        f"web RSS: {rss['first_minute_kib'] / 1024:.0f} MiB after the first minute, {rss['end_kib'] / 1024:.0f} MiB "
        f"at the end ({100 * growth:+.1f} %)"
    )
    ok = (
        figures["moves_stored"] == moves_acknowledged
        and not tally.bad
        and not server_errors
        and not pending
        and growth < 0.10
        and not any(figures[name] for name in figures if name.startswith("games_"))
    )
    print("PASS" if ok else "FAIL")
    print(
        "FIGURES",
        json.dumps(
            dict(figures)
            | events
            | {
                "moves_sent": len(latencies),
                "moves_acknowledged": moves_acknowledged,
                "other_answers": sum(tally.status.values()),
                "bad_answers": len(tally.bad) + len(server_errors),
                "solves_asked": len(asked),
                "solves_pending": len(pending),
                "rss_first_minute_mib": round(rss["first_minute_kib"] / 1024),
                "rss_end_mib": round(rss["end_kib"] / 1024),
                "rss_growth_pct": round(100 * growth, 1),
                "ok": ok,
            }
        ),
    )
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--visitors", type=int, default=4)
    parser.add_argument("--hostile", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--first-deal", type=int, default=7000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if reason := missing_binaries():
        print("cannot run:", reason)
        return 2
    with private_postgres() as postgres, private_redis() as redis_server:
        dsn = postgres.create_database("pyramid_soak")
        env = (
            os.environ
            | {
                "DATABASE_URL": dsn,
                "REDIS_URL": redis_server.url,
                "DJANGO_DEBUG": "false",
                "PYRAMID_DAILY_SECRET": "pyramid-soak-secret",
                "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
                "PYRAMID_THROTTLE_SIGNUP": "100000/hour",
                "PYRAMID_THROTTLE_LOGIN": "100000/hour",
                "PYRAMID_THROTTLE_SOLVE": "100000/hour",
                "PYRAMID_SOLVE_BUDGET_SECONDS": "20",
                "CELERY_TASK_ALWAYS_EAGER": "false",
                "LOG_LEVEL": "ERROR",
                "DJANGO_SUPERUSER_PASSWORD": PASSWORD,
            }
            | UNTHROTTLED_PLAY
        )
        migrate(dsn, env)
        subprocess.run(
            [
                sys.executable,
                "manage.py",
                "createsuperuser",
                "--noinput",
                "--username",
                "staff",
                "--email",
                "staff@example.invalid",
            ],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
        )
        with gunicorn(env, workers=args.workers) as (base_url, server):
            staff_token = httpx.post(
                f"{base_url}/api/accounts/login/", json={"username": "staff", "password": PASSWORD}
            ).json()["token"]
            return asyncio.run(soak(args, base_url, dsn, postgres, env, server.pid, staff_token))


if __name__ == "__main__":
    sys.exit(main())
