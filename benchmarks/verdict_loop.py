"""The verdict-loop case: other visitors' latency on ``GET /api/daily/`` while one guest loops ``/verdict/`` on a
position the solver cannot settle within its budget (every verdict a full search), with the solver budget off
and on, in one run.

Three phases, each on a fresh gunicorn (PostgreSQL, Redis as deployed: the budget's counters shared by the web
processes) over the same database, with Redis emptied between them:

- **quiet**: the visitors alone;
- **loop, budget off**: the visitors, and one guest looping verdicts from ``--loops`` connections at once
  (``PYRAMID_SOLVER_SECONDS_PER_ACCOUNT=0``, ``..._PER_ADDRESS=0``, ``PYRAMID_SOLVER_AT_ONCE_PER_ACCOUNT=0``,
  ``..._PER_ADDRESS=0``: the service before the budget);
- **loop, budget on**: the same, with the budgets and searches at once as configured (the defaults unless told).

The loop ignores ``retry_after_seconds`` and asks again at once, as a hostile client does. Printed per phase:
the visitors' median, 95th percentile and worst latency, and their ratios to the quiet phase; the verdicts
served and refused; with the budget on, when the first refusal came and the visitors' latency after it.

    .venv/bin/python benchmarks/verdict_loop.py
    .venv/bin/python benchmarks/verdict_loop.py --seconds 90 --loops 3 --visitors 4 --redis redis://127.0.0.1:6379/10
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import database_drop, database_recreate  # noqa: E402

# a deal and rule set whose start the solver cannot settle in the verdict's 3 s: every verdict is a full search
HEAVY_RULES, HEAVY_DEAL = "overlap;passes=unlimited;goal=all;reserve=7", 1


@dataclass
class Phase:
    name: str
    visits: list[tuple[float, float]] = field(default_factory=list)  # (seconds into the phase, ms)
    served: int = 0
    refused: int = 0
    first_refusal: float | None = None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(env: dict, workers: int) -> tuple[subprocess.Popen, str]:
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "pyramid_site.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            if httpx.get(f"{url}/health/live/").status_code == 200:
                return server, url
        except httpx.TransportError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the service did not start")


def looper_token(url: str) -> tuple[str, int]:
    """A guest, and a practice game of the heavy deal: the loop's target."""
    with httpx.Client(base_url=url, timeout=60) as client:
        made = client.post("/api/accounts/guest/")
        made.raise_for_status()
        headers = {"Authorization": f"Bearer {made.json()['token']}"}
        game = client.post("/api/games/", json={"number": str(HEAVY_DEAL), "rules": HEAVY_RULES}, headers=headers)
        game.raise_for_status()
        return headers["Authorization"], game.json()["id"]


def run_phase(phase: Phase, url: str, args, looping: bool) -> None:
    stop = threading.Event()
    began = time.monotonic()
    lock = threading.Lock()

    def visit() -> None:
        with httpx.Client(base_url=url, timeout=120) as client:
            while not stop.is_set():
                sent = time.monotonic()
                answer = client.get("/api/daily/")
                took = (time.monotonic() - sent) * 1000
                assert answer.status_code == 200, answer.text
                with lock:
                    phase.visits.append((sent - began, took))
                stop.wait(args.pause)

    def loop(authorization: str, game_id: int) -> None:
        with httpx.Client(base_url=url, timeout=120, headers={"Authorization": authorization}) as client:
            while not stop.is_set():
                answer = client.get(f"/api/games/{game_id}/verdict/")
                with lock:
                    if answer.status_code == 200:
                        phase.served += 1
                    elif answer.status_code == 429:
                        phase.refused += 1
                        if phase.first_refusal is None:
                            phase.first_refusal = time.monotonic() - began
                    else:
                        raise SystemExit(f"verdict answered {answer.status_code}: {answer.text}")

    threads = [threading.Thread(target=visit) for _ in range(args.visitors)]
    if looping:
        authorization, game_id = looper_token(url)
        threads += [threading.Thread(target=loop, args=(authorization, game_id)) for _ in range(args.loops)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    time.sleep(args.seconds)
    stop.set()
    for thread in threads:
        thread.join()


def figures(latencies: list[float]) -> dict:
    ordered = sorted(latencies)
    return {
        "n": len(ordered),
        "p50": statistics.median(ordered),
        "p95": ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))],
        "max": ordered[-1],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="length of each phase")
    parser.add_argument("--loops", type=int, default=3, help="connections the one guest loops verdicts from")
    parser.add_argument("--visitors", type=int, default=4, help="visitors reading /api/daily/")
    parser.add_argument("--pause", type=float, default=0.2, help="seconds a visitor waits between two reads")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (3 did best on 2 cores)")
    parser.add_argument("--account-seconds", help="PYRAMID_SOLVER_SECONDS_PER_ACCOUNT of the budget-on phase")
    parser.add_argument("--address-seconds", help="PYRAMID_SOLVER_SECONDS_PER_ADDRESS of the budget-on phase")
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432", help="PostgreSQL server")
    parser.add_argument("--db", default="pyramid_bench_verdict_loop")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/10", help="a Redis database of its own (emptied)")
    args = parser.parse_args()

    database_recreate(args.pg, args.db)
    env = os.environ | {
        "DATABASE_URL": f"{args.pg}/{args.db}",
        "REDIS_URL": args.redis,
        "DJANGO_DEBUG": "false",
        "PYRAMID_DAILY_SECRET": "pyramid-benchmark-secret",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SETTINGS_MODULE": "pyramid_site.settings",
        "LOG_LEVEL": "ERROR",
    }
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run(
        [sys.executable, "manage.py", "prepare_daily_deals", "--days", "1"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    off = {
        "PYRAMID_SOLVER_SECONDS_PER_ACCOUNT": "0",
        "PYRAMID_SOLVER_SECONDS_PER_ADDRESS": "0",
        "PYRAMID_SOLVER_AT_ONCE_PER_ACCOUNT": "0",
        "PYRAMID_SOLVER_AT_ONCE_PER_ADDRESS": "0",
    }
    on = {
        name: value
        for name, value in (
            ("PYRAMID_SOLVER_SECONDS_PER_ACCOUNT", args.account_seconds),
            ("PYRAMID_SOLVER_SECONDS_PER_ADDRESS", args.address_seconds),
        )
        if value
    }
    phases = [
        (Phase("quiet"), off, False),
        (Phase("loop, budget off"), off, True),
        (Phase("loop, budget on"), on, True),
    ]
    try:
        for phase, budget, looping in phases:
            redis.Redis.from_url(args.redis).flushdb()
            server, url = start_server(env | budget, args.workers)
            try:
                run_phase(phase, url, args, looping)
            finally:
                server.terminate()
                server.wait(timeout=30)
    finally:
        database_drop(args.pg, args.db)

    quiet = figures([ms for _, ms in phases[0][0].visits])
    print(
        f"{args.visitors} visitors reading /api/daily/ every {args.pause} s; one guest looping verdicts from "
        f"{args.loops} connections; {args.seconds:g} s a phase; {args.workers} gunicorn workers"
    )
    print("| phase | reads | p50 ms | p95 ms | worst ms | p50 / quiet | p95 / quiet | verdicts served | refused |")
    print("|---|---|---|---|---|---|---|---|---|")
    for phase, _, _ in phases:
        seen = figures([ms for _, ms in phase.visits])
        print(
            f"| {phase.name} | {seen['n']} | {seen['p50']:.0f} | {seen['p95']:.0f} | {seen['max']:.0f} | "
            f"{seen['p50'] / quiet['p50']:.2f} | {seen['p95'] / quiet['p95']:.2f} | {phase.served} | "
            f"{phase.refused} |"
        )
    last = phases[2][0]
    if last.first_refusal is not None:
        after = [ms for at, ms in last.visits if at > last.first_refusal]
        if after:
            seen = figures(after)
            print(
                f"budget on: first refusal {last.first_refusal:.1f} s into the phase; after it the visitors' p50 "
                f"{seen['p50']:.0f} ms ({seen['p50'] / quiet['p50']:.2f} x quiet), p95 {seen['p95']:.0f} ms "
                f"({seen['p95'] / quiet['p95']:.2f} x quiet), worst {seen['max']:.0f} ms"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
