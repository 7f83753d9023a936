"""The compiled core checks its own inputs and every allocation (the test build, in this process).

The allocation-failure hook exists only in builds with PYRAMID_TEST_HOOKS (the ``test_core`` build of
conftest.py, put in the production module's place for these tests); the production module is checked to
have none. test_sanitizers.py runs the same checks (core_harness) against a build with AddressSanitizer and
UBSan; these run them here, quickly, and add what only this process can see.
"""

from __future__ import annotations

import contextlib
import importlib
import sys

import pytest

from engine import Position, deal_from_number, preset
from engine.solver import fast, solve

from . import core_harness as harness

pytestmark = pytest.mark.skipif(not fast.available, reason="the solver's compiled core is not built")


TEST_HOOKS = ("_fail_alloc_after", "_allocations", "_allocation_sites", "_successors")


@pytest.fixture
def core(test_core, monkeypatch):
    """The test build, in the production module's place: solve() and solve_fast() run through it."""
    monkeypatch.setattr(fast, "_core", test_core)
    yield test_core
    test_core._fail_alloc_after(None)  # never leave the hook armed for the tests after


def test_the_production_module_has_no_test_hook():
    """``pip install -e .`` builds without PYRAMID_TEST_HOOKS: nothing in the shipped module can make an
    allocation fail or read the core's internals."""
    production = importlib.import_module("engine.solver._core")
    assert production is fast._core
    assert [name for name in TEST_HOOKS if hasattr(production, name)] == []
    assert {"configure", "solve"} <= set(dir(production))


def test_the_test_build_has_every_hook(test_core):
    assert [name for name in TEST_HOOKS if not hasattr(test_core, name)] == []


def test_every_argument_is_checked_and_refused_by_name(core):
    assert harness.check_hostile_arguments(core) > 50


def test_a_geometry_that_is_no_pyramid_is_refused_and_solves_wait_for_a_good_one(core):
    assert harness.check_bad_geometry(core) > 5


def test_an_allocation_failure_at_every_site_raises_memory_error_and_frees_everything(core):
    injected, sites = harness.inject_failures(core)
    assert sites == set(core._allocation_sites()) and len(sites) >= 24
    assert injected >= 2 * len(sites) - 10  # first and last of each (one and the same where a site allocates once)


def test_memory_error_reaches_the_callers_of_solve(core):
    position = Position.start(deal_from_number(8), preset("one-look"))
    core._fail_alloc_after(0)  # the very first allocation
    with pytest.raises(MemoryError):
        solve(position)
    core._fail_alloc_after(None)
    assert solve(position).verdict in ("winnable", "unwinnable")


def test_the_hook_refuses_what_it_does_not_know(core):
    with pytest.raises(ValueError, match="no allocation site 'heap'"):
        core._fail_alloc_after(0, "heap")
    with pytest.raises(TypeError):
        core._fail_alloc_after(0, 7)
    core._fail_alloc_after(-1)  # off, as None is
    position = Position.start(deal_from_number(8), preset("one-look"))
    assert fast.solve_fast(position).verdict in ("winnable", "unwinnable")


def test_refusals_and_memory_errors_lose_no_python_object(core):
    """Reference counts: every way out of solve() and configure() gives back what it took."""
    cases = harness.hostile_arguments()
    position = Position.start(deal_from_number(8), preset("one-look"))
    args = fast.core_args(position)
    sites = core._allocation_sites()

    def one_round():  # no pytest.raises here: it keeps a little of every exception it sees
        for _, bad, error, _ in cases:
            try:
                core.solve(*bad)
            except error:
                pass
            else:
                raise AssertionError(bad)
        for site in sites:
            core._fail_alloc_after(0, site)
            try:
                core.solve(*args)
            except MemoryError:
                pass
            finally:
                core._fail_alloc_after(None)
        core.solve(*args)

    for _ in range(5):
        one_round()
    before = sys.getallocatedblocks()
    for _ in range(50):
        one_round()
    assert sys.getallocatedblocks() - before < 50  # a lost object a call would be thousands
    # and no reference to an argument is kept (or given back twice), refused or not; small ints and
    # bools are left out: shared by everything, their counts move with the lists that hold the counts
    for what, bad, _error, _ in [*cases, ("fine", args, None, "")]:
        watched = [arg for arg in bad if not (isinstance(arg, int) and -5 <= arg <= 256)]
        counts = [sys.getrefcount(arg) for arg in watched]
        with contextlib.suppress(ValueError, TypeError):
            core.solve(*bad)
        assert [sys.getrefcount(arg) for arg in watched] == counts, what


def test_unlimited_passes_solve_at_any_pass_number(core):
    """Under unlimited passes the pass number decides nothing and has no bound: a position in pass
    123,456,789,012 (beyond a C int) solves as the same cards in pass 1 do."""
    late = harness.unlimited_late_position()
    early = Position.loads("fffffff.0.ffffff.0.1.0.0", late.deal, late.rules)
    assert fast.solve_fast(late).solution == fast.solve_fast(early).solution


def test_random_positions_under_small_budgets_stop_anywhere_and_unwind(core):
    verdicts = harness.sweep(20, seed=7)  # (the cross-check positions: test_cross_check.py)
    assert sum(verdicts.values()) == 20 * 14 and verdicts.get("unknown")
