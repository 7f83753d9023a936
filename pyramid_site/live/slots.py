"""The cap on streams open at once, per account and per client address (``PYRAMID_LIVE_STREAMS_PER_ACCOUNT``,
``..._PER_ADDRESS``), counted across every web process.

With Redis each key is a sorted set of the open streams, scored by when each stops counting: every process renews
the marks of all its open streams together, one pipeline a keep-alive interval (not a command per stream), so the
streams of a process that died stop counting after two keep-alives. Without
Redis the one process counts in memory."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import weakref

from django.conf import settings

from .bus import RedisBus, bus

log = logging.getLogger(__name__)


class MemorySlots:
    def __init__(self):
        self._open: dict[str, set[str]] = {}
        self._lock = threading.Lock()

    async def take(self, caps: dict[str, int], token: str, lease_seconds: float) -> bool:
        with self._lock:
            if any(len(self._open.get(key, ())) >= cap for key, cap in caps.items()):
                return False
            for key in caps:
                self._open.setdefault(key, set()).add(token)
            return True

    async def give_back(self, keys, token: str) -> None:
        with self._lock:
            for key in keys:
                held = self._open.get(key)
                if held is not None:
                    held.discard(token)
                    if not held:
                        del self._open[key]


class _Marks:
    """The open streams of one event loop and their marks' keys, renewed together by one task."""

    def __init__(self, slots: RedisSlots):
        self.slots = slots
        self.held: dict[str, tuple[list[str], float]] = {}  # token -> (its keys, its lease)
        self.task: asyncio.Task | None = None

    def add(self, token: str, keys: list[str], lease_seconds: float) -> None:
        self.held[token] = (keys, lease_seconds)
        if self.task is None:
            self.task = asyncio.ensure_future(self._renew())

    async def _renew(self) -> None:
        try:
            while self.held:
                await asyncio.sleep(settings.PYRAMID_LIVE_KEEPALIVE_SECONDS)
                now = time.time()
                scores: dict[str, dict[str, float]] = {}
                leases: dict[str, float] = {}
                for token, (keys, lease) in list(self.held.items()):
                    for key in keys:
                        scores.setdefault(key, {})[token] = now + lease
                        leases[key] = max(leases.get(key, 0), lease)
                try:
                    async with self.slots.bus.client().pipeline(transaction=False) as pipe:
                        for key, members in scores.items():
                            pipe.zadd(self.slots._key(key), members, xx=True)
                            pipe.expire(self.slots._key(key), int(leases[key]) + 1)
                        await pipe.execute()
                except Exception as exc:  # noqa: BLE001 - out of reach now: the next round tries again
                    log.warning("the live streams' marks not renewed: %s", exc)
        finally:
            self.task = None


_marks: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # event loop -> its _Marks


class RedisSlots:
    def __init__(self, redis_bus: RedisBus):
        self.bus = redis_bus

    def _key(self, key: str) -> str:
        return self.bus.key(f"streams:{key}")

    def _marks(self) -> _Marks:
        loop = asyncio.get_running_loop()
        marks = _marks.get(loop)
        if marks is None or marks.slots.bus is not self.bus:
            marks = _marks[loop] = _Marks(self)
        return marks

    async def take(self, caps: dict[str, int], token: str, lease_seconds: float) -> bool:
        # added first, counted after: two streams opened at once past the cap may both be refused, never both let in
        now = time.time()
        async with self.bus.client().pipeline(transaction=False) as pipe:
            for key in caps:
                pipe.zremrangebyscore(self._key(key), "-inf", now)
                pipe.zadd(self._key(key), {token: now + lease_seconds})
                pipe.zcard(self._key(key))
                pipe.expire(self._key(key), int(lease_seconds) + 1)
            replies = await pipe.execute()
        counts = replies[2::4]
        if all(count <= cap for count, cap in zip(counts, caps.values(), strict=True)):
            self._marks().add(token, list(caps), lease_seconds)
            return True
        await self.give_back(caps, token)
        return False

    async def give_back(self, keys, token: str) -> None:
        self._marks().held.pop(token, None)
        async with self.bus.client().pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.zrem(self._key(key), token)
            await pipe.execute()


_memory = MemorySlots()


def slots() -> MemorySlots | RedisSlots:
    current = bus()
    return RedisSlots(current) if isinstance(current, RedisBus) else _memory
