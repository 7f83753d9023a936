"""The Redis bus's one reader per event loop: every stream of a process waits on it instead of on a Redis
connection of its own. Many followers of one channel share it; a follower that joins while the reader is ahead of
it (resuming, or joining a busy channel) gets every event once, in order; a follower that stops reading ends
(``Behind``) without holding up the others; the reader losing Redis ends every follower with the error."""

from __future__ import annotations

import asyncio
import threading

import pytest
import redis

from pyramid_site.live import publish
from pyramid_site.live.bus import Behind, RedisBus, bus, parse_id

from .conftest import REDIS_URL, needs_redis

pytestmark = needs_redis
WAIT = 20  # seconds any one awaited delivery may take on a loaded machine


def _bus(redis_bus) -> RedisBus:
    current = bus()
    assert isinstance(current, RedisBus)
    return current


def _readers(prefix: str) -> list[dict]:
    return [c for c in redis.Redis.from_url(REDIS_URL).client_list() if c["name"] == f"{prefix}reader"]


async def _published(channel: str, count: int, start: int = 0) -> list[str]:
    loop = asyncio.get_running_loop()
    return [await loop.run_in_executor(None, publish, channel, {"type": "move", "n": n}) for n in range(start, count)]


async def _events(follow, count: int) -> list:
    got = []
    while len(got) < count:
        delivery = await asyncio.wait_for(anext(follow), WAIT)
        if delivery is not None:
            got.append(delivery)
    return got


async def _reading(prefix: str) -> list[dict]:
    """The readers once one is blocked in its XREAD (it connects on its first read)."""
    deadline = asyncio.get_running_loop().time() + WAIT
    while not any(r["cmd"] == "xread" for r in _readers(prefix)) and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.01)  # polling the reader's own progress, not timing the bus
    return _readers(prefix)


async def _joined(each_bus: RedisBus, followers: int) -> None:
    """Until every follower has joined the reader (a follower joins on its first read after its opening)."""
    while sum(f.followers for f in each_bus.dispatcher().channels.values()) < followers:
        await asyncio.sleep(0.01)  # polling the followers' own progress, not timing the bus


def test_many_followers_of_one_channel_share_one_reader_and_connection(redis_bus):
    each_bus = _bus(redis_bus)

    async def run():
        follows = [each_bus.follow("tournament:1", None, 30) for _ in range(50)]
        openings = [await anext(f) for f in follows]
        waiting = [asyncio.ensure_future(_events(f, 3)) for f in follows]
        await _joined(each_bus, 50)
        readers = await _reading(redis_bus)
        ids = await _published("tournament:1", 3)
        got = [await asyncio.wait_for(w, WAIT) for w in waiting]
        for follow in follows:
            await follow.aclose()
        await each_bus.client().aclose()
        return openings, readers, ids, got

    openings, readers, ids, got = asyncio.run(run())
    assert len({o.id for o in openings}) == 1
    # one connection reads for all fifty, blocked in one XREAD
    assert len(readers) == 1 and readers[0]["cmd"] == "xread"
    for deliveries in got:
        assert [d.id for d in deliveries] == ids
        assert [d.event["n"] for d in deliveries] == [0, 1, 2]
    assert _readers(redis_bus) == []  # the last follower gone, the reader went with it


def test_a_follower_joining_while_the_reader_is_ahead_misses_and_repeats_nothing(redis_bus):
    each_bus = _bus(redis_bus)

    async def run():
        first = each_bus.follow("game:1", None, 30)
        await anext(first)
        early = await _published("game:1", 5)
        assert [d.id for d in await _events(first, 5)] == early  # the reader is past every one of them now
        # a client resuming from the second event, and one joining at the newest
        resuming, fresh = each_bus.follow("game:1", early[1], 30), each_bus.follow("game:1", None, 30)
        assert (await anext(resuming)).id == early[1] and (await anext(fresh)).id == early[-1]
        # events keep coming while they join, from another thread
        publisher = threading.Thread(target=lambda: [publish("game:1", {"type": "move", "n": n}) for n in range(5, 45)])
        publisher.start()
        got_resuming = asyncio.ensure_future(_events(resuming, 43))
        got_fresh = asyncio.ensure_future(_events(fresh, 40))
        got_first = await _events(first, 40)
        await asyncio.get_running_loop().run_in_executor(None, publisher.join)
        result = await asyncio.wait_for(got_resuming, WAIT), await asyncio.wait_for(got_fresh, WAIT), got_first
        for follow in (first, resuming, fresh):
            await follow.aclose()
        await each_bus.client().aclose()
        return early, result

    early, (resuming, fresh, first) = asyncio.run(run())
    log = [raw.decode() for raw, _ in redis.Redis.from_url(REDIS_URL).xrange(f"{redis_bus}game:1")]
    assert log[:5] == early and len(log) == 45
    assert [d.id for d in resuming] == log[2:] and [d.event["n"] for d in resuming] == list(range(2, 45))
    assert [d.id for d in fresh] == log[5:] == [d.id for d in first]


def test_a_follower_that_stops_reading_ends_behind_without_holding_up_the_others(redis_bus, settings):
    settings.PYRAMID_LIVE_FOLLOWER_BACKLOG = 10
    each_bus = _bus(redis_bus)

    async def run():
        slow, quick = each_bus.follow("board:1", None, 30), each_bus.follow("board:1", None, 30)
        await anext(slow), await anext(quick)
        seen, _, _ = await asyncio.gather(_events(slow, 1), _events(quick, 1), _published("board:1", 1))
        # the slow one reads nothing more while thirty events come: the quick one gets each of them as it comes
        reading = asyncio.ensure_future(_events(quick, 30))
        ids = await _published("board:1", 31, start=1)
        assert [d.id for d in await asyncio.wait_for(reading, WAIT)] == ids
        with pytest.raises(Behind):
            await anext(slow)
        # it comes back as a client does, from the last id it got: every event, from Redis
        back = each_bus.follow("board:1", seen[0].id, 30)
        assert (await anext(back)).id == seen[0].id
        resumed = await _events(back, 30)
        for follow in (quick, back):
            await follow.aclose()
        await each_bus.client().aclose()
        return ids, resumed

    ids, resumed = asyncio.run(run())
    assert [d.id for d in resumed] == ids and [d.event["n"] for d in resumed] == list(range(1, 31))


def test_the_reader_losing_redis_ends_every_follower_with_the_error(redis_bus):
    each_bus = _bus(redis_bus)

    async def run():
        follows = [each_bus.follow(f"game:{n % 2}", None, 30) for n in range(4)]
        for follow in follows:
            await anext(follow)
        waiting = [asyncio.ensure_future(anext(f)) for f in follows]
        await _joined(each_bus, 4)
        (reader,) = await _reading(redis_bus)
        redis.Redis.from_url(REDIS_URL).client_kill_filter(_id=reader["id"])  # as Redis restarting cuts it
        outcomes = await asyncio.wait_for(asyncio.gather(*waiting, return_exceptions=True), WAIT)
        # the next follower has a reader again
        again = each_bus.follow("game:0", None, 30)
        await anext(again)
        waiting = asyncio.ensure_future(_events(again, 1))
        await _joined(each_bus, 1)
        ids = await _published("game:0", 1)
        delivered = await asyncio.wait_for(waiting, WAIT)
        await again.aclose()
        await each_bus.client().aclose()
        return outcomes, ids, delivered

    outcomes, ids, delivered = asyncio.run(run())
    assert all(isinstance(o, redis.ConnectionError) for o in outcomes), outcomes
    assert [d.id for d in delivered] == ids and parse_id(ids[0]) is not None
