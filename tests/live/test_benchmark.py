"""``benchmarks/live.py`` at a tiny size, for real (private PostgreSQL and Redis, gunicorn, two uvicorn processes,
client processes), with its faults (Redis restarted, a uvicorn killed mid-run), so that it cannot rot: every client
gets every event of the tournament's log, in order, through both faults. Its figures are the benchmark's to judge
(docs/benchmarks.md, "Live streams"); here only what must hold at any speed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from fault_servers import missing_binaries  # noqa: E402

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(missing_binaries() is not None, reason=str(missing_binaries())),
    pytest.mark.real_clock,  # its servers read their own clock
]


def test_twenty_clients_get_every_event_through_a_redis_restart_and_a_killed_server():
    finished = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "live.py"), "--clients", "20", "--players", "3", "--deals", "2"]
        + ["--faults"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = [line for line in finished.stdout.splitlines() if line.startswith("FIGURES ")]
    assert lines, f"no figures:\n{finished.stdout[-3000:]}\n{finished.stderr[-3000:]}"
    figures = json.loads(lines[-1].removeprefix("FIGURES "))
    assert figures["clients"] == 20 and figures["play_errors"] == 0
    assert figures["standing_events"] > 0
    assert set(figures["faults"]) == {"redis_restart_s", "uvicorn_back_s"}
    assert figures["reconnects"] >= 20  # every client's stream ended at Redis's restart, and came back
    assert figures["missed"] == figures["not_arrived"] == figures["resets"] == 0
    assert figures["deliveries"] == 20 * figures["standing_events"]
    assert figures["ok"]
