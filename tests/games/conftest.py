import pytest


@pytest.fixture(autouse=True)
def _games_tests(service_settings, schema_conformance_check, logs_replay_check):
    """The tests' settings; after each test, every game's log replays to its stored state."""
    yield
