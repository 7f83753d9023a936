"""The page's shell: served at `/`, with the rule sets it writes the rules pages from, and its
scripts served by the service itself (also with DEBUG off, as under gunicorn)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client, override_settings

import engine


def test_the_page_is_served_at_the_root_with_every_preset(client):
    response = client.get("/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert "csrftoken" in response.cookies
    html = response.content.decode()
    presets = json.loads(re.search(r'<script id="presets" type="application/json">(.*?)</script>', html, re.S).group(1))
    assert set(presets) == set(engine.PRESETS)
    assert presets["one-look"]["waste_top"] == "dead"
    assert presets["reserve"]["reserve"] == 7
    assert presets["classic"]["describe"] == engine.preset("classic").describe()


@pytest.mark.parametrize(
    "name",
    [
        "app.js",
        "api.js",
        "table.js",
        "cards.js",
        "pages.js",
        "boards.js",
        "race.js",
        "live.js",
        "stats.js",
        "replay.js",
        "analysis.js",
        "feel.js",
        "style.css",
    ],
)
def test_scripts_and_styles_are_served_with_debug_off(name):
    with override_settings(DEBUG=False):
        response = Client().get(f"/static/web/{name}")
        assert response.status_code == 200
        body = b"".join(response.streaming_content) if response.streaming else response.content
        assert len(body) > 200
        expected = "text/css" if name.endswith(".css") else "javascript"
        assert expected in response["Content-Type"]


def test_an_unknown_static_file_is_not_found():
    with override_settings(DEBUG=False):
        assert Client().get("/static/web/missing.js").status_code == 404
