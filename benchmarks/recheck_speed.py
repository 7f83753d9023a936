"""Speed of the daily fair-play re-check (``leaderboards.fair_play.recheck.ranked_day_recheck``).

Makes a fresh database (``pyramid_recheck_bench`` by default) on the PostgreSQL of ``--pg``, migrates
it and writes ``--games`` finished ranked games of one one-look daily deal, each the 33-move winning
line with its move log and result, a tenth of them played at a machine-even pace (flagged). Then it times one
re-check of the day (replay of every log, comparison with game and result, the suspicious-play rule,
flags written) and, for scale, the engine replay of the same logs alone, in this process.

    .venv/bin/python benchmarks/recheck_speed.py
    .venv/bin/python benchmarks/recheck_speed.py --games 500   # a quick look
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

NUMBER = 1116761698452426220
LINE = (
    "23+26 draw draw draw 22+S 16+S 24+S 17+21 draw S S draw draw 11+S draw draw 15+S 10+25 6+27 "
    "20+S 18+S 12 7 19+S 13+14 8+9 4+5 draw 3+S 1+2 draw draw 0+S"
).split()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--database", default="pyramid_recheck_bench")
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()

    with psycopg.connect(f"{args.pg}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{args.database}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{args.database}"')
    os.environ["DATABASE_URL"] = f"{args.pg}/{args.database}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pyramid_site.settings")
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.utils import timezone

    import engine
    from games.daily import commitment
    from games.models import DailyDeal, Deal, Game
    from games.move_log import log_encode
    from leaderboards.fair_play.models import Flag
    from leaderboards.fair_play.recheck import ranked_day_recheck
    from leaderboards.models import Result
    from pyramid_site.clock import utc_today

    call_command("migrate", verbosity=0)
    day = utc_today() - dt.timedelta(days=1)
    deal_text, rules = engine.deal_from_number(NUMBER).text, engine.preset("one-look")
    final = engine.replay(engine.parse_deal(deal_text), rules, LINE).position
    score = engine.score(final)
    deal = Deal.objects.create(
        number=NUMBER,
        rules=rules.to_text(),
        preset="one-look",
        text=deal_text,
        status="winnable",
        par_moves=len(LINE),
        best_cards_left=0,
        best_moves=len(LINE),
        solved_at=timezone.now(),
    )
    daily = DailyDeal.objects.create(
        date=day, preset="one-look", deal=deal, attempt=0, salt="00", commitment=commitment(deal_text, "00")
    )
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"bench{n}", password="!") for n in range(args.games)
    )
    start = timezone.make_aware(dt.datetime.combine(day, dt.time(9)))
    results = []
    games = Game.objects.bulk_create(
        (
            Game(
                player=user,
                deal=deal,
                daily=daily,
                mode="ranked",
                status="won",
                state=final.dumps(),
                moves=len(LINE),
                cards_left=0,
                started_at=start,
                finished_at=start + dt.timedelta(hours=1),
            )
            for user in users
        ),
        batch_size=1000,
    )
    # server times: a tenth of the games at a steady 2 s a move, the rest 6 s a move give or take up to
    # 4.5 s, as a person plays
    for game in games:
        stamps = [
            start + dt.timedelta(seconds=2 * ply if game.pk % 10 == 0 else 6 * ply + (ply * 7 + game.pk) % 4 * 1.5)
            for ply in range(1, len(LINE) + 1)
        ]
        game.move_log = log_encode(list(zip(LINE, stamps, strict=True)), started_at=start)
        game.finished_at = stamps[-1]
    Game.objects.bulk_update(games, ["move_log", "finished_at"], batch_size=1000)
    for game in Game.objects.all():
        results.append(
            Result(
                game=game,
                player_id=game.player_id,
                deal=deal,
                daily=daily,
                date=day,
                preset="one-look",
                cards_left=0,
                pyramid_left=0,
                moves=len(LINE),
                duration_ms=int((game.finished_at - start).total_seconds() * 1000),
                cleared=True,
                won=True,
                match_score=score.match_score,
                par_moves=len(LINE),
                started_at=start,
                finished_at=game.finished_at,
            )
        )
    Result.objects.bulk_create(results, batch_size=1000)
    even = sum(1 for game in games if game.pk % 10 == 0)
    print(f"{args.games} games of {len(LINE)} moves written", flush=True)

    began, began_cpu = time.perf_counter(), time.process_time()
    report = ranked_day_recheck(date=day)
    wall, cpu = time.perf_counter() - began, time.process_time() - began_cpu
    assert report.games == args.games and not report.mismatched
    assert len(report.suspicious) == Flag.objects.count() == even
    print(
        f"re-check: {wall:.2f} s for {report.games} games ({wall / report.games * 1000:.2f} ms a game, "
        f"{report.games / wall:.0f} games/s; CPU {cpu:.2f} s); {len(report.suspicious)} flagged",
        flush=True,
    )

    logs = [LINE] * args.games
    began = time.perf_counter()
    for log in logs:
        engine.replay(engine.parse_deal(deal_text), rules, log)
    replay = time.perf_counter() - began
    print(
        f"engine replay alone: {replay:.2f} s ({replay / args.games * 1000:.2f} ms a game); "
        f"re-check / replay = {wall / replay:.1f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
