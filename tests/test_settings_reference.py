"""Each setting is declared once, where settings.py reads it; docs/service.md's table and .env.example are written
from those declarations by tools/settings_reference, and stay as it writes them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from pyramid_site import settings  # noqa: F401  (its reads fill the registry)
from pyramid_site.env import REGISTRY

ROOT = Path(__file__).resolve().parent.parent


def test_docs_and_env_example_are_as_the_declarations_write_them():
    checked = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "settings_reference"), "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_every_setting_is_described():
    assert "PYRAMID_DAILY_SECRET" in REGISTRY and len(REGISTRY) > 40  # the reads registered
    assert [name for name, setting in REGISTRY.items() if not setting.help.strip()] == []


def test_env_example_leaves_the_secrets_empty():
    example = (ROOT / ".env.example").read_text()
    for secret in ("DJANGO_SECRET_KEY", "PYRAMID_DAILY_SECRET", "POSTGRES_PASSWORD"):
        assert re.search(rf"^{secret}=$", example, re.MULTILINE), secret
    assert not re.search(r"^(DJANGO_SECRET_KEY|PYRAMID_DAILY_SECRET|POSTGRES_PASSWORD)=\S", example, re.MULTILINE)
