"""Bytes a finished game's move log takes in PostgreSQL, per game and per move.

Makes a fresh database (``pyramid_log_bench``) on the PostgreSQL of ``--pg``, migrates it and plays ``--games``
whole practice games (classic, random deals) through the game service, move by move, by a seeded player that
removes a pair whenever it can, to a win or a stuck end. The service's clock runs at a player's
pace: each move comes a lognormal interval after the one before (median 2.5 s, a few over a minute), so the
server's time stamps are as varied as people's. Then ``VACUUM FULL ANALYZE`` (the live rows alone, as a finished
day settles) and the sizes of the game table and the move table (where there is one) with their indexes and
TOAST, divided by games and by moves.

    .venv/bin/python benchmarks/move_log_bytes.py
    .venv/bin/python benchmarks/move_log_bytes.py --games 100   # a quick look
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import logging
import os
import random
import sys
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import database_drop, database_recreate, seeded_line  # noqa: E402


class PlayersClock:
    """The service's clock, moved on by a player's thinking time before each move."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.now = dt.datetime(2026, 11, 1, 9, tzinfo=dt.UTC)

    def think(self) -> None:
        self.now += dt.timedelta(seconds=min(self.rng.lognormvariate(0.92, 0.8), 600))

    def __call__(self) -> dt.datetime:
        return self.now


def play_games(count: int, seed: int) -> int:
    from django.contrib.auth import get_user_model

    from games import services as game_services
    from games.engine_glue import start_position

    rng = random.Random(seed)
    users = [get_user_model().objects.create_user(username=f"log{n}") for n in range(max(1, count // 10))]
    moves = 0
    for index in range(count):
        player = users[index % len(users)]
        game = game_services.game_start(player=player, number=rng.randrange(2**64), rules="classic")
        for ply, move in enumerate(seeded_line(start_position(game.deal), rng), start=1):
            clock.think()
            game_services.move_submit(game_id=game.pk, player=player, ply=ply, move=move)
            moves += 1
    return moves


def table_bytes(cursor, table: str) -> dict | None:
    cursor.execute("SELECT to_regclass(%s) IS NOT NULL", [table])
    if not cursor.fetchone()[0]:
        return None
    cursor.execute(
        f"SELECT count(*), pg_relation_size('{table}'), pg_total_relation_size('{table}'), "
        f"pg_indexes_size('{table}') FROM {table}"
    )
    rows, heap, total, indexes = cursor.fetchone()
    return {"rows": rows, "heap_bytes": heap, "index_bytes": indexes, "total_bytes": total}


def main() -> None:
    global clock
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--database", default="pyramid_log_bench")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="keep the database")
    args = parser.parse_args()

    database_recreate(args.pg, args.database)
    os.environ["DATABASE_URL"] = f"{args.pg}/{args.database}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pyramid_site.settings")
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    logging.disable(logging.WARNING)
    from django.core.management import call_command
    from django.db import connection, connections

    try:
        call_command("migrate", verbosity=0)
        clock = PlayersClock(random.Random(args.seed))
        with (
            mock.patch("django.utils.timezone.now", clock),
            mock.patch("games.signals.game_finished.send", lambda **kwargs: []),
        ):
            moves = play_games(args.games, args.seed)
        with connection.cursor() as cursor:
            cursor.execute("VACUUM FULL ANALYZE")  # live rows only: a busy table's dead row versions are reused
            figures = {
                "games": args.games,
                "moves": moves,
                "tables": {t: table_bytes(cursor, t) for t in ("games_game", "games_move")},
            }
            cursor.execute(
                "SELECT column_name FROM information_schema.columns "
                "WHERE table_name = 'games_game' AND column_name = 'move_log'"
            )
            if cursor.fetchone():
                cursor.execute(
                    "SELECT avg(octet_length(move_log)), max(octet_length(move_log)), "
                    "avg(pg_column_size(move_log)), percentile_cont(0.5) WITHIN GROUP "
                    "(ORDER BY octet_length(move_log)) FROM games_game"
                )
                mean, most, stored, median = cursor.fetchone()
                figures["move_log"] = {
                    "mean_bytes": round(float(mean), 1),
                    "median_bytes": float(median),
                    "max_bytes": most,
                    "mean_stored_bytes": round(float(stored), 1),
                }
    finally:
        connections.close_all()
        if not args.keep:
            database_drop(args.pg, args.database)

    total = sum(t["total_bytes"] for t in figures["tables"].values() if t)
    print(f"{args.games} games, {moves} moves ({moves / args.games:.1f} a game)")
    for table, sizes in figures["tables"].items():
        if sizes:
            print(
                f"  {table}: {sizes['rows']} rows, heap {sizes['heap_bytes']:,} B, indexes "
                f"{sizes['index_bytes']:,} B, total {sizes['total_bytes']:,} B"
            )
    if "move_log" in figures:
        log = figures["move_log"]
        print(
            f"  move_log: mean {log['mean_bytes']} B, median {log['median_bytes']} B, max {log['max_bytes']} B "
            f"a game ({log['mean_bytes'] / (moves / args.games):.2f} B a move)"
        )
    print(f"games and moves together: {total / args.games:,.0f} B a game, {total / moves:,.1f} B a move")
    print("FIGURES " + json.dumps(figures))


if __name__ == "__main__":
    main()
