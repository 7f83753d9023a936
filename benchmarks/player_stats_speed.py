"""Speed of a player's statistics and calendar for a player with thousands of games, among many players.

Makes a fresh database (``pyramid_stats_bench`` by default) on the PostgreSQL of ``--pg``, migrates it and
fills it with SQL: ``--days`` days of two daily deals each (classic and one-look); ``--players`` players who
each finish a daily deal with a chance of ``--share`` and play ``--practice`` practice games each; and one
heavy player, ``heavy``, who has played every daily deal of every day (2 x ``--days`` ranked results) and
``--heavy-practice`` practice games (classic, relaxed and a custom rule set; a third of them won). Then it
times, in process (no HTTP), the heavy player's and a typical player's:

- statistics (``player_statistics``: ranked and practice figures by preset, streaks; three queries);
- calendar of 12 months (``player_calendar``: one query);

and prints PostgreSQL's plan of each query for the heavy player.

    .venv/bin/python benchmarks/player_stats_speed.py
    .venv/bin/python benchmarks/player_stats_speed.py --players 200 --days 100   # a quick look
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from boards_speed import fresh_database, report, timed  # noqa: E402


def fill(*, players: int, days: int, share: float, practice: int, heavy_practice: int) -> None:
    import datetime as dt
    import time

    from django.db import connection
    from django.utils import timezone

    import engine
    from games.daily import commitment
    from games.models import DailyDeal, Deal
    from pyramid_site.clock import utc_today

    today = utc_today()
    t = time.perf_counter()
    for offset in range(days):
        for preset, number in (("classic", 10_000 + offset), ("one-look", 20_000 + offset)):
            rules = engine.preset(preset)
            deal = Deal.objects.create(
                number=number,
                rules=rules.to_text(),
                preset=preset,
                text=engine.deal_from_number(number).text,
                status="winnable",
                par_moves=40,
                best_cards_left=0,
                best_moves=40,
                solved_at=timezone.now(),
            )
            DailyDeal.objects.create(
                date=today - dt.timedelta(days=offset),
                preset=preset,
                deal=deal,
                attempt=0,
                salt="0" * 32,
                commitment=commitment(deal.text, "0" * 32),
            )
    practice_deals = []
    for index, rules in enumerate(
        [engine.preset("classic"), engine.preset("relaxed"), engine.Rules.parse("classic;passes=unlimited")]
    ):
        for number in range(50):
            practice_deals.append(
                Deal.objects.create(
                    number=30_000 + 100 * index + number,
                    rules=rules.to_text(),
                    preset=rules.name,
                    text=engine.deal_from_number(number).text,
                    solved_at=timezone.now(),
                    status="unknown",
                ).pk
            )
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email, is_staff,
                                   is_active, date_joined)
            SELECT '!', false, 'bench' || g, '', '', '', false, true, now() FROM generate_series(0, %s) g""",
            [players],
        )
        cursor.execute("UPDATE auth_user SET username = 'heavy' WHERE username = 'bench0'")
        # ranked games of daily deals: the heavy player every one, the others a share of them
        cursor.execute(
            """
            INSERT INTO games_game (player_id, deal_id, daily_id, mode, status, state, moves, cards_left,
                                    undo_count, hint_count, started_at, finished_at, closes_at, version, move_log)
            SELECT uid, deal_id, did, 'ranked', CASE WHEN cl = 0 THEN 'won' ELSE 'stuck' END,
                   CASE WHEN cl = 0 THEN '0.0.0.0.1.40.1' ELSE 'f.0.0.0.1.40.0' END, mv, cl, 0, 0,
                   st, st + make_interval(secs => ms / 1000.0), d_end, mv, decode(repeat('01', mv), 'hex')
            FROM (SELECT u.id AS uid, d.deal_id, d.id AS did,
                         CASE WHEN random() < 0.33 THEN 0 ELSE 1 + floor(random() * 27)::int END AS cl,
                         40 + floor(random() * 30)::int AS mv, 60000 + floor(random() * 900000)::int AS ms,
                         d.date + time '08:00' + make_interval(secs => floor(random() * 30000)) AS st,
                         d.date + interval '1 day' AS d_end
                  FROM auth_user u CROSS JOIN games_dailydeal d
                  WHERE u.username = 'heavy' OR random() < %s + 0 * d.id) s""",
            [share],
        )
        cursor.execute("""
            INSERT INTO leaderboards_result (game_id, player_id, deal_id, daily_id, date, preset, cards_left,
                pyramid_left, moves, duration_ms, cleared, won, match_score, par_moves, started_at, finished_at,
                voided)
            SELECT g.id, g.player_id, g.deal_id, g.daily_id, d.date, d.preset, g.cards_left, g.cards_left, g.moves,
                   (extract(epoch FROM g.finished_at - g.started_at) * 1000)::bigint, g.cards_left = 0,
                   g.cards_left = 0, CASE WHEN g.cards_left = 0 THEN 20 ELSE -g.cards_left END, 40,
                   g.started_at, g.finished_at, false
            FROM games_game g JOIN games_dailydeal d ON d.id = g.daily_id""")
        # practice games: a third won, a tenth still being played
        cursor.execute(
            """
            INSERT INTO games_game (player_id, deal_id, mode, status, state, moves, cards_left, undo_count,
                                    hint_count, started_at, finished_at, version, move_log)
            SELECT uid, deal_id, 'practice', status,
                   CASE WHEN status = 'won' THEN '0.0.0.0.1.40.1' ELSE 'f.0.0.0.1.20.0' END, mv,
                   CASE WHEN status = 'won' THEN 0 ELSE 5 END, 0, 0, st,
                   CASE WHEN status = 'playing' THEN NULL
                        ELSE st + make_interval(secs => 30 + floor(random() * 900)) END, 1,
                   decode(repeat('01', mv), 'hex')
            FROM (SELECT *, CASE WHEN status = 'won' THEN 35 + floor(random() * 40)::int ELSE 20 END AS mv FROM
                 (SELECT u.id AS uid, (%s::bigint[])[1 + floor(random() * %s)::int] AS deal_id,
                         CASE WHEN random() < 0.1 THEN 'playing' WHEN random() < 0.37 THEN 'won' ELSE 'resigned' END
                             AS status,
                         now() - make_interval(secs => floor(random() * 3e7)) AS st
                  FROM auth_user u CROSS JOIN generate_series(1, %s) g
                  WHERE g <= CASE WHEN u.username = 'heavy' THEN %s ELSE %s END) s) m""",
            [practice_deals, len(practice_deals), max(practice, heavy_practice), heavy_practice, practice],
        )
        cursor.execute("VACUUM ANALYZE")
    print(f"filled in {time.perf_counter() - t:.0f} s", flush=True)


def explain(label: str, queryset_sql: tuple[str, tuple]) -> None:
    from django.db import connection

    sql, params = queryset_sql
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql.replace("%", "%%"), params)
        plan = [row[0] for row in cursor.fetchall()]
    print(f"--- {label}\n" + "\n".join(plan))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--database", default="pyramid_stats_bench")
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--days", type=int, default=730)
    parser.add_argument("--share", type=float, default=0.1)
    parser.add_argument("--practice", type=int, default=50)
    parser.add_argument("--heavy-practice", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--reuse", action="store_true", help="keep the database of an earlier run")
    parser.add_argument("--plans", action="store_true", help="print PostgreSQL's plans")
    args = parser.parse_args()

    if not args.reuse:
        fresh_database(args.pg, args.database)
    os.environ["DATABASE_URL"] = f"{args.pg}/{args.database}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pyramid_site.settings")
    os.environ["DJANGO_DEBUG"] = "false"
    os.environ.setdefault("PYRAMID_DAILY_SECRET", "pyramid-benchmark-secret")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db.models import Count

    call_command("migrate", verbosity=0)
    if not args.reuse:
        fill(
            players=args.players,
            days=args.days,
            share=args.share,
            practice=args.practice,
            heavy_practice=args.heavy_practice,
        )

    from games.models import Game
    from leaderboards.boards.selectors import statistics
    from leaderboards.models import Result

    users = get_user_model().objects
    heavy = users.get(username="heavy")
    typical = users.annotate(n=Count("results")).exclude(username="heavy").order_by("-n").first()
    print(
        f"{Result.objects.count():,} results and {Game.objects.filter(mode='practice').count():,} practice games "
        f"in all; heavy: {Result.objects.filter(player=heavy).count():,} results, "
        f"{Game.objects.filter(player=heavy, mode='practice').count():,} practice games; "
        f"typical: {Result.objects.filter(player=typical).count():,} results"
    )
    print(f"load average before timing: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for name, player in (("heavy", heavy), ("typical", typical)):
        report(
            f"statistics of {name} (own page: ranked, practice, streaks)",
            timed(lambda p=player: statistics.player_statistics(player=p, viewer=p), args.runs),
        )
        report(
            f"calendar of {name}, 12 months",
            timed(lambda p=player: statistics.player_calendar(player=p, months=12), args.runs),
        )
    if args.plans:  # the selectors' own queries, as they ran, with PostgreSQL's plan of each
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as seen:
            statistics.player_statistics(player=heavy, viewer=heavy)
            statistics.player_calendar(player=heavy, months=12)
        for query in seen.captured_queries:
            explain(query["sql"][:160], (query["sql"], ()))


if __name__ == "__main__":
    main()
