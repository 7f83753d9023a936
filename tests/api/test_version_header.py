"""Every answer says the API's version, the same one the schema states."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_every_answer_carries_the_schema_s_version(settings):
    version = settings.SPECTACULAR_SETTINGS["VERSION"]
    client = APIClient()
    for path in ("/api/", "/api/daily/", "/api/games/1/", "/health/live/", "/api/nothing-here/"):
        assert client.get(path)["X-API-Version"] == version, path
    schema = client.get("/api/schema/?format=json").json()
    assert schema["info"]["version"] == version
