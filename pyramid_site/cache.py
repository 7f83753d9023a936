"""Django's Redis cache, answering as an empty cache while Redis is down.

The cache only holds what can be lost (throttle counts, "solve already queued" marks), so a Redis
outage must not turn every request that touches it into a 500: reads miss, writes are dropped, and
``add`` says no (so nothing is queued on a broker that is down too). Operations come back by
themselves with Redis.
"""

from __future__ import annotations

import logging

import redis
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

log = logging.getLogger(__name__)


def _or(fallback):
    def wrap(method):
        def guarded(self, *args, **kwargs):
            try:
                return method(self, *args, **kwargs)
            except redis.RedisError as exc:
                log.warning("cache unavailable, %s skipped: %s", method.__name__, exc)
                return fallback(*args) if callable(fallback) else fallback

        return guarded

    return wrap


class _ForgivingClient(RedisCacheClient):
    add = _or(False)(RedisCacheClient.add)
    get = _or(lambda key, default: default)(RedisCacheClient.get)
    set = _or(None)(RedisCacheClient.set)
    touch = _or(False)(RedisCacheClient.touch)
    incr = _or(None)(RedisCacheClient.incr)  # None: nothing counted (pyramid_site/api/sliding_window.py)
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
