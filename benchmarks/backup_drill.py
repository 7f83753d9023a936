"""Backup restore drill: proves that a ``pg_dump`` of the service's database restores to a database that
holds the same history and passes the service's own checks.

Makes a fresh PostgreSQL database (``pyramid_drill_src``) on the server of ``--pg``, migrates it and fills
it through the services: ``--days`` days of daily deals (settled by the solver, as the daily job does),
each played by ``--players`` players on its own day with real engine moves (the solver's winning line,
whole games of a seeded player that removes when it can, games resigned half way, one left open), a few
practice games, a club with its members, a tournament on today's daily deal and a match on two secret
deals, and each past day's fair-play re-check. Then:

1. ``pg_dump --format=custom`` of it (timed, its size in bytes);
2. ``pg_restore`` into a fresh database (``pyramid_drill_restored``, timed);
3. on the restored database: ``manage.py migrate --check`` (no pending migration); row counts table by
   table against the source; every finished ranked game's move log replayed and compared with the stored
   game and result (``leaderboards.fair_play.recheck.result_differences``, the daily re-check's own
   comparison) and every other game's log with its stored state; every daily board's counts against its
   results.

It prints the figures, ``PASS`` or ``FAIL`` with each difference, and one line ``FIGURES {json}``; both
databases and the dump are dropped at the end (``--keep`` keeps the databases). pg_dump and pg_restore must
be of the server's major version: ``/usr/lib/postgresql/NN/bin/`` of the server's NN is taken when there,
else those on PATH, refused when their version differs. ``--corrupt-result`` edits one result row of the
restored database before the checks (what the drill must catch: the run then FAILs naming the game).

    .venv/bin/python benchmarks/backup_drill.py
    .venv/bin/python benchmarks/backup_drill.py --days 7 --players 12
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import logging
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import common  # noqa: E402
from benchmarks.common import clock_at, database_drop, database_recreate  # noqa: E402

# -- PostgreSQL tools of the server's major version -------------------------------------------------


def server_major(pg: str) -> int:
    with psycopg.connect(f"{pg}/postgres", autocommit=True) as conn:
        return conn.info.server_version // 10000


def tool_major(path: str) -> int | None:
    out = subprocess.run([path, "--version"], capture_output=True, text=True, check=True).stdout
    found = re.search(r"\)\s+(\d+)", out)
    return int(found.group(1)) if found else None


def pg_tools(major: int) -> tuple[str, str]:
    """pg_dump and pg_restore of PostgreSQL ``major``: Debian's per-version folder first, then PATH."""
    candidates = [Path(f"/usr/lib/postgresql/{major}/bin")]
    on_path = shutil.which("pg_dump")
    if on_path:
        candidates.append(Path(on_path).resolve().parent)
    for folder in candidates:
        dump, restore = folder / "pg_dump", folder / "pg_restore"
        if dump.exists() and restore.exists() and tool_major(str(dump)) == major == tool_major(str(restore)):
            return str(dump), str(restore)
    raise SystemExit(f"no pg_dump/pg_restore of PostgreSQL {major} (the server's major version) found")


def row_counts(url: str) -> dict[str, int]:
    """Rows of every table of the public schema."""
    with psycopg.connect(url, autocommit=True) as conn:
        tables = [
            name
            for (name,) in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
            )
        ]
        return {table: conn.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0] for table in tables}


# -- the history, written through the services ------------------------------------------------------


def seeded_line(deal, rng: random.Random) -> list[str]:
    """A whole game of ``deal`` by a seeded player that removes a pair whenever it can."""
    from games.engine_glue import start_position

    return common.seeded_line(start_position(deal), rng)


def play(game, line: list[str], *, resign: bool = True):
    """``line`` through the game service, move by move; then resigned unless it is over (or ``resign`` is False)."""
    from games import services as game_services

    for ply, move in enumerate(line, start=game.moves + 1):
        game_services.move_submit(game_id=game.pk, player=game.player, ply=ply, move=move)
    game.refresh_from_db()
    if resign and not game.is_over:
        game = game_services.game_resign(game_id=game.pk, player=game.player)
    return game


def fill(*, days: int, players: int, seed: int) -> dict:
    """A small history through the services; returns what was written."""
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from games import services as game_services
    from leaderboards.clubs import services as club_services
    from leaderboards.fair_play.recheck import ranked_day_recheck
    from leaderboards.models import Tournament
    from leaderboards.tournaments import services as leaderboard_services
    from pyramid_site.clock import day_end, utc_today

    rng = random.Random(seed)
    today = utc_today()
    preset = settings.PYRAMID_DAILY_PRESETS[0]
    users = [
        get_user_model().objects.create_user(username=f"drill{n}", email=f"drill{n}@example.org")
        for n in range(players)
    ]
    owner, members = users[0], users[1 : 1 + max(1, players // 2)]
    club = club_services.club_create(user=owner, name="Drill club", description="the restore drill's club")
    for user in members:
        club_services.club_join(user=user, invite_code=club.invite_code)

    def daily_play(daily, player, index: int) -> None:
        deal = daily.deal
        game = game_services.game_start(player=player, daily_id=daily.pk)
        kind = index % 4
        if kind == 0 and deal.solution:
            play(game, deal.solution.split())  # the solver's line: a win
        elif kind == 3 and index == players - 1:
            play(game, seeded_line(deal, rng)[:5], resign=False)  # left open: closed by the clock later
        else:
            line = seeded_line(deal, rng)
            play(game, line if kind != 2 else line[: len(line) // 2])  # whole, or resigned half way

    dailies = []
    for offset in range(days - 1, -1, -1):
        date = today - dt.timedelta(days=offset)
        daily = game_services.daily_deal_settle(date=date, preset=preset)
        if daily is None:
            raise SystemExit(f"no daily deal settled for {date} {preset}")
        dailies.append(daily)
        if date == today:
            # a tournament on today's daily deal: the members join before they play it
            on_daily = leaderboard_services.tournament_create(
                actor=owner,
                club_id=club.pk,
                name="Drill daily cup",
                rules=preset,
                format=Tournament.Format.ARENA,
                starts_at=dt.datetime.combine(today, dt.time(), tzinfo=dt.UTC),
                ends_at=day_end(today),
                source=Tournament.Source.DAILY,
            )
            for user in [owner, *members]:
                leaderboard_services.tournament_join(user=user, tournament_id=on_daily.pk)
        noon = dt.datetime.combine(date, dt.time(12), tzinfo=dt.UTC)
        with clock_at(noon) if offset else contextlib.nullcontext():  # a past day's games, played on that day
            for index, player in enumerate(users):
                daily_play(daily, player, index)
    game_services.games_close_expired()  # the beat's job: the game left open on a past day is closed as it stood
    for daily in dailies[:-1]:
        ranked_day_recheck(date=daily.date)  # the daily fair-play job, as it ran each past day

    # a match on two secret deals (settled in this process), played by the members
    now = dt.datetime.now(dt.UTC)
    match = leaderboard_services.tournament_create(
        actor=owner,
        club_id=club.pk,
        name="Drill match",
        rules=preset,
        format=Tournament.Format.MATCH,
        starts_at=now,
        ends_at=now + dt.timedelta(days=2),
        deal_count=2,
    )
    match = leaderboard_services.tournament_deals_settle(tournament_id=match.pk)
    if match.status != Tournament.Status.READY:
        raise SystemExit(f"the drill's match did not get its deals ({match.status})")
    for user in [owner, *members]:
        leaderboard_services.tournament_join(user=user, tournament_id=match.pk)
        for _ in range(match.deal_count):
            game = leaderboard_services.tournament_game_start(user=user, tournament_id=match.pk)
            play(game, seeded_line(game.deal, rng))
    for user in users[:3]:  # practice: a few moves, then left or resigned
        game = game_services.game_start(player=user, number=rng.randrange(2**64), rules="classic")
        play(game, seeded_line(game.deal, rng)[:8], resign=user is owner)
    return {"days": days, "players": players, "preset": preset}


# -- the checks of the restored database ------------------------------------------------------------


def game_differences() -> tuple[int, list[str]]:
    """Every finished ranked game against its replayed log (the re-check's comparison), every other game's
    log against its stored state. Returns how many games were checked and what differs, naming each game."""
    import engine
    from games.engine_glue import engine_deal, engine_rules
    from games.models import Game
    from games.selectors import game_notations
    from leaderboards.fair_play.recheck import result_differences

    checked, differences = 0, []
    for game in Game.objects.select_related("deal", "result").order_by("pk"):
        checked += 1
        notations = game_notations(game)
        ended = (Game.Status.WON, Game.Status.STUCK, Game.Status.RESIGNED)
        if game.mode == Game.Mode.RANKED and game.status in ended:
            differences += [f"game {game.pk}: {what}" for what in result_differences(game, notations)]
            continue
        replayed = engine.replay(engine_deal(game.deal.text), engine_rules(game.deal.rules), notations)
        if not replayed.ok:
            differences.append(f"game {game.pk}: move {replayed.failed_at + 1} is illegal: {replayed.reason}")
        elif replayed.position.dumps() != game.state or replayed.position.moves != game.moves:
            differences.append(f"game {game.pk}: its log does not replay to its stored state")
    return checked, differences


def board_count_differences() -> list[str]:
    """Each daily board's counts against what its results add up to (as the tests' after-test check)."""
    from leaderboards.models import BoardCount, Result

    counts: dict = {}
    for c in BoardCount.objects.filter(results__gt=0):  # a bucket's shards summed
        counts[(c.daily_id, c.cards_left, c.moves)] = counts.get((c.daily_id, c.cards_left, c.moves), 0) + c.results
    expected: dict = {}
    for key in Result.objects.filter(daily__isnull=False, voided=False).values_list("daily_id", "cards_left", "moves"):
        expected[key] = expected.get(key, 0) + 1
    return [
        f"daily {daily} board count ({cards} cards left, {moves} moves) is {counts.get((daily, cards, moves), 0)}, "
        f"its results give {expected.get((daily, cards, moves), 0)}"
        for daily, cards, moves in sorted(set(counts) | set(expected))
        if counts.get((daily, cards, moves), 0) != expected.get((daily, cards, moves), 0)
    ]


def corrupt_one_result(url: str) -> int:
    """Edit the first won daily result of the restored database behind the services: one move more."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT game_id FROM leaderboards_result WHERE won AND daily_id IS NOT NULL ORDER BY game_id LIMIT 1"
        ).fetchone()
        if row is None:
            raise SystemExit("no won daily result to corrupt")
        conn.execute("UPDATE leaderboards_result SET moves = moves + 1 WHERE game_id = %s", row)
        return row[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--source", default="pyramid_drill_src")
    parser.add_argument("--restored", default="pyramid_drill_restored")
    parser.add_argument("--days", type=int, default=3)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--corrupt-result",
        action="store_true",
        help="edit one result row after the restore (the drill must then FAIL naming its game)",
    )
    parser.add_argument("--keep", action="store_true", help="keep both databases")
    args = parser.parse_args()
    if args.days < 1 or args.players < 2:
        parser.error("at least one day and two players")

    pg_dump, pg_restore = pg_tools(server_major(args.pg))
    source_url, restored_url = f"{args.pg}/{args.source}", f"{args.pg}/{args.restored}"
    database_recreate(args.pg, args.source)
    database_drop(args.pg, args.restored)
    os.environ["DATABASE_URL"] = source_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pyramid_site.settings")
    os.environ.pop("REDIS_URL", None)  # tasks in-process, no Redis copies of the boards
    os.environ.setdefault("PYRAMID_SOLVE_BUDGET_SECONDS", "10")
    import django

    django.setup()
    logging.disable(logging.WARNING)  # the services' task and no-Redis notes; the drill prints its own findings
    from django.core.management import call_command
    from django.db import connection, connections

    figures: dict = {"pg_dump": pg_dump, "pg_restore": pg_restore}
    workdir = Path(tempfile.mkdtemp(prefix="pyramid-drill-"))
    try:
        started = time.perf_counter()
        call_command("migrate", verbosity=0)
        figures["history"] = fill(days=args.days, players=args.players, seed=args.seed)
        figures["fill_seconds"] = round(time.perf_counter() - started, 2)
        connections.close_all()

        dump = workdir / "pyramid.dump"
        started = time.perf_counter()
        subprocess.run([pg_dump, "--format=custom", f"--file={dump}", source_url], check=True)
        figures["dump_seconds"] = round(time.perf_counter() - started, 3)
        figures["dump_bytes"] = dump.stat().st_size

        database_recreate(args.pg, args.restored)
        started = time.perf_counter()
        subprocess.run([pg_restore, "--exit-on-error", "--no-owner", f"--dbname={restored_url}", str(dump)], check=True)
        figures["restore_seconds"] = round(time.perf_counter() - started, 3)

        differences: list[str] = []
        if args.corrupt_result:
            figures["corrupted_game"] = corrupt_one_result(restored_url)

        source_rows, restored_rows = row_counts(source_url), row_counts(restored_url)
        figures["rows"] = restored_rows
        for table in sorted(set(source_rows) | set(restored_rows)):
            if source_rows.get(table) != restored_rows.get(table):
                differences.append(
                    f"table {table}: {source_rows.get(table)} rows in the source, {restored_rows.get(table)} restored"
                )

        migrate = subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), "migrate", "--check"],
            cwd=ROOT,
            env={**os.environ, "DATABASE_URL": restored_url},
            capture_output=True,
            text=True,
            check=False,
        )
        figures["migrate_check_ok"] = migrate.returncode == 0
        if migrate.returncode:
            differences.append(f"manage.py migrate --check: {(migrate.stdout + migrate.stderr).strip()[-500:]}")

        connection.settings_dict["NAME"] = args.restored  # the checks read the restored database
        figures["games_checked"], game_diffs = game_differences()
        differences += game_diffs
        differences += board_count_differences()
        connections.close_all()
        figures["differences"] = differences
        figures["ok"] = not differences
    finally:
        connections.close_all()
        shutil.rmtree(workdir, ignore_errors=True)
        if not args.keep:
            database_drop(args.pg, args.source)
            database_drop(args.pg, args.restored)

    print(f"history: {figures['history']}, written in {figures['fill_seconds']} s")
    print(f"dump: {figures['dump_bytes']} bytes in {figures['dump_seconds']} s ({pg_dump})")
    print(f"restore: {figures['restore_seconds']} s ({pg_restore})")
    print("rows per table (restored):")
    for table, rows in figures["rows"].items():
        print(f"  {table:40} {rows}")
    print(
        f"games checked: {figures['games_checked']}; migrate --check: "
        f"{'ok' if figures['migrate_check_ok'] else 'PENDING MIGRATIONS'}"
    )
    if figures["ok"]:
        print("PASS")
    else:
        print("FAIL")
        for difference in differences:
            print(f"  {difference}")
    print("FIGURES " + json.dumps(figures))
    sys.exit(0 if figures["ok"] else 1)


if __name__ == "__main__":
    main()
