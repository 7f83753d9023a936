"""The project's wheel carries everything the service needs: built, installed into a fresh virtual
environment outside the source tree, and run there (settings check, migrations on SQLite, the web page's
template and static files, its translation catalogues, a solve by the compiled core).

No package index is asked: the wheel is built without build isolation, by the setuptools and wheel of the test
environment (both in the test extras), and installed with ``--no-index`` from a wheelhouse holding it alone. The
fresh environment finds its dependencies where the test environment has them installed: a ``.pth`` file puts a
folder on its path that mirrors the test environment's site-packages (links), less the project's own editable
install; ``pip check`` then proves the wheel's declared dependencies are all met there, at their declared versions.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
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
    "test_hooks": [name for name in dir(fast._core) if name.startswith("_") and not name.startswith("__")],
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


def installed_dependencies(into: Path) -> Path:
    """A folder of links to everything in this environment's site-packages but the project's own install."""
    into.mkdir()
    site_packages = Path(sysconfig.get_paths()["purelib"])
    for entry in site_packages.iterdir():
        if (
            entry.name.startswith(("pyramid-", "__editable__", "__pycache__"))
            or "pyramid" in entry.name.lower()
            and entry.suffix == ".pth"
            or entry.name in ("engine", "games", "leaderboards", "pyramid_site")
        ):
            continue
        (into / entry.name).symlink_to(entry)
    return into


def test_the_wheel_installs_and_runs_outside_the_source_tree(tmp_path):
    started = time.perf_counter()
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-index",
            "--no-build-isolation",
            "--quiet",
            "--wheel-dir",
            tmp_path / "wheelhouse",
            str(ROOT),
        ],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr[-3000:]
    wheel = next((tmp_path / "wheelhouse").glob("pyramid-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        catalogues = {name for name in archive.namelist() if name.endswith(".mo")}
    assert {
        "games/locale/sv/LC_MESSAGES/django.mo",
        "games/locale/de/LC_MESSAGES/django.mo",
        "pyramid_site/web/locale/sv/LC_MESSAGES/djangojs.mo",
    } <= catalogues
    built = time.perf_counter() - started
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", tmp_path / "venv"], check=True)  # this pip serves
    python = tmp_path / "venv" / "bin" / "python"
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(purelib, "test-environment-dependencies.pth").write_text(f"{installed_dependencies(tmp_path / 'deps')}\n")
    started = time.perf_counter()
    install = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            python,
            "install",
            "--quiet",
            "--no-index",
            "--find-links",
            tmp_path / "wheelhouse",
            "pyramid",
        ],
        capture_output=True,
        text=True,
    )
    assert install.returncode == 0, install.stderr[-3000:]
    installed = time.perf_counter() - started
    check = subprocess.run([sys.executable, "-m", "pip", "--python", python, "check"], capture_output=True, text=True)
    assert check.returncode == 0 and "No broken requirements" in check.stdout, check.stdout + check.stderr
    work = tmp_path / "work"
    work.mkdir()
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DATABASE_", "REDIS", "DJANGO_"))}
    env |= {
        "DJANGO_SETTINGS_MODULE": "pyramid_site.settings",
        "SQLITE_PATH": str(work / "db.sqlite3"),
        "STATIC_ROOT": str(work / "static"),
        "SOURCE": str(ROOT),
        "PYTHONPATH": "",
    }
    answer = subprocess.run([python, "-c", RUN_THERE], cwd=work, env=env, capture_output=True, text=True)
    assert answer.returncode == 0, answer.stderr[-3000:]
    figures = json.loads(answer.stdout.strip().splitlines()[-1])
    assert figures["outside_the_source"] and figures["compiled_core"] and figures["verdict"] == "winnable"
    assert figures["test_hooks"] == []  # built without PYRAMID_TEST_HOOKS: no allocation-failure hook ships
    assert figures["page"] == 200 and figures["page_has_app"]
    # the page's modules, the vendored lit-html and the icons (folders of their own) travel in the wheel
    assert {"app.js", "style.css", "table.js", "shell.js", "vendor", "icons"} <= set(figures["static"])
    assert figures["migrated_tables"] > 15
    assert figures["translated"] == ["talongen är tom", "der Talon ist leer"]
    print(
        f"\nwheel {wheel.name}: {wheel.stat().st_size / 1024:.0f} KiB, built in {built:.1f} s, installed from its "
        f"wheelhouse in {installed:.1f} s, first request {figures['first_request_seconds']} s"
    )
