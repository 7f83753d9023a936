import pytest


@pytest.fixture(autouse=True)
def _api_tests(service_settings, schema_conformance_check, logs_replay_check, board_counts_check):
    """The tests' settings; the services' invariants checked after each test."""
    yield
