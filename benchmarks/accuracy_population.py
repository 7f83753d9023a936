"""The measured play behind the accuracy rule of fair play (leaderboards/fair_play/accuracy.py).

Plays ``--games`` classic deals (numbers from ``--first``) by several players: the rules-of-thumb bot, a
random player (random legal moves, removals preferred), the exact solver (its best move at every turn), and
the solver straying to a random legal move at 2 %, 5 % and 10 % of its turns. Each game is analysed as the
service does; the script prints, per player, the share of best moves before the stock had been seen, how
many games could still be won when it had been seen and how many of those were won from there in the
fewest moves, how many games followed the solver (every counted move best, the finish at par), and then
how many windows of ``--window`` consecutive games the rule (k of them followed the solver) would flag under
the service's k and two others, to show the margin.

    .venv/bin/python benchmarks/accuracy_population.py
    .venv/bin/python benchmarks/accuracy_population.py --games 30   # a quick look
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rich.progress import Progress

from engine import Position, deal_from_number, parse_move, preset
from engine.solver import bot, solve
from engine.solver.analysis import accuracy, analyse, stock_seen_at

RULES = preset("classic")
PLAYERS = {
    "bot": None,
    "random": None,
    "solver": 0.0,
    "solver, strays 2%": 0.02,
    "solver, strays 5%": 0.05,
    "solver, strays 10%": 0.10,
}


def line_of(label: str, start: Position, rng: random.Random) -> list:
    if label == "bot":
        return [parse_move(m) for m in bot.play(start).moves]
    position, moves = start.copy(), []
    while (legal := position.legal_moves()) and len(moves) < 300:
        if label == "random":
            removals = [m for m in legal if m.is_removal]
            move = rng.choice(removals) if removals and rng.random() < 0.7 else rng.choice(legal)
        else:
            best = solve(position, budget_seconds=5, grade=False).solution
            move = rng.choice(legal) if not best or rng.random() < PLAYERS[label] else parse_move(best[0])
        position.apply(move)
        moves.append(move)
    return moves


def fires(window, perfect: int, min_seen: int, min_moves: int) -> bool:
    """The rule (leaderboards/fair_play/accuracy.py): at least ``perfect`` games of the window followed the
    solver, ``min_seen`` of them still winnable once the stock was seen, ``min_moves`` best moves before it."""
    followed = [a for a in window if a.followed_solver]
    return (
        len(followed) >= perfect
        and sum(a.winnable_when_seen for a in followed) >= min_seen
        and sum(a.counted_before for a in followed) >= min_moves
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=80)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--window", type=int, default=10, help="PYRAMID_FLAG_ACCURACY_GAMES")
    parser.add_argument("--perfect", type=int, default=9, help="PYRAMID_FLAG_ACCURACY_PERFECT")
    parser.add_argument("--min-seen", type=int, default=4, help="PYRAMID_FLAG_ACCURACY_MIN_SEEN")
    parser.add_argument("--min-moves", type=int, default=100, help="PYRAMID_FLAG_ACCURACY_MIN_MOVES")
    args = parser.parse_args()
    variants = [(k, args.min_seen, args.min_moves) for k in (args.perfect, args.perfect - 1, args.perfect + 1)]
    print(f"classic, deals {args.first} to {args.first + args.games - 1}; windows of {args.window} games")
    print(
        f"{'player':20} {'best before':>11} {'winnable seen':>13} {'par after':>9} {'followed':>8} "
        + " ".join(f"{'flag k=' + str(k):>12}" for k, _, _ in variants)
    )
    with Progress(transient=True) as progress:
        for label in PLAYERS:
            task = progress.add_task(label, total=args.games)
            found = []
            for number in range(args.first, args.first + args.games):
                start = Position.start(deal_from_number(number), RULES)
                moves = line_of(label, start, random.Random(number))
                found.append(accuracy(analyse(start, moves).plies, stock_seen_at(start, moves)))
                progress.advance(task)
            judged = [a for a in found if a.counted_before]  # the rule sets aside games with nothing to judge
            windows = [judged[i : i + args.window] for i in range(len(judged) - args.window + 1)]
            best = sum(a.best_before for a in found) / max(1, sum(a.counted_before for a in found))
            seen = sum(a.winnable_when_seen for a in found)
            par = sum(a.par_after_seen for a in found)
            followed = sum(a.followed_solver for a in found)
            flagged = [f"{sum(fires(w, k, s, m) for w in windows)}/{len(windows)}" for k, s, m in variants]
            print(
                f"{label:20} {best:11.2%} {seen:13d} {par:9d} {followed:8d} " + " ".join(f"{f:>12}" for f in flagged),
                flush=True,
            )


if __name__ == "__main__":
    main()
