"""The project's wheel carries everything the service needs: built, installed into a fresh virtual
environment outside the source tree, and run there (settings check, migrations on SQLite, the web page's
template and static files, its translation catalogues, a solve by the compiled core)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import zipfile
from pathlib import Path


ROOT = Path(__file__).resolve().parents[2]

RUN_THERE = """
import json, os, time, django
from django.core.management import call_command
django.setup()
from django.conf import settings
from django.test import Client
from django.utils import translation
from engine import Position, deal_from_number, preset
from engine.solver import fast, solve
call_command("check")
call_command("migrate", verbosity=0)
call_command("collectstatic", interactive=False, verbosity=0)
started = time.perf_counter()
page = Client().get("/")
first_request = time.perf_counter() - started
with translation.override("sv"):
    swedish = translation.gettext("the stock is empty")
with translation.override("de"):
    german = translation.gettext("the stock is empty")
solution = solve(Position.start(deal_from_number(1116761698452426220), preset("one-look")))  # proved winnable
print(json.dumps({
    "compiled_core": fast.available,
    "verdict": solution.verdict,
    "page": page.status_code,
    "page_has_app": b"app.js" in page.content,
    "static": sorted(os.listdir(os.path.join(settings.STATIC_ROOT, "web"))),
    "translated": [swedish, german],
    "migrated_tables": len(__import__("django.db").db.connection.introspection.table_names()),
    "first_request_seconds": round(first_request, 3),
    "outside_the_source": not str(__import__("engine").__file__).startswith(os.environ["SOURCE"]),
}))
"""


def test_the_wheel_installs_and_runs_outside_the_source_tree(tmp_path):
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", tmp_path / "dist",
                    str(ROOT)], check=True, capture_output=True)
    wheel = next((tmp_path / "dist").glob("pyramid-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        catalogues = {name for name in archive.namelist() if name.endswith(".mo")}
    assert {"games/locale/sv/LC_MESSAGES/django.mo", "games/locale/de/LC_MESSAGES/django.mo",
            "pyramid_site/web/locale/sv/LC_MESSAGES/djangojs.mo"} <= catalogues
    built = time.perf_counter() - started
    subprocess.run([sys.executable, "-m", "venv", tmp_path / "venv"], check=True)
    python = tmp_path / "venv" / "bin" / "python"
    started = time.perf_counter()
    subprocess.run([python, "-m", "pip", "install", "--quiet", str(wheel)], check=True, capture_output=True)
    installed = time.perf_counter() - started
    work = tmp_path / "work"
    work.mkdir()
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DATABASE_", "REDIS", "DJANGO_"))}
    env |= {"DJANGO_SETTINGS_MODULE": "pyramid_site.settings", "SQLITE_PATH": str(work / "db.sqlite3"),
            "STATIC_ROOT": str(work / "static"), "SOURCE": str(ROOT), "PYTHONPATH": ""}
    answer = subprocess.run([python, "-c", RUN_THERE], cwd=work, env=env, capture_output=True, text=True)
    assert answer.returncode == 0, answer.stderr[-3000:]
    figures = json.loads(answer.stdout.strip().splitlines()[-1])
    assert figures["outside_the_source"] and figures["compiled_core"] and figures["verdict"] == "winnable"
    assert figures["page"] == 200 and figures["page_has_app"]
    # the page's modules, the vendored lit-html and the icons (folders of their own) travel in the wheel
    assert {"app.js", "style.css", "table.js", "shell.js", "vendor", "icons"} <= set(figures["static"])
    assert figures["migrated_tables"] > 15
    assert figures["translated"] == ["talongen är tom", "der Talon ist leer"]
    print(f"\nwheel {wheel.name}: {wheel.stat().st_size / 1024:.0f} KiB, built in {built:.1f} s, installed with its "
          f"dependencies in {installed:.1f} s, first request {figures['first_request_seconds']} s")
