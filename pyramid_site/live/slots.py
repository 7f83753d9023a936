"""The cap on streams open at once, per account and per client address (``PYRAMID_LIVE_STREAMS_PER_ACCOUNT``,
``..._PER_ADDRESS``), counted across every web process.

With Redis each key is a sorted set of the open streams, scored by when each stops counting: a stream renews its
mark with every keep-alive, so the streams of a process that died stop counting after two keep-alives. Without
Redis the one process counts in memory."""

from __future__ import annotations

import threading
import time

from .bus import RedisBus, bus


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

    async def renew(self, keys, token: str, lease_seconds: float) -> None:
        return None

    async def give_back(self, keys, token: str) -> None:
        with self._lock:
            for key in keys:
                held = self._open.get(key)
                if held is not None:
                    held.discard(token)
                    if not held:
                        del self._open[key]


class RedisSlots:
    def __init__(self, redis_bus: RedisBus):
        self.bus = redis_bus

    def _key(self, key: str) -> str:
        return self.bus.key(f"streams:{key}")

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
            return True
        await self.give_back(caps, token)
        return False

    async def renew(self, keys, token: str, lease_seconds: float) -> None:
        async with self.bus.client().pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.zadd(self._key(key), {token: time.time() + lease_seconds}, xx=True)
                pipe.expire(self._key(key), int(lease_seconds) + 1)
            await pipe.execute()

    async def give_back(self, keys, token: str) -> None:
        async with self.bus.client().pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.zrem(self._key(key), token)
            await pipe.execute()


_memory = MemorySlots()


def slots() -> MemorySlots | RedisSlots:
    current = bus()
    return RedisSlots(current) if isinstance(current, RedisBus) else _memory
