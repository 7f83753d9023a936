"""The Django cache with Redis not answering: every operation a request may make answers as an
empty cache would, quickly, instead of raising."""

import time

from fault_servers import free_port

from pyramid_site.cache import ForgivingRedisCache


def test_cache_without_redis_misses_and_drops():
    cache = ForgivingRedisCache(f"redis://127.0.0.1:{free_port()}/0",
                                {"OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}})
    started = time.monotonic()
    assert cache.get("throttle", default=[]) == []
    assert cache.add("solve-queued:1", True) is False
    cache.set("k", 1)
    assert cache.get_many(["a", "b"]) == {}
    assert cache.has_key("k") is False
    cache.set_many({"a": 1})
    assert cache.delete("k") is False
    cache.delete_many(["a"])
    assert time.monotonic() - started < 5
