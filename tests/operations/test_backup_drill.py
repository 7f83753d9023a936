"""The backup restore drill (``benchmarks/backup_drill.py``), run for real on the PostgreSQL of the tests: a
small history written through the services, dumped with ``pg_dump --format=custom``, restored with
``pg_restore`` into a fresh database and checked there. Each run prints its figures as one JSON line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

ROOT = Path(__file__).resolve().parents[2]
PG = "postgres://postgres@127.0.0.1:5432"

pytestmark = [pytest.mark.slow, pytest.mark.real_clock]  # the drill's processes read their own clock


def run_drill(*args: str, source: str, restored: str) -> tuple[int, str, dict]:
    finished = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "backup_drill.py"),
            "--pg",
            PG,
            "--days",
            "2",
            "--players",
            "4",
            "--source",
            source,
            "--restored",
            restored,
            *args,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    lines = [line for line in finished.stdout.splitlines() if line.startswith("FIGURES ")]
    assert lines, f"the drill printed no figures:\n{finished.stdout[-3000:]}\n{finished.stderr[-3000:]}"
    return finished.returncode, finished.stdout, json.loads(lines[-1].removeprefix("FIGURES "))


def databases_left(*names: str) -> set[str]:
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        return {
            name for (name,) in conn.execute("SELECT datname FROM pg_database WHERE datname = ANY(%s)", [list(names)])
        }


def test_a_restore_holds_the_same_history_and_passes_the_checks():
    names = ("test_backup_drill_src", "test_backup_drill_restored")
    code, out, figures = run_drill(source=names[0], restored=names[1])
    assert code == 0 and figures["ok"] and figures["differences"] == [], out[-3000:]
    assert out.splitlines()[-2] == "PASS"
    assert figures["migrate_check_ok"]
    assert figures["dump_bytes"] > 0 and figures["dump_seconds"] > 0 and figures["restore_seconds"] > 0
    rows = figures["rows"]
    # the history is there, restored: two days' daily deals, played, with results and board counts,
    # a club, its two tournaments (one on today's daily deal, a match on two secret deals) and their entries
    assert rows["games_dailydeal"] == 2 and rows["leaderboards_club"] == 1
    assert rows["leaderboards_tournament"] == 2 and rows["leaderboards_entry"] > 0
    assert rows["leaderboards_result"] >= 8 and rows["leaderboards_boardcount"] > 0
    assert rows["games_game"] > rows["leaderboards_result"]
    assert figures["games_checked"] == rows["games_game"]
    assert not databases_left(*names)  # both dropped at the end


def test_a_result_edited_after_the_restore_fails_the_drill_naming_its_game():
    names = ("test_backup_drill_src2", "test_backup_drill_restored2")
    code, out, figures = run_drill("--corrupt-result", source=names[0], restored=names[1])
    game = figures["corrupted_game"]
    assert code == 1 and not figures["ok"]
    assert "FAIL" in out.splitlines()
    differences = figures["differences"]
    assert any(line.startswith(f"game {game}: result moves is ") for line in differences), differences
    assert any("board count" in line for line in differences), differences  # its board no longer adds up
    # only that game differs: the other games, the tables' row counts and the migrations agree
    assert not [line for line in differences if line.startswith("game ") and not line.startswith(f"game {game}:")]
    assert not [line for line in differences if line.startswith("table ")]
    assert not databases_left(*names)
