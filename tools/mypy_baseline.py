"""The type checker's baseline outside the engine: mypy's errors per file may only shrink.

The engine is checked strictly and must be clean (``mypy --strict engine``). The rest of the project (games,
leaderboards, pyramid_site) is checked with pyproject's ``[tool.mypy]`` settings against the counts recorded in
tools/mypy_baseline.json: the check fails when any file has more errors than recorded, or when the total grows.

    .venv/bin/python tools/mypy_baseline.py            # check (what .ci/run does)
    .venv/bin/python tools/mypy_baseline.py --update   # after fixing errors: record the smaller counts

To shrink it: run the check (or ``.venv/bin/mypy``), fix some errors of a file, run ``--update`` and commit the
smaller counts with the fix. ``--update`` refuses a count that grew; ``--update --accept-growth`` records it anyway,
for a merge or a dependency upgrade that moves errors around; say why in the commit.

Extra arguments go to mypy (``--no-incremental`` to time it cold, as CI runs it).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "tools" / "mypy_baseline.json"
ERROR_LINE = re.compile(r"^(?P<path>[^:\s]+\.pyi?):\d+(?::\d+)?: error: ")


def counts_of(output: str) -> Counter[str]:
    """mypy's errors per file, read from its normal output (notes are not errors)."""
    counts: Counter[str] = Counter()
    for line in output.splitlines():
        found = ERROR_LINE.match(line)
        if found:
            counts[found["path"]] += 1
    return counts


def grown(baseline: dict[str, int], counts: Counter[str]) -> list[str]:
    """Every way ``counts`` is worse than ``baseline``, in words; empty when it is not."""
    worse = [
        f"{path}: {counts[path]} errors, {baseline.get(path, 0)} recorded"
        for path in sorted(counts)
        if counts[path] > baseline.get(path, 0)
    ]
    total, recorded = sum(counts.values()), sum(baseline.values())
    if total > recorded:
        worse.append(f"in all: {total} errors, {recorded} recorded")
    return worse


def shrunk(baseline: dict[str, int], counts: Counter[str]) -> list[str]:
    return [
        f"{path}: {counts.get(path, 0)} errors, {baseline[path]} recorded"
        for path in sorted(baseline)
        if counts.get(path, 0) < baseline[path]
    ]


def run_mypy(extra: list[str]) -> tuple[int, str]:
    done = subprocess.run([sys.executable, "-m", "mypy", *extra], cwd=ROOT, capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="record the current counts (none may grow)")
    parser.add_argument("--accept-growth", action="store_true", help="with --update: record counts that grew too")
    args, extra = parser.parse_known_args(argv)
    code, output = run_mypy(extra)
    counts = counts_of(output)
    if code not in (0, 1) or (code == 1 and not counts):  # 2: mypy itself failed (a crash, a bad option)
        print(output, file=sys.stderr)
        print(f"mypy did not run to the end (exit {code})", file=sys.stderr)
        return 2
    baseline = json.loads(BASELINE.read_text()) if BASELINE.exists() else {}
    worse, better = grown(baseline, counts), shrunk(baseline, counts)
    if args.update:
        if worse and not args.accept_growth:
            print(
                "not recorded: these grew (fix them, or --accept-growth and say why in the commit):",
                *worse,
                sep="\n  ",
                file=sys.stderr,
            )
            return 1
        BASELINE.write_text(json.dumps(dict(sorted(counts.items())), indent=1) + "\n")
        print(f"recorded {sum(counts.values())} errors in {len(counts)} files ({BASELINE.relative_to(ROOT)})")
        return 0
    if worse:
        print(output, file=sys.stderr)
        print("mypy found more errors than tools/mypy_baseline.json records:", *worse, sep="\n  ", file=sys.stderr)
        return 1
    note = f"; fewer than recorded, run with --update to keep it so: {', '.join(better)}" if better else ""
    print(f"mypy: {sum(counts.values())} errors, none beyond the baseline ({sum(baseline.values())}){note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
