import pytest


@pytest.fixture(autouse=True)
def _operations_tests(service_settings, schema_conformance_check):
    """The tests' settings (tasks run in-process); every answer checked against the OpenAPI schema."""
    yield
