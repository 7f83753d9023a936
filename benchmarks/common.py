"""What several benchmarks (and the tests) share: fresh PostgreSQL databases of their own, a seeded player, the
service's clock set to a moment, and a source tree served as deployed."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import socket
import subprocess
import sys
import time
import types
from pathlib import Path
from unittest import mock

import psycopg

# Load scripts play far faster than a person, from one address: the throttles on starting games and on moves
# (docs/fair-play.md, "Security") lifted for them, so that they measure the service and not its limits
UNTHROTTLED_PLAY = {
    f"PYRAMID_THROTTLE_{scope}": "1000000/min" for scope in ("GAME_START", "GAME_START_ADDRESS", "MOVE", "MOVE_ADDRESS")
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_service(folder: Path, root: Path, *, secret: str, env: dict[str, str]) -> tuple[subprocess.Popen, str]:
    """The source tree ``root`` served as deployed, in a folder of its own: SQLite in ``folder``, tasks in-process,
    DEBUG off, gunicorn with one worker, static files collected and served by WhiteNoise, the tree's own code first
    on the Python path (checked: an older checkout serves its own code). ``env`` adds to its environment (lifted
    throttles, say). Returns the server's process and address."""
    env = (
        {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        | {
            "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
            "DJANGO_DEBUG": "false",
            "DJANGO_SECRET_KEY": secret,
            "PYRAMID_DAILY_SECRET": secret,
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "STATIC_ROOT": str(folder / "static"),
            "DJANGO_SETTINGS_MODULE": "pyramid_site.settings",
            "PYTHONPATH": str(root),
        }
        | env
    )
    python = sys.executable
    served = subprocess.run(
        [python, "-c", "import pyramid_site; print(pyramid_site.__file__)"],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    if not served.startswith(str(root.resolve())):
        raise SystemExit(f"{root} would serve the code of {served}")
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        subprocess.run([python, "manage.py", *command], cwd=root, env=env, check=True, capture_output=True)
    port = free_port()
    server = subprocess.Popen(
        [python, "-m", "gunicorn", "pyramid_site.wsgi", "-b", f"127.0.0.1:{port}", "-w", "1"],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(200):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return server, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the service did not start")


def database_recreate(pg: str, name: str) -> None:
    """An empty database ``name`` on the server of ``pg`` (dropped first when it is there)."""
    with psycopg.connect(f"{pg}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def database_drop(pg: str, name: str) -> None:
    with psycopg.connect(f"{pg}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def seeded_line(position, rng) -> list[str]:
    """A whole game from ``position`` (played on a copy) by a seeded player that removes a pair whenever it can."""
    position, line = position.copy(), []
    while position.status == "playing":
        moves = position.legal_moves()
        removals = [m for m in moves if m.is_removal]
        move = rng.choice(removals) if removals else moves[0]
        position.apply(move)
        line.append(str(move))
    return line


@contextlib.contextmanager
def clock_at(moment: dt.datetime):
    """Inside the block the service's clock starts at ``moment`` and runs on at its real pace: both the
    moment (``django.utils.timezone.now``, which every service, every ``auto_now`` field and every window
    check reads) and the day (``pyramid_site.clock.utc_today``). A past day's games are played during
    that day, as they were; a window's end is passed as time passes, with no row edited."""
    started = time.monotonic()

    def now() -> dt.datetime:
        return moment + dt.timedelta(seconds=time.monotonic() - started)

    class Datetime:  # what pyramid_site.clock reads of the datetime class
        combine = staticmethod(dt.datetime.combine)

        @staticmethod
        def now(tz=None):
            return now().astimezone(tz)

    moved = types.SimpleNamespace(
        datetime=Datetime, time=dt.time, timedelta=dt.timedelta, timezone=dt.timezone, UTC=dt.UTC
    )
    with mock.patch("django.utils.timezone.now", now), mock.patch("pyramid_site.clock.dt", moved):
        yield
