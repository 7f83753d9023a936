"""A day of a million players in PostgreSQL: the generator (``fill``) and the measurements at that size (``measure``).

``fill`` makes a fresh database (``pyramid_million``) on the PostgreSQL of ``--pg``, migrates it and writes:

- ``--players`` accounts (1,200,000);
- one classic daily deal a day for today and the ``--days`` days before it (30), each settled by the solver
  through the service, as the daily job does;
- for each daily deal a pool of ``--pool`` whole games played by the engine (the solver's winning line, the
  rules-of-thumb bot, seeded players that remove a pair whenever they can, some resigned half way), each move
  stamped at a person's pace (lognormal pauses), their move logs in the service's format (``games.move_log``);
- ``--today`` finished ranked games of today's deal (1,000,000) and ``--per-day`` (200,000) on each earlier day,
  each a game of its day's pool, with its result;
- the daily boards' counts and the weekly and all-time standings, summed from the results in SQL;
- ``--clubs`` clubs (10,000, sizes falling from about 5,000 members to a handful, a tenth private), and
  ``--tournaments`` (200) club cups on today's daily deal, their entries (up to 5,000) with standings.

Games and results are written by ``INSERT ... SELECT`` from the pools copied in (``COPY``), never through the
ORM; the pools are the only rows made in Python. It prints the time of each step and the disk used.

``measure`` times, median and p95 over ``--samples`` random players, every read a player makes (the views
themselves, with the player authenticated) and the jobs; it prints one line ``FIGURES {json}``.

    .venv/bin/python benchmarks/million_day.py fill
    .venv/bin/python benchmarks/million_day.py measure
    .venv/bin/python benchmarks/million_day.py fill --players 120000 --today 100000 --per-day 20000   # a tenth
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import logging
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import database_recreate, seeded_line  # noqa: E402


def django_on(pg: str, database: str) -> None:
    os.environ["DATABASE_URL"] = f"{pg}/{database}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pyramid_site.settings")
    os.environ.setdefault("PYRAMID_SOLVE_BUDGET_SECONDS", "20")
    import django

    django.setup()
    logging.disable(logging.WARNING)


class Steps:
    def __init__(self):
        self.started = time.perf_counter()
        self.figures: dict[str, float] = {}

    def __call__(self, name: str):
        steps = self

        class Step:
            def __enter__(self):
                self.t = time.perf_counter()
                print(f"{name} ...", end=" ", flush=True)

            def __exit__(self, *exc):
                seconds = time.perf_counter() - self.t
                steps.figures[name] = round(seconds, 1)
                print(f"{seconds:.1f} s", flush=True)

        return Step()


# -- fill ------------------------------------------------------------------------------------------


def pool_games(deal, count: int, rng: random.Random) -> list[tuple]:
    """(status, state, moves, cards_left, pyramid_left, match_score, duration_ms, move_log) of whole games of
    ``deal`` played by the engine, stamped at a person's pace."""
    import engine
    from engine.solver import bot
    from games.engine_glue import start_position
    from games.move_log import log_encode

    start = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    games = []
    for index in range(count):
        position = start_position(deal)
        kind = index % 5
        if kind == 0 and deal.solution:
            line = deal.solution.split()
        elif kind == 1:
            line = bot.play(position).moves
        else:
            line = seeded_line(position, rng)
        resigned = kind == 4 and len(line) > 10
        if resigned:
            line = line[: len(line) // 2]
        final = engine.replay(engine.parse_deal(deal.text), engine.Rules.parse(deal.rules), line).position
        at, stamped = start, []
        for move in line:
            at += dt.timedelta(seconds=min(rng.lognormvariate(0.92, 0.8), 600))
            stamped.append((move, at))
        score = engine.score(final)
        status = "resigned" if resigned else final.status
        games.append(
            (
                status,
                final.dumps(),
                final.moves,
                final.cards_left,
                score.pyramid_left,
                score.match_score,
                int((at - start).total_seconds() * 1000) + 1000,
                log_encode(stamped, started_at=start),
            )
        )
    return games


# k: a game's pool entry, from its player's id (the same on both sides of a join)
POOL_PICK = "(({player} * 2654435761) %% 4294967296) %% {size}"


def fill(args) -> dict:
    django_on(args.pg, args.database)
    from django.core.management import call_command
    from django.db import connection

    from games import services as game_services
    from leaderboards.boards.services import board_counts_rebuild, period_standings_rebuild
    from pyramid_site.clock import utc_today

    steps = Steps()
    rng = random.Random(args.seed)
    today = utc_today()
    with steps("migrate"):
        call_command("migrate", verbosity=0)
    cursor = connection.cursor()
    cursor.execute("SET synchronous_commit = off")
    cursor.execute("SET maintenance_work_mem = '1GB'")
    cursor.execute("SET work_mem = '256MB'")
    with steps(f"{args.players:,} accounts"):
        cursor.execute(
            """
            INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email, is_staff,
                                   is_active, date_joined)
            SELECT '!', false, 'player' || g, '', '', '', false, true, now() - interval '60 days'
            FROM generate_series(1, %s) g""",
            [args.players],
        )
        cursor.execute("SELECT min(id) FROM auth_user")
        first_user = cursor.fetchone()[0]
    dailies = []
    with steps(f"{args.days + 1} daily deals settled by the solver"):
        for offset in range(args.days, -1, -1):
            daily = game_services.daily_deal_settle(date=today - dt.timedelta(days=offset), preset="classic")
            dailies.append(daily)
    with steps(f"pools of {args.pool} engine games a deal"):
        cursor.execute("""CREATE UNLOGGED TABLE bench_pool (daily_id bigint, k int, status text, state text, moves int,
                          cards_left int, pyramid_left int, match_score int, duration_ms int, move_log bytea,
                          PRIMARY KEY (daily_id, k))""")
        with cursor.connection.cursor().copy("COPY bench_pool FROM STDIN") as copy:
            for daily in dailies:
                for k, game in enumerate(pool_games(daily.deal, args.pool, rng)):
                    copy.write_row((daily.pk, k, *game))
    pick = POOL_PICK.format(player="u.id", size=args.pool)
    for daily in dailies:
        players = args.today if daily.date == today else args.per_day
        # the day's players: the first ones today; a spread of them on earlier days
        chosen = (
            "u.id < %(first)s + %(players)s"
            if daily.date == today
            else "(u.id::bigint * 7919 + %(salt)s) %% %(every)s = 0"
        )
        params = {
            "first": first_user,
            "players": players,
            "salt": daily.pk * 104729,
            "every": max(1, args.players // players),
            "daily": daily.pk,
            "deal": daily.deal_id,
            "date": daily.date,
            "par": daily.deal.par_moves,
        }
        with steps(f"{daily.date}: games and results"):
            cursor.execute(
                f"""
                INSERT INTO games_game (player_id, deal_id, daily_id, mode, status, state, moves, cards_left,
                                        undo_count, hint_count, started_at, finished_at, closes_at, version, move_log)
                SELECT u.id, %(deal)s, %(daily)s, 'ranked', p.status, p.state, p.moves, p.cards_left, 0, 0, st,
                       st + make_interval(secs => p.duration_ms / 1000.0), %(date)s::date + interval '1 day',
                       p.moves + 1, p.move_log
                FROM (SELECT u.id, %(date)s::date + make_interval(secs => (u.id::bigint * 7919) %% 72000) AS st
                      FROM auth_user u WHERE {chosen}) u
                JOIN bench_pool p ON p.daily_id = %(daily)s AND p.k = {pick}""",
                params,
            )
            cursor.execute(
                f"""
                INSERT INTO leaderboards_result (game_id, player_id, deal_id, daily_id, date, preset, cards_left,
                    pyramid_left, moves, duration_ms, cleared, won, match_score, par_moves, started_at, finished_at,
                    voided)
                SELECT g.id, g.player_id, g.deal_id, g.daily_id, %(date)s, 'classic', g.cards_left, p.pyramid_left,
                       g.moves, p.duration_ms, p.pyramid_left = 0, g.status = 'won', p.match_score, %(par)s,
                       g.started_at, g.finished_at, false
                FROM games_game g
                JOIN bench_pool p ON p.daily_id = g.daily_id AND p.k = {pick.replace("u.id", "g.player_id")}
                WHERE g.daily_id = %(daily)s""",
                params,
            )
    with steps("daily boards' counts, weekly and all-time standings (the services' rebuilds)"):
        board_counts_rebuild()
        period_standings_rebuild()
    with steps(f"{args.clubs:,} clubs and their members"):
        cursor.execute(
            """
            INSERT INTO leaderboards_club (name, name_key, description, is_private, invite_code, created_at)
            SELECT 'Club ' || c, 'club ' || translate(c::text, '01', 'ol'), '', c %% 10 = 0,
                   left(md5('club' || c), 24), now() - interval '60 days'
            FROM generate_series(1, %s) c""",
            [args.clubs],
        )
        cursor.execute(
            """
            INSERT INTO leaderboards_membership (club_id, user_id, role, joined_at)
            SELECT c.id, %(first)s + (c.n * 1000003 + i * 7919) %% %(players)s,
                   CASE WHEN i = 0 THEN 'owner' ELSE 'member' END, now() - interval '30 days'
            FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM leaderboards_club) c
            CROSS JOIN LATERAL generate_series(0, 1 + floor(4998 / power(c.n, 0.8))::int) i""",
            {"first": first_user, "players": args.players},
        )
    with steps(f"{args.tournaments} club cups on today's deal, their entries"):
        today_daily = dailies[-1]
        start = dt.datetime.combine(today, dt.time(), tzinfo=dt.UTC)
        cursor.execute(
            """
            INSERT INTO leaderboards_tournament (club_id, name, rules, preset, format, scoring, source, deal_count,
                                                 starts_at, ends_at, status, created_by_id, created_at)
            SELECT id, 'Cup of ' || name, %s, 'classic', 'match', 'plain', 'daily', 1, %s, %s, 'ready', NULL, now()
            FROM leaderboards_club ORDER BY id LIMIT %s""",
            [today_daily.deal.rules, start, start + dt.timedelta(days=1), args.tournaments],
        )
        cursor.execute(
            """INSERT INTO leaderboards_tournamentdeal (tournament_id, index, deal_id, attempt)
                          SELECT id, 0, %s, 0 FROM leaderboards_tournament""",
            [today_daily.deal_id],
        )
        cursor.execute(
            """
            INSERT INTO leaderboards_entry (tournament_id, player_id, joined_at, score, games, cleared, cards_left,
                                            moves, duration_ms, streak, updated_at)
            SELECT t.id, m.user_id, %(start)s, 0, (r.id IS NOT NULL)::int, coalesce(r.cleared::int, 0),
                   coalesce(r.cards_left, 52), coalesce(r.moves, 0), coalesce(r.duration_ms, 0), 0, now()
            FROM leaderboards_tournament t JOIN leaderboards_membership m ON m.club_id = t.club_id
            LEFT JOIN leaderboards_result r ON r.player_id = m.user_id AND r.daily_id = %(daily)s""",
            {"start": start, "daily": today_daily.pk},
        )
    with steps("ANALYZE"):
        cursor.execute("DROP TABLE bench_pool")
        connection.connection.autocommit = True
        cursor.execute("VACUUM ANALYZE")
    cursor.execute("SELECT pg_database_size(current_database())")
    size = cursor.fetchone()[0]
    rows = {}
    for table in (
        "auth_user",
        "games_game",
        "leaderboards_result",
        "leaderboards_periodstanding",
        "leaderboards_boardcount",
        "leaderboards_membership",
        "leaderboards_entry",
    ):
        cursor.execute(f"SELECT count(*), pg_total_relation_size('{table}') FROM {table}")
        count, total = cursor.fetchone()
        rows[table] = {"rows": count, "bytes": total, "bytes_a_row": round(total / max(count, 1))}
    cursor.execute(
        "SELECT avg(octet_length(move_log)), percentile_cont(0.5) WITHIN GROUP "
        "(ORDER BY octet_length(move_log)), avg(moves) FROM games_game"
    )
    log_mean, log_median, moves_mean = cursor.fetchone()
    total = time.perf_counter() - steps.started
    print(f"filled in {total / 60:.1f} min; database {size / 2**30:.2f} GiB")
    for table, figures in rows.items():
        print(
            f"  {table}: {figures['rows']:,} rows, {figures['bytes'] / 2**20:,.0f} MiB "
            f"({figures['bytes_a_row']} B a row with its indexes)"
        )
    print(f"  move logs: mean {float(log_mean):.0f} B, median {float(log_median):.0f} B, {float(moves_mean):.1f} moves")
    return {
        "steps": steps.figures,
        "seconds": round(total),
        "database_bytes": size,
        "tables": rows,
        "move_log_mean_bytes": round(float(log_mean), 1),
        "move_log_median_bytes": float(log_median),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["fill", "measure"])
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--database", default="pyramid_million")
    parser.add_argument("--players", type=int, default=1_200_000)
    parser.add_argument("--today", type=int, default=1_000_000)
    parser.add_argument("--per-day", type=int, default=200_000)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--pool", type=int, default=200)
    parser.add_argument("--clubs", type=int, default=10_000)
    parser.add_argument("--tournaments", type=int, default=200)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--recheck-games", type=int, default=20_000)
    parser.add_argument("--finishers", type=int, default=50)
    parser.add_argument(
        "--only",
        default="reads,jobs,recheck,finishers",
        help="what to measure: reads, boards (weekly and all-time alone), jobs, recheck, finishers",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.what == "fill":
        database_recreate(args.pg, args.database)
        figures = fill(args)
    else:
        from benchmarks.million_day_measure import measure

        os.environ.setdefault("PYRAMID_BOARD_REDIS_URL", "redis://127.0.0.1:6379/5")
        django_on(args.pg, args.database)
        figures = measure(args)
    print("FIGURES " + json.dumps(figures, default=str))


if __name__ == "__main__":
    main()
