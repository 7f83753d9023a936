"""The event bus behind the live streams: a channel is an append-only log of events, each with an id that orders it,
kept for a while so that a client who lost its connection resumes after the last id it saw.

With Redis (``PYRAMID_LIVE_REDIS_URL``) each channel is a Redis Stream: ``XADD ... MAXLEN ~ N`` appends, and every
web process reads them with one ``XREAD BLOCK`` over all the channels its streams follow (one reader and one
connection per event loop, however many streams wait), handing each entry to the streams of its channel; so an
event published by any process (or a Celery worker) reaches the streams served by every other one. Without it (the
README's run command) an in-process bus keeps the same ids, the same bound and the same resume rule, for the
streams of that one process.

Resuming: the events after ``last_id`` are all still there unless the log dropped one of them (trimmed to its bound,
or the whole channel expired or was lost with Redis). ``XINFO STREAM`` says whether entries were dropped (more
added than kept) and which is the first kept; an id before it, from the future, unreadable, or for a channel that is
gone, cannot be resumed, and the follower is handed one ``reset`` event (re-read the resource) instead of a silent gap.

A slow follower holds up nobody: a process keeps the last ``PYRAMID_LIVE_FOLLOWER_BACKLOG`` events of each channel
it reads for its streams, and a stream further behind than that ends (``Behind``, sent as ``retry:``) and its client
resumes from its last id, from the channel's log in Redis.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
import uuid
import weakref
from collections import deque
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.conf import settings
from django.core.signals import setting_changed

from pyramid_site.cache import out_of_reach

from . import shutdown

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
FollowingBatches = AsyncGenerator[list[Delivery] | None, None]  # what came since the last batch, written at once


async def one_by_one(batches: FollowingBatches) -> Following:
    try:
        async for batch in batches:
            if batch is None:
                yield None
                continue
            for delivery in batch:
                yield delivery
    finally:
        await batches.aclose()


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

    def wake_all(self) -> None:
        """Wake every waiting follower (the server stopping: they see it and end)."""
        with self._lock:
            waiters = [waiter for channel in self._channels.values() for waiter in channel.waiters]
        for loop, woken in waiters:
            loop.call_soon_threadsafe(woken.set)

    def publish_many(self, events: list[tuple[str, dict]]) -> None:
        for channel, event in events:
            self.publish(channel, event)

    def _after(self, target: _Channel, after: EventId) -> list[tuple[EventId, dict]]:
        with self._lock:
            return [(i, e) for i, e in target.entries if i > after]

    def follow(self, channel: str, last_id: str | None, block_seconds: float) -> Following:
        return one_by_one(self.follow_batches(channel, last_id, block_seconds))

    async def follow_batches(self, channel: str, last_id: str | None, block_seconds: float) -> FollowingBatches:
        """Where the follower starts, then the channel's events after ``last_id`` (from now on without one), for
        ever, each batch what came since the last; None after each ``block_seconds`` with nothing new (the caller's
        keep-alive)."""
        target = self._channel(channel)
        with self._lock:
            after, resumable = self._start(target, last_id)
        yield [Delivery(id_text(after), None if resumable else reset_event(channel))]
        woken = asyncio.Event()
        waiter = (asyncio.get_running_loop(), woken)
        with self._lock:
            target.waiters.add(waiter)
        try:
            while True:
                woken.clear()  # cleared before looking, so a publish in between wakes the next wait
                fresh = self._after(target, after)
                if fresh:
                    after = fresh[-1][0]
                    yield [Delivery(id_text(event_id), event) for event_id, event in fresh]
                    continue
                if shutdown.is_draining():
                    return
                try:
                    async with asyncio.timeout(block_seconds):  # no task of its own, as wait_for makes
                        await woken.wait()
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


_T = TypeVar("_T")
_Field = bytes | bytearray | memoryview | str | int | float  # what redis-py takes as a stream entry's name or value


class RedisBus:
    """The bus over Redis Streams, one stream a channel (``PYRAMID_LIVE_KEY_PREFIX`` + channel)."""

    POOL = 16  # connections per event loop for commands, besides its reader's

    def __init__(self, url: str, *, max_length: int, ttl_seconds: int, prefix: str, backlog: int = 1000):
        import redis

        self.url, self.max_length, self.ttl_seconds, self.prefix = url, max_length, ttl_seconds, prefix
        self.backlog = backlog
        self._sync = redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5)
        self._clients: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # one async client per event loop
        self._expiry_set: dict[str, float] = {}  # key -> when this process last pushed its expiry back
        self._dispatchers: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # one reader per event loop

    def key(self, channel: str) -> str:
        return f"{self.prefix}{channel}"

    def _ask(self, command: Callable[[], _T]) -> _T:
        """Refuses at once for a moment after Redis failed a command: a Redis that stops answering without
        refusing (paused, cut off) would cost every publish a socket timeout, on the path of the move it tells of."""
        import redis

        down = out_of_reach(self.url)
        if down.now():
            raise redis.ConnectionError("the live updates' Redis failed a moment ago; not asked again yet")
        try:
            return command()
        except redis.RedisError:
            down.failed()
            raise

    def publish(self, channel: str, event: dict) -> str:
        return self._ask(lambda: self._publish(channel, event))

    def _publish(self, channel: str, event: dict) -> str:
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
        self._ask(lambda: self._publish_many(events, batch))

    def _publish_many(self, events: list[tuple[str, dict]], batch: int) -> None:
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
            # the streams' own commands (opening checks, the caps' marks) share a few connections, waiting for one
            # rather than opening one each: a crowd of streams opening at once costs Redis no more connections
            pool = redis.asyncio.BlockingConnectionPool.from_url(
                self.url, max_connections=self.POOL, timeout=30, socket_connect_timeout=2
            )
            client = self._clients[loop] = redis.asyncio.Redis.from_pool(pool)
        return client

    def wake_all(self) -> None:
        """Wake every waiting follower (the server stopping: they see it and end)."""
        for loop, dispatcher in list(self._dispatchers.items()):
            loop.call_soon_threadsafe(dispatcher.wake_followers)

    def dispatcher(self) -> _Dispatcher:
        """The one reader of this event loop's channels."""
        loop = asyncio.get_running_loop()
        dispatcher = self._dispatchers.get(loop)
        if dispatcher is None:
            dispatcher = self._dispatchers[loop] = _Dispatcher(self)
        return dispatcher

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

    def follow(self, channel: str, last_id: str | None, block_seconds: float) -> Following:
        return one_by_one(self.follow_batches(channel, last_id, block_seconds))

    async def follow_batches(self, channel: str, last_id: str | None, block_seconds: float) -> FollowingBatches:
        """As ``MemoryBus.follow_batches``; the events come through the event loop's one reader (``_Dispatcher``).
        Raises ``Behind`` when the follower falls more than ``PYRAMID_LIVE_FOLLOWER_BACKLOG`` events behind its channel,
        and a Redis error when the reader loses Redis."""
        import redis

        key = self.key(channel)
        after, resumable = await self._start(key, last_id)
        yield [Delivery(id_text(after), None if resumable else reset_event(channel))]
        dispatcher = self.dispatcher()
        joined, index, wake = dispatcher.join(key, after)
        caught_up_to = joined.last  # taken with the place: what comes later reaches this follower as entries
        quiet: _Quiet | None = None
        try:
            if wake:
                await dispatcher.wake(self.client())
            if caught_up_to > after:
                # the reader was past where this follower starts: what lies between is read once, here (a client
                # resuming from its Last-Event-ID, a follower of a channel the reader is ahead on)
                missed = await self.client().xrange(key, min=f"({id_text(after)}", max=id_text(caught_up_to))
                if missed:
                    after = parse_id(missed[-1][0]) or after
                    yield [Delivery(raw_id.decode(), json.loads(fields[b"data"])) for raw_id, fields in missed]
            quiet = _Quiet(block_seconds)
            while True:
                if joined.error is not None:
                    raise redis.ConnectionError(f"the live updates' reader lost Redis: {joined.error}")
                if index < joined.base:
                    raise Behind(f"{channel}: more than {self.backlog} events behind")
                end = joined.base + len(joined.entries)
                fresh = [joined.entries[at - end] for at in range(index, end)]  # from the right end: O(new ones)
                index = end
                # the reader may still have been short of where this follower started
                batch = [delivery for event_id, delivery in fresh if event_id > after]
                if batch:
                    after = max(after, fresh[-1][0])
                    quiet.handed_out()
                    yield batch
                if fresh:
                    continue
                if shutdown.is_draining():
                    return
                if quiet.take():
                    yield None
                    continue
                # nothing can be appended between the look above and this wait: one thread, and no await between
                await quiet.wait_on(joined)
        finally:
            if quiet is not None:
                quiet.close()
            dispatcher.leave(joined)


class _Quiet:
    """A follower's keep-alive: due once ``seconds`` pass with nothing handed out. One timer a quiet spell, re-armed
    when it fires, not one a wait: at every event of a busy channel its thousand followers would each arm and cancel
    one (asyncio.timeout), which cost more than writing the event out."""

    __slots__ = ("loop", "seconds", "last", "due", "handle", "waiting")

    def __init__(self, seconds: float):
        self.loop = asyncio.get_running_loop()
        self.seconds, self.last, self.due = seconds, self.loop.time(), False
        self.handle = self.loop.call_at(self.last + seconds, self._fire)
        self.waiting: asyncio.Future | None = None

    def handed_out(self) -> None:
        self.last = self.loop.time()

    def _fire(self) -> None:
        quiet_until = self.last + self.seconds
        if self.loop.time() < quiet_until:  # something was handed out meanwhile: quiet from then on
            self.handle = self.loop.call_at(quiet_until, self._fire)
            return
        self.due = True
        if self.waiting is not None and not self.waiting.done():
            self.waiting.set_result(None)

    def take(self) -> bool:
        """Whether a keep-alive is due now (then the next one is counted from now)."""
        if not self.due:
            return False
        self.due, self.last = False, self.loop.time()
        self.handle = self.loop.call_at(self.last + self.seconds, self._fire)
        return True

    async def wait_on(self, followed: _Followed) -> None:
        """Until the channel has more, fails or is woken, or a keep-alive is due."""
        self.waiting = self.loop.create_future()
        followed.waiting.add(self.waiting)
        try:
            await self.waiting
        finally:
            followed.waiting.discard(self.waiting)
            self.waiting = None

    def close(self) -> None:
        self.handle.cancel()


class Behind(Exception):
    """A stream that fell more than ``PYRAMID_LIVE_FOLLOWER_BACKLOG`` events behind its channel (its client reads
    slower than the channel's events come): it ends, with ``retry:``, and its client resumes from the last id it
    got (``Last-Event-ID``), from Redis, like any client that lost its connection."""


class _Followed:
    """A channel followed by the streams of one event loop: the entries its reader handed out lately, shared by
    every follower (each keeps only its place in them), and the futures of the followers waiting for more."""

    __slots__ = ("key", "last", "entries", "base", "followers", "waiting", "error")

    def __init__(self, key: str, last: EventId, backlog: int):
        self.key, self.last = key, last  # the newest id handed out (at first: where its first follower started)
        self.entries: deque[tuple[EventId, Delivery]] = deque(maxlen=backlog)
        self.base = 0  # the place of entries[0] among every entry ever appended
        self.followers = 0
        self.waiting: set[asyncio.Future] = set()
        self.error: BaseException | None = None

    def append(self, batch: list[tuple[EventId, Delivery]]) -> None:
        overflow = len(self.entries) + len(batch) - (self.entries.maxlen or 0)
        self.base += max(0, overflow)
        self.entries.extend(batch)
        self.last = batch[-1][0]
        self.wake()

    def fail(self, error: BaseException) -> None:
        self.error = error
        self.wake()

    def wake(self) -> None:
        waiting, self.waiting = self.waiting, set()
        for future in waiting:
            if not future.done():
                future.set_result(None)


class _Dispatcher:
    """The one reader of an event loop's channels: a single ``XREAD BLOCK`` over every key its streams follow (each
    from the newest id it handed out), on a connection of its own, whatever the number of streams. A channel new to
    it wakes the read in flight by an entry on a stream of its own (``wake:<uuid>``, read with the others), so the
    next read includes it at once; a read already sent when the wake is added returns at once with it."""

    BLOCK_MS = 10_000  # also how late a channel nobody follows any more leaves the read
    COUNT = 500  # per key and read: a channel with more waiting is read on at once

    def __init__(self, bus: RedisBus):
        self.bus = bus
        self.channels: dict[str, _Followed] = {}
        self.task: asyncio.Task | None = None
        self.reading: dict[str, str] | None = None  # the keys of the read in flight
        self.wake_key = bus.key(f"wake:{uuid.uuid4().hex}")

    def join(self, key: str, start: EventId) -> tuple[_Followed, int, bool]:
        """A follower from ``start`` on: its channel, its place in the channel's entries, and whether the read in
        flight must be woken to include the channel."""
        followed = self.channels.get(key)
        wake = False
        if followed is None:
            followed = self.channels[key] = _Followed(key, start, self.bus.backlog)
            wake = self.reading is not None
        followed.followers += 1
        if self.task is None:
            self.task = asyncio.ensure_future(self._read())
        return followed, followed.base + len(followed.entries), wake

    def leave(self, followed: _Followed) -> None:
        followed.followers -= 1
        if followed.followers == 0 and self.channels.get(followed.key) is followed:
            del self.channels[followed.key]
            if not self.channels and self.task is not None:
                self.task.cancel()  # nobody follows anything: the reader and its connection go
                self.task = None

    def wake_followers(self) -> None:
        for followed in self.channels.values():
            followed.wake()

    async def wake(self, client) -> None:
        async with client.pipeline(transaction=False) as pipe:
            pipe.xadd(self.wake_key, {"w": 1}, maxlen=1)
            pipe.expire(self.wake_key, 3600)
            await pipe.execute()

    async def _read(self) -> None:
        import redis.asyncio

        me = asyncio.current_task()
        reader = redis.asyncio.Redis.from_url(
            self.bus.url,
            socket_connect_timeout=2,
            socket_timeout=self.BLOCK_MS / 1000 + 5,  # a Redis gone silent (no reset) noticed too
            single_connection_client=True,
            client_name=self.bus.key("reader"),  # what an operator sees in CLIENT LIST
        )
        woken_after = "0-0"  # the wake stream is new: any entry on it wakes
        count = min(self.COUNT, self.bus.backlog)  # one read's batch never drops a follower that keeps up
        try:
            while self.channels:
                streams = {key: id_text(followed.last) for key, followed in self.channels.items()}
                streams[self.wake_key] = woken_after
                self.reading = streams
                reply: Any = await reader.xread(streams, count=count, block=self.BLOCK_MS)  # type: ignore[arg-type]
                self.reading = None
                for raw_key, entries in reply or ():
                    key = raw_key.decode()
                    if key == self.wake_key:
                        woken_after = entries[-1][0].decode()
                        continue
                    followed = self.channels.get(key)
                    if followed is None:
                        continue  # left while the read was in flight
                    batch = []
                    for raw_id, fields in entries:
                        event_id = parse_id(raw_id)
                        assert event_id is not None
                        if event_id > followed.last:  # a channel joined again since the read was sent starts later
                            batch.append((event_id, Delivery(id_text(event_id), json.loads(fields[b"data"]))))
                    if batch:
                        followed.append(batch)
        except Exception as exc:  # noqa: BLE001 - handed to every follower, whose stream ends with retry:
            if self.task is me:
                log.warning("the live updates' reader stopped: %s", exc)
                for followed in self.channels.values():
                    followed.fail(exc)
                self.channels.clear()
        finally:
            if self.task is me:
                self.task, self.reading = None, None
            try:
                await reader.aclose()
            except Exception:  # noqa: BLE001 - a connection already lost
                pass


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
                    backlog=settings.PYRAMID_LIVE_FOLLOWER_BACKLOG,
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


def _wake_followers() -> None:
    if _bus is not None:
        _bus.wake_all()


setting_changed.connect(forget_bus)
shutdown.when_draining(_wake_followers)
