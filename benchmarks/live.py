"""Live streams at scale: N clients follow one tournament's stream (``/api/tournaments/ID/events/``), spread over
two uvicorn processes reading one Redis, while M players finish games of that tournament through the API
(gunicorn; the games' post-game jobs on a Celery worker at the lowest CPU priority, standing in for production's
worker machines, or with ``--jobs in-process`` in the finishing request).

Measured:

- **delivery**: for each ``standing`` event at each client, its arrival (the client's clock) less the milliseconds
  of its event id. The id is given by Redis at the ``XADD``, which the web process sends right after the result's
  transaction commits (``publish_after_commit``): the server-side commit time, to within one Redis round trip, on
  the same machine's clock as the clients'. Per delivery (p50, p99, max) and per event until the last client has it
  ("every client").
- **memory per connection**: the RSS of the two uvicorn processes with every client connected, less their RSS
  before (after a few streams opened and closed, so imports and first-use caches are not counted), over N.
- **Redis connections**: ``INFO clients`` before and with every client connected.
- **missed**: each client compares the ``standing`` ids it got, in order, with the tournament's log in Redis after
  the run (every event after the id its stream opened at): a gap, a duplicate, a reorder or a ``reset`` counts.

The clients are raw asyncio connections (HTTP/1.0, the SSE lines read off the socket), in ``--client-processes``
processes. A client whose stream ends reconnects after the stream's ``retry:`` (500 ms here) plus up to as much
again at random (a crowd's reconnections spread as real ones are), with ``Last-Event-ID``, as EventSource does.
Redis is a private ``redis-server`` on a free port with ``--appendonly yes`` in a temporary folder (so its streams
survive its restart), PostgreSQL a private server too (``fault_servers.private_postgres``, 200 connections;
``--pg`` names another).

    .venv/bin/python benchmarks/live.py                              # 2,000 clients, 20 players
    .venv/bin/python benchmarks/live.py --ceiling 2000,4000,6000     # steps up N until a floor breaks
    .venv/bin/python benchmarks/live.py --faults                     # Redis restarted, a uvicorn killed mid-run
    .venv/bin/python benchmarks/live.py --clients 20 --players 3 --deals 1   # the smoke test's size

Floors (docs/benchmarks.md, "Live streams"): 2,000 clients, p99 under 500 ms, 0 missed, under 64 KiB a connection.
Prints a table, and a ``FIGURES {json}`` line per run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import multiprocessing
import os
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from fault_servers import private_postgres  # noqa: E402

from benchmarks.common import UNTHROTTLED_PLAY, database_drop, database_recreate, free_port  # noqa: E402

FLOOR_P99_MS, FLOOR_KIB = 500.0, 64.0
RETRY_MS = 500
PREFIX = "bench-live:"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def id_ms(event_id: str) -> int:
    return int(event_id.partition("-")[0])


def id_key(event_id: str) -> tuple[int, int]:
    ms, _, seq = event_id.partition("-")
    return int(ms), int(seq or 0)


# ---------------------------------------------------------------------------------------------------- the clients


class Stream:
    """One client: follows the stream, reconnecting with Last-Event-ID whenever it ends."""

    def __init__(self, port: int, path: str, token: str):
        self.port, self.path, self.token = port, path, token
        self.opened_at: str | None = None  # the id its first stream opened at
        self.last_id: str | None = None
        self.standing: list[tuple[str, float]] = []  # (id, arrival ms)
        self.resets = self.reconnects = self.refusals = 0
        self.connected = asyncio.Event()
        self.done = False
        self.writer: asyncio.StreamWriter | None = None

    async def run(self, opening: asyncio.Semaphore):
        retry = RETRY_MS
        while not self.done:
            try:
                async with opening:
                    reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
                    headers = [
                        f"GET {self.path} HTTP/1.0",
                        "Host: 127.0.0.1",
                        "Accept: text/event-stream",
                        f"Authorization: Bearer {self.token}",
                    ]
                    if self.last_id:
                        headers.append(f"Last-Event-ID: {self.last_id}")
                    self.writer.write(("\r\n".join(headers) + "\r\n\r\n").encode())
                    status = await reader.readline()
                    if b" 200 " not in status:
                        self.refusals += 1
                        raise ConnectionError(status.decode(errors="replace").strip())
                    while (await reader.readline()) not in (b"\r\n", b"\n", b""):
                        pass
                block: dict[str, str] = {}
                while True:
                    line = await reader.readline()
                    if not line:
                        break
                    line = line.rstrip(b"\r\n")
                    if line:
                        name, _, value = line.decode().partition(":")
                        block.setdefault(name, value.removeprefix(" "))
                        continue
                    arrived = time.time() * 1000
                    if "retry" in block:
                        retry = int(block["retry"])
                    if "id" in block:
                        self.last_id = block["id"]
                        if self.opened_at is None:
                            self.opened_at = block["id"]
                        self.connected.set()
                    event = block.get("event")
                    if event == "standing":
                        self.standing.append((block["id"], arrived))
                    elif event == "reset":
                        self.resets += 1
                    block = {}
            except (OSError, ConnectionError, ValueError):
                pass
            finally:
                if self.writer is not None:
                    self.writer.close()
                    self.writer = None
            if not self.done:
                self.reconnects += 1
                await asyncio.sleep((retry + random.uniform(0, retry)) / 1000)

    def close(self):
        self.done = True
        if self.writer is not None:
            self.writer.close()


async def _client_main(ports, path, token, count, start, control, out, index):
    opening = asyncio.Semaphore(25)  # how many connections this process opens at once
    streams = [Stream(ports[(start + n) % len(ports)], path, token) for n in range(count)]
    tasks = [asyncio.ensure_future(s.run(opening)) for s in streams]
    await asyncio.gather(*(s.connected.wait() for s in streams))
    out.put(("connected", index))
    loop = asyncio.get_running_loop()
    final, deadline = await loop.run_in_executor(None, control.get)
    until = time.monotonic() + deadline
    while time.monotonic() < until and not all(s.last_id and id_key(s.last_id) >= id_key(final) for s in streams):
        await asyncio.sleep(0.1)  # waiting on the clients' own progress, up to the deadline
    for stream in streams:
        stream.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    out.put(("caught up", index))
    expected = await loop.run_in_executor(None, control.get)  # the log as it stands once every client is done
    latencies, reached, missed, late, wrong, sample = [], {}, 0, 0, 0, None
    for stream in streams:
        opened = id_key(stream.opened_at or "0-0")
        owed = [i for i in expected if id_key(i) > opened]
        got = [i for i, _ in stream.standing]
        if got != owed or stream.resets:
            wrong += 1
            # a gap (an event missing before one that came), a duplicate, a reorder or a reset is a miss; the events
            # after the last one that came had not arrived by the deadline
            newest = max((id_key(i) for i in got), default=(0, 0))
            missing = set(owed) - set(got)
            gaps = sum(1 for i in missing if id_key(i) < newest)
            missed += gaps + len(got) - len(set(got)) + (got != sorted(got, key=id_key)) + stream.resets
            late += len(missing) - gaps
            sample = sample or {
                "opened": stream.opened_at,
                "extra": sorted(set(got) - set(owed))[:5],
                "port": stream.port,
            }
        for event_id, arrived in stream.standing:
            latency = arrived - id_ms(event_id)
            latencies.append(latency)
            reached[event_id] = max(reached.get(event_id, 0.0), latency)
    out.put(
        (
            "result",
            index,
            {
                "latencies": latencies,
                "reached": reached,
                "missed": missed,
                "not_arrived": late,
                "wrong_clients": wrong,
                "sample": sample,
                "reconnects": sum(s.reconnects for s in streams),
                "refusals": sum(s.refusals for s in streams),
                "resets": sum(s.resets for s in streams),
            },
        )
    )


def client_main(ports, path, token, count, start, control, out, index):
    limit = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
    uvloop.install()  # the clients on the event loop the servers run on: the machine's CPU goes to what is measured
    asyncio.run(_client_main(ports, path, token, count, start, control, out, index))


# ---------------------------------------------------------------------------------------------------- the servers


class Redis:
    """A private redis-server whose streams survive a restart (append-only file in a folder of its own)."""

    def __init__(self):
        self.port, self.folder = free_port(), Path(tempfile.mkdtemp(prefix="pyramid-live-redis-"))
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self):
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "yes"]
            + ["--dir", str(self.folder), "--maxclients", "20000"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_port(self.port)

    def restart(self) -> float:
        """SIGTERM (Redis writes its append-only file out and exits), then started again on the same port."""
        started = time.perf_counter()
        self.process.terminate()
        self.process.wait(timeout=30)
        self.start()
        return time.perf_counter() - started

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)

    def client(self):
        import redis

        return redis.Redis.from_url(self.url)


def wait_port(port: int, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)  # polling a server's start
    raise SystemExit(f"nothing answered on port {port}")


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Uvicorn:
    def __init__(self, env: dict, port: int | None = None):
        self.env, self.port = env, port or free_port()
        self.process: subprocess.Popen | None = None

    def start(self):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "pyramid_site.asgi:application", "--port", str(self.port)]
            + ["--log-level", "warning", "--no-access-log", "--timeout-graceful-shutdown", "5"],
            cwd=ROOT,
            env=self.env,
        )
        wait_healthy(self.port)

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


def wait_healthy(port: int) -> None:
    import httpx

    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health/live/", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)  # polling a server's start
    raise SystemExit(f"the server on port {port} never became healthy")


# ---------------------------------------------------------------------------------------------------- the players


async def setup(api: str, players: int, deals: int) -> dict:
    """An owner, a club, a tournament (a match over ``deals`` deals of classic, running now), players in it."""
    import httpx

    async with httpx.AsyncClient(base_url=api, timeout=120) as client:
        tag = uuid.uuid4().hex[:6]

        async def sign_up(name):
            answer = await client.post(
                "/api/accounts/signup/", json={"username": name, "password": "live-bench-pass-phrase-1"}
            )
            answer.raise_for_status()
            return {"Authorization": f"Bearer {answer.json()['token']}"}

        owner = await sign_up(f"owner{tag}")
        club = (await client.post("/api/clubs/", json={"name": f"Live {tag}"}, headers=owner)).json()
        now = dt.datetime.now(dt.UTC)
        body = {
            "name": f"Live cup {tag}",
            "rules": "classic",
            "format": "match",
            "deal_count": deals,
            "starts_at": (now - dt.timedelta(minutes=1)).isoformat(),
            "ends_at": (now + dt.timedelta(hours=3)).isoformat(),
        }
        created = await client.post(f"/api/clubs/{club['id']}/tournaments/", json=body, headers=owner)
        assert created.status_code == 201, created.text
        tournament = created.json()["id"]
        for _ in range(600):
            state = (await client.get(f"/api/tournaments/{tournament}/", headers=owner)).json()
            if state["status"] != "preparing":
                break
            await asyncio.sleep(0.2)  # polling the solver's preparation of the deals
        tokens = []
        for n in range(players):
            headers = await sign_up(f"p{tag}x{n}")
            joined = await client.post("/api/clubs/join/", json={"invite_code": club["invite_code"]}, headers=headers)
            assert joined.status_code == 201, joined.text
            entered = await client.post(f"/api/tournaments/{tournament}/join/", headers=headers)
            assert entered.status_code == 201, entered.text
            tokens.append(headers)
        return {"tournament": tournament, "owner": owner, "players": tokens}


def legal_moves(game: dict) -> list[str]:
    return game.get("legal_moves") or (game.get("position") or {}).get("legal_moves") or []


async def play(
    api: str, tournament: int, players: list[dict], deals: int, moves: int, finished: list, seed: int = 7
) -> dict:
    """Each player plays every deal of the tournament to its end, a seeded random legal move at a time (with
    ``moves``, resigns after that many: a result all the same, sooner)."""
    import httpx

    counts = {"games": 0, "moves": 0, "errors": 0}

    async def player(headers, rng):
        async with httpx.AsyncClient(base_url=api, timeout=60, headers=headers) as client:
            for index in range(deals):
                answer = await client.post(f"/api/tournaments/{tournament}/games/", json={"index": index})
                if answer.status_code != 201:
                    counts["errors"] += 1
                    counts.setdefault("refused", answer.text[:300])
                    continue
                game = answer.json()
                ply = 0
                while game["status"] == "playing" and legal_moves(game) and not (moves and ply >= moves):
                    ply += 1
                    move = rng.choice(legal_moves(game))
                    answer = await client.post(f"/api/games/{game['id']}/moves/", json={"ply": ply, "move": move})
                    counts["moves"] += 1
                    if answer.status_code >= 400:
                        counts["errors"] += 1
                        break
                    game = answer.json()
                if game["status"] == "playing" and moves and ply >= moves:
                    answer = await client.post(f"/api/games/{game['id']}/resign/")
                    if answer.status_code >= 400:
                        counts["errors"] += 1
                        counts.setdefault("refused", answer.text[:300])
                        continue
                    game = answer.json()
                if game["status"] != "playing":
                    counts["games"] += 1
                    finished.append(time.time())

    await asyncio.gather(*(player(h, random.Random(seed * 1000 + n)) for n, h in enumerate(players)))
    return counts


# ---------------------------------------------------------------------------------------------------- one run


def run(args, clients: int, servers: dict, redis_server: Redis, console) -> dict:
    from rich.progress import Progress

    api, live = servers["api"], servers["live"]
    info = asyncio.run(setup(api, args.players, args.deals))
    tournament = info["tournament"]
    path = f"/api/tournaments/{tournament}/events/"
    token = info["owner"]["Authorization"].removeprefix("Bearer ")
    warm = asyncio.run(_warm(live, path, token))
    key = f"{PREFIX}tournament:{tournament}"
    before_id = id_key(redis_server.client().xinfo_stream(key)["last-generated-id"].decode())
    rss_before = sum(rss_kib(u.process.pid) for u in live)
    redis_before = redis_server.client().info("clients")["connected_clients"]

    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    controls = []
    processes = []
    share = [
        clients // args.client_processes + (n < clients % args.client_processes) for n in range(args.client_processes)
    ]
    ports = [u.port for u in live]
    started = time.perf_counter()
    offset = 0
    for index, count in enumerate(share):
        control = context.Queue()
        process = context.Process(
            target=client_main, args=(ports, path, token, count, offset, control, out, index), daemon=True
        )
        process.start()
        controls.append(control)
        processes.append(process)
        offset += count
    with Progress(console=console, transient=True) as progress:
        connecting = progress.add_task(f"{clients} clients connecting", total=len(processes))
        for _ in processes:
            kind, _index = out.get(timeout=600)
            assert kind == "connected"
            progress.advance(connecting)
    connect_seconds = time.perf_counter() - started
    time.sleep(1)  # the last streams' first keep-alive and slot marks settled before memory is read
    rss_after = sum(rss_kib(u.process.pid) for u in live)
    redis_with = redis_server.client().info("clients")["connected_clients"]
    console.print(f"{clients} clients connected in {connect_seconds:.1f} s; playing")

    finished: list[float] = []
    faults = {}

    async def playing():
        game_total = args.players * args.deals
        task = asyncio.ensure_future(play(api, tournament, info["players"], args.deals, args.moves, finished))
        if args.faults:
            while len(finished) < game_total / 3 and not task.done():
                await asyncio.sleep(0.05)
            faults["redis_restart_s"] = await asyncio.to_thread(redis_server.restart)
            while len(finished) < 2 * game_total / 3 and not task.done():
                await asyncio.sleep(0.05)
            killed = time.perf_counter()
            live[1].kill()
            await asyncio.to_thread(live[1].start)
            faults["uvicorn_back_s"] = time.perf_counter() - killed
        return await task

    play_started = time.perf_counter()
    counts = asyncio.run(playing())
    play_seconds = time.perf_counter() - play_started

    def standings() -> list[str]:
        """The standings of the games finished while the clients followed (the joins' came before they connected)."""
        return [
            raw.decode()
            for raw, fields in redis_server.client().xrange(key)
            if json.loads(fields[b"data"])["type"] == "standing" and id_key(raw.decode()) > before_id
        ]

    at_end_of_play = standings()
    for _ in range(15):  # a finished game's later checks may still move a standing: the log settles first
        time.sleep(2)
        settled = standings()
        if settled == at_end_of_play:
            break
        at_end_of_play = settled
    for control in controls:
        control.put((at_end_of_play[-1] if at_end_of_play else "0-0", 120))
    for _ in processes:
        kind, _index = out.get(timeout=300)
        assert kind == "caught up"
    expected = standings()
    for control in controls:
        control.put(expected)
    results = []
    for _ in processes:
        kind, _index, data = out.get(timeout=300)
        results.append(data)
    for process in processes:
        process.join(timeout=30)
    latencies = [x for r in results for x in r["latencies"]]
    reached: dict[str, float] = {}
    for r in results:
        for event_id, latency in r["reached"].items():
            reached[event_id] = max(reached.get(event_id, 0.0), latency)
    every = list(reached.values())
    figures = {
        "clients": clients,
        "players": args.players,
        "games_finished": counts["games"],
        "moves": counts["moves"],
        "play_errors": counts["errors"],
        "play_refused": counts.get("refused"),
        "standing_events": len(expected),
        "standing_after_play": len(expected) - len(at_end_of_play),
        "deliveries": len(latencies),
        "p50_ms": round(percentile(latencies, 0.50), 1),
        "p99_ms": round(percentile(latencies, 0.99), 1),
        "max_ms": round(max(latencies, default=float("nan")), 1),
        "every_client_p50_ms": round(percentile(every, 0.50), 1),
        "every_client_p99_ms": round(percentile(every, 0.99), 1),
        "every_client_max_ms": round(max(every, default=float("nan")), 1),
        "kib_per_connection": round((rss_after - rss_before) / clients, 1),
        "rss_before_mib": round(rss_before / 1024, 1),
        "rss_after_mib": round(rss_after / 1024, 1),
        "redis_clients_before": redis_before,
        "redis_clients_with": redis_with,
        "missed": sum(r["missed"] for r in results),
        "not_arrived": sum(r["not_arrived"] for r in results),  # by the deadline (120 s after the last game)
        "clients_missing": sum(r["wrong_clients"] for r in results),
        "wrong_sample": next((r["sample"] for r in results if r["sample"]), None),
        "resets": sum(r["resets"] for r in results),
        "reconnects": sum(r["reconnects"] for r in results),
        "refusals": sum(r["refusals"] for r in results),
        "connect_s": round(connect_seconds, 1),
        "play_s": round(play_seconds, 1),
        "warm_streams": warm,
        "faults": faults,
    }
    # with faults the floors are nothing missed, nothing reset: events published while a client was away arrive
    # when it is back, later than the latency floor means
    figures["ok"] = (
        figures["missed"] == figures["not_arrived"] == 0
        and figures["resets"] == 0
        and figures["standing_events"] > 0
        and (args.faults or (figures["p99_ms"] < FLOOR_P99_MS and figures["kib_per_connection"] < FLOOR_KIB))
    )
    return figures


async def _warm(live, path: str, token: str) -> int:
    """A few streams opened and closed on each process: what their first use loads is not counted per connection."""
    opened = 0
    for server in live:
        for _ in range(5):
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(f"GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n\r\n".encode())
            while (line := await reader.readline()) and not line.startswith(b"id:"):
                pass
            opened += bool(line)
            writer.close()
    return opened


def table(rows: list[dict], console) -> None:
    from rich.table import Table

    view = Table(title="Live streams: one tournament, two uvicorn processes, one Redis")
    for name in (
        "clients",
        "events",
        "p50 / p99 / max ms",
        "every client p99 / max ms",
        "KiB/conn",
        "Redis conns",
        "missed",
        "reconnects",
        "faults",
        "floors",
    ):
        view.add_column(name, justify="right")
    for f in rows:
        view.add_row(
            str(f["clients"]),
            f"{f['standing_events']} ({f['deliveries']} deliveries)",
            f"{f['p50_ms']} / {f['p99_ms']} / {f['max_ms']}",
            f"{f['every_client_p99_ms']} / {f['every_client_max_ms']}",
            str(f["kib_per_connection"]),
            f"{f['redis_clients_before']} -> {f['redis_clients_with']}",
            f"{f['missed']} ({f['not_arrived']} late)",
            str(f["reconnects"]),
            ", ".join(f"{k} {v:.1f}" for k, v in f["faults"].items()) or "-",
            "met" if f["ok"] else "broken",
        )
    console.print(view)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=2000)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--deals", type=int, default=2, help="deals of the tournament: each player finishes each")
    parser.add_argument("--moves", type=int, default=0, help="resign each game after this many moves (0: play it out)")
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument("--ceiling", help="client counts to step through (2000,4000,...) until a floor breaks")
    parser.add_argument("--faults", action="store_true", help="restart Redis, then kill a uvicorn, mid-run")
    parser.add_argument(
        "--jobs",
        choices=["worker", "in-process"],
        default="worker",
        help="the post-game jobs on a Celery worker at the lowest CPU priority, or in the finishing request",
    )
    parser.add_argument("--pg", help="a PostgreSQL server to use (postgres://...); by default a private one")
    parser.add_argument("--database", default="pyramid_bench_live")
    args = parser.parse_args()

    from rich.console import Console

    console = Console(stderr=True, width=170)
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the servers started from here inherit it
    steps = [int(n) for n in args.ceiling.split(",")] if args.ceiling else [args.clients]
    if max(steps) + 200 > hard:
        raise SystemExit(f"{max(steps)} clients need more open files than the hard limit allows ({hard})")

    with contextlib.ExitStack() as stack:
        if args.pg is None:  # a server of its own: thousands of streams opening at once never crowd a shared one
            args.pg = stack.enter_context(private_postgres()).url
        measure(args, steps, console)


def measure(args, steps: list[int], console) -> None:
    redis_server = Redis()
    redis_server.start()
    database_recreate(args.pg, args.database)
    secret = uuid.uuid4().hex
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYRAMID_", "CELERY_", "REDIS_"))}
    env |= UNTHROTTLED_PLAY | {
        "DATABASE_URL": f"{args.pg}/{args.database}",
        # the post-game jobs (analysis, fair play) on a worker (--jobs worker), with Django's cache, over the
        # private Redis (a database of their own); or in the finishing request (--jobs in-process)
        "REDIS_URL": redis_server.url.removesuffix("/0") + "/1" if args.jobs == "worker" else "",
        "PYRAMID_LIVE_REDIS_URL": redis_server.url,
        "PYRAMID_LIVE_KEY_PREFIX": PREFIX,
        "PYRAMID_LIVE_RETRY_MS": str(RETRY_MS),
        "PYRAMID_LIVE_STREAMS_PER_ACCOUNT": "100000",
        "PYRAMID_LIVE_STREAMS_PER_ADDRESS": "1000000",
        "PYRAMID_THROTTLE_SIGNUP": "100000/hour",
        "PYRAMID_DAILY_MAX_ATTEMPTS": "400",  # the tournament's secret deals are found however the candidates fall
        "PYRAMID_THROTTLE_VISITOR_READ": "1000000/min",
        # the post-game analysis and fair-play checks, kept short: they share the two cores with everything else
        "PYRAMID_ANALYSIS_GAME_SECONDS": "0.2",
        "PYRAMID_ANALYSIS_POSITION_SECONDS": "0.01",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": secret,
        "PYRAMID_DAILY_SECRET": secret,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SETTINGS_MODULE": "pyramid_site.settings",
        "PYTHONPATH": str(ROOT),
    }
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    api_port = free_port()
    api_log = Path(tempfile.mkstemp(prefix="pyramid-live-api-", suffix=".log")[1])
    console.print(f"the API's log: {api_log}")
    api = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "pyramid_site.wsgi", "-b", f"127.0.0.1:{api_port}", "-w", "2"]
        + ["--log-level", "warning"],
        cwd=ROOT,
        env=env,
        stdout=api_log.open("w"),
        stderr=subprocess.STDOUT,
    )
    # the worker stands in for production's worker machines: at the lowest CPU priority, it takes what the web
    # processes and the clients leave of the two cores
    worker = (
        subprocess.Popen(
            ["nice", "-n", "19", sys.executable, "-m", "celery", "-A", "pyramid_site", "worker", "--pool", "solo"]
            + ["--loglevel", "WARNING"],
            cwd=ROOT,
            env=env,
            stdout=api_log.open("a"),
            stderr=subprocess.STDOUT,
        )
        if args.jobs == "worker"
        else None
    )
    # docs/operations.md, "Live updates"; and the daily deals are not prepared in the streams' processes (beat does
    # it where Redis runs the jobs; in-process, the solver would hold their event loops for seconds)
    live_env = env | {"DATABASE_CONN_MAX_AGE": "0", "PYRAMID_DAILY_AUTO_PREPARE": "false"}
    rows = []
    try:
        wait_healthy(api_port)
        for clients in steps:
            live = [Uvicorn(live_env), Uvicorn(live_env)]
            try:
                for server in live:
                    server.start()
                servers = {"api": f"http://127.0.0.1:{api_port}", "live": live}
                figures = run(args, clients, servers, redis_server, console)
            finally:
                for server in live:
                    server.stop()
            print("FIGURES " + json.dumps(figures), flush=True)
            rows.append(figures)
            if not figures["ok"]:
                break
        table(rows, console)
        if args.ceiling:
            met = [f["clients"] for f in rows if f["ok"]]
            console.print(
                f"ceiling: floors met up to {max(met) if met else 'none'} clients"
                + (f", broken at {rows[-1]['clients']}" if not rows[-1]["ok"] else " (no step broke them)")
            )
    finally:
        for process in (api, worker):
            if process is not None:
                process.terminate()
                process.wait(timeout=30)
        redis_server.stop()
        database_drop(args.pg, args.database)


if __name__ == "__main__":
    main()
