import pytest


@pytest.fixture(autouse=True)
def _api_tests(service_settings, logs_replay_check, board_counts_check):
    """The tests' settings; the services' invariants checked after each test."""
    yield
