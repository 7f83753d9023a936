"""The compose stack, built and run as an operator would: the image built from this checkout, every service
healthy, a guest's daily game played over HTTP through the published port (with a production host name, so the
probes pass the host check only by answering first), /metrics for its token alone, Redis and the solver's worker
restarted mid-work with nothing lost, a backup taken and restored against the compose database, the stack
stopped within its grace periods, and everything it made removed.

    bash .ci/run -m slow tests/deploy -s     # prints its figures (docs/benchmarks.md, "Deployment")

Where no Docker engine answers, a private one is started (dockerd with the vfs storage driver, which needs no
kernel support beyond what a container or a virtual machine gives; installed from Debian's docker.io where
missing); where the registry is out of reach the base images are stand-ins made from Debian's packages
(tools/base_images). Skipped, with the reason, where neither can be done."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow, pytest.mark.real_clock]  # the stack's processes read their own clock

HOST = "pyramid.example"  # DJANGO_ALLOWED_HOSTS of the stack: the probes never send it
SERVICES = ["db", "redis", "web", "live", "worker", "solver", "beat"]
SOLVES = 20
# practice deals asked to be solved while the solver's worker is down and Redis restarts: the relaxed preset's,
# from a range no other test asks for
SOLVE_RULES, FIRST_NUMBER = "relaxed", 7_000_000


def _run(*args: str, env: dict | None = None, timeout: float = 600, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    if check and done.returncode != 0:
        raise AssertionError(
            f"{' '.join(args)} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        )
    return done


def _engine_answers(env: dict) -> bool:
    if shutil.which("docker") is None:
        return False
    return _run("docker", "info", env=env, timeout=30, check=False).returncode == 0


def _wait(what: str, ready, timeout: float, every: float = 1.0):
    """Polls a container engine's state, which offers nothing to wait on."""
    deadline = time.monotonic() + timeout
    while True:
        value = ready()
        if value:
            return value
        assert time.monotonic() < deadline, f"{what}: not within {timeout:.0f} s"
        time.sleep(every)


@pytest.fixture(scope="module")
def engine():
    """A Docker engine's environment: the one that answers, or a private dockerd started (and stopped) here."""
    env = dict(os.environ)
    if _engine_answers(env):
        yield env
        return
    if shutil.which("dockerd") is None and os.geteuid() == 0 and shutil.which("apt-get"):
        apt = os.environ | {"DEBIAN_FRONTEND": "noninteractive"}
        _run("apt-get", "update", "-qq", env=apt, check=False)
        _run("apt-get", "install", "-y", "-qq", "docker.io", "docker-compose", "mmdebstrap", env=apt, check=False)
    if shutil.which("dockerd") is None or os.geteuid() != 0:
        pytest.skip(
            "no container engine: no Docker engine answers and none can be started here (dockerd from "
            "Debian's docker.io, run as root)"
        )
    home = Path(tempfile.mkdtemp(prefix="pyramid-dockerd-"))
    env["DOCKER_HOST"] = f"unix://{home}/docker.sock"
    log = open(home / "dockerd.log", "w")
    daemon = subprocess.Popen(
        [
            "dockerd",
            "--storage-driver=vfs",
            f"--data-root={home}/data",
            f"--exec-root={home}/exec",
            f"--pidfile={home}/dockerd.pid",
            f"--host={env['DOCKER_HOST']}",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        try:
            _wait("the private dockerd", lambda: daemon.poll() is not None or _engine_answers(env), 60)
        except AssertionError:
            pass
        if not _engine_answers(env):
            said = (home / "dockerd.log").read_text()[-500:]
            pytest.skip(f"no container engine: dockerd did not start here ({said})")
        yield env
    finally:
        daemon.terminate()
        daemon.wait(timeout=60)
        log.close()
        shutil.rmtree(home, ignore_errors=True)


def _compose_command(env: dict) -> list[str]:
    if _run("docker", "compose", "version", env=env, check=False).returncode == 0:
        return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    pytest.skip("no docker compose (the plugin or Debian's docker-compose)")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Stack:
    def __init__(self, engine_env: dict, workdir: Path):
        self.name = f"pyramid-test-{uuid.uuid4().hex[:8]}"
        self.image = f"{self.name}:latest"
        self.port = _free_port()
        self.token = secrets.token_hex(16)
        self.workdir = workdir
        self.env_file = workdir / "pyramid.env"
        self.env_file.write_text(
            "\n".join(
                [
                    "DJANGO_DEBUG=false",
                    f"DJANGO_SECRET_KEY={secrets.token_hex(32)}",
                    f"DJANGO_ALLOWED_HOSTS={HOST}",
                    f"PYRAMID_DAILY_SECRET={secrets.token_hex(32)}",
                    f"PYRAMID_METRICS_TOKEN={self.token}",
                    f"POSTGRES_PASSWORD={secrets.token_hex(16)}",
                    f"REDIS_PASSWORD={secrets.token_hex(16)}",
                    "",
                ]
            )
        )
        (workdir / "backups").mkdir()
        self.https_port = _free_port()
        self.env = engine_env | {
            "PYRAMID_ENV_FILE": str(self.env_file),
            "PYRAMID_IMAGE": self.image,
            "PYRAMID_PUBLISH": f"127.0.0.1:{self.port}",
            "PYRAMID_DOMAIN": "localhost",
            "PYRAMID_HTTP_PORT": str(_free_port()),
            "PYRAMID_HTTPS_PORT": str(self.https_port),
            "PYRAMID_BACKUP_DIR": str(workdir / "backups"),
        }
        self.compose = [
            *_compose_command(engine_env),
            "--project-name",
            self.name,
            "--project-directory",
            str(ROOT),
            "--file",
            str(ROOT / "docker-compose.yml"),
            "--env-file",
            str(self.env_file),
        ]
        self.url = f"http://127.0.0.1:{self.port}"

    def __call__(self, *args: str, timeout: float = 600, check: bool = True) -> subprocess.CompletedProcess:
        return _run(*self.compose, *args, env=self.env, timeout=timeout, check=check)

    def states(self) -> dict[str, str]:
        """Each running service's health (or its state, where it has no health check), in one engine call."""
        listed = _run(
            "docker",
            "ps",
            "--all",
            "--filter",
            f"label=com.docker.compose.project={self.name}",
            "--format",
            '{{.Label "com.docker.compose.service"}}\t{{.ID}}',
            env=self.env,
        ).stdout
        ids = dict(line.split("\t") for line in listed.splitlines() if line)
        if not ids:
            return {}
        inspected = json.loads(_run("docker", "inspect", *ids.values(), env=self.env).stdout)
        by_id = {item["Id"][:12]: item["State"] for item in inspected}
        return {
            service: (by_id[cid[:12]].get("Health") or {}).get("Status") or by_id[cid[:12]]["Status"]
            for service, cid in ids.items()
        }

    def health(self, service: str) -> str:
        return self.states().get(service, "absent")

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, headers={"Host": HOST}, timeout=60)

    def psql(self, sql: str, database: str = "pyramid") -> str:
        return self("exec", "-T", "db", "psql", "-U", "pyramid", "-d", database, "-At", "-c", sql).stdout.strip()


def _figure(text: str, line_start: str) -> float:
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith(line_start))


def test_the_stack_builds_runs_and_keeps_everything_through_restarts(engine, tmp_path):
    figures: dict[str, float | str] = {}
    base = _run(str(ROOT / "tools" / "base_images"), env=engine, timeout=1800)
    figures["base images"] = " ".join(line.split(":")[-1].strip().split(" ")[0] for line in base.stdout.splitlines())
    stack = Stack(engine, tmp_path)
    try:
        started = time.monotonic()
        _run("docker", "build", "--tag", stack.image, str(ROOT), env=engine, timeout=3600)
        figures["build seconds"] = round(time.monotonic() - started, 1)
        size = int(_run("docker", "image", "inspect", "--format", "{{.Size}}", stack.image, env=engine).stdout)
        figures["image MB"] = round(size / 1e6, 1)
        user = _run("docker", "image", "inspect", "--format", "{{.Config.User}}", stack.image, env=engine).stdout
        assert user.strip() == "pyramid"  # not root
        # the code belongs to root: the app's user cannot change it
        owner = _run(
            "docker",
            "run",
            "--rm",
            "--entrypoint",
            "stat",
            stack.image,
            "-c",
            "%U",
            "/opt/venv/lib/python3.11/site-packages/pyramid_site/settings.py",
            "/app/manage.py",
            env=engine,
        ).stdout.split()
        assert owner == ["root", "root"]

        started = time.monotonic()
        stack("--profile", "proxy", "up", "--detach", "--no-build", timeout=900)
        _wait("every service healthy", lambda: all(stack.states().get(s) == "healthy" for s in SERVICES), 600)
        figures["seconds to healthy"] = round(time.monotonic() - started, 1)
        with stack.http() as web:
            ready = web.get("/health/ready/")
            assert ready.status_code == 200 and ready.json()["parts"]["daily_deals"] == "ready"
        # the first daily deal: settled by the migrate one-off, before web and the workers start
        migrate = json.loads(
            _run(
                "docker",
                "inspect",
                "--format",
                "{{json .State}}",
                stack("ps", "-q", "-a", "migrate").stdout.strip(),
                env=engine,
            ).stdout
        )
        db = json.loads(
            _run(
                "docker", "inspect", "--format", "{{json .State}}", stack("ps", "-q", "db").stdout.strip(), env=engine
            ).stdout
        )
        assert migrate["ExitCode"] == 0
        figures["seconds from the database's start to the first daily deals"] = round(
            (
                dt.datetime.fromisoformat(migrate["FinishedAt"]) - dt.datetime.fromisoformat(db["StartedAt"])
            ).total_seconds(),
            1,
        )

        _play_a_guests_daily_game(stack)
        _metrics_for_operators_only(stack)
        _the_proxy_answers_https_and_keeps_metrics_and_admin_inside(stack)
        _nothing_lost_when_redis_and_a_worker_restart(stack, figures)
        _backup_and_restore(stack, figures)

        started = time.monotonic()
        stack("--profile", "proxy", "stop", timeout=900)
        figures["seconds to stop"] = round(time.monotonic() - started, 1)
        for service in SERVICES:
            container = stack("ps", "-q", "-a", service).stdout.strip()
            code = _run("docker", "inspect", "--format", "{{.State.ExitCode}}", container, env=engine).stdout.strip()
            # 137: killed at the end of its grace period, which a stop within the grace periods never needs
            assert code != "137", f"{service} was killed, not stopped"
    finally:
        stack(
            "--profile",
            "proxy",
            "--profile",
            "backup",
            "down",
            "--volumes",
            "--remove-orphans",
            "--timeout",
            "60",
            timeout=900,
            check=False,
        )
        _run("docker", "image", "rm", "--force", stack.image, env=engine, check=False)
        _run("docker", "image", "prune", "--force", env=engine, check=False)
        print("FIGURES", json.dumps(figures))
    leftovers = _run(
        "docker", "ps", "-a", "-q", "--filter", f"label=com.docker.compose.project={stack.name}", env=engine
    ).stdout.strip()
    volumes = _run(
        "docker", "volume", "ls", "-q", "--filter", f"label=com.docker.compose.project={stack.name}", env=engine
    ).stdout.strip()
    assert leftovers == "" and volumes == ""


def _play_a_guests_daily_game(stack: Stack) -> None:
    with stack.http() as browser:  # the page's files: named by their content, compressed, cached for good
        page = browser.get("/")
        assert page.status_code == 200
        named = re.search(r'/static/[^"]+\.[0-9a-f]{12}\.(?:js|css)', page.text)
        assert named, "the page's files are not named by their content"
        asset = browser.get(named.group(0), headers={"Accept-Encoding": "gzip"})
        assert asset.status_code == 200 and asset.headers["Content-Encoding"] == "gzip"
        assert "immutable" in asset.headers["Cache-Control"]
    with stack.http() as web:  # an API client: a token, no session cookie
        assert web.get("/api/").status_code == 200
        with httpx.Client(base_url=stack.url, timeout=10) as stranger:  # any other host name is refused
            assert stranger.get("/api/", headers={"Host": "127.0.0.1"}).status_code == 400
        guest = web.post("/api/accounts/guest/")
        assert guest.status_code == 201, guest.text
        web.headers["Authorization"] = f"Bearer {guest.json()['token']}"
        daily = web.get("/api/daily/").json()["results"][0]
        game = web.post("/api/games/", json={"daily": daily["id"]})
        assert game.status_code == 201, game.text
        game = game.json()
        moves = 0
        while game["status"] == "playing" and game["position"]["legal_moves"] and moves < 200:
            played = web.post(
                f"/api/games/{game['id']}/moves/", json={"ply": moves + 1, "move": game["position"]["legal_moves"][0]}
            )
            assert played.status_code == 201, played.text
            moves += 1
            game = web.get(f"/api/games/{game['id']}/").json()
        assert moves > 0 and web.get(f"/api/games/{game['id']}/").status_code == 200


def _metrics_for_operators_only(stack: Stack) -> None:
    with stack.http() as web:
        assert web.get("/metrics").status_code == 401
        scrape = web.get("/metrics", headers={"Authorization": f"Bearer {stack.token}"})
        assert scrape.status_code == 200
        assert _figure(scrape.text, 'pyramid_daily_deals_ready_ahead{preset="classic"}') >= 2
        assert _figure(scrape.text, "pyramid_moves_validated_total") >= 1
        assert _figure(scrape.text, "pyramid_requests_total") >= 5


def _the_proxy_answers_https_and_keeps_metrics_and_admin_inside(stack: Stack) -> None:
    """Caddy (profile "proxy") for "localhost", with a certificate of its own local authority."""
    with httpx.Client(base_url=f"https://localhost:{stack.https_port}", verify=False, timeout=30) as public:
        probe = _wait("the proxy's TLS", lambda: _answer(public, "/health/live/"), 120)
        assert probe.status_code == 200 and probe.json() == {"ok": True}
        assert probe.http_version in ("HTTP/1.1", "HTTP/2")
        for inside in ("/metrics", "/admin/", "/admin/login/"):
            refused = public.get(inside, headers={"Authorization": f"Bearer {stack.token}"})
            assert refused.status_code == 404 and refused.json()["code"] == "not_found", inside


def _answer(client: httpx.Client, path: str) -> httpx.Response | None:
    try:
        return client.get(path)
    except httpx.HTTPError:
        return None


def _queue_depth(stack: Stack, queue: str) -> float:
    with stack.http() as web:
        scrape = web.get("/metrics", headers={"Authorization": f"Bearer {stack.token}"}).text
    return _figure(scrape, f'pyramid_celery_queue_depth{{queue="{queue}"}}')


def _nothing_lost_when_redis_and_a_worker_restart(stack: Stack, figures: dict) -> None:
    """The solver's worker stopped, 20 practice solves asked for (queued in Redis), Redis restarted (its
    append-only file keeps them), the worker started and restarted while it works: every deal is solved."""
    stack("stop", "solver", timeout=400)
    numbers = range(FIRST_NUMBER, FIRST_NUMBER + SOLVES)
    with stack.http() as web:
        guest = web.post("/api/accounts/guest/")
        web.headers["Authorization"] = f"Bearer {guest.json()['token']}"
        for number in numbers:
            asked = web.post(f"/api/deals/{number}/solve/", params={"rules": SOLVE_RULES})
            assert asked.status_code == 202 and asked.json()["status"] == "pending", asked.text
    assert _queue_depth(stack, "solver") == SOLVES
    stack("restart", "redis", timeout=120)
    _wait("redis healthy again", lambda: stack.health("redis") == "healthy", 120)
    assert _queue_depth(stack, "solver") == SOLVES  # nothing lost with Redis' restart
    started = time.monotonic()
    stack("start", "solver", timeout=120)
    _wait("the worker at work", lambda: _queue_depth(stack, "solver") < SOLVES, 120, every=0.5)
    figures["solves still queued when the worker restarted"] = _queue_depth(stack, "solver")
    stack("restart", "solver", timeout=400)  # mid-work: a warm shutdown ends the running task, the rest wait

    def pending() -> list[int]:
        with stack.http() as web:
            return [
                number
                for number in numbers
                if web.get(f"/api/deals/{number}", params={"rules": SOLVE_RULES}).json()["status"] == "pending"
            ]

    _wait("every solve done", lambda: not pending(), 600, every=2)
    figures["seconds to solve 20 queued deals across a worker restart"] = round(time.monotonic() - started, 1)
    assert stack.psql("SELECT count(*) FROM operations_taskfailure") == "0"


def _backup_and_restore(stack: Stack, figures: dict) -> None:
    started = time.monotonic()
    stack("--profile", "backup", "run", "--rm", "backup", timeout=300)
    dumps = list((stack.workdir / "backups").glob("pyramid-*.dump"))
    assert len(dumps) == 1
    figures["backup seconds"] = round(time.monotonic() - started, 1)
    figures["backup KB"] = round(dumps[0].stat().st_size / 1000, 1)
    stack(
        "--profile",
        "backup",
        "run",
        "--rm",
        "backup",
        f"createdb -h db -U pyramid pyramid_restored && pg_restore -h db -U pyramid --no-owner -d pyramid_restored "
        f"/backups/{dumps[0].name}",
        timeout=300,
    )
    for table in ("games_dailydeal", "games_deal", "games_game", "auth_user"):
        original = stack.psql(f"SELECT count(*) FROM {table}")
        assert int(original) > 0 and stack.psql(f"SELECT count(*) FROM {table}", "pyramid_restored") == original
