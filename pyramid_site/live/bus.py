"""The event bus behind the live streams: a channel is an append-only log of events, each with an id that orders it,
kept for a while so that a client who lost its connection resumes after the last id it saw.

With Redis (``PYRAMID_LIVE_REDIS_URL``) each channel is a Redis Stream: ``XADD ... MAXLEN ~ N`` appends, every web
process follows with ``XREAD BLOCK``, so an event published by any process (or a Celery worker) reaches the streams
served by every other one. Without it (the README's run command) an in-process bus keeps the same ids, the same
bound and the same resume rule, for the streams of that one process.

Resuming: the events after ``last_id`` are all still there unless the log dropped one of them (trimmed to its bound,
or the whole channel expired or was lost with Redis). ``XINFO STREAM`` says whether entries were dropped (more
added than kept) and which is the first kept; an id before it, from the future, unreadable, or for a channel that is
gone, cannot be resumed, and the follower is handed one ``reset`` event (re-read the resource) instead of a silent gap.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
import weakref
from collections import deque
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field

from django.conf import settings
from django.core.signals import setting_changed

log = logging.getLogger(__name__)

EventId = tuple[int, int]  # (milliseconds, sequence), as Redis Stream ids
NONE_YET: EventId = (0, 0)


def id_text(event_id: EventId) -> str:
    return f"{event_id[0]}-{event_id[1]}"


def parse_id(text: str | bytes | None) -> EventId | None:
    """An event id as a client sends it back (``Last-Event-ID``); None when it is not one."""
    if isinstance(text, bytes):
        text = text.decode("ascii", "replace")
    if not text:
        return None
    milliseconds, _, sequence = text.strip().partition("-")
    if not (milliseconds.isdigit() and sequence.isdigit()) or len(milliseconds) > 19 or len(sequence) > 19:
        return None
    return int(milliseconds), int(sequence)


@dataclass(frozen=True, slots=True)
class Delivery:
    """One event of a channel as a follower gets it; first the id the follower starts from, with no event (or
    with a ``reset`` when it cannot resume)."""

    id: str
    event: dict | None


Following = AsyncGenerator[Delivery | None, None]


def reset_event(channel: str) -> dict:
    return {"type": "reset", "version": 1, "channel": channel}


class MemoryBus:
    """The bus of one process: each channel a bounded deque of (id, event)."""

    @dataclass
    class _Channel:
        entries: deque = field(default_factory=deque)
        last: EventId = NONE_YET
        dropped: EventId = NONE_YET  # the newest id trimmed away (Redis: max-deleted-entry-id)
        waiters: set = field(default_factory=set)  # (loop, asyncio.Event) of the followers waiting

    def __init__(self, max_length: int):
        self.max_length = max_length
        self._channels: dict[str, MemoryBus._Channel] = {}
        self._lock = threading.Lock()  # publishers run in request threads, followers in the event loop

    def _channel(self, name: str) -> _Channel:
        with self._lock:
            return self._channels.setdefault(name, MemoryBus._Channel())

    def publish(self, channel: str, event: dict) -> str:
        target = self._channel(channel)
        with self._lock:
            now = int(time.time() * 1000)
            new = (now, 0) if now > target.last[0] else (target.last[0], target.last[1] + 1)
            target.entries.append((new, event))
            target.last = new
            while len(target.entries) > self.max_length:
                target.dropped = target.entries.popleft()[0]
            waiters = list(target.waiters)
        for loop, woken in waiters:
            loop.call_soon_threadsafe(woken.set)
        return id_text(new)

    def publish_many(self, events: list[tuple[str, dict]]) -> None:
        for channel, event in events:
            self.publish(channel, event)

    def _after(self, target: _Channel, after: EventId) -> list[tuple[EventId, dict]]:
        with self._lock:
            return [(i, e) for i, e in target.entries if i > after]

    async def follow(self, channel: str, last_id: str | None, block_seconds: float) -> Following:
        """Where the follower starts, then the channel's events after ``last_id`` (from now on without one), for
        ever; None after each ``block_seconds`` with nothing new (the caller's keep-alive)."""
        target = self._channel(channel)
        with self._lock:
            after, resumable = self._start(target, last_id)
        yield Delivery(id_text(after), None if resumable else reset_event(channel))
        woken = asyncio.Event()
        waiter = (asyncio.get_running_loop(), woken)
        with self._lock:
            target.waiters.add(waiter)
        try:
            while True:
                woken.clear()  # cleared before looking, so a publish in between wakes the next wait
                fresh = self._after(target, after)
                for event_id, event in fresh:
                    after = event_id
                    yield Delivery(id_text(event_id), event)
                if fresh:
                    continue
                try:
                    await asyncio.wait_for(woken.wait(), block_seconds)
                except TimeoutError:
                    yield None
        finally:
            with self._lock:
                target.waiters.discard(waiter)

    @staticmethod
    def _start(target: _Channel, last_id: str | None) -> tuple[EventId, bool]:
        if last_id is None:
            return target.last, True
        asked = parse_id(last_id)
        if asked is None or asked < target.dropped or asked > target.last:
            return target.last, False
        return asked, True


_Field = bytes | bytearray | memoryview | str | int | float  # what redis-py takes as a stream entry's name or value


class RedisBus:
    """The bus over Redis Streams, one stream a channel (``PYRAMID_LIVE_KEY_PREFIX`` + channel)."""

    def __init__(self, url: str, *, max_length: int, ttl_seconds: int, prefix: str):
        import redis

        self.url, self.max_length, self.ttl_seconds, self.prefix = url, max_length, ttl_seconds, prefix
        self._sync = redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5)
        self._clients: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # one async client per event loop
        self._expiry_set: dict[str, float] = {}  # key -> when this process last pushed its expiry back

    def key(self, channel: str) -> str:
        return f"{self.prefix}{channel}"

    def publish(self, channel: str, event: dict) -> str:
        key = self.key(channel)
        data: dict[_Field, _Field] = {"data": json.dumps(event, separators=(",", ":"))}
        now = time.monotonic()
        if now - self._expiry_set.get(key, -self.ttl_seconds) < self.ttl_seconds / 2:
            # its expiry was pushed back lately: one command, not two (a move's event is on the move's path)
            added = self._sync.xadd(key, data, maxlen=self.max_length, approximate=True)
            return added.decode() if isinstance(added, bytes) else str(added)
        with self._sync.pipeline(transaction=False) as pipe:
            pipe.xadd(key, data, maxlen=self.max_length, approximate=True)
            pipe.expire(key, self.ttl_seconds)  # a channel that falls silent (a game over) is dropped in the end
            added, _ = pipe.execute()
        if len(self._expiry_set) >= 100_000:
            self._expiry_set.clear()
        self._expiry_set[key] = now
        return added.decode()

    def publish_many(self, events: list[tuple[str, dict]], *, batch: int = 500) -> None:
        """One pipeline a batch: an XADD and an EXPIRE per event (a player's channel is quiet for days, so its
        expiry is pushed back with each event rather than remembered)."""
        for first in range(0, len(events), batch):
            with self._sync.pipeline(transaction=False) as pipe:
                for channel, event in events[first : first + batch]:
                    data: dict[_Field, _Field] = {"data": json.dumps(event, separators=(",", ":"))}
                    pipe.xadd(self.key(channel), data, maxlen=self.max_length, approximate=True)
                    pipe.expire(self.key(channel), self.ttl_seconds)
                pipe.execute()

    def client(self):
        import redis.asyncio

        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if client is None:
            client = self._clients[loop] = redis.asyncio.Redis.from_url(self.url, socket_connect_timeout=2)
        return client

    async def _start(self, key: str, last_id: str | None) -> tuple[EventId, bool]:
        import redis

        client = self.client()
        try:
            info = await client.xinfo_stream(key)
        except redis.ResponseError:  # no such stream: nothing published lately (or lost with Redis)
            info = None
        last = parse_id(info["last-generated-id"]) if info else NONE_YET
        assert last is not None
        if last_id is None:
            return last, True
        asked = parse_id(last_id)
        if asked is None or asked > last or (info is None and asked != NONE_YET):
            return last, False
        if info is None:
            return asked, True
        # trimming (MAXLEN) does not move max-deleted-entry-id (XDEL does): a stream that has lost entries to its
        # bound resumes only from its first entry kept or later
        deleted = parse_id(info["max-deleted-entry-id"])
        first = parse_id(info["first-entry"][0]) if info.get("first-entry") else last
        trimmed = info["entries-added"] > info["length"]
        if deleted is None or first is None or asked < deleted or (trimmed and asked < first):
            return last, False
        return asked, True

    async def follow(self, channel: str, last_id: str | None, block_seconds: float) -> Following:
        key = self.key(channel)
        after, resumable = await self._start(key, last_id)
        yield Delivery(id_text(after), None if resumable else reset_event(channel))
        client = self.client()
        while True:
            reply = await client.xread({key: id_text(after)}, count=100, block=max(1, int(block_seconds * 1000)))
            if not reply:
                yield None
                continue
            for raw_id, fields in reply[0][1]:
                event_id = parse_id(raw_id)
                assert event_id is not None
                after = event_id
                yield Delivery(id_text(event_id), json.loads(fields[b"data"]))


Bus = MemoryBus | RedisBus
_bus: Bus | None = None
_bus_lock = threading.Lock()


def bus() -> Bus:
    """The process's bus, as the settings say."""
    global _bus
    with _bus_lock:
        if _bus is None:
            url = settings.PYRAMID_LIVE_REDIS_URL
            _bus = (
                RedisBus(
                    url,
                    max_length=settings.PYRAMID_LIVE_STREAM_LENGTH,
                    ttl_seconds=settings.PYRAMID_LIVE_STREAM_TTL_SECONDS,
                    prefix=settings.PYRAMID_LIVE_KEY_PREFIX,
                )
                if url
                else MemoryBus(settings.PYRAMID_LIVE_STREAM_LENGTH)
            )
        return _bus


def forget_bus(*, setting: str = "PYRAMID_LIVE_", **kwargs) -> None:
    """The live settings changed (in tests): the next use builds the bus again."""
    global _bus
    if setting.startswith("PYRAMID_LIVE_"):
        with _bus_lock:
            _bus = None


setting_changed.connect(forget_bus)
