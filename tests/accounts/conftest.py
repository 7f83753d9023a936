import pytest


@pytest.fixture(autouse=True)
def _accounts_tests(service_settings, schema_conformance_check):
    """The tests' settings: a private cache for the throttle counts, quick test-only password hashes."""
    yield
