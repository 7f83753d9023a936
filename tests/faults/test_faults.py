"""The fault scripts of ``benchmarks/``, run for real on private PostgreSQL and Redis servers: each
prints its figures as one JSON line, checked here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from fault_servers import missing_binaries

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.skipif(missing_binaries() is not None, reason=str(missing_binaries())),
    pytest.mark.real_clock,
]  # its servers and workers read their own clock


def run_fault(script: str, *args: str, timeout: float = 240) -> dict:
    finished = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    lines = [line for line in finished.stdout.splitlines() if line.startswith("FIGURES ")]
    assert lines, f"{script} printed no figures:\n{finished.stdout[-3000:]}\n{finished.stderr[-3000:]}"
    return json.loads(lines[-1].removeprefix("FIGURES "))


@pytest.mark.slow
@pytest.mark.parametrize("kill, visibility_timeout", [("worker", "5"), ("pool-process", "600")])
def test_worker_killed_mid_solve_leaves_one_daily_deal_and_one_verdict(kill, visibility_timeout):
    # a whole worker's task comes back after the visibility timeout; a pool process's at once, well
    # before a timeout of ten minutes
    figures = run_fault("faults_worker_kill.py", "--kill", kill, "--visibility-timeout", visibility_timeout)
    assert figures["killed"] == kill
    assert figures["daily_deals"] == 1
    assert figures["candidates_pending"] == 0
    assert figures["verdict_writes"] and set(figures["verdict_writes"].values()) == {1}
    assert figures["ok"]


@pytest.mark.slow
def test_postgres_restart_under_load_loses_and_doubles_nothing():
    figures = run_fault("faults_postgres_restart.py", "--clients", "8", "--games", "24", "--restart-after", "2")
    assert figures["moves_stored"] == figures["moves_acknowledged"] == figures["moves_sent"] > 0
    assert 0 < figures["moves_before_restart"] < figures["moves_sent"]  # the restart came mid-play
    assert figures["given_up"] == 0
    for name in (
        "games_lost_a_move",
        "games_with_unacknowledged_move",
        "games_with_gaps_or_doubles",
        "games_differ_from_sent",
        "games_not_replaying_to_state",
    ):
        assert figures.get(name, 0) == 0, name
    assert figures["ok"]


def test_redis_gone_play_and_boards_go_on_then_boards_rebuilt():
    figures = run_fault("faults_redis_gone.py", "--players", "3")
    counts = figures["counts"]
    assert figures["failures"] == {}
    assert counts["redis gone: move ok"] > 0 and counts["redis gone: refusal ok"] == 3
    assert counts["redis gone: board from postgresql"] == 3
    assert counts["redis back, rebuilt: board from redis"] == 1
    # Redis paused while games finished, then resumed with boards that miss them: not served from Redis
    assert counts["redis resumed, behind: board from postgresql"] == 2
    assert figures["redis_agrees_with_postgresql"]
