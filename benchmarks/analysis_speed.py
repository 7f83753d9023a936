"""Speed and size of the post-game analysis (``engine.solver.analysis``): every position of a finished game
solved by the exact solver, as the analysis job does when a game ends.

For each preset, ``--games`` deals (numbers from ``--first``) are played to their end twice: by the engine's
rules-of-thumb bot, and by a random player (random legal moves, removals preferred). Each game is analysed
with the service's default budgets; the script prints per preset and player the analysis time per game
(median, 95th percentile, worst), per position (median), how many positions needed a search of their own
(the others follow the previous best line), the plies, the stored bytes per game (six a ply), and how many
games lost a win (``lost_at``) and how many plies the budget left ``unknown``. With ``--start-known`` the
deal's own answer is given, as the service gives a solved deal's.

    .venv/bin/python benchmarks/analysis_speed.py
    .venv/bin/python benchmarks/analysis_speed.py --start-known
    .venv/bin/python benchmarks/analysis_speed.py --games 20 --presets classic   # a quick look
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rich.progress import Progress

from engine import Position, deal_from_number, parse_move, preset
from engine.solver import UNKNOWN, bot, fast, solve
from engine.solver.analysis import analyse, pack


def random_player(start: Position, seed: int) -> list:
    rng, current, moves = random.Random(seed), start.copy(), []
    while (legal := current.legal_moves()) and len(moves) < 400:
        removals = [m for m in legal if m.is_removal]
        move = rng.choice(removals) if removals and rng.random() < 0.7 else rng.choice(legal)
        current.apply(move)
        moves.append(move)
    return moves


def bot_player(start: Position, seed: int) -> list:
    return [parse_move(m) for m in bot.play(start).moves]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--presets", default="classic,relaxed,strict,overlap")
    parser.add_argument("--position-seconds", type=float, default=5.0, help="PYRAMID_ANALYSIS_POSITION_SECONDS")
    parser.add_argument("--game-seconds", type=float, default=120.0, help="PYRAMID_ANALYSIS_GAME_SECONDS")
    parser.add_argument(
        "--start-known",
        action="store_true",
        help="the deal's own answer is known, as the service has it for a solved deal (every daily "
        "and tournament deal): the start position is not searched again (nor timed)",
    )
    args = parser.parse_args()
    print(
        f"compiled core: {fast.available}; {args.games} deals from #{args.first} per preset and player; "
        f"start known: {args.start_known}"
    )
    print(
        f"{'preset':9} {'player':7} {'median s':>9} {'p95 s':>8} {'worst s':>8} {'ms/pos':>7} {'searched':>9} "
        f"{'plies':>6} {'bytes':>6} {'max B':>6} {'lost':>5} {'unknown':>8}"
    )
    with Progress(transient=True) as progress:
        for name in args.presets.split(","):
            rules = preset(name)
            for label, player in (("bot", bot_player), ("random", random_player)):
                task = progress.add_task(f"{name} {label}", total=args.games)
                seconds, per_position, searched, plies, sizes, lost, unknown = [], [], 0, 0, [], 0, 0
                for number in range(args.first, args.first + args.games):
                    start = Position.start(deal_from_number(number), rules)
                    moves = player(start, number)
                    known = solve(start, budget_seconds=60, grade=False) if args.start_known else None
                    began = time.perf_counter()
                    analysis = analyse(
                        start,
                        moves,
                        budget_seconds_per_position=args.position_seconds,
                        budget_seconds=args.game_seconds,
                        start_solution=known,
                    )
                    took = time.perf_counter() - began
                    seconds.append(took)
                    per_position.append(took / len(analysis.plies))
                    # a ply whose best move differs from the next move played needed its own search
                    searched += 1 + sum(
                        analysis.plies[k - 1].best_move != analysis.moves[k - 1] for k in range(1, len(analysis.plies))
                    )
                    plies += len(analysis.plies)
                    sizes.append(len(pack(analysis.plies)))
                    lost += analysis.lost_at is not None
                    unknown += sum(p.verdict == UNKNOWN for p in analysis.plies)
                    progress.advance(task)
                print(
                    f"{name:9} {label:7} {statistics.median(seconds):9.3f} {percentile(seconds, 0.95):8.3f} "
                    f"{max(seconds):8.3f} {statistics.median(per_position) * 1000:7.2f} "
                    f"{searched / plies:9.0%} {plies / args.games:6.1f} {statistics.median(sizes):6.0f} "
                    f"{max(sizes):6d} {lost:5d} {unknown:8d}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
