"""gunicorn's settings, read from the environment through settings.py (``GUNICORN_*``, see docs/service.md):
``gunicorn --config python:pyramid_site.gunicorn_conf pyramid_site.wsgi``, as the image starts it.

The workers' Prometheus counts are summed through files in ``PROMETHEUS_MULTIPROC_DIR`` (the client library's
multiprocess mode): without one set, a folder of this start's own is made before any worker forks; the folder
is emptied as gunicorn starts (a previous run's counts would be added to this one's), and a worker that exits
is marked dead (its live gauges dropped; its counts stay in the sums, as counters must)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from django.conf import settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pyramid_site.settings")
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="pyramid-prometheus-")
METRICS_FOLDER = Path(os.environ["PROMETHEUS_MULTIPROC_DIR"])

bind = settings.GUNICORN_BIND
workers = settings.GUNICORN_WORKERS
threads = settings.GUNICORN_THREADS
timeout = settings.GUNICORN_TIMEOUT_SECONDS
graceful_timeout = settings.GUNICORN_GRACEFUL_TIMEOUT_SECONDS
keepalive = settings.GUNICORN_KEEPALIVE_SECONDS
max_requests = settings.GUNICORN_MAX_REQUESTS
max_requests_jitter = settings.GUNICORN_MAX_REQUESTS_JITTER
accesslog = "-"
# the workers' heartbeat files in memory: a container's /tmp may be an overlay on a slow disk
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None


def on_starting(server) -> None:
    """The metrics folder emptied: the counts start again with the service, as Prometheus expects of a restart."""
    if METRICS_FOLDER.exists():
        for entry in METRICS_FOLDER.iterdir():
            shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
    METRICS_FOLDER.mkdir(parents=True, exist_ok=True)


def child_exit(server, worker) -> None:
    from prometheus_client import multiprocess  # after the folder is in the environment

    multiprocess.mark_process_dead(worker.pid)
