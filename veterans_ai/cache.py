"""The Redis cache, with a process-local one standing in while Redis cannot be reached.

Throttle counters, circuit-breaker state and cached references live in the cache. When Redis stops, every
request would fail on them; instead each web process goes on with its own local cache (throttles then count
per process) and tries Redis again after ``REDIS_RETRY_SECONDS``. ``degraded`` says whether it is standing in.
"""

from __future__ import annotations

import logging
import time

import redis
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

logger = logging.getLogger("veterans_ai.cache")

REDIS_RETRY_SECONDS = 5.0
_UNREACHABLE = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)


class _ClientKeptRedisCacheClient(RedisCacheClient):
    """Django's client builds a new redis.Redis for every command, and building one (its table of reply
    callbacks) cost as much as the command's round trip (measured: 0.15 ms of 0.4, twice per API call for the
    throttle). One per connection pool is kept instead: a redis.Redis takes a connection from its pool for each
    command, so sharing it is safe."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, redis.Redis] = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisWithLocalFallbackCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _ClientKeptRedisCacheClient
        self._local = LocMemCache(f"redis-fallback-{id(self)}", {"OPTIONS": {"MAX_ENTRIES": 10_000}})
        self._down_until = 0.0
        self.last_error = ""

    @property
    def degraded(self) -> bool:
        return time.monotonic() < self._down_until


def _with_fallback(name: str):
    redis_method = getattr(RedisCache, name)

    def method(self, *args, **kwargs):
        if not self.degraded:
            try:
                return redis_method(self, *args, **kwargs)
            except _UNREACHABLE as exc:
                self._down_until = time.monotonic() + REDIS_RETRY_SECONDS
                self.last_error = f"{type(exc).__name__}: {exc}"[:200]
                logger.warning("Redis unreachable, using the process-local cache: %s", self.last_error)
        return getattr(self._local, name)(*args, **kwargs)

    method.__name__ = name
    method.__doc__ = redis_method.__doc__
    return method


for _name in ("add", "get", "set", "touch", "delete", "get_many", "has_key", "incr", "set_many", "delete_many",
              "clear"):
    setattr(RedisWithLocalFallbackCache, _name, _with_fallback(_name))
