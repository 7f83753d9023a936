"""Fault: PostgreSQL restarted (``pg_ctl restart -m fast``) while clients play whole games through gunicorn.

Clients are the load benchmark's (``load_games.play_games``) in their retrying mode: after a connection
error or a 5xx they send the same ``{ply, move}`` again, and a resent move the server already applied is
answered 200 with ``"applied": false``. Afterwards every game's log in the database is checked against
what its client had acknowledged (nothing lost, nothing doubled, no gap in the plies) and replayed
through the engine to its stored state.

    .venv/bin/python benchmarks/faults_postgres_restart.py --clients 16 --games 160 --restart-after 4

Everything runs on a private PostgreSQL cluster started for the run (never the shared server).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

import httpx
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from fault_servers import gunicorn, migrate, missing_binaries, private_postgres  # noqa: E402
from load_games import engine_line, job_queue, play_games, sign_up  # noqa: E402

import engine  # noqa: E402
from benchmarks.common import UNTHROTTLED_PLAY  # noqa: E402
from games.move_log import log_notations  # noqa: E402


def check_logs(dsn: str, sent: dict, acknowledged: dict) -> dict:
    """Compare each game in the database with its client's view and replay it through the engine."""
    with psycopg.connect(dsn) as connection:
        games = {
            row[0]: row[1:]
            for row in connection.execute(
                "SELECT g.id, g.state, g.moves, d.text, d.rules "
                "FROM games_game g JOIN games_deal d ON d.id = g.deal_id WHERE g.id = ANY(%s)",
                [list(sent)],
            )
        }
        moves = {
            game_id: list(enumerate(log_notations(log), start=1))
            for game_id, log in connection.execute(
                "SELECT id, move_log FROM games_game WHERE id = ANY(%s)", [list(sent)]
            )
        }
    figures = Counter()
    for game_id, line in sent.items():
        state, move_count, deal_text, rules_text = games[game_id]
        log = moves.get(game_id, [])
        plies = [ply for ply, _ in log]
        figures["moves_stored"] += len(log)
        figures["games_with_gaps_or_doubles"] += plies != list(range(1, len(log) + 1)) or len(log) != move_count
        figures["games_lost_a_move"] += len(log) < acknowledged[game_id]
        figures["games_with_unacknowledged_move"] += len(log) > acknowledged[game_id]
        figures["games_differ_from_sent"] += [n for _, n in log] != line[: len(log)]
        replayed = engine.replay(engine.parse_deal(deal_text), engine.Rules.parse(rules_text), [n for _, n in log])
        figures["games_not_replaying_to_state"] += not replayed.ok or replayed.position.dumps() != state
    return figures


async def play(args, base_url: str, dsn: str, server) -> int:
    rules = engine.Rules.parse(args.rules)
    lines = [(n, engine_line(n, rules, seed=n)) for n in range(args.first_deal, args.first_deal + args.games)]
    moves_planned = sum(len(line) for _, line in lines)
    print(
        f"{args.games} games, {moves_planned} moves under {args.rules}, {args.clients} clients; "
        f"PostgreSQL restarted {args.restart_after}s in"
    )
    limits = httpx.Limits(max_connections=args.clients, max_keepalive_connections=args.clients)
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=30) as client:
        tokens = await sign_up(client, args.clients, "fault")
        jobs = job_queue(lines)
        latencies, errors, sent, acknowledged, retries = [], [], {}, {}, Counter()
        answered_before: list[int] = []  # moves answered when the restart began

        async def restart_midway():
            await asyncio.sleep(args.restart_after)
            restarted_at = time.perf_counter()
            answered_before.append(len(latencies))
            seconds = await asyncio.to_thread(server.restart)
            print(f"pg_ctl restart -m fast took {seconds:.2f}s")
            return restarted_at

        started = time.perf_counter()
        restart = asyncio.create_task(restart_midway())
        await asyncio.gather(
            *(
                play_games(
                    client, token, jobs, latencies, errors, sent, args.rules, acknowledged=acknowledged, retries=retries
                )
                for token in tokens
            )
        )
        seconds = time.perf_counter() - started
        restarted_at = await restart
    failed = [error for error in errors if error[0] in ("start", "move")]
    figures = check_logs(dsn, sent, acknowledged)
    moves_acknowledged = sum(acknowledged.values())
    # the outage as clients saw it: from the restart to the last request that failed
    recovery = max((error[-1] - restarted_at for error in errors if error[0] in ("transport", "server")), default=0.0)
    print(
        f"moves sent: {len(latencies)} (each answered; {retries['resent']} resent, "
        f"{retries['already_applied']} of them answered 'already applied'), acknowledged: {moves_acknowledged}, "
        f"stored: {figures['moves_stored']}, in {seconds:.1f}s"
    )
    print(
        f"errors seen by clients: {len(errors) - len(failed)} ({dict(Counter(f'{e[0]} {e[1]}' for e in errors))}); "
        f"requests given up: {len(failed)}"
    )
    print(f"time to recover (restart begun to the last failed request): {recovery:.2f}s")
    for name in (
        "games_lost_a_move",
        "games_with_unacknowledged_move",
        "games_with_gaps_or_doubles",
        "games_differ_from_sent",
        "games_not_replaying_to_state",
    ):
        print(f"{name}: {figures[name]}")
    # the restart must land mid-play, or nothing was tested
    ok = (
        0 < answered_before[0] < len(latencies)
        and not failed
        and figures["moves_stored"] == moves_acknowledged
        and moves_acknowledged == moves_planned
        and not any(figures[name] for name in figures if name.startswith("games_"))
    )
    print("PASS" if ok else "FAIL", "(every acknowledged move stored once, every game replays to its state)")
    print(
        "FIGURES",
        json.dumps(
            dict(figures)
            | {
                "moves_sent": len(latencies),
                "moves_acknowledged": moves_acknowledged,
                "resent": retries["resent"],
                "moves_before_restart": answered_before[0],
                "errors_seen": len(errors) - len(failed),
                "given_up": len(failed),
                "seconds_to_recover": round(recovery, 2),
                "ok": ok,
            }
        ),
    )
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--games", type=int, default=160)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--first-deal", type=int, default=5000)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--restart-after", type=float, default=4.0, help="seconds of play before the restart")
    args = parser.parse_args()
    if reason := missing_binaries():
        print("cannot run:", reason)
        return 2
    with private_postgres() as server:
        dsn = server.create_database("pyramid_faults")
        env = (
            os.environ
            | {
                "DATABASE_URL": dsn,
                "DJANGO_DEBUG": "false",
                "PYRAMID_DAILY_SECRET": "pyramid-fault-secret",
                "PYRAMID_THROTTLE_SIGNUP": "100000/hour",
                "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            }
            | UNTHROTTLED_PLAY
        )
        env.pop("REDIS_URL", None)
        migrate(dsn, env)
        with gunicorn(env, workers=args.workers) as (base_url, _):
            return asyncio.run(play(args, base_url, dsn, server))


if __name__ == "__main__":
    sys.exit(main())
