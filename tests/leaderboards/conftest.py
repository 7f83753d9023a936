import pytest


@pytest.fixture(autouse=True)
def _leaderboards_tests(service_settings, schema_conformance_check, board_counts_check):
    """The tests' settings, a solver budget for the tournaments' preparation; after each test, every
    daily board's counts add up to its results."""
    service_settings.PYRAMID_SOLVE_BUDGET_SECONDS = 20.0
    yield
