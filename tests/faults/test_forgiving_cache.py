"""The Django cache with Redis not answering: every operation a request may make answers as an
empty cache would, quickly, instead of raising."""

import socket
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



def test_a_redis_that_stops_answering_costs_one_timeout_then_none_until_it_is_asked_again():
    """A server that takes connections but never answers (Redis paused): the first operation waits its socket
    timeout, the ones after it answer at once, and once RETRY_AFTER_SECONDS are over Redis is asked again."""
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(16)  # connections complete in the kernel's backlog; nothing ever reads or answers
    try:
        cache = ForgivingRedisCache(f"redis://127.0.0.1:{silent.getsockname()[1]}/0",
                                    {"OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}})

        def timed(operation) -> float:
            started = time.monotonic()
            operation()
            return time.monotonic() - started

        assert timed(lambda: cache.get("k")) >= 0.4
        assert timed(lambda: [(cache.get_many(["a"]), cache.add("mark", True), cache.incr("n") if cache.has_key("n")
                               else None) for _ in range(10)]) < 0.3
        cache._cache.down_until = time.monotonic()  # as if RETRY_AFTER_SECONDS were over
        assert timed(lambda: cache.get("k")) >= 0.4
    finally:
        silent.close()
