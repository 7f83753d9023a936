"""The Django cache with Redis not answering: every operation a request may make answers as an
empty cache would, and only the first one asks Redis, instead of raising.

No figure here depends on the machine's speed: the tests count the operations that reach Redis (the
client's ``get_client``, which every operation calls before it touches the network) and move the cache's
own clock (``pyramid_site.cache.time``) by hand."""

import os
import socket
import threading
import types
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
from django.core.cache.backends.redis import RedisCacheClient
from fault_servers import free_port

from pyramid_site import cache as cache_module
from pyramid_site import settings as site_settings
from pyramid_site.cache import RETRY_AFTER_SECONDS, ForgivingRedisCache


@pytest.fixture
def asked(monkeypatch) -> list[str]:
    """The operations that reached Redis, in order (a key or the first of the keys each)."""
    reached = []
    get_client = RedisCacheClient.get_client

    def counted(self, key=None, *, write=False):
        reached.append(key)
        return get_client(self, key, write=write)

    monkeypatch.setattr(RedisCacheClient, "get_client", counted)
    return reached


@pytest.fixture
def clock(monkeypatch) -> types.SimpleNamespace:
    """The cache's monotonic clock, standing still until a test moves ``clock.now``."""
    moved = types.SimpleNamespace(now=1000.0)
    monkeypatch.setattr(cache_module, "time", types.SimpleNamespace(monotonic=lambda: moved.now))
    return moved


def test_cache_without_redis_misses_and_drops(asked, clock, caplog):
    cache = ForgivingRedisCache(
        f"redis://127.0.0.1:{free_port()}/0", {"OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}
    )
    assert cache.get("throttle", default=[]) == []
    assert cache.add("solve-queued:1", True) is False
    cache.set("k", 1)
    assert cache.get_many(["a", "b"]) == {}
    assert cache.has_key("k") is False
    cache.set_many({"a": 1})
    assert cache.delete("k") is False
    cache.delete_many(["a"])
    # one refused connection, then eight answers of an empty cache without asking again
    assert len(asked) == 1 and "cache unavailable, get skipped" in caplog.text
    clock.now += RETRY_AFTER_SECONDS
    assert cache.get("throttle", default=[]) == [] and len(asked) == 2  # asked again, refused again


def test_a_redis_that_stops_answering_costs_one_timeout_then_none_until_it_is_asked_again(asked, clock, monkeypatch):
    """A server that takes connections but never answers (Redis paused): the first operation waits its socket
    timeout, the ones after it answer at once without asking, and once RETRY_AFTER_SECONDS are over Redis is
    asked again."""
    failures = []
    warning = cache_module.log.warning
    monkeypatch.setattr(
        cache_module.log, "warning", lambda text, name, exc: (failures.append(type(exc)), warning(text, name, exc))
    )
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(16)  # connections complete in the kernel's backlog; nothing ever reads or answers
    try:
        cache = ForgivingRedisCache(
            f"redis://127.0.0.1:{silent.getsockname()[1]}/0",
            {"OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}},
        )
        assert cache.get("k") is None
        assert len(asked) == 1 and failures == [redis.TimeoutError]  # it waited for its socket timeout
        for _ in range(10):
            assert cache.get_many(["a"]) == {} and cache.add("mark", True) is False
            assert cache.has_key("n") is False and cache.incr("n") is None
        assert len(asked) == 1 and len(failures) == 1  # forty operations, none of them asked Redis
        clock.now += RETRY_AFTER_SECONDS - 0.001
        assert cache.get("k") is None and len(asked) == 1  # not yet
        clock.now += 0.001  # RETRY_AFTER_SECONDS are over
        assert cache.get("k") is None
        assert len(asked) == 2 and failures == [redis.TimeoutError] * 2
    finally:
        silent.close()


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (REDIS_URL)")
def test_a_crowd_of_requests_at_once_shares_the_few_connections_the_settings_allow():
    """Thousands of live streams open at once, each checking its throttles in a thread of its own: the cache's
    connections stay within PYRAMID_CACHE_REDIS_CONNECTIONS (here 4), each request waiting for a free one."""
    url = os.environ["REDIS_URL"]
    name = f"test-cache-{uuid.uuid4().hex[:8]}"  # the connections of this cache alone, in CLIENT LIST
    options = {**site_settings.CACHES["default"]["OPTIONS"], "max_connections": 4, "client_name": name}
    cache = ForgivingRedisCache(url, {"OPTIONS": options})
    crowd = threading.Barrier(32)

    def request(n: int) -> bool:
        crowd.wait()
        key = f"{name}:{n}"
        for value in range(20):
            cache.set(key, value, timeout=60)
            if cache.get(key) != value:
                return False
        return True

    with ThreadPoolExecutor(32) as threads:
        assert all(threads.map(request, range(32)))
    connections = [c for c in redis.Redis.from_url(url).client_list() if c["name"] == name]
    assert 1 <= len(connections) <= 4


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (REDIS_URL)")
def test_the_caches_django_makes_for_each_request_share_the_process_connections():
    """Under ASGI Django makes a cache for every request (its context's own): a thousand streams' requests, each
    with a cache of its own, hold the connections of one pool, not one connection each."""
    url = os.environ["REDIS_URL"]
    name = f"test-cache-{uuid.uuid4().hex[:8]}"
    options = {**site_settings.CACHES["default"]["OPTIONS"], "client_name": name}
    requests = [ForgivingRedisCache(url, {"OPTIONS": options}) for _ in range(50)]
    for n, cache in enumerate(requests):
        cache.set(f"{name}:{n}", n, timeout=60)
    assert [cache.get(f"{name}:{n}") for n, cache in enumerate(requests)] == list(range(50))
    assert len([c for c in redis.Redis.from_url(url).client_list() if c["name"] == name]) == 1
