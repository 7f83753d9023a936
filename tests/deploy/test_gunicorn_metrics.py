"""/metrics adds up under several gunicorn workers, as the image runs them: every worker's requests are counted
once (the metrics folder), a previous run's counts are gone at start (the folder emptied), and a worker that
dies keeps its counts in the sums while gunicorn replaces it (marked dead, not forgotten)."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time

import httpx
import pytest
from django.conf import settings
from django.db import connection

pytestmark = [
    pytest.mark.real_clock,  # a real server reads its own clock
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL"),
]
TOKEN = "operators-only"
ROUTE_LINE = re.compile(r'^pyramid_requests_total\{(?=[^}]*route="api/")(?=[^}]*status="200")[^}]*\} (\S+)$', re.M)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _api_requests_counted(base: str) -> float:
    scrape = httpx.get(f"{base}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10)
    assert scrape.status_code == 200, scrape.text
    return sum(float(value) for value in ROUTE_LINE.findall(scrape.text))


def _worker_pids(master: int) -> set[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(master)], capture_output=True, text=True).stdout
    return {int(pid) for pid in out.split()}


@pytest.fixture
def gunicorn(django_db_setup, tmp_path):
    folder = tmp_path / "prometheus"
    folder.mkdir()
    # a previous run's counts, left in the folder: 1,000 requests that this run must not add
    stale = subprocess.run(
        [
            sys.executable,
            "-c",
            (
                "from prometheus_client import Counter; "
                "Counter('pyramid_requests', '', ['route', 'method', 'status']).labels('api/', 'GET', '200').inc(1000)"
            ),
        ],
        env=os.environ | {"PROMETHEUS_MULTIPROC_DIR": str(folder)},
    )
    assert stale.returncode == 0 and any(folder.iterdir())
    port = _free_port()
    db = connection.settings_dict
    env = os.environ | {
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "PROMETHEUS_MULTIPROC_DIR": str(folder),
        "PYRAMID_METRICS_TOKEN": TOKEN,
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": "3",
        "GUNICORN_MAX_REQUESTS": "0",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--config", "python:pyramid_site.gunicorn_conf", "pyramid_site.wsgi"],
        env=env,
        cwd=settings.BASE_DIR,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while len(_worker_pids(process.pid)) < 3 or not _answers(base):
            assert process.poll() is None and time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.1)  # polling for a server that is starting: nothing to wait on but its answer
        yield base, process.pid
    finally:
        process.terminate()
        process.wait(timeout=30)


def _answers(base: str) -> bool:
    try:
        return httpx.get(f"{base}/health/live/", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def test_every_workers_requests_are_counted_once_and_survive_a_dead_worker(gunicorn):
    base, master = gunicorn
    assert _api_requests_counted(base) == 0  # the stale folder was emptied at start
    for _ in range(30):  # a fresh connection each: the workers take turns as the kernel hands them out
        with httpx.Client() as client:
            assert client.get(f"{base}/api/").status_code == 200
    assert _api_requests_counted(base) == 30

    workers = _worker_pids(master)
    victim = next(iter(workers))
    os.kill(victim, signal.SIGKILL)
    deadline = time.monotonic() + 30
    while victim in _worker_pids(master) or len(_worker_pids(master)) < 3:
        assert time.monotonic() < deadline, "gunicorn did not replace the dead worker"
        time.sleep(0.1)
    for _ in range(5):
        with httpx.Client() as client:
            assert client.get(f"{base}/api/").status_code == 200
    assert _api_requests_counted(base) == 35
