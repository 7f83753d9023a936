"""Fair play's Celery jobs: a few lines each, safe to run twice (a game keeps one flag of a kind)."""

from __future__ import annotations

import datetime as dt

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from pyramid_site.clock import utc_today

from .game_rules import game_rules_check_by_id
from .recheck import recheck_chunk_run, recheck_day_plan, recheck_day_report


@shared_task
def recheck_ranked_day(date: str | None = None) -> dict:
    """Beat job (daily): cut the finished ranked games of a day (yesterday by default) into chunks and queue
    one job a chunk, for every worker to take its share; the answer is the day's report so far."""
    day = dt.date.fromisoformat(date) if date else utc_today() - dt.timedelta(days=1)
    for chunk in recheck_day_plan(date=day, size=settings.PYRAMID_RECHECK_CHUNK_GAMES):
        recheck_ranked_chunk.delay(chunk.pk)
    report, done, planned = recheck_day_report(date=day)
    return {
        "date": day.isoformat(),
        "chunks": planned,
        "chunks_done": done,
        "games": report.games,
        "mismatched": report.mismatched,
        "suspicious": report.suspicious,
        "flags_new": report.flags_new,
    }


@shared_task
def recheck_ranked_chunk(chunk_id: int) -> int | None:
    """Replay one chunk of a day's ranked games; the games replayed (None when the chunk was planned anew)."""
    chunk = recheck_chunk_run(chunk_id=chunk_id)
    return chunk and chunk.games


@shared_task
def check_ranked_game(game_id: int) -> int:
    """The scouting and speed rules on a ranked game that ended; the flags written (none the second time)."""
    return game_rules_check_by_id(game_id=game_id)


def check_on_game_finished(sender, *, game, **kwargs) -> None:
    """The receiver of ``games.signals.game_finished``: the rules run once the game's end is committed."""
    if game.mode == game.Mode.RANKED:
        transaction.on_commit(lambda: check_ranked_game_soon(game.pk))


def check_ranked_game_soon(game_id: int) -> None:
    """Queue the rules on a game, once. With the shared cache down the mark cannot be made and nothing is queued
    (the broker is the same Redis, and a publish to it would hold the move's answer): the day's re-check runs
    the same rules on every ranked game, so no flag is lost."""
    if cache.add(f"fair-play-check-queued:{game_id}", True, timeout=3600):
        check_ranked_game.delay(game_id)
