"""The operator's .env.example names every variable the settings read (and nothing they do not)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_env_example_lists_every_setting():
    settings_source = (ROOT / "pyramid_site" / "settings.py").read_text()
    read = set(re.findall(r'env_(?:str|bool|int|float|list|date)\("([A-Z_]+)"', settings_source))
    assert "PYRAMID_DAILY_SECRET" in read and len(read) > 40  # the scan works
    example = (ROOT / ".env.example").read_text()
    listed = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", example, flags=re.MULTILINE))
    outside_settings = {"POSTGRES_PASSWORD", "PROMETHEUS_MULTIPROC_DIR"}  # compose's database, the metrics library
    assert read - listed == set()
    assert listed - read - outside_settings == set()
    assert not re.search(r"^(DJANGO_SECRET_KEY|PYRAMID_DAILY_SECRET|POSTGRES_PASSWORD)=\S", example, re.MULTILINE)
