"""Forced play: what `forced` costs in the player's view, at every ply of many random games.

    .venv/bin/python benchmarks/forced.py [--games N] [--seed S]

For every preset, N random games (removals taken four times in five, as a player would) are played
to their end; at every ply ``engine.forced_line`` is timed on the position, its cache emptied first,
so each figure is the work of a view the server has not seen yet. The times are the process's CPU
time (``time.process_time``), so that other jobs on a shared machine do not inflate them. Prints, per
preset, the plies timed, how many were forced, the mean, the 99th percentile and the worst time,
the slowest position timed again (least of five runs), the mean of the rest of the player's view
(``player_view(position, forced=False)``) beside it, with a SHA-256 of 64 bytes timed in the same run as a
yardstick.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import time

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from engine import PRESETS, Position, deal_from_number, player_view
from engine import forced as forced_module


def yardstick() -> float:
    payload = bytes(64)
    samples = []
    for _ in range(50):
        started = time.process_time()
        for _ in range(1000):
            hashlib.sha256(payload).digest()
        samples.append((time.process_time() - started) / 1000)
    return statistics.median(samples)


def timed(position: Position) -> float:
    forced_module._CACHE.clear()
    started = time.process_time()
    forced_module.forced_line(position)
    return time.process_time() - started


def timings(rules, games: int, seed: int, progress: Progress, task):
    """Every ply's time, how many were forced, the rest of the view's times, and the slowest position
    timed again five times (the least of them: one outlier of a loaded machine is not the work)."""
    rng = random.Random(seed)
    times, forced, views = [], 0, []
    slowest = (0.0, None)
    for _ in range(games):
        position = Position.start(deal_from_number(rng.randrange(2**64)), rules)
        while True:
            forced_module._CACHE.clear()
            started = time.process_time()
            line = forced_module.forced_line(position)
            times.append(time.process_time() - started)
            if times[-1] > slowest[0]:
                slowest = (times[-1], position.copy())
            forced += line is not None
            started = time.process_time()
            player_view(position, forced=False)
            views.append(time.process_time() - started)
            moves = position.legal_moves()
            if not moves:
                break
            removals = [m for m in moves if m.is_removal]
            position.apply(rng.choice(removals) if removals and rng.random() < 0.8 else rng.choice(moves))
        progress.advance(task)
    return times, forced, views, min(timed(slowest[1]) for _ in range(5))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    console = Console(width=120)
    table = Table(title=f"forced_line at every ply of {args.games} random games a preset")
    for column in (
        "preset",
        "plies",
        "forced",
        "mean µs",
        "p99 ms",
        "worst ms",
        "worst again ms",
        "view without it, mean µs",
    ):
        table.add_column(column, justify="left" if column == "preset" else "right")
    everything, all_views, again = [], [], []
    with Progress(console=console, transient=True) as progress:
        for name, rules in PRESETS.items():
            task = progress.add_task(name, total=args.games)
            times, forced, views, slowest = timings(rules, args.games, args.seed, progress, task)
            again.append(slowest)
            everything.extend(times)
            all_views.extend(views)
            times.sort()
            table.add_row(
                name,
                str(len(times)),
                str(forced),
                f"{statistics.fmean(times) * 1e6:.0f}",
                f"{times[int(len(times) * 0.99)] * 1e3:.2f}",
                f"{times[-1] * 1e3:.2f}",
                f"{slowest * 1e3:.2f}",
                f"{statistics.fmean(views) * 1e6:.0f}",
            )
    everything.sort()
    table.add_row(
        "all",
        str(len(everything)),
        "",
        f"{statistics.fmean(everything) * 1e6:.0f}",
        f"{everything[int(len(everything) * 0.99)] * 1e3:.2f}",
        f"{everything[-1] * 1e3:.2f}",
        f"{max(again) * 1e3:.2f}",
        f"{statistics.fmean(all_views) * 1e6:.0f}",
    )
    console.print(table)
    console.print(
        f"yardstick sha256(64 bytes): {yardstick() * 1e6:.2f} µs; bounds: "
        f"{forced_module.MAX_ARRANGEMENTS} orders, {forced_module.MAX_NODES} positions"
    )


if __name__ == "__main__":
    main()
