"""Speed of the boards with 1,000,000 finished ranked games in PostgreSQL.

Makes a fresh database (``pyramid_boards_bench`` by default) on the PostgreSQL of ``--pg``,
migrates it and fills it with SQL: ``--players`` accounts each finishing one ranked game of each of
``--days`` daily deals (50,000 x 20 = 1,000,000 games and their results by default; random cards
left, moves and times, a third of them wins), and a match of 6 deals with ``--entrants`` players
whose standings hold random totals. Then it times, on random players:

- the daily board of one day (50,000 results): top 50, my rank and 5 neighbours each side, from
  PostgreSQL and from the Redis sorted set (``--redis``) rebuilt from it;
- the tournament's standings: top 100, and all 1,000 rows.

    .venv/bin/python benchmarks/boards_speed.py
    .venv/bin/python benchmarks/boards_speed.py --players 5000 --days 4   # a quick look

Figures are the median and 95th percentile of ``--runs`` calls of the selector each, in process
(Django ORM included, no HTTP), and the median CPU time of the Python side.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def fresh_database(pg: str, name: str) -> None:
    with psycopg.connect(f"{pg}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def timed(fn, runs: int) -> tuple[float, float, float]:
    """Median and 95th percentile of wall time, and the median CPU time of this process (the
    Python side alone; the rest of the wall time is PostgreSQL, Redis, and waiting for a core)."""
    fn()  # warm
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.thread_time()
        fn()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.thread_time() - start_cpu) * 1000)
    wall.sort()
    return statistics.median(wall), wall[int(0.95 * (len(wall) - 1))], statistics.median(cpu)


def report(label: str, figures: tuple[float, float, float]) -> None:
    median, p95, cpu = figures
    print(f"{label}: median {median:.2f} ms, p95 {p95:.2f} ms (Python CPU median {cpu:.2f} ms)", flush=True)


def fill(players: int, days: int, entrants: int) -> None:
    import datetime as dt

    from django.db import connection
    from django.utils import timezone

    import engine
    from games.daily import commitment
    from games.models import DailyDeal, Deal
    from leaderboards.models import Club, Entry, Tournament, TournamentDeal
    from pyramid_site.clock import utc_today

    rules = engine.preset("classic")
    today = utc_today()
    for offset in range(days):
        number = 1000 + offset
        deal = Deal.objects.create(
            number=number,
            rules=rules.to_text(),
            preset="classic",
            text=engine.deal_from_number(number).text,
            status="winnable",
            par_moves=40 + offset,
            best_cards_left=0,
            best_moves=40 + offset,
            solved_at=timezone.now(),
        )
        DailyDeal.objects.create(
            date=today - dt.timedelta(days=offset),
            preset="classic",
            deal=deal,
            attempt=0,
            salt="0" * 32,
            commitment=commitment(deal.text, "0" * 32),
        )
    with connection.cursor() as cursor:
        t = time.perf_counter()
        cursor.execute(
            """
            INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email, is_staff,
                                   is_active, date_joined)
            SELECT '!', false, 'bench' || g, '', '', '', false, true, now() FROM generate_series(1, %s) g""",
            [players],
        )
        cursor.execute("""
            INSERT INTO games_game (player_id, deal_id, daily_id, mode, status, state, moves, cards_left,
                                    undo_count, hint_count, started_at, finished_at, version, move_log)
            SELECT uid, deal_id, did, 'ranked', CASE WHEN cl = 0 THEN 'won' ELSE 'stuck' END, '-', mv, cl, 0, 0,
                   st, st + make_interval(secs => ms / 1000.0), mv, decode(repeat('01', mv), 'hex')
            FROM (SELECT u.id AS uid, d.deal_id, d.id AS did,
                         CASE WHEN random() < 0.33 THEN 0 ELSE 1 + floor(random() * 27)::int END AS cl,
                         40 + floor(random() * 30)::int AS mv,
                         60000 + floor(random() * 900000)::int AS ms,
                         d.date + time '08:00' + make_interval(secs => floor(random() * 30000)) AS st
                  FROM auth_user u CROSS JOIN games_dailydeal d WHERE u.username LIKE 'bench%%') s""")
        cursor.execute("""
            INSERT INTO leaderboards_result (game_id, player_id, deal_id, daily_id, date, preset, cards_left,
                pyramid_left, moves, duration_ms, cleared, won, match_score, par_moves, started_at, finished_at,
                voided)
            SELECT g.id, g.player_id, g.deal_id, g.daily_id, d.date, 'classic', g.cards_left, g.cards_left, g.moves,
                   (extract(epoch FROM g.finished_at - g.started_at) * 1000)::bigint, g.cards_left = 0,
                   g.cards_left = 0, CASE WHEN g.cards_left = 0 THEN 20 ELSE -g.cards_left END, dl.par_moves,
                   g.started_at, g.finished_at, false
            FROM games_game g JOIN games_dailydeal d ON d.id = g.daily_id JOIN games_deal dl ON dl.id = g.deal_id""")
        print(f"generated {players * days:,} games and results in {time.perf_counter() - t:.0f} s", flush=True)
    from leaderboards.boards.services import board_counts_rebuild

    board_counts_rebuild()
    now = timezone.now()
    club = Club.objects.create(name="Bench", invite_code="bench")
    cup = Tournament.objects.create(
        club=club,
        name="Cup",
        rules=rules.to_text(),
        preset="classic",
        format="match",
        scoring="par",
        deal_count=6,
        starts_at=now - dt.timedelta(hours=1),
        ends_at=now + dt.timedelta(hours=1),
        status="ready",
    )
    for index, deal in enumerate(Deal.objects.order_by("pk")[:6]):
        TournamentDeal.objects.create(tournament=cup, index=index, deal=deal)
    rng = random.Random(7)
    entrant_ids = list(
        connection.cursor().execute("SELECT id FROM auth_user ORDER BY id LIMIT %s", [entrants]).fetchall()
    )
    Entry.objects.bulk_create(
        [
            Entry(
                tournament=cup,
                player_id=pid,
                score=rng.randint(-300, 300),
                games=6,
                cleared=rng.randint(0, 6),
                cards_left=rng.randint(0, 160),
                moves=rng.randint(240, 420),
                duration_ms=rng.randint(10**6, 10**7),
            )
            for (pid,) in entrant_ids
        ]
    )
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--database", default="pyramid_boards_bench")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--players", type=int, default=50_000)
    parser.add_argument("--days", type=int, default=20)
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--reuse", action="store_true", help="keep the database of an earlier run")
    args = parser.parse_args()

    if not args.reuse:
        fresh_database(args.pg, args.database)
    os.environ["DATABASE_URL"] = f"{args.pg}/{args.database}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pyramid_site.settings")
    os.environ["DJANGO_DEBUG"] = "false"
    os.environ.setdefault("PYRAMID_DAILY_SECRET", "pyramid-benchmark-secret")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    if not args.reuse:
        fill(args.players, args.days, args.entrants)

    from games.models import DailyDeal
    from leaderboards.boards import services
    from leaderboards.boards.selectors.boards import daily_board
    from leaderboards.models import Result, Tournament
    from leaderboards.tournaments.selectors import standings

    settings.PYRAMID_BOARD_REDIS_URL = args.redis
    games = Result.objects.count()
    daily = DailyDeal.objects.select_related("deal").order_by("-date").first()
    board_size = Result.objects.filter(daily=daily).count()
    players = list(get_user_model().objects.filter(results__daily=daily).values_list("pk", flat=True))
    rng = random.Random(1)
    users = {pk: get_user_model()(pk=pk) for pk in rng.sample(players, min(len(players), 1000))}
    picks = list(users.values())
    print(f"{games:,} finished ranked games; the day's board holds {board_size:,}; runs: {args.runs}")

    def board(use_cache):
        return lambda: daily_board(daily=daily, player=rng.choice(picks), limit=50, around=5, use_cache=use_cache)

    print(f"load average before timing: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    report("daily board, top 50 + my rank + 10 neighbours, PostgreSQL", timed(board(False), args.runs))
    t = time.perf_counter()
    cached = services.board_cache_rebuild(daily_id=daily.pk)
    rebuild = time.perf_counter() - t
    if cached:
        check = daily_board(daily=daily, player=picks[0])
        assert check.source == "redis", "the board did not come from Redis"
        truth = daily_board(daily=daily, player=picks[0], use_cache=False)
        assert check.me.rank == truth.me.rank and [r.rank for r in check.top] == [r.rank for r in truth.top]
        report(f"  the same from Redis (rebuilt in {rebuild:.2f} s)", timed(board(True), args.runs))
    else:
        print("  Redis not reachable: no cached figure")
    cup = Tournament.objects.get(name="Cup")
    for limit in (100, 1000):
        report(
            f"tournament standings, {cup.entries.count():,} players, first {limit}",
            timed(lambda limit=limit: list(standings(tournament=cup)[:limit]), args.runs),
        )


if __name__ == "__main__":
    main()
