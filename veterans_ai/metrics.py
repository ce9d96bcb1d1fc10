"""Prometheus metrics (prometheus-client), served at /metrics to loopback and METRICS_ALLOWED_FROM.

Under gunicorn each worker is a process of its own: with PROMETHEUS_MULTIPROC_DIR set (make prod-local and
the compose file set it), every process writes its samples there and /metrics adds them up.
"""

from __future__ import annotations

import ipaddress
import os

from django.conf import settings
from django.http import HttpResponse, HttpResponseForbidden
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest, multiprocess

ANSWERS = Counter("vbai_answers_total", "Answers served, by outcome, refusal reason and cache level",
                  ["outcome", "refusal_reason", "cache"])
STAGE_SECONDS = Histogram("vbai_stage_seconds", "Time spent in each pipeline stage", ["stage"],
                          buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))
ANSWER_SECONDS = Histogram("vbai_answer_seconds", "Time to answer a question, by cache level", ["cache"],
                           buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20))
OUTSIDE_CALLS = Counter("vbai_outside_calls_total", "Calls to outside services (the LLM, remote embeddings), "
                        "by result: ok, failed, or skipped while the circuit breaker is open", ["service", "result"])
FALLBACKS = Counter("vbai_fallbacks_total", "Answers made by a fallback because an outside service failed",
                    ["service"])
LLM_TOKENS = Counter("vbai_llm_tokens_total", "Tokens the LLM reported", ["kind"])
BREAKER_OPEN = Gauge("vbai_circuit_breaker_open", "1 while the service's circuit breaker is open (0.5 half-open)",
                     ["service"], multiprocess_mode="max")
TASKS = Counter("vbai_celery_tasks_total", "Celery task outcomes", ["task", "outcome"])

BREAKER_VALUES = {"closed": 0.0, "half-open": 0.5, "open": 1.0}


def answer_observe(result) -> None:
    """Count one answer and its stages' timings."""
    outcome = "refused" if result.refused else "answered"
    ANSWERS.labels(outcome, result.refusal_reason or "", result.cache).inc()
    ANSWER_SECONDS.labels(result.cache).observe(result.latency_ms / 1000)
    for stage in result.trace:
        STAGE_SECONDS.labels(stage["stage"]).observe(stage["ms"] / 1000)


def breaker_observe(service: str, state: str) -> None:
    BREAKER_OPEN.labels(service).set(BREAKER_VALUES.get(state, 0.0))


def _allowed(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if ip.is_loopback:
        return True
    return any(ip in ipaddress.ip_network(network, strict=False) for network in settings.METRICS_ALLOWED_FROM)


def metrics_view(request):
    """The metrics in Prometheus's text format; 403 to any address but loopback and METRICS_ALLOWED_FROM."""
    if not _allowed(request.META.get("REMOTE_ADDR", "")):
        return HttpResponseForbidden("Metrics are open to loopback and METRICS_ALLOWED_FROM only.\n",
                                     content_type="text/plain")
    from veterans_ai.resilience import breaker_states

    for service, state in breaker_states().items():
        breaker_observe(service, state)
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        body = generate_latest(registry)
    else:
        body = generate_latest()
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)
