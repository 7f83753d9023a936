"""The test build of the solver's compiled core.

The production module (``pip install -e .``, setup.py) has no test hooks: ``_fail_alloc_after``,
``_allocations``, ``_allocation_sites`` and ``_successors`` are compiled only where ``PYRAMID_TEST_HOOKS`` is
defined. The tests that need them build ``_core.c`` once per session with that macro (under a second) into a
temporary folder and load it beside the production module; test_sanitizers.py does the same with the
sanitizers on.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "engine" / "solver" / "_core.c"
TEST_HOOKS = "-DPYRAMID_TEST_HOOKS"
TEST_BUILD_FLAGS = ["-O2", "-std=c11", "-shared", "-fPIC", TEST_HOOKS]


def load_core(path: Path):
    spec = importlib.util.spec_from_file_location("_core", path)  # the name its PyInit__core answers to
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def test_core(tmp_path_factory):
    """``_core.c`` built with its test hooks, configured with the engine's geometry."""
    from engine.solver import fast

    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc is not installed: the test build of the solver's core needs it")
    target = tmp_path_factory.mktemp("core_test_build") / f"_core{sysconfig.get_config_var('EXT_SUFFIX')}"
    command = [gcc, *TEST_BUILD_FLAGS, f"-I{sysconfig.get_paths()['include']}", str(SOURCE), "-o", str(target)]
    built = subprocess.run(command, capture_output=True, text=True, check=False)
    assert built.returncode == 0, f"{' '.join(command)}\n{built.stderr}"
    core = load_core(target)
    core.configure(*fast.GEOMETRY)
    return core
