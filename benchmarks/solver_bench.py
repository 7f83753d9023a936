"""Solver benchmark: numbered deals under each rule set, solved exactly with par on all cores.

    python benchmarks/solver_bench.py --deals 1000 --rules relaxed classic

Prints, per rule set: verdicts (an unknown counts against the floor of exact verdicts for every
deal), time per deal (mean, median, worst, with the deal number), the search tables' peak per
deal, and the peak resident memory of the worker processes over the whole run.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

from engine.rules import Rules
from engine.solver.cli import collect


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="+", default=["relaxed", "classic"])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget-seconds", type=float, default=120.0)
    args = parser.parse_args()
    print(f"{'rules':<34} {'deals':>5} {'win':>5} {'unknown':>7} {'mean ms':>8} {'median ms':>9} "
          f"{'max ms':>8} {'slowest':>7} {'tables MB':>9} {'worker RSS MB':>13}")
    for text in args.rules:
        rules = Rules.parse(text)
        figures = collect(rules, args.first, args.deals, args.budget_seconds, args.workers,
                          progress=sys.stderr.isatty())
        rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        s, m = figures["seconds"], figures["memory_mb"]
        print(f"{text:<34} {figures['deals']:>5} {figures['winnable']:>5} {figures['unknown']:>7} "
              f"{1000 * s['mean']:>8.1f} {1000 * s['median']:>9.1f} {1000 * s['max']:>8.0f} {s['slowest_deal']:>7} "
              f"{m['max']:>9.1f} {rss_mb:>13.0f}", flush=True)
    return 0


if __name__ == "__main__":
    started = time.time()
    code = main()
    print(f"total {time.time() - started:.0f} s")
    sys.exit(code)
