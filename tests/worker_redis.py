"""Each pytest-xdist worker on a Redis database of its own (``REDIS_URL``'s, moved): tests that empty the cache
(Django's ``cache.clear()`` is a ``FLUSHDB``) or count in it, and the Celery queues, never meet another worker's.

Loaded with ``-p`` (pyproject.toml's addopts), so it runs before pytest-django reads the settings; in the
controller, and without xdist, it changes nothing. Databases 7 and 13 are left to the tests that name them."""

from __future__ import annotations

import os

_NAMED_BY_TESTS = {7, 13}

worker = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw0", "gw1", ... in a worker
url = os.environ.get("REDIS_URL", "")
base, _, database = url.rpartition("/")
if worker.startswith("gw") and worker[2:].isdigit() and database.isdigit():
    free = [n for n in range(16) if n not in _NAMED_BY_TESTS and n != int(database)]
    os.environ["REDIS_URL"] = f"{base}/{free[int(worker[2:]) % len(free)]}"
