"""The solver's commands: ``solve``, ``hint`` and ``stats`` of ``python -m engine``."""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from multiprocessing import Pool
from typing import Any

from ..deals import deal_from_number, parse_deal
from ..errors import EngineError
from ..position import Position
from ..replay import replay
from ..rules import DEFAULT_PRESET, Rules
from . import hint, solve
from .fast import available as fast_available
from .fast import solve_measured
from .result import UNKNOWN, WINNABLE


def add_subcommands(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    solve_parser = subparsers.add_parser("solve", help="solve a deal: verdict, par and a best line, as JSON")
    solve_parser.add_argument("--rules", default=DEFAULT_PRESET, help="a preset name or options (default: classic)")
    solve_parser.add_argument(
        "--number", type=int, help="a deal number; without it the deal text is read from standard input"
    )
    solve_parser.add_argument("--budget-seconds", type=float, default=None, help="answer unknown after this long")
    solve_parser.add_argument("moves", nargs="*", help="moves already played, to solve the position after them")
    solve_parser.set_defaults(handler=run_solve)

    hint_parser = subparsers.add_parser("hint", help="the next move of a best line, with why")
    hint_parser.add_argument("--rules", default=DEFAULT_PRESET)
    hint_parser.add_argument("--deal", required=True, help="the deal text, or a deal number")
    hint_parser.add_argument("--budget-seconds", type=float, default=10.0)
    hint_parser.add_argument("moves", nargs="*", help="the moves played so far")
    hint_parser.set_defaults(handler=run_hint)

    stats_parser = subparsers.add_parser(
        "stats", help="solve numbered deals on all cores and report the winnable share"
    )
    stats_parser.add_argument("--rules", default=DEFAULT_PRESET)
    stats_parser.add_argument("--deals", type=int, default=1000, help="how many deals, numbered from --first")
    stats_parser.add_argument("--first", type=int, default=1)
    stats_parser.add_argument("--budget-seconds", type=float, default=60.0, help="per deal")
    stats_parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    stats_parser.add_argument("--json", action="store_true", help="print the figures as JSON instead of a table")
    stats_parser.set_defaults(handler=run_stats)


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _position(rules_text: str, deal_text: str | None, number: int | None, moves: list[str]) -> Position:
    rules = Rules.parse(rules_text)
    if number is None:
        assert deal_text is not None  # the callers give one or the other
        deal = deal_from_number(int(deal_text)) if deal_text.strip().isdigit() else parse_deal(deal_text)
    else:
        deal = deal_from_number(number)
    played = replay(deal, rules, moves)
    if played.failed_at is not None:
        raise EngineError(f"move {played.failed_at + 1} ({moves[played.failed_at]}) is illegal: {played.reason}")
    return played.position


def run_solve(args: argparse.Namespace) -> int:
    try:
        text = None if args.number is not None else sys.stdin.read()
        if text is not None and not text.strip():
            return _fail("give --number N or the deal text on standard input")
        position = _position(args.rules, text, args.number, args.moves)
    except EngineError as exc:
        return _fail(str(exc))
    solution = solve(position, budget_seconds=args.budget_seconds)
    print(json.dumps({"rules": position.rules.to_text(), "deal": position.deal.text, **solution.to_dict()}))
    return 0


def run_hint(args: argparse.Namespace) -> int:
    try:
        position = _position(args.rules, args.deal, None, args.moves)
    except EngineError as exc:
        return _fail(str(exc))
    print(json.dumps(hint(position, budget_seconds=args.budget_seconds).to_dict()))
    return 0


# --- statistics ---------------------------------------------------------------------------------------
def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95 % Wilson score interval of a share."""
    if trials == 0:
        return 0.0, 1.0
    share = successes / trials
    denominator = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def _solve_numbered(job: tuple[str, int, float]) -> tuple[int, str, float, int]:
    rules_text, number, budget = job
    position = Position.start(deal_from_number(number), Rules.parse(rules_text))
    solution, peak_bytes = solve_measured(position, budget_seconds=budget)
    return number, solution.verdict, solution.seconds, peak_bytes


def collect(rules: Rules, first: int, count: int, budget: float, workers: int, progress: bool = True) -> dict[str, Any]:
    """Solve deals first .. first+count-1 and gather the figures ``stats`` prints."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    jobs = [(rules.to_text(), n, budget) for n in range(first, first + count)]
    results = []
    started = time.perf_counter()
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, disable=not progress, transient=True) as bar, Pool(workers) as pool:
        task = bar.add_task(f"solving {rules.name}", total=count)
        for result in pool.imap_unordered(_solve_numbered, jobs, chunksize=4):
            results.append(result)
            bar.advance(task)
    wall = time.perf_counter() - started
    won = sum(1 for r in results if r[1] == WINNABLE)
    unknown = sum(1 for r in results if r[1] == UNKNOWN)
    seconds = [r[2] for r in results]
    memory = [r[3] / 2**20 for r in results]
    low, high = wilson_interval(won, count - unknown)
    slowest = max(results, key=lambda r: r[2])
    return {
        "rules": rules.to_text(),
        "preset": rules.name,
        "deals": count,
        "first": first,
        "winnable": won,
        "unknown": unknown,
        "share": won / max(1, count - unknown),
        "interval_95": [low, high],
        "seconds": {
            "mean": statistics.fmean(seconds),
            "median": statistics.median(seconds),
            "max": max(seconds),
            "slowest_deal": slowest[0],
        },
        "memory_mb": {"mean": statistics.fmean(memory), "median": statistics.median(memory), "max": max(memory)},
        "wall_seconds": wall,
        "workers": workers,
    }


def run_stats(args: argparse.Namespace) -> int:
    try:
        rules = Rules.parse(args.rules)
    except EngineError as exc:
        return _fail(str(exc))
    if args.deals < 1:
        return _fail("--deals must be at least 1")
    if not fast_available:
        return _fail("the solver's compiled core is not built: run pip install -e .")
    figures = collect(
        rules, args.first, args.deals, args.budget_seconds, max(1, args.workers), progress=sys.stderr.isatty()
    )
    if args.json:
        print(json.dumps(figures))
        return 0
    low, high = figures["interval_95"]
    s, m = figures["seconds"], figures["memory_mb"]
    print(f"rules      {figures['preset']} ({figures['rules']})")
    print(f"deals      {figures['deals']} (numbers {args.first} to {args.first + args.deals - 1})")
    print(
        f"winnable   {figures['winnable']}  {100 * figures['share']:.2f} %  "
        f"95 % interval {100 * low:.2f} to {100 * high:.2f} %"
    )
    print(f"unknown    {figures['unknown']}")
    print(
        f"time/deal  mean {1000 * s['mean']:.1f} ms  median {1000 * s['median']:.1f} ms  "
        f"max {1000 * s['max']:.0f} ms (deal {s['slowest_deal']})"
    )
    print(
        f"memory     mean {m['mean']:.1f} MB  median {m['median']:.1f} MB  "
        f"max {m['max']:.1f} MB (search tables per deal)"
    )
    print(f"wall       {figures['wall_seconds']:.1f} s on {figures['workers']} workers")
    return 0
