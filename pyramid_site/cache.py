"""Django's Redis cache, answering as an empty cache while Redis is down.

The cache only holds what can be lost (throttle counts, "solve already queued" marks), so a Redis
outage must not turn every request that touches it into a 500: reads miss, writes are dropped, and
``add`` says no (so nothing is queued on a broker that is down too). Operations come back by
themselves with Redis.

A Redis that stops answering without refusing (paused, or cut off by the network) costs a socket timeout an
operation, and a request makes several (a move counts its throttles in two windows). So after a failure the
client answers as empty at once for ``RETRY_AFTER_SECONDS``, then asks Redis again.
"""

from __future__ import annotations

import logging
import threading
import time

import redis
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 1.0


class OutOfReach:
    """A Redis server's failure, remembered by the process for ``RETRY_AFTER_SECONDS``: meanwhile its users answer
    at once without asking it (the cache, as empty; the live bus's publishing, as lost)."""

    def __init__(self) -> None:
        self.until = 0.0  # time.monotonic() until which the server is not asked

    def now(self) -> bool:
        return time.monotonic() < self.until

    def failed(self) -> None:
        self.until = time.monotonic() + RETRY_AFTER_SECONDS


_out_of_reach: dict[str, OutOfReach] = {}


def out_of_reach(url: str) -> OutOfReach:
    """The process's one marker for the server at ``url``: kept per process, not per client, as Django makes a
    cache client for each request under ASGI, which would otherwise ask a hung Redis afresh every time."""
    return _out_of_reach.setdefault(url, OutOfReach())


def _or(fallback):
    def wrap(method):
        def guarded(self, *args, **kwargs):
            down = out_of_reach(self._servers[0])
            if down.now():
                return fallback(*args) if callable(fallback) else fallback
            try:
                return method(self, *args, **kwargs)
            except redis.RedisError as exc:
                down.failed()
                log.warning("cache unavailable, %s skipped: %s", method.__name__, exc)
                return fallback(*args) if callable(fallback) else fallback

        return guarded

    return wrap


_pools: dict[tuple[str, str], redis.ConnectionPool] = {}
_pools_lock = threading.Lock()


class _ForgivingClient(RedisCacheClient):
    def _get_connection_pool(self, write):
        # Django makes a cache, so a client, for each request under ASGI (and each thread under WSGI): the pool, and
        # with it the connections, is the process's, or every request would open and leave behind one of its own
        # (a live stream holds its request's for hours)
        url = self._servers[self._get_connection_pool_index(write)]
        key = (url, repr((self._pool_class, sorted(self._pool_options.items(), key=lambda item: item[0]))))
        with _pools_lock:
            pool = _pools.get(key)
            if pool is None:
                pool = _pools[key] = self._pool_class.from_url(url, **self._pool_options)
        return pool

    add = _or(False)(RedisCacheClient.add)
    get = _or(lambda key, default: default)(RedisCacheClient.get)
    set = _or(None)(RedisCacheClient.set)
    touch = _or(False)(RedisCacheClient.touch)
    incr = _or(None)(RedisCacheClient.incr)  # None: nothing counted (pyramid_site/sliding_window.py)
    delete = _or(False)(RedisCacheClient.delete)
    get_many = _or(lambda keys: {})(RedisCacheClient.get_many)
    has_key = _or(False)(RedisCacheClient.has_key)
    set_many = _or(None)(RedisCacheClient.set_many)
    delete_many = _or(None)(RedisCacheClient.delete_many)
    clear = _or(False)(RedisCacheClient.clear)


class ForgivingRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _ForgivingClient
