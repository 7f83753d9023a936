import pytest


@pytest.fixture(autouse=True)
def _security_tests(service_settings, schema_conformance_check):
    """The tests' settings (a test that checks password hashing sets its own hashers)."""
    yield
