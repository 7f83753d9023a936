"""Solver benchmark: numbered deals under each rule set, solved exactly with par on all cores.

    python benchmarks/solver_bench.py --deals 1000 --rules relaxed classic

Prints, per rule set: verdicts (an unknown counts against the floor of exact verdicts for every
deal), time per deal (mean, median, worst, with the deal number), the search tables' peak per
deal, and the peak resident memory of the worker processes over the whole run.

    python benchmarks/solver_bench.py --deals 200 --rules relaxed classic --against OLD/_core.cpython-311-*.so

compares instead two builds of the core (say, before and after a change to _core.c) in this one
process: each deal solved by both, alternately, in CPU time, with the same answer and node count
required of both. On a shared machine that holds still where the wall times of separate runs do not.
"""

from __future__ import annotations

import argparse
import importlib.util
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

from engine import Position, deal_from_number
from engine.rules import Rules
from engine.solver import fast
from engine.solver.cli import collect


def load_core(path: str):
    spec = importlib.util.spec_from_file_location("_core", path)  # the name its PyInit__core answers to
    core = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(core)
    core.configure(*fast.GEOMETRY)
    return core


def against(path: str, rules_texts: list[str], first: int, deals: int) -> int:
    """CPU time per deal of this build of the core and of the one at path. Where a library lands in
    memory moves its speed by a few % (the same build loaded twice differs by up to 5 %), so each
    build is loaded twice, from copies, in the order this, other, other, this, and every deal is solved
    by all four in turn: what the order gives one build it gives the other."""
    with tempfile.TemporaryDirectory() as folder:
        cores = []
        for n, (name, source) in enumerate(
            [("this", fast._core.__file__), ("other", path), ("other", path), ("this", fast._core.__file__)]
        ):
            copy = Path(folder) / str(n) / Path(source).name
            copy.parent.mkdir()
            shutil.copyfile(source, copy)
            cores.append((name, load_core(str(copy))))
        print(f"{'rules':<34} {'deals':>5} {'other ms':>9} {'this ms':>9} {'this/other':>10}")
        for text in rules_texts:
            rules, spent = Rules.parse(text), {"other": 0.0, "this": 0.0}
            for number in range(first, first + deals):
                args = fast.core_args(Position.start(deal_from_number(number), rules))
                answers = set()
                for turn in range(4):
                    name, core = cores[(number + turn) % 4]
                    started = time.process_time()
                    answers.add(tuple(map(repr, core.solve(*args)[:5])))  # status, won, best left, line, nodes
                    spent[name] += time.process_time() - started
                if len(answers) > 1:
                    print(f"deal {number}: the two builds answer differently", file=sys.stderr)
                    return 1
            print(
                f"{text:<34} {deals:>5} {500 * spent['other'] / deals:>9.2f} {500 * spent['this'] / deals:>9.2f} "
                f"{spent['this'] / spent['other']:>10.3f}",
                flush=True,
            )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="+", default=["relaxed", "classic"])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget-seconds", type=float, default=120.0)
    parser.add_argument(
        "--against", metavar="CORE_SO", help="another build of the core to compare with, in one process"
    )
    args = parser.parse_args()
    if args.against:
        return against(args.against, args.rules, args.first, args.deals)
    print(
        f"{'rules':<34} {'deals':>5} {'win':>5} {'unknown':>7} {'mean ms':>8} {'median ms':>9} "
        f"{'max ms':>8} {'slowest':>7} {'tables MB':>9} {'worker RSS MB':>13}"
    )
    for text in args.rules:
        rules = Rules.parse(text)
        figures = collect(
            rules, args.first, args.deals, args.budget_seconds, args.workers, progress=sys.stderr.isatty()
        )
        rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        s, m = figures["seconds"], figures["memory_mb"]
        print(
            f"{text:<34} {figures['deals']:>5} {figures['winnable']:>5} {figures['unknown']:>7} "
            f"{1000 * s['mean']:>8.1f} {1000 * s['median']:>9.1f} {1000 * s['max']:>8.0f} {s['slowest_deal']:>7} "
            f"{m['max']:>9.1f} {rss_mb:>13.0f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    started = time.time()
    code = main()
    print(f"total {time.time() - started:.0f} s")
    sys.exit(code)
