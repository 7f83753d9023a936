"""The event bus, in-process and over Redis Streams alike: ids in order, resume after any id with nothing missed,
and a ``reset`` (never a silent gap) for an id that cannot be resumed from."""

from __future__ import annotations

import asyncio
import socket
import time

import pytest
import redis

from pyramid_site.cache import RETRY_AFTER_SECONDS
from pyramid_site.live import publish, publish_many
from pyramid_site.live.bus import MemoryBus, RedisBus, bus, parse_id

from .conftest import REDIS_URL, collect, needs_redis


def _both(request):
    return request.getfixturevalue("redis_bus") if request.param == "redis" else None


@pytest.fixture(params=["memory", pytest.param("redis", marks=needs_redis)])
def each_bus(request):
    _both(request)
    current = bus()
    assert isinstance(current, RedisBus if request.param == "redis" else MemoryBus)
    return current


def events(deliveries):
    return [d.event for d in deliveries if d.event is not None]


def test_ids_order_the_events_and_a_follower_resumes_after_any_of_them(each_bus):
    ids = [publish("game:1", {"type": "move", "n": n}) for n in range(5)]
    publish("game:2", {"type": "move", "n": 99})  # another channel: never mixed in
    assert [parse_id(i) for i in ids] == sorted(parse_id(i) for i in ids) and len(set(ids)) == 5
    everything = collect(each_bus, "game:1")
    assert events(everything) == [{"type": "move", "n": n, "version": 1} for n in range(5)]
    assert [d.id for d in everything[1:]] == ids
    for index, last in enumerate(ids):
        resumed = collect(each_bus, "game:1", last)
        assert resumed[0].event is None and resumed[0].id == last  # where it starts, then the rest
        assert [e["n"] for e in events(resumed)] == list(range(index + 1, 5))


def test_a_new_follower_starts_at_the_newest_id_and_gets_only_what_follows(each_bus):
    publish("t:1", {"type": "joined"})
    last = publish("t:1", {"type": "joined"})
    opening = collect(each_bus, "t:1", None)
    assert [(d.id, d.event) for d in opening] == [(last, None)]


@pytest.mark.parametrize("sent", ["not-an-id", "99999999999999-0", "-1-0", ""])
def test_an_id_that_cannot_be_resumed_gets_a_reset_at_the_newest_id(each_bus, sent):
    publish("b:1", {"type": "result"})
    last = publish("b:1", {"type": "result"})
    got = collect(each_bus, "b:1", sent or "x")
    assert [(d.id, d.event) for d in got] == [(last, {"type": "reset", "version": 1, "channel": "b:1"})]


def test_memory_bus_keeps_its_bound_and_resets_a_follower_behind_it(settings):
    settings.PYRAMID_LIVE_STREAM_LENGTH = 10
    ids = [publish("game:7", {"type": "move", "n": n}) for n in range(25)]
    kept = collect(bus(), "game:7", ids[14])
    assert [e["n"] for e in events(kept)] == list(range(15, 25))
    behind = collect(bus(), "game:7", ids[13])  # the event after it was trimmed away
    assert [d.event["type"] for d in behind] == ["reset"] and behind[0].id == ids[-1]


@needs_redis
def test_redis_resets_a_follower_behind_what_was_trimmed(redis_bus):
    ids = [publish("game:8", {"type": "move", "n": n}) for n in range(6)]
    redis.Redis.from_url(REDIS_URL).xtrim(f"{redis_bus}game:8", maxlen=2, approximate=False)  # as MAXLEN ~ trims
    # from the first event kept on it resumes; from before it, the events trimmed may be missing: a reset
    assert [e["n"] for e in events(collect(bus(), "game:8", ids[4]))] == [5]
    assert [d.event["type"] for d in collect(bus(), "game:8", ids[3])] == ["reset"]


@needs_redis
def test_redis_resets_a_follower_of_a_channel_lost_with_redis(redis_bus):
    last = publish("game:9", {"type": "move"})
    redis.Redis.from_url(REDIS_URL).delete(f"{redis_bus}game:9")  # expired, or Redis restarted without it
    assert [d.event["type"] for d in collect(bus(), "game:9", last)] == ["reset"]


def test_a_follower_waiting_is_woken_by_a_publish_from_another_thread(each_bus):
    async def run():
        follow = each_bus.follow("game:3", None, 30)
        opening = await anext(follow)
        waiting = asyncio.ensure_future(anext(follow))
        await asyncio.get_running_loop().run_in_executor(None, publish, "game:3", {"type": "move"})
        delivery = await asyncio.wait_for(waiting, 10)
        await follow.aclose()
        if isinstance(each_bus, RedisBus):
            await each_bus.client().aclose()
        return opening, delivery

    opening, delivery = asyncio.run(run())
    assert opening.event is None and delivery.event == {"type": "move", "version": 1}
    assert parse_id(delivery.id) > parse_id(opening.id)


def test_a_bus_out_of_reach_loses_the_event_not_the_write(settings, caplog):
    settings.PYRAMID_LIVE_REDIS_URL = "redis://127.0.0.1:1/0"
    assert publish("game:4", {"type": "move"}) is None
    assert "not published" in caplog.text


def test_a_redis_that_stops_answering_costs_publishing_one_timeout_a_second_not_one_an_event(settings, caplog):
    with socket.create_server(("127.0.0.1", 0)) as silent:  # takes connections (the kernel does), never answers
        settings.PYRAMID_LIVE_REDIS_URL = f"redis://127.0.0.1:{silent.getsockname()[1]}/0"
        started = time.monotonic()
        assert publish("game:5", {"type": "move"}) is None
        first = time.monotonic() - started
        for _ in range(20):  # a move's events while Redis hangs: refused at once
            assert publish("game:5", {"type": "move"}) is None
        publish_many([("player:1", {"type": "tournament_started"})])
        twenty_more = time.monotonic() - started - first
        assert first >= 0.4 and twenty_more < first, (first, twenty_more)
        time.sleep(RETRY_AFTER_SECONDS)
        started = time.monotonic()
        assert publish("game:5", {"type": "move"}) is None  # a second on: Redis is asked again
        assert time.monotonic() - started >= 0.4
    assert caplog.text.count("not published") == 23


@needs_redis
def test_a_channel_on_redis_keeps_its_bound_and_expires_when_silent(redis_bus, settings):
    settings.PYRAMID_LIVE_STREAM_TTL_SECONDS = 600
    for n in range(3):
        publish("game:10", {"type": "move", "n": n})
    client = redis.Redis.from_url(REDIS_URL)
    assert 0 < client.ttl(f"{redis_bus}game:10") <= 600 and client.xlen(f"{redis_bus}game:10") == 3


def test_a_fan_out_reaches_every_channel_in_order_and_each_channel_expires(each_bus):
    publish("player:1", {"type": "tournament_soon", "n": 0})
    publish_many([(f"player:{n}", {"type": "tournament_started", "n": n}) for n in range(1, 1201)])  # 3 batches
    assert events(collect(each_bus, "player:1")) == [
        {"type": "tournament_soon", "n": 0, "version": 1},
        {"type": "tournament_started", "n": 1, "version": 1},
    ]
    assert events(collect(each_bus, "player:1200")) == [{"type": "tournament_started", "n": 1200, "version": 1}]
    if isinstance(each_bus, RedisBus):
        client = redis.Redis.from_url(REDIS_URL)
        assert 0 < client.ttl(each_bus.key("player:1200")) <= each_bus.ttl_seconds
