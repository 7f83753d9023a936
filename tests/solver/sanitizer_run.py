"""Run by test_sanitizers.py in a subprocess: every check of core_harness against a build of _core.c
with AddressSanitizer and UndefinedBehaviorSanitizer (libasan preloaded; see that test).

    python -m tests.solver.sanitizer_run PATH_TO_SANITIZER_BUILD.so [--count N] [--seed S]

The build is loaded beside the ordinary one and put in its place in ``engine.solver.fast``, so every
solve of this process runs through it. Prints one JSON line of counts on stdout; a sanitizer writes
its reports on stderr (and stops the process: halt_on_error), a failed check raises.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time


def load(path: str):
    spec = importlib.util.spec_from_file_location("_core", path)  # the name its PyInit__core answers to
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build")
    parser.add_argument("--count", type=int, default=300, help="random positions per rule set")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    from engine.solver import fast

    from . import core_harness as harness

    core = load(args.build)
    assert os.path.samefile(core.__file__, args.build)
    core.configure(*fast.GEOMETRY)
    fast._core = core  # every solve_fast from here on runs the sanitizer build

    figures, started = {}, time.perf_counter()
    figures["hostile_calls"] = harness.check_hostile_arguments(core)
    figures["bad_geometries"] = harness.check_bad_geometry(core)
    injected, sites = harness.inject_failures(core)
    figures["failures_injected"], figures["sites"] = injected, len(sites)
    figures["cross_check_compared"] = harness.cross_check()
    # the move generator itself, every successor of the perft oracle's positions (test_perft_core.py)
    from .test_perft_core import check, oracle_positions

    playing = [position for position in oracle_positions() if not position.is_won]
    problems = [problem for position in playing for problem in check(core, position)]
    assert problems == [], problems[:5]
    figures["successor_positions"] = len(playing)
    figures["cross_check_positions"] = 30 * len(list(harness.all_rules()))
    verdicts = harness.sweep(args.count, args.seed)
    figures["random_positions"], figures["random_verdicts"] = sum(verdicts.values()), verdicts
    figures["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(figures), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
