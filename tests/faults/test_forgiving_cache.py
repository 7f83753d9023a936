"""The Django cache with Redis not answering: every operation a request may make answers as an
empty cache would, and only the first one asks Redis, instead of raising.

No figure here depends on the machine's speed: the tests count the operations that reach Redis (the
client's ``get_client``, which every operation calls before it touches the network) and move the cache's
own clock (``pyramid_site.cache.time``) by hand."""

import socket
import types

import pytest
import redis
from django.core.cache.backends.redis import RedisCacheClient
from fault_servers import free_port

from pyramid_site import cache as cache_module
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
