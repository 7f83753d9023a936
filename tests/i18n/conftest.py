import pytest


@pytest.fixture(autouse=True)
def _i18n_tests(service_settings, schema_conformance_check, logs_replay_check):
    """The tests' settings; every answer checked against the schema; every game's log replays."""
    yield
