"""Engine speed: replaying a 100-move game, and checking one move against a stored position.

    .venv/bin/python benchmarks/engine_speed.py [--runs N]

Prints medians over many runs, for five presets with unlimited passes (under three passes few
games last 100 moves). The server checks a move by loading the game's serialised
position, applying the move (which validates it) and serialising the result; that round trip is
what "one move check" measures. A SHA-256 of 64 bytes is timed in the same run as a yardstick,
so figures from a noisy machine can be compared as ratios.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import time

from engine import Position, Rules, deal_from_number, replay


def hundred_move_game(rules, seed: int = 1):
    """A legal game of 100 moves: removals taken now and then, so the game lasts through the passes."""
    rng = random.Random(seed)
    for number in range(1000):
        position = Position.start(deal_from_number(number), rules)
        moves = []
        while position.status == "playing" and len(moves) < 100:
            legal = position.legal_moves()
            removals = [m for m in legal if m.is_removal]
            move = rng.choice(removals) if removals and rng.random() < 0.3 else rng.choice(legal)
            position.apply(move)
            moves.append(str(move))
        if len(moves) == 100:
            return deal_from_number(number), moves
    raise RuntimeError("no 100-move game found")


def median_seconds(call, runs: int, inner: int) -> float:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        for _ in range(inner):
            call()
        samples.append((time.perf_counter() - started) / inner)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    payload = bytes(64)
    yardstick = median_seconds(lambda: hashlib.sha256(payload).digest(), args.runs, 1000)
    print(f"yardstick sha256(64 bytes): {yardstick * 1e6:.2f} us")
    # unlimited passes, so that a game can run to 100 moves: under three passes few games do
    for name in ("classic", "relaxed", "tuts-tomb", "par", "overlap"):
        rules = Rules.parse(f"{name};passes=unlimited")
        deal, moves = hundred_move_game(rules)
        log = " ".join(moves)
        assert replay(deal, rules, log).ok
        replay_time = median_seconds(lambda deal=deal, rules=rules, log=log: replay(deal, rules, log), args.runs, 5)

        # the server's path: stored text -> position -> checked move -> stored text
        checks = []
        position = Position.start(deal, rules)
        for move in moves:
            checks.append((position.dumps(), move))
            position.apply(move)

        def check_all(checks=checks, deal=deal, rules=rules):
            for stored, move in checks:
                Position.loads(stored, deal, rules).apply(move).dumps()

        check_time = median_seconds(check_all, args.runs // 4 or 1, 1) / len(checks)
        print(
            f"{name:10s} replay 100 moves: {replay_time * 1e3:.3f} ms ({replay_time / yardstick:.0f}x yardstick)   "
            f"one move check: {check_time * 1e6:.1f} us ({check_time / yardstick:.1f}x yardstick)"
        )


if __name__ == "__main__":
    main()
