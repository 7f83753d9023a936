"""What one ``/metrics`` scrape costs at a million games (docs/benchmarks.md, "/metrics at a million games").

``fill`` makes a fresh database (``pyramid_metrics``) on the PostgreSQL of ``--pg``, migrates it and writes, all
by ``INSERT ... SELECT generate_series`` (no row made in Python):

- ``--players`` accounts (1,000) and ``--games`` practice games (1,000,000), each of its own deal, so as many deals;
- of those deals ``--solved-last-day`` (300,000) solved in the last 24 hours, ``--pending`` (20,000) waiting for
  the solver, the rest solved before; solve times skewed towards milliseconds, as the compiled solver's are;
- where the code has them, the hourly solve tallies those solves would have counted (``games.SolveHour``);
- a re-checked day of a million ranked games in 200 chunks.

``measure`` scrapes ``/metrics`` (through Django's test client, the bearer token set) ``--scrapes`` times after
one warm-up, and prints the median and worst wall time, the web process' CPU time, each collector's own time,
and one line ``FIGURES {json}``. Run against the code before a change (a checkout of it, this file copied in)
to compare:

    .venv/bin/python benchmarks/metrics_scrape.py fill
    .venv/bin/python benchmarks/metrics_scrape.py measure
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import database_recreate  # noqa: E402

DATABASE = "pyramid_metrics"
TOKEN = "benchmark-metrics-token"


def django_on(pg: str) -> None:
    os.environ["DATABASE_URL"] = f"{pg}/{DATABASE}"
    os.environ["PYRAMID_METRICS_TOKEN"] = TOKEN
    os.environ["PYRAMID_DAILY_AUTO_PREPARE"] = "false"  # no solving on the first request
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pyramid_site.settings")
    import django

    django.setup()
    logging.disable(logging.WARNING)


def _has_table(cursor, table: str) -> bool:
    cursor.execute("SELECT to_regclass(%s) IS NOT NULL", [table])
    return cursor.fetchone()[0]


def fill(args) -> None:
    database_recreate(args.pg, DATABASE)
    django_on(args.pg)
    from django.core.management import call_command
    from django.db import connection

    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    games, last_day, pending = args.games, args.solved_last_day, args.pending
    with connection.cursor() as cursor:
        cursor.execute(
            """INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email,
                                                 is_staff, is_active, date_joined)
                          SELECT '!', false, 'bench' || g, '', '', '', false, true, now()
                          FROM generate_series(1, %s) g""",
            [args.players],
        )
        if _has_table(cursor, "accounts_accountname"):
            cursor.execute("INSERT INTO accounts_accountname (user_id, key) SELECT id, username FROM auth_user")
        # deal g: pending for the first ones, solved in the last day for the next, solved before for the rest
        cursor.execute(
            """
            INSERT INTO games_deal (number, rules, preset, text, status, par_moves, best_cards_left, best_moves,
                                    solution, difficulty, solve_seconds, solve_nodes, solved_at, failure,
                                    secret_until, created_at)
            SELECT g, 'classic', 'classic', 'deal text', s.status,
                   CASE WHEN s.status = 'winnable' THEN 40 END,
                   CASE s.status WHEN 'winnable' THEN 0 WHEN 'unwinnable' THEN 3 END,
                   CASE WHEN s.status <> 'pending' THEN 40 END, '', CASE WHEN s.status = 'winnable' THEN 2 END,
                   CASE WHEN s.status <> 'pending' THEN power(random(), 4) * 8 END,
                   CASE WHEN s.status <> 'pending' THEN 1000 END,
                   CASE WHEN g <= %(pending)s THEN NULL
                        WHEN g <= %(pending)s + %(last_day)s THEN now() - random() * interval '23 hours'
                        ELSE now() - interval '2 days' - random() * interval '300 days' END,
                   '', NULL, now() - interval '1 day'
            FROM generate_series(1, %(games)s) g,
                 LATERAL (SELECT CASE WHEN g <= %(pending)s THEN 'pending'
                                      WHEN g %% 3 = 0 THEN 'unwinnable' ELSE 'winnable' END AS status) s
        """,
            {"pending": pending, "last_day": last_day, "games": games},
        )
        if _has_table(cursor, "games_solvehour"):
            cursor.execute("""
                INSERT INTO games_solvehour (hour, bucket, solves, seconds)
                SELECT date_trunc('hour', solved_at),
                       width_bucket(solve_seconds, ARRAY[0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 30.0, 60.0]::float8[])
                         - CASE WHEN solve_seconds = ANY(ARRAY[0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 30.0, 60.0]::float8[])
                                THEN 1 ELSE 0 END,
                       count(*), sum(solve_seconds)
                FROM games_deal WHERE solved_at >= now() - interval '2 days' GROUP BY 1, 2""")
        cursor.execute(
            """
            INSERT INTO games_game (player_id, deal_id, daily_id, mode, status, state, moves, cards_left,
                                    undo_count, hint_count, started_at, finished_at, closes_at, version, move_log)
            SELECT (SELECT min(id) FROM auth_user) + g %% %(players)s, d.id, NULL, 'practice', 'stuck', 'state', 0,
                   5, 0, 0, now() - interval '1 day', now() - interval '1 day', NULL, 0, ''::bytea
            FROM games_deal d, LATERAL (SELECT d.number AS g) n""",
            {"players": args.players},
        )
        cursor.execute("""
            INSERT INTO leaderboards_recheckchunk (date, first_game, last_game, games, mismatched, suspicious,
                                                   flags_new, created_at, finished_at)
            SELECT current_date - 1, c * 5000 + 1, c * 5000 + 5000, 5000, '[]'::jsonb, '[]'::jsonb, 0, now(), now()
            FROM generate_series(0, 199) c""")
        cursor.execute("ANALYZE")
        cursor.execute("SELECT count(*) FROM games_game")
        print(
            f"filled in {time.perf_counter() - started:.0f} s: {cursor.fetchone()[0]:,} games, "
            f"{games:,} deals ({last_day:,} solved in the last day, {pending:,} pending)"
        )


def measure(args) -> None:
    django_on(args.pg)
    from django.test import Client

    from pyramid_site.metrics import DATABASE_COLLECTORS

    client = Client()

    def scrape() -> tuple[float, float]:
        wall, cpu = time.perf_counter(), time.process_time()
        response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
        assert response.status_code == 200, response.status_code
        return time.perf_counter() - wall, time.process_time() - cpu

    scrape()  # warm: connections, imports, the confusables map
    walls, cpus = zip(*(scrape() for _ in range(args.scrapes)), strict=True)
    collectors = {}
    for collector in DATABASE_COLLECTORS:
        started = time.perf_counter()
        list(collector.collect())
        collectors[type(collector).__name__] = round((time.perf_counter() - started) * 1000, 2)
    figures = {
        "scrapes": args.scrapes,
        "wall_ms_median": round(statistics.median(walls) * 1000, 2),
        "wall_ms_max": round(max(walls) * 1000, 2),
        "cpu_ms_median": round(statistics.median(cpus) * 1000, 2),
        "collector_ms": collectors,
    }
    print(
        f"/metrics: median {figures['wall_ms_median']} ms (worst {figures['wall_ms_max']} ms), web process CPU "
        f"{figures['cpu_ms_median']} ms; per collector (ms): {collectors}"
    )
    print("FIGURES " + json.dumps(figures))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=["fill", "measure"])
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--players", type=int, default=1_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--solved-last-day", type=int, default=300_000)
    parser.add_argument("--pending", type=int, default=20_000)
    parser.add_argument("--scrapes", type=int, default=20)
    args = parser.parse_args()
    fill(args) if args.step == "fill" else measure(args)


if __name__ == "__main__":
    main()
