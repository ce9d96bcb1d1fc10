"""Sending work to the Celery workers without losing it when the broker is down."""

from __future__ import annotations

import logging

import kombu.exceptions
import redis

logger = logging.getLogger("veterans_ai.tasks")

_BROKER_DOWN = (kombu.exceptions.OperationalError, redis.exceptions.ConnectionError, ConnectionError, OSError)


def task_enqueue(task, *args):
    """Send ``task`` to the workers; when the broker cannot take it, run it here, now, so the work is done
    once either way (an answer's low-confidence report, a chunk's vectors)."""
    try:
        return task.delay(*args)
    except _BROKER_DOWN as exc:
        logger.warning("broker unreachable, running %s inline: %s: %s", task.name, type(exc).__name__, exc)
        return task.apply(args=args, throw=True)
