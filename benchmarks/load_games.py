"""Load test of the games API: many whole games at once against gunicorn and PostgreSQL on loopback.

Each client signs up, then plays games move by move: it starts a practice game, and sends each move of
a line as ``{ply, move}``, waiting for the answer before the next. Lines are the solver's (a
fewest-moves win, or the line to the best reachable result; solved before the clock starts), or with
``--lines engine`` a seeded player's that prefers removals; the server checks every move all the same.
Afterwards every move sent is looked up in the database: each must be there exactly once, at its ply. The
same clients then hammer a trivial endpoint (``/health/live/``) on the same stack for the ratio.

    .venv/bin/python benchmarks/load_games.py --clients 24 --games 240
    .venv/bin/python benchmarks/load_games.py --processes 2 --workers 1 --lines engine   # two web processes
    .venv/bin/python benchmarks/load_games.py --servers gunicorn,uvicorn --lines engine  # WSGI, then ASGI

It makes a fresh database (``pyramid_bench`` by default) on the PostgreSQL of ``--pg``, migrates it and
starts gunicorn on it (or uvicorn, or each in turn: ``--servers``); ``--url`` points it at a server already running
instead.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import httpx
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from benchmarks.common import UNTHROTTLED_PLAY, seeded_line  # noqa: E402
from games.move_log import log_notations  # noqa: E402


def engine_line(number: int, rules: engine.Rules, seed: int) -> list[str]:
    """A whole game played by a seeded player that removes when it can."""
    return seeded_line(engine.Position.start(engine.deal_from_number(number), rules), random.Random(seed))


def solver_line(number: int, rules: engine.Rules, budget_seconds: float) -> list[str]:
    """The solver's line for the deal: a fewest-moves win, or the line to the best result it can
    reach; the engine's seeded player stands in when the solver's budget runs out."""
    from engine.solver import solve

    solution = solve(engine.Position.start(engine.deal_from_number(number), rules), budget_seconds=budget_seconds)
    return solution.solution if solution.verdict != "unknown" else engine_line(number, rules, seed=number)


async def sign_up(client: httpx.AsyncClient, count: int, prefix: str) -> list[str]:
    """``count`` new accounts; their tokens."""
    tokens = []
    for index in range(count):
        response = await client.post(
            "/api/accounts/signup/", json={"username": f"{prefix}{index}", "password": "load-test-pass-phrase-1"}
        )
        response.raise_for_status()
        tokens.append(response.json()["token"])
    return tokens


def job_queue(lines) -> asyncio.Queue:
    jobs: asyncio.Queue = asyncio.Queue()
    for job in lines:
        jobs.put_nowait(job)
    return jobs


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def post_acknowledged(
    client: httpx.AsyncClient, path: str, payload: dict, headers: dict, errors: list, retries: Counter | None
) -> httpx.Response | None:
    """POST once; with ``retries`` (a counter), send the same request again after a connection error or
    a 5xx until it is answered otherwise: a move resent is judged again, never applied twice."""
    while True:
        try:
            response = await client.post(path, json=payload, headers=headers)
        except httpx.TransportError as exc:
            errors.append(("transport", type(exc).__name__, path, time.perf_counter()))
            if retries is None:
                return None
        else:
            if response.status_code < 500 or retries is None:
                return response
            errors.append(("server", response.status_code, path, time.perf_counter()))
        retries["resent"] += 1
        await asyncio.sleep(0.05)


async def play_games(
    client: httpx.AsyncClient,
    token: str,
    jobs: asyncio.Queue,
    latencies: list,
    errors: list,
    sent: dict,
    rules_text: str,
    *,
    acknowledged: dict | None = None,
    retries: Counter | None = None,
):
    """Play the queued games; ``acknowledged`` gets each game's last ply the server accepted."""
    headers = {"Authorization": f"Token {token}"}
    acknowledged = {} if acknowledged is None else acknowledged
    while True:
        try:
            number, line = jobs.get_nowait()
        except asyncio.QueueEmpty:
            return
        response = await post_acknowledged(
            client, "/api/games/", {"number": number, "rules": rules_text}, headers, errors, retries
        )
        if response is None or response.status_code != 201:
            errors.append(("start", response and response.status_code, response and response.text[:200]))
            continue
        game_id = response.json()["id"]
        sent[game_id] = line
        acknowledged[game_id] = 0
        for ply, move in enumerate(line, start=1):
            started = time.perf_counter()
            response = await post_acknowledged(
                client, f"/api/games/{game_id}/moves/", {"ply": ply, "move": move}, headers, errors, retries
            )
            latencies.append(time.perf_counter() - started)
            # 200 is the answer to a move resent after its first answer was lost: it is in the log already
            if response is None or not (
                response.status_code == 201
                or (retries is not None and response.status_code == 200 and not response.json()["applied"])
            ):
                errors.append(("move", response and response.status_code, response and response.text[:200]))
                break
            if response.status_code == 200:
                retries["already_applied"] += 1
            acknowledged[game_id] = ply


async def hammer(client: httpx.AsyncClient, path: str, until: float, latencies: list, errors: list):
    while time.perf_counter() < until:
        started = time.perf_counter()
        response = await client.get(path)
        latencies.append(time.perf_counter() - started)
        if response.status_code != 200:
            errors.append(("trivial", response.status_code))


def report(name: str, count: int, seconds: float, latencies: list[float], errors: list) -> dict:
    figures = {
        "requests": count,
        "seconds": seconds,
        "per_second": count / seconds,
        "p50_ms": 1000 * percentile(latencies, 0.50),
        "p99_ms": 1000 * percentile(latencies, 0.99),
        "mean_ms": 1000 * statistics.fmean(latencies),
        "errors": len(errors),
    }
    print(
        f"{name}: {count} in {seconds:.1f}s = {figures['per_second']:.0f}/s, p50 {figures['p50_ms']:.1f} ms, "
        f"p99 {figures['p99_ms']:.1f} ms, errors {len(errors)}"
    )
    return figures


def tree_cpu_seconds(root_pids: list[int]) -> float:
    """CPU time (user + system) of the web processes and all their workers so far, from /proc (Linux): a figure
    per move that other work on a shared machine moves far less than the wall-clock rate."""
    parents, times = {}, {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry)] = int(fields[1])
            times[int(entry)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    tree, grew = set(root_pids), True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in tree and pid not in tree:
                tree.add(pid)
                grew = True
    return sum(times.get(pid, 0.0) for pid in tree)


class Alternating(httpx.AsyncBaseTransport):
    """Each request to the next of several web processes (their ports), in turn: a client that switches
    process on every request, as a load balancer may send it."""

    def __init__(self, ports: list[int], limits: httpx.Limits):
        self.inner, self.ports, self.turn = httpx.AsyncHTTPTransport(limits=limits), ports, 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        request.url = request.url.copy_with(port=self.ports[self.turn % len(self.ports)])
        self.turn += 1
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


async def run(
    args, base_url: str, dsn: str, ports: list[int] | None = None, server_pids: list[int] | None = None
) -> tuple[int, dict]:
    rules = engine.Rules.parse(args.rules)
    numbers = range(args.first_deal, args.first_deal + args.games)
    if args.lines == "solver":
        lines = [(number, solver_line(number, rules, args.solve_budget)) for number in numbers]
    else:
        lines = [(number, engine_line(number, rules, seed=number)) for number in numbers]
    total_moves = sum(len(line) for _, line in lines)
    print(f"{args.games} games, {total_moves} moves under {args.rules}, {args.clients} clients")
    limits = httpx.Limits(max_connections=args.clients, max_keepalive_connections=args.clients)
    transport = Alternating(ports, limits) if ports and len(ports) > 1 else None
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=30, transport=transport) as client:
        tokens = await sign_up(client, args.clients, f"bench{os.getpid()}x")
        jobs = job_queue(lines)
        latencies, errors, sent = [], [], {}
        started, cpu_before = time.perf_counter(), tree_cpu_seconds(server_pids or [])
        await asyncio.gather(
            *(play_games(client, token, jobs, latencies, errors, sent, args.rules) for token in tokens)
        )
        moves = report("validated moves", len(latencies), time.perf_counter() - started, latencies, errors)
        if server_pids:
            moves["server_cpu_ms_per_move"] = 1000 * (tree_cpu_seconds(server_pids) - cpu_before) / len(latencies)
            print(f"web processes' CPU time per validated move: {moves['server_cpu_ms_per_move']:.2f} ms")
        for error in errors[:5]:
            print("  ", error)

        trivial_latencies, trivial_errors = [], []
        started = time.perf_counter()
        until = started + args.trivial_seconds
        await asyncio.gather(
            *(hammer(client, "/health/live/", until, trivial_latencies, trivial_errors) for _ in range(args.clients))
        )
        trivial = report(
            "trivial endpoint", len(trivial_latencies), time.perf_counter() - started, trivial_latencies, trivial_errors
        )
    print(f"ratio validated moves / trivial requests per second: {moves['per_second'] / trivial['per_second']:.2f}")

    with psycopg.connect(dsn) as connection:
        stored = {
            game_id: list(enumerate(log_notations(log), start=1))
            for game_id, log in connection.execute(
                "SELECT id, move_log FROM games_game WHERE id = ANY(%s)", [list(sent)]
            )
        }
    lost = sum(stored.get(game_id, []) != list(enumerate(line, start=1)) for game_id, line in sent.items())
    in_db = sum(len(log) for log in stored.values())
    print(
        f"moves sent and acknowledged: {len(latencies) - len(errors)}, moves in the database: {in_db}, "
        f"games whose log differs from what was sent: {lost}"
    )
    ok = (
        lost == 0
        and not errors
        and in_db == len(latencies)
        and moves["per_second"] >= args.floor
        and moves["p99_ms"] < args.p99_ceiling_ms
    )
    print("PASS" if ok else "FAIL", f"(floor {args.floor}/s, p99 under {args.p99_ceiling_ms} ms, nothing lost)")
    return (0 if ok else 1), moves


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=24)
    parser.add_argument("--games", type=int, default=240)
    parser.add_argument("--rules", default="classic")
    parser.add_argument(
        "--lines",
        choices=["solver", "engine"],
        default="solver",
        help="clients play the solver's lines, or the engine's seeded player's",
    )
    parser.add_argument("--solve-budget", type=float, default=10.0, help="seconds of solver time per deal")
    parser.add_argument("--first-deal", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=3, help="web workers (3 gunicorn workers did best on 2 cores)")
    parser.add_argument(
        "--servers",
        default="gunicorn",
        help="gunicorn (WSGI), uvicorn (ASGI), or both one after the other: gunicorn,uvicorn",
    )
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432", help="PostgreSQL server")
    parser.add_argument("--db", default="pyramid_bench")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/9", help="a Redis database of its own (emptied)")
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="web processes (each gunicorn with --workers) on ports from --port; every client "
        "switches process on every request",
    )
    parser.add_argument("--url", help="use a server already running at this address (and --dsn)")
    parser.add_argument("--dsn", help="its database, with --url")
    parser.add_argument("--trivial-seconds", type=float, default=10.0)
    parser.add_argument("--floor", type=float, default=300.0)
    parser.add_argument("--p99-ceiling-ms", type=float, default=100.0)
    args = parser.parse_args()

    if args.url:
        return asyncio.run(run(args, args.url, args.dsn))[0]
    outcomes = []
    for server in args.servers.split(","):
        print(f"--- {server} ---")
        outcomes.append((server, *serve_and_run(args, server)))
    for server, _, figures in outcomes if len(outcomes) > 1 else []:
        print(
            f"{server}: {figures['per_second']:.0f} validated moves/s, p50 {figures['p50_ms']:.1f} ms, "
            f"{figures['server_cpu_ms_per_move']:.2f} ms of the web processes' CPU a move, "
            f"p99 {figures['p99_ms']:.1f} ms ({figures['per_second'] / outcomes[0][2]['per_second']:.2f} x first)"
        )
    return max(code for _, code, _ in outcomes)


def server_command(server: str, port: int, workers: int) -> list[str]:
    """The web process: gunicorn's sync workers (WSGI), or uvicorn's (ASGI, as the live streams need)."""
    if server == "uvicorn":
        return [
            sys.executable,
            "-m",
            "uvicorn",
            "pyramid_site.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            str(workers),
            "--log-level",
            "warning",
            "--no-access-log",
        ]
    return [
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
    ]


def serve_and_run(args, server: str) -> tuple[int, dict]:
    dsn = f"{args.pg}/{args.db}"
    with psycopg.connect(f"{args.pg}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{args.db}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{args.db}"')
    env = (
        os.environ
        | {
            "DATABASE_URL": dsn,
            "DJANGO_DEBUG": "false",
            "PYRAMID_DAILY_SECRET": "pyramid-benchmark-secret",
            "PYRAMID_THROTTLE_SIGNUP": "100000/hour",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        }
        | UNTHROTTLED_PLAY
    )
    # Redis as deployed: the cache, throttles and token revocations shared by the web processes, the jobs a game's
    # end queues (its analysis) sent to a broker, as in production, where workers take them (none here), and each
    # move's live event appended to its game's stream
    env["REDIS_URL"] = args.redis
    import redis

    redis.Redis.from_url(args.redis).flushdb()
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    ports = [args.port + index for index in range(args.processes)]
    if server == "uvicorn":
        # under ASGI each request's sync code runs on a thread of its own: a connection kept past the request would
        # be left behind with its thread (PostgreSQL soon refuses more), so the ASGI process closes them as it goes
        env["DATABASE_CONN_MAX_AGE"] = "0"
    servers = [subprocess.Popen(server_command(server, port, args.workers), cwd=ROOT, env=env) for port in ports]
    try:
        for port in ports:
            for _ in range(100):
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/health/").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.2)
        return asyncio.run(run(args, f"http://127.0.0.1:{args.port}", dsn, ports, [p.pid for p in servers]))
    finally:
        for process in servers:
            process.terminate()
        for process in servers:
            process.wait(timeout=20)


if __name__ == "__main__":
    sys.exit(main())
