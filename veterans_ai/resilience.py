"""Outside calls that cost seconds, not the request: one time budget per answer, and circuit breakers.

``time_budget`` sets how long answering one question may take (ANSWER_TIME_BUDGET_SECONDS, below gunicorn's
worker timeout). An outside call (the embedding service, the LLM) asks ``call_limits`` for its timeout and
retries: what is left of the budget, less a reserve for the offline path, split over its attempts. A
hanging endpoint then costs a few seconds and ends in the fallback instead of a killed worker.

A circuit breaker per outside service (pybreaker; per process) stops calling a service that failed
BREAKER_FAIL_MAX times in a row for BREAKER_RESET_SECONDS; then one call is let through (half-open) and
BREAKER_SUCCESS_THRESHOLD successes close it again. While it is open the fallback answers at once.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache

import pybreaker
from django.conf import settings

_deadline: ContextVar[float | None] = ContextVar("answer_deadline", default=None)
# Below this, an attempt could not finish: the call is not made.
MIN_ATTEMPT_SECONDS = 0.3

EMBEDDING = "embedding"
LLM = "llm"


class BudgetSpent(Exception):
    """The answer's time budget has no room left for this call."""


@contextlib.contextmanager
def time_budget(seconds: float | None = None) -> Iterator[None]:
    """Answer within ``seconds`` (ANSWER_TIME_BUDGET_SECONDS by default); nested budgets keep the outer one."""
    if _deadline.get() is not None:
        yield
        return
    token = _deadline.set(time.monotonic() + (seconds if seconds is not None else settings.ANSWER_TIME_BUDGET_SECONDS))
    try:
        yield
    finally:
        _deadline.reset(token)


def budget_left() -> float | None:
    """Seconds left of the current answer's budget; None outside one (ingestion, batch jobs)."""
    deadline = _deadline.get()
    return None if deadline is None else deadline - time.monotonic()


@dataclass(frozen=True)
class CallLimits:
    timeout: float
    max_retries: int


def call_limits(*, timeout: float, max_retries: int, share: float = 1.0) -> CallLimits:
    """The timeout per attempt and the retries of an outside call, fitted into ``share`` of what is left of
    the budget after the reserve for the offline path (all of ``timeout`` and ``max_retries`` outside one)."""
    left = budget_left()
    if left is None:
        return CallLimits(timeout=timeout, max_retries=max_retries)
    room = (left - settings.ANSWER_FALLBACK_RESERVE_SECONDS) * share
    if room < MIN_ATTEMPT_SECONDS:
        raise BudgetSpent(f"{max(left, 0):.1f} s left of the answer's time budget")
    retries = max_retries
    while retries and room / (retries + 1) < min(timeout, 2.0):
        retries -= 1  # fewer, longer attempts rather than many that cannot finish
    return CallLimits(timeout=min(timeout, room / (retries + 1)), max_retries=retries)


def _rejected_request(exc: BaseException) -> bool:
    """A request the service refused (400, 401, 404, ...): the service itself is up."""
    status = getattr(exc, "status_code", None)
    return status is not None and status < 500 and status not in (408, 409, 429)


@cache
def breaker(name: str) -> pybreaker.CircuitBreaker:
    """The circuit breaker of one outside service (EMBEDDING, LLM), shared by the calls of this process."""
    return pybreaker.CircuitBreaker(
        fail_max=settings.BREAKER_FAIL_MAX, reset_timeout=settings.BREAKER_RESET_SECONDS,
        success_threshold=settings.BREAKER_SUCCESS_THRESHOLD, name=name, throw_new_error_on_trip=False,
        exclude=[_rejected_request],
    )


def outside_call(name: str, function, /, **kwargs):
    """Call ``function`` through the breaker of service ``name``; raises pybreaker.CircuitBreakerError at once
    while the breaker is open. Counted in vbai_outside_calls_total."""
    from veterans_ai.metrics import OUTSIDE_CALLS

    try:
        result = breaker(name).call(function, **kwargs)
    except pybreaker.CircuitBreakerError:
        OUTSIDE_CALLS.labels(name, "breaker_open").inc()
        raise
    except Exception:
        OUTSIDE_CALLS.labels(name, "failed").inc()
        raise
    OUTSIDE_CALLS.labels(name, "ok").inc()
    return result


def timeout_for(limits: CallLimits):
    """The openai client's timeout for one attempt: a short connect, the rest for the answer."""
    import openai

    return openai.Timeout(limits.timeout, connect=min(settings.OPENAI_CONNECT_TIMEOUT_SECONDS, limits.timeout))


def breaker_states() -> dict[str, str]:
    """Each outside service's breaker state in this process: closed, open or half-open."""
    return {name: breaker(name).current_state for name in (EMBEDDING, LLM)}
