"""The solver's compiled core under AddressSanitizer (with LeakSanitizer) and UndefinedBehaviorSanitizer.

_core.c is compiled again, with ``-fsanitize=address,undefined -fno-omit-frame-pointer -g -O1``, into a
temporary folder as a module of its own, and ``sanitizer_run.py`` drives it in a subprocess with
libasan preloaded: hostile arguments and geometries, an allocation failure injected at every site
(first and last allocation of each, in solves that between them reach all sites), the cross-check
positions of test_cross_check.py against the reference, the successors of every position of the perft oracle
(test_perft_core.py), and random positions of every rule set of positions.py under small budgets. Any sanitizer
report fails the test.

Leaks: CPython does not free everything at exit, and LeakSanitizer would report that. The
suppressions below drop only leaks allocated through CPython's own allocator functions; the core
allocates with plain malloc, calloc and realloc (mem_alloc and mem_realloc in _core.c), which they
never match, so a block the core loses is still reported. A Python object the core loses (a reference
count it never gives back) is not seen here; test_core_checks.py counts those.

Skips only when gcc or libasan is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "engine" / "solver" / "_core.c"
FLAGS = [
    "-fsanitize=address,undefined",
    "-fno-omit-frame-pointer",
    "-g",
    "-O1",
    "-std=c11",
    "-shared",
    "-fPIC",
    "-DPYRAMID_TEST_HOOKS",
]  # the allocation-failure hook: test builds only (see conftest.py)
REPORTS = (
    "ERROR: AddressSanitizer",
    "ERROR: LeakSanitizer",
    "runtime error:",
    "SUMMARY: UndefinedBehaviorSanitizer",
    "SUMMARY: AddressSanitizer",
    "WARNING: AddressSanitizer",
)
CPYTHON_ALLOCATORS = (
    "_PyObject_Malloc",
    "_PyObject_Calloc",
    "_PyObject_Realloc",
    "PyObject_Malloc",
    "PyObject_Calloc",
    "PyObject_Realloc",
    "_PyMem_RawMalloc",
    "_PyMem_RawCalloc",
    "_PyMem_RawRealloc",
    "PyMem_RawMalloc",
    "PyMem_RawCalloc",
    "PyMem_RawRealloc",
    "PyMem_Malloc",
    "PyMem_Calloc",
    "PyMem_Realloc",
)
# 14 rule sets: 1,400 random positions under small budgets (it was 300 a set, 4,200, before the perft oracle's
# positions ran here too: those now exercise the move generator itself, every successor checked, and the random
# ones are left to reach the searches' ways out, budgets running out anywhere)
RANDOM_PER_RULE_SET = 100


def toolchain() -> tuple[str, str]:
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc is not installed: the sanitizer build of the solver's core needs it")
    found = subprocess.run(
        [gcc, "-print-file-name=libasan.so"], capture_output=True, text=True, check=False
    ).stdout.strip()
    if not os.path.isabs(found) or not os.path.exists(found):
        pytest.skip("libasan is not installed: gcc -print-file-name=libasan.so finds no library")
    return gcc, os.path.realpath(found)


@pytest.fixture(scope="module")
def sanitizer_build(tmp_path_factory) -> tuple[Path, str]:
    gcc, libasan = toolchain()
    folder = tmp_path_factory.mktemp("core_sanitized")
    target = folder / f"_core{sysconfig.get_config_var('EXT_SUFFIX')}"
    command = [gcc, *FLAGS, f"-I{sysconfig.get_paths()['include']}", str(SOURCE), "-o", str(target)]
    built = subprocess.run(command, capture_output=True, text=True, check=False)
    assert built.returncode == 0, f"{' '.join(command)}\n{built.stderr}"
    return target, libasan


def test_the_core_runs_clean_under_address_and_undefined_behaviour_sanitizers(sanitizer_build, tmp_path):
    target, libasan = sanitizer_build
    suppressions = tmp_path / "lsan.supp"
    suppressions.write_text("".join(f"leak:{name}\n" for name in CPYTHON_ALLOCATORS))
    env = {
        **os.environ,
        "LD_PRELOAD": libasan,
        "ASAN_OPTIONS": "detect_leaks=1:halt_on_error=1:abort_on_error=0:strict_string_checks=1",
        "LSAN_OPTIONS": f"suppressions={suppressions}:print_suppressions=0",
        "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
        "PYTHONMALLOC": "malloc",  # Python's objects on malloc too, so the sanitizer sees the core misuse them
        "PYTHONPATH": str(ROOT),
    }
    run = subprocess.run(
        [sys.executable, "-m", "tests.solver.sanitizer_run", str(target), "--count", str(RANDOM_PER_RULE_SET)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    reports = [line for line in run.stderr.splitlines() if any(word in line for word in REPORTS)]
    assert not reports, run.stderr[-6000:]
    assert run.returncode == 0, run.stderr[-6000:]
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert figures["sites"] >= 24 and figures["failures_injected"] >= 2 * 24
    assert figures["cross_check_compared"] >= 15 * 14
    assert figures["successor_positions"] > 500
    assert figures["random_positions"] == RANDOM_PER_RULE_SET * 14
    print(figures)
