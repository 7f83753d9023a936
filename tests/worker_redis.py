"""Each pytest-xdist worker on Redis databases of its own: ``REDIS_URL``'s database is moved to one, and
``PYRAMID_TEST_SPARE_REDIS_URL`` names a second, which the tests that empty a whole database of their own use
(tests/leaderboards/test_cache.py, tests/scale/test_two_web_processes.py). So a test that empties the cache (Django's
``cache.clear()`` is a ``FLUSHDB``), counts in it or reads a queue never meets another worker's.

Loaded with ``-p`` (pyproject.toml's addopts), so it runs before pytest-django reads the settings. Without xdist
(and in its controller) ``REDIS_URL`` stays as it is and the spare is database 13."""

from __future__ import annotations

import os

SPARE_DATABASE = 13

worker = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw0", "gw1", ... in a worker
base, _, database = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0").rpartition("/")
if not database.isdigit():
    base, database = "redis://127.0.0.1:6379", "0"
spare = SPARE_DATABASE
if worker.startswith("gw") and worker[2:].isdigit():
    free = [n for n in range(16) if n not in (int(database), SPARE_DATABASE)]
    index = int(worker[2:]) % (len(free) // 2)
    database, spare = str(free[2 * index]), free[2 * index + 1]
    if os.environ.get("REDIS_URL"):
        os.environ["REDIS_URL"] = f"{base}/{database}"
os.environ.setdefault("PYRAMID_TEST_SPARE_REDIS_URL", f"{base}/{spare}")
