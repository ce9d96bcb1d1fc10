"""Whether the parts an answer needs are serving: the database (with pgvector), the cache, the Celery broker
and the embedding model. Each check is timed and bounded; a report is reused for a few seconds so a load
balancer polling every second costs one check, not one per poll."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import connection

HEALTH_TTL_SECONDS = 5.0
BROKER_TIMEOUT_SECONDS = 2.0
DETAIL_OK = "ok"
DETAIL_EAGER = "no broker configured: tasks run in the web process (CELERY_TASK_ALWAYS_EAGER)"

_lock = threading.Lock()
_last: tuple[float, HealthReport] | None = None


@dataclass(frozen=True)
class Check:
    ok: bool
    detail: str
    ms: float
    degraded: bool = False  # serving, with a stand-in (a process-local cache, tasks run inline)


@dataclass(frozen=True)
class HealthReport:
    checks: dict[str, Check]

    @property
    def failing(self) -> list[str]:
        return [name for name, check in self.checks.items() if not check.ok]

    @property
    def degraded(self) -> list[str]:
        return [name for name, check in self.checks.items() if check.ok and check.degraded]

    @property
    def status(self) -> str:
        return "unavailable" if self.failing else "degraded" if self.degraded else "ok"


class Degraded(Exception):
    """The part fails, and the service goes on without it."""


def _timed(probe: Callable[[], str]) -> Check:
    started = time.perf_counter()
    degraded = False
    try:
        detail, ok = probe(), True
    except Degraded as exc:
        detail, ok, degraded = str(exc)[:300], True, True
    except Exception as exc:  # a health check reports every failure instead of raising it
        detail, ok = f"{type(exc).__name__}: {exc}"[:300], False
    return Check(ok=ok, detail=detail, ms=round((time.perf_counter() - started) * 1000, 2), degraded=degraded)


def _database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        row = cursor.fetchone()
    if row is None:
        raise RuntimeError("the vector extension is not installed")
    return f"PostgreSQL with pgvector {row[0]}"


def _cache() -> str:
    key, value = f"health:{uuid.uuid4().hex}", "1"
    cache.set(key, value, timeout=10)
    if cache.get(key) != value:
        raise RuntimeError("a value written to the cache could not be read back")
    cache.delete(key)
    if getattr(cache, "degraded", False):
        raise Degraded(f"Redis unreachable ({cache.last_error}): each web process uses a local cache, throttles "
                       "count per process")
    return settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]


def _broker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return DETAIL_EAGER
    from veterans_ai.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=BROKER_TIMEOUT_SECONDS)
    except Exception as exc:  # any failure to connect: the tasks then run in the web process
        raise Degraded(f"broker unreachable ({type(exc).__name__}: {exc}): tasks run in the web process") from exc
    return DETAIL_OK


def _embedding_model() -> str:
    from knowledge.embeddings import embedding_provider_get

    # The local model answers every question (and is the fallback of a remote provider): embed a word with it.
    provider = embedding_provider_get(provider="local")
    provider.embed(["health"])
    configured = settings.EMBEDDING_PROVIDER
    return provider.model_name if configured == "local" else f"{configured}, with {provider.model_name} as fallback"


CHECKS: dict[str, Callable[[], str]] = {
    "database": _database,
    "cache": _cache,
    "broker": _broker,
    "embedding_model": _embedding_model,
}


def health_get(*, max_age: float = HEALTH_TTL_SECONDS) -> HealthReport:
    """Return the health of every part, reusing a report younger than ``max_age`` seconds."""
    global _last
    with _lock:
        if _last is not None and time.monotonic() - _last[0] < max_age:
            return _last[1]
    report = HealthReport(checks={name: _timed(probe) for name, probe in CHECKS.items()})
    with _lock:
        _last = (time.monotonic(), report)
    return report
