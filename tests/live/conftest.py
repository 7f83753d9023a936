import asyncio
import os
import uuid

import pytest
import redis

from pyramid_site.live.bus import RedisBus

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


def redis_answers() -> bool:
    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=0.5).ping())
    except redis.RedisError:
        return False


needs_redis = pytest.mark.skipif(not redis_answers(), reason="needs Redis (REDIS_URL)")


@pytest.fixture(autouse=True)
def _live_tests(service_settings):
    """The tests' settings: the in-process bus unless a test turns Redis on."""
    yield


@pytest.fixture
def redis_bus(service_settings):
    """The live updates over Redis, under a key prefix of the test's own (deleted after it)."""
    prefix = f"test-live-{uuid.uuid4().hex[:8]}:"
    service_settings.PYRAMID_LIVE_REDIS_URL = REDIS_URL
    service_settings.PYRAMID_LIVE_KEY_PREFIX = prefix
    yield prefix
    client = redis.Redis.from_url(REDIS_URL)
    for key in client.scan_iter(f"{prefix}*"):
        client.delete(key)


def collect(bus, channel: str, last_id: str | None = "0-0", *, quiet_seconds: float = 0.2) -> list:
    """What a follower from ``last_id`` gets, up to the first quiet spell: the opening delivery, then the events."""

    async def run():
        got = []
        follow = bus.follow(channel, last_id, quiet_seconds)
        try:
            async for delivery in follow:
                if delivery is None:
                    return got
                got.append(delivery)
        finally:
            await follow.aclose()
            if isinstance(bus, RedisBus):
                await bus.client().aclose()

    return asyncio.run(run())
