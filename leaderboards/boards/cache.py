"""Daily boards in Redis sorted sets: a cache for speed, never the truth.

One sorted set per daily deal, member = player id, score = the ranking key packed in one exact
integer (cards left, then moves, then milliseconds), so ZCOUNT of the better scores gives a rank
the way docs/rules.md ranks. PostgreSQL decides: a board missing from Redis, or Redis not answering,
sends the read to PostgreSQL; ``rebuild_boards`` and the Celery job write them again from it.
"""

from __future__ import annotations

import logging
from functools import lru_cache

from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)

MOVES_BITS = 16
MS_BITS = 31  # a little under 25 days of play
CARDS_LIMIT = 64  # 6 bits: 6 + 16 + 31 = 53, exact in a double
KEY_PREFIX = "pyramid:board:daily:"
READY_SUFFIX = ":ready"


class Unavailable(Exception):
    """Redis is not configured, not answering, or does not hold this board."""


def pack(cards_left: int, moves: int, duration_ms: int) -> int | None:
    if cards_left >= CARDS_LIMIT or moves >= 1 << MOVES_BITS or duration_ms >= 1 << MS_BITS:
        return None
    return (cards_left << (MOVES_BITS + MS_BITS)) | (moves << MS_BITS) | duration_ms


@lru_cache(maxsize=4)
def _client_for(url: str, timeout: float):
    import redis

    return redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=0.5)


def client(*, timeout: float = 0.5):
    """Reads give up quickly (PostgreSQL answers instead); a rebuild may take longer."""
    url = settings.PYRAMID_BOARD_REDIS_URL
    if not url:
        raise Unavailable("no Redis configured")
    return _client_for(url, timeout)


def _guard(fn):
    import redis

    def wrapped(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except redis.RedisError as exc:
            log.warning("board cache unavailable: %s", exc)
            raise Unavailable(str(exc)) from exc

    return wrapped


def board_key(daily_id: int) -> str:
    return f"{KEY_PREFIX}{daily_id}"


@_guard
def board_write(daily_id: int, rows) -> bool:
    """Replace a board with ``rows`` of (player_id, cards_left, moves, duration_ms). A board holding
    a result too big to pack is left out of Redis, so reads of it go to PostgreSQL."""
    mapping = {}
    for player_id, cards_left, moves, duration_ms in rows:
        packed = pack(cards_left, moves, duration_ms)
        if packed is None:
            board_drop(daily_id)
            return False
        mapping[str(player_id)] = packed
    key = board_key(daily_id)
    pipe = client(timeout=30.0).pipeline(transaction=True)
    pipe.delete(key, key + READY_SUFFIX)
    members = list(mapping.items())
    for start in range(0, len(members), 10_000):
        pipe.zadd(key, dict(members[start : start + 10_000]))
    pipe.set(key + READY_SUFFIX, "1")
    pipe.execute()
    return True


@_guard
def board_drop(daily_id: int) -> None:
    key = board_key(daily_id)
    client().delete(key, key + READY_SUFFIX)


@_guard
def board_ranks(daily_id: int, *, limit: int, player_id: int | None, around: int):
    """(top, my rank, my neighbourhood, total), the lists of (player_id, rank); raises Unavailable
    when the board is not cached."""
    redis_client = client()
    key = board_key(daily_id)
    pipe = redis_client.pipeline(transaction=False)
    pipe.exists(key + READY_SUFFIX)
    pipe.zcard(key)
    pipe.zrange(key, 0, limit - 1, withscores=True)
    pipe.zrank(key, str(player_id) if player_id is not None else "-")
    ready, total, top_rows, position = pipe.execute()
    if not ready:
        raise Unavailable(f"board {daily_id} is not cached")
    top = _ranked(redis_client, key, top_rows, offset=0)
    if position is None:
        return top, None, [], total
    start = max(position - around, 0)
    window = _ranked(
        redis_client, key, redis_client.zrange(key, start, position + around, withscores=True), offset=start
    )
    mine = next(rank for member, rank in window if member == player_id)
    return top, mine, window, total


def _ranked(redis_client, key: str, rows, *, offset: int) -> list[tuple[int, int]]:
    """Ranks of the slice of the board that starts at position ``offset``: a score that differs from
    the one before it ranks by its position, equal scores share a rank."""
    ranked = []
    for i, (member, score) in enumerate(rows):
        if i == 0:
            rank = redis_client.zcount(key, "-inf", f"({int(score)}") + 1 if offset else 1
        elif score != rows[i - 1][1]:
            rank = offset + i + 1
        ranked.append((int(member), rank))
    return ranked


def result_changed(result) -> None:
    """Bring one result into its cached board (or out of it, when void), after the commit."""
    if not result.daily_id:
        return

    def sync():
        try:
            key = board_key(result.daily_id)
            redis_client = client()
            if not redis_client.exists(key + READY_SUFFIX):
                return  # not cached: the next rebuild brings it in
            packed = pack(result.cards_left, result.moves, result.duration_ms)
            if result.voided:
                redis_client.zrem(key, str(result.player_id))
            elif packed is None:
                board_drop(result.daily_id)
            else:
                redis_client.zadd(key, {str(result.player_id): packed})
        except Exception as exc:  # noqa: BLE001 - a cache failure must never break play
            log.warning("board cache not updated for result %s: %s", result.pk, exc)

    transaction.on_commit(sync)
