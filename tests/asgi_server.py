"""The service under uvicorn in a process of its own, as the README and the compose stack run it, for the tests that
follow its live streams (shared by every folder that needs one)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import httpx
import pytest
from django.conf import settings


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class AsgiServer:
    """One uvicorn process of ``pyramid_site.asgi`` with the environment given; ``start`` spawns it and waits for
    its liveness probe, ``spawn`` and ``wait_healthy`` do it in two steps (several processes started at once)."""

    def __init__(self, env: dict, *, port: int | None = None, graceful_seconds: int = 30):
        self.env, self.port, self.graceful_seconds = env, port or free_port(), graceful_seconds
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def spawn(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "pyramid_site.asgi:application", "--port", str(self.port)]
            + ["--log-level", "warning", "--timeout-graceful-shutdown", str(self.graceful_seconds)],
            cwd=settings.BASE_DIR,
            env=self.env,
        )

    def wait_healthy(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/health/live/", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)  # polling a server's start, not synchronising the test with an event
        pytest.fail(f"{self.url} never became healthy")

    def start(self) -> None:
        self.spawn()
        self.wait_healthy()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=self.graceful_seconds + 10)
