import pytest


@pytest.fixture(autouse=True)
def _fair_play_tests(service_settings, schema_conformance_check, board_counts_check):
    """The tests' settings; after each test (but those that doctor results on purpose, marked
    ``rows_edited_behind_the_services``), every daily board's counts add up to its results."""
    yield
