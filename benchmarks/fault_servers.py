"""Throwaway PostgreSQL and Redis servers on loopback for the fault scripts and tests.

Faults are injected into these private servers only (their own data directory, port and socket
directory), never into the machine's shared ones. PostgreSQL comes from Debian's
``/usr/lib/postgresql/*/bin``; as root it runs as the ``postgres`` user, since ``initdb`` refuses root.
"""

from __future__ import annotations

import glob
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


def missing_binaries() -> str | None:
    """Why the private servers cannot be started here, or None when they can."""
    if postgres_bin() is None:
        return "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin"
    if shutil.which("redis-server") is None:
        return "no redis-server on PATH"
    if os.geteuid() == 0 and shutil.which("su") is None:
        return "running as root without su to become postgres"
    return None


class PrivatePostgres:
    """A PostgreSQL cluster in a temporary directory, trust auth on 127.0.0.1:``port``."""

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.bin = postgres_bin()
        self.home = Path(tempfile.mkdtemp(prefix="pyramid-faults-pg-"))
        self.data = self.home / "data"
        self.log = self.home / "server.log"

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}"

    def _run(self, *argv: str, check: bool = True) -> subprocess.CompletedProcess:
        command = " ".join(shlex.quote(str(part)) for part in argv)
        if os.geteuid() == 0:
            argv = ("su", "postgres", "-s", "/bin/sh", "-c", command)
        return subprocess.run(argv, check=check, capture_output=True, text=True)

    def init(self) -> None:
        if os.geteuid() == 0:
            shutil.chown(self.home, "postgres", "postgres")
        self._run(self.bin / "initdb", "-D", self.data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.home} -c listen_addresses=127.0.0.1 -c max_connections=200"
        self._run(self.bin / "pg_ctl", "-D", self.data, "-l", self.log, "-o", options, "-w", "start")

    def restart(self) -> float:
        """``pg_ctl restart -m fast``: every session is cut; returns the seconds it took."""
        started = time.perf_counter()
        self._run(self.bin / "pg_ctl", "-D", self.data, "-l", self.log, "-m", "fast", "-w", "restart")
        return time.perf_counter() - started

    def stop(self) -> None:
        self._run(self.bin / "pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop", check=False)

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(f"{self.url}/postgres", autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return f"{self.url}/{name}"


class PrivateRedis:
    """``redis-server`` as a child process, no persistence: killed, it comes back empty."""

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as probe:
                    probe.sendall(b"PING\r\n")
                    if probe.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not answer on port {self.port}")

    def pause(self) -> None:
        """SIGSTOP: the server keeps its data but answers nothing (a network blip, as clients see it)."""
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.process.send_signal(signal.SIGCONT)

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


@contextmanager
def private_postgres():
    server = PrivatePostgres()
    server.init()
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.home, ignore_errors=True)


@contextmanager
def private_redis():
    server = PrivateRedis()
    server.start()
    try:
        yield server
    finally:
        server.kill()


def migrate(database_url: str, env: dict | None = None) -> None:
    root = Path(__file__).resolve().parent.parent
    environment = (env or os.environ) | {"DATABASE_URL": database_url}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=root, env=environment, check=True)


@contextmanager
def gunicorn(env: dict, *, workers: int, port: int | None = None):
    """The service under gunicorn on loopback, for as long as the block runs; yields its base URL and the
    master process once ``/health/live/`` answers."""
    import httpx

    root = Path(__file__).resolve().parent.parent
    port = port or free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "pyramid_site.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--log-level",
            "warning",
        ],
        cwd=root,
        env=env,
        stderr=subprocess.DEVNULL,
    )
    base_url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                if httpx.get(f"{base_url}/health/live/").status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.2)
        yield base_url, server
    finally:
        server.terminate()
        server.wait(timeout=20)
