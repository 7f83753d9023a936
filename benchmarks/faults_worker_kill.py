"""Fault: a Celery worker SIGKILLed while it solves a candidate daily deal.

A real worker runs on a private Redis and a private PostgreSQL. The day's job is queued; once the
candidate's Deal row exists, is pending, and its solve task sits unacknowledged in Redis (taken, not
finished), the kill comes: ``--kill worker`` kills a whole ``--pool solo`` worker (the solve dies with
it) and a new worker gets the task back when the broker's visibility timeout runs out;
``--kill pool-process`` kills the prefork process running the solve, and the worker puts the task back
at once (``task_reject_on_worker_lost``). Then the job and a second solve of the candidate are sent
again, as the beat or a retry would. In the end there must be exactly one daily deal for the date and
preset, and each candidate's verdict must have been written once (a trigger counts the writes).

    .venv/bin/python benchmarks/faults_worker_kill.py --kill worker --visibility-timeout 5
    .venv/bin/python benchmarks/faults_worker_kill.py --kill pool-process --visibility-timeout 600

The secret, date and preset are chosen so that the first candidate takes the compiled solver 2 to 3 s
(the slowest first candidate of 300 secrets tried; it is unwinnable, so the job goes on to the next
attempts); with a faster solver the kill may land after the verdict, and the checks hold all the same
(the output says where the kill landed).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from fault_servers import migrate, missing_binaries, private_postgres, private_redis  # noqa: E402

SECRET = "fault-secret-180"
DATE = "2030-01-07"  # under this secret, attempt 0 of reserve takes the compiled solver 2 to 3 s to prove unwinnable
PRESET = "reserve"
QUEUE = "faults"

VERDICT_AUDIT_SQL = """
CREATE TABLE fault_deal_verdicts (deal_id bigint NOT NULL, status text NOT NULL, at timestamptz DEFAULT now());
CREATE FUNCTION fault_note_verdict() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN INSERT INTO fault_deal_verdicts (deal_id, status) VALUES (NEW.id, NEW.status); RETURN NEW; END $$;
CREATE TRIGGER fault_note_verdict AFTER UPDATE ON games_deal FOR EACH ROW
WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.solved_at IS DISTINCT FROM NEW.solved_at)
EXECUTE FUNCTION fault_note_verdict();
"""


def start_worker(env: dict, pool: str) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "pyramid_site",
            "worker",
            "--pool",
            pool,
            "--concurrency",
            "1",
            "-Q",
            QUEUE,
            "--loglevel",
            "WARNING",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def stop_worker(worker: subprocess.Popen, sig=signal.SIGTERM) -> None:
    if worker.poll() is None:
        os.killpg(worker.pid, sig)
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()


def pool_process(worker_pid: int) -> int:
    children = Path(f"/proc/{worker_pid}/task/{worker_pid}/children").read_text().split()
    return int(children[0])


def wait_for(what: str, condition, timeout: float, every: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(every)
    raise TimeoutError(f"gave up waiting for {what} after {timeout:.0f}s")


def run(args, database_url: str, redis_url: str) -> dict:
    env = os.environ | {
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "CELERY_QUEUE": QUEUE,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "PYRAMID_DAILY_SECRET": SECRET,
        "PYRAMID_SOLVE_BUDGET_SECONDS": str(args.solve_budget),
        "CELERY_VISIBILITY_TIMEOUT_SECONDS": str(args.visibility_timeout),
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "pyramid_site.settings",
        "CELERY_UNACKED_RESTORE_INTERVAL_SECONDS": "1",
        "CELERY_UNACKED_RESTORE_THROTTLE": "1",
    }
    migrate(database_url, env)
    os.environ.update(env)
    import django

    django.setup()
    import redis
    from django.db import connection

    from games.models import DailyDeal, Deal
    from games.services.daily import PURPOSE, daily_key
    from games.services.sequences import candidate_number
    from games.tasks import settle_sequence, solve_deal

    with connection.cursor() as cursor:
        cursor.execute(VERDICT_AUDIT_SQL)
    broker = redis.Redis.from_url(redis_url)
    date = dt.date.fromisoformat(args.date)
    key = daily_key(date, args.preset)
    first_number = candidate_number(secret=SECRET, purpose=PURPOSE, key=key, attempt=0)

    def solve_taken():
        """The candidate's solve task is in Redis's unacknowledged set: a worker has it in hand."""
        return any(b"games.tasks.solve_deal" in body for body in broker.hvals("unacked"))

    pool = "solo" if args.kill == "worker" else "prefork"
    worker = start_worker(env, pool)
    started = time.monotonic()
    settle_sequence.delay(PURPOSE, key)
    candidate = wait_for(
        "the first candidate, pending",
        lambda: Deal.objects.filter(number=first_number, preset=args.preset, status=Deal.Status.PENDING).first(),
        60,
    )
    wait_for("the worker to take the solve", solve_taken, 60, every=0.02)
    time.sleep(args.kill_after)
    if args.kill == "worker":
        stop_worker(worker, signal.SIGKILL)
    else:  # the pool process solving it, as the kernel's out-of-memory killer would; the worker lives on
        os.kill(pool_process(worker.pid), signal.SIGKILL)
    killed_at = time.monotonic()
    candidate.refresh_from_db()
    killed_mid_solve = candidate.status == Deal.Status.PENDING
    print(
        f"{args.kill} SIGKILLed {killed_at - started:.1f}s after the job was queued; candidate {candidate.number} "
        f"was {'still being solved' if killed_mid_solve else 'already solved: ' + candidate.status}"
    )
    print(f"tasks left unacknowledged in Redis by the dead worker: {broker.hlen('unacked')}")

    if args.kill == "worker":
        worker = start_worker(env, pool)
    try:
        # redelivery alone: a new worker gets a dead worker's task when the visibility timeout runs out;
        # a lost pool process's task is put back at once (task_reject_on_worker_lost)
        daily = wait_for(
            "the day's deal",
            lambda: DailyDeal.objects.filter(date=date, preset=args.preset).first(),
            args.visibility_timeout + args.solve_budget * 3 + 60,
            every=0.2,
        )
        recovered = time.monotonic() - killed_at
        print(f"daily deal settled {recovered:.1f}s after the kill (attempt {daily.attempt}, deal {daily.deal.number})")
        # and what a retry or the next beat run would send: the job again, and the candidate's solve again
        # (their results kept, for this script alone: the service keeps none)
        again = [
            settle_sequence.apply_async((PURPOSE, key), ignore_result=False),
            solve_deal.apply_async((candidate.pk,), ignore_result=False),
        ]
        for result in again:
            result.get(timeout=args.solve_budget * 3 + 60)
        wait_for("the queue to drain", lambda: not broker.hlen("unacked") and not broker.llen(QUEUE), 120, every=0.2)
    finally:
        stop_worker(worker)

    candidates = list(Deal.objects.filter(preset=args.preset).values_list("pk", "status"))
    with connection.cursor() as cursor:
        cursor.execute("SELECT deal_id, count(*) FROM fault_deal_verdicts GROUP BY deal_id")
        writes = dict(cursor.fetchall())
    figures = {
        "killed": args.kill,
        "killed_mid_solve": killed_mid_solve,
        "seconds_to_recover": round(recovered, 1),
        "daily_deals": DailyDeal.objects.filter(date=date, preset=args.preset).count(),
        "candidates": len(candidates),
        "candidates_pending": sum(status == Deal.Status.PENDING for _, status in candidates),
        "verdict_writes": {str(pk): writes.get(pk, 0) for pk, _ in candidates},
    }
    figures["ok"] = (
        figures["daily_deals"] == 1
        and not figures["candidates_pending"]
        and all(count == 1 for count in figures["verdict_writes"].values())
    )
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--date", default=DATE)
    parser.add_argument("--preset", default=PRESET)
    parser.add_argument("--solve-budget", type=float, default=30.0)
    parser.add_argument("--visibility-timeout", type=float, default=5.0, help="the broker's, for this run")
    parser.add_argument(
        "--kill",
        choices=["worker", "pool-process"],
        default="worker",
        help="the whole worker (solo pool), or the prefork pool process running the solve",
    )
    parser.add_argument("--kill-after", type=float, default=0.5, help="seconds into the solve")
    args = parser.parse_args()
    if reason := missing_binaries():
        print("cannot run:", reason)
        return 2
    with private_postgres() as postgres, private_redis() as redis_server:
        figures = run(args, postgres.create_database("pyramid_faults"), redis_server.url)
    print(
        "verdict writes per candidate:",
        figures["verdict_writes"],
        "; daily deals for the date and preset:",
        figures["daily_deals"],
    )
    print("PASS" if figures["ok"] else "FAIL", "(one daily deal; each candidate's verdict written once)")
    print("FIGURES", json.dumps(figures))
    return 0 if figures["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
